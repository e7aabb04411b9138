package record

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// AppendJSON appends c as one line of JSON without the newline, byte for
// byte as a json.Encoder with SetEscapeHTML(false) writes it (jsonl.Writer
// uses it): member order, omitted members, sorted map keys, float and
// string spelling are encoding/json's. Reflection made encoding a case
// cost a tenth of what cliff-refine does to it. A value encoding/json
// rejects (a NaN mutation or survival) gets encoding/json's error, from
// encoding/json itself.
func (c *Case) AppendJSON(dst []byte) ([]byte, error) {
	if !finite(c.Options.Mutation) || c.Metrics.Survival != nil && !finite(*c.Metrics.Survival) {
		return appendWithEncodingJSON(dst, c)
	}
	b := append(dst, `{"kind":`...)
	b = appendJSONString(b, c.Kind)
	b = append(b, `,"v":`...)
	b = strconv.AppendInt(b, int64(c.Version), 10)
	b = append(b, `,"id":`...)
	b = appendJSONString(b, c.ID)
	b = append(b, `,"seed":"`...)
	b = strconv.AppendUint(b, c.Seed, 10)
	b = append(b, '"')
	if c.Options != (GenOptions{}) {
		b = append(b, `,"options":`...)
		b = c.Options.appendJSON(b)
	}
	if len(c.Features) > 0 {
		b = append(b, `,"features":`...)
		b = appendSortedMap(b, c.Features, &featureOrder, func(b []byte, v bool) []byte { return strconv.AppendBool(b, v) })
	}
	if len(c.Parents) > 0 {
		b = append(b, `,"parents":[`...)
		for i := range c.Parents {
			if i > 0 {
				b = append(b, ',')
			}
			b = c.Parents[i].appendJSON(b)
		}
		b = append(b, ']')
	}
	b = append(b, `,"clif":`...)
	b = appendJSONString(b, c.CLIF)
	if c.Entry != "" {
		b = append(b, `,"entry":`...)
		b = appendJSONString(b, c.Entry)
	}
	if len(c.Settings) > 0 {
		b = append(b, `,"settings":`...)
		b = appendStrings(b, c.Settings)
	}
	if len(c.Refined) > 0 {
		b = append(b, `,"refined":`...)
		b = appendStrings(b, c.Refined)
	}
	if len(c.Inputs) > 0 {
		b = append(b, `,"inputs":[`...)
		for i, vec := range c.Inputs {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendInputVector(b, vec)
		}
		b = append(b, ']')
	}
	if !c.Metrics.isZero() {
		b = append(b, `,"metrics":`...)
		b = c.Metrics.appendJSON(b)
	}
	if len(c.Results) > 0 {
		// Results are cliff-run's, varied and fewer: encoding/json writes them.
		b = append(b, `,"results":`...)
		var err error
		if b, err = appendWithEncodingJSON(b, c.Results); err != nil {
			return dst, err
		}
	}
	return append(b, '}'), nil
}

func (o *GenOptions) appendJSON(b []byte) []byte {
	b = append(b, '{')
	if o.Mode != "" {
		b = append(b, `"mode":`...)
		b = appendJSONString(b, o.Mode)
		b = append(b, ',')
	}
	b = append(b, `"index":`...)
	b = strconv.AppendUint(b, o.Index, 10)
	b = append(b, `,"profile":`...)
	b = appendJSONString(b, o.Profile)
	if o.Cranelift != "" {
		b = append(b, `,"cranelift":`...)
		b = appendJSONString(b, o.Cranelift)
	}
	b = append(b, `,"depth":`...)
	b = strconv.AppendInt(b, int64(o.Depth), 10)
	b = append(b, `,"funcs":`...)
	b = strconv.AppendInt(b, int64(o.Funcs), 10)
	b = append(b, `,"mutation":`...)
	b = appendJSONFloat(b, o.Mutation)
	b = append(b, `,"inputs":`...)
	b = strconv.AppendInt(b, int64(o.Inputs), 10)
	for _, m := range [...]struct{ key, value string }{
		{`,"corpus":`, o.Corpus}, {`,"corpus_hash":`, o.CorpusHash}, {`,"mask":`, o.Mask},
		{`,"weights":`, o.Weights}, {`,"weights_hash":`, o.WeightsHash},
		{`,"crossover":`, o.Crossover}, {`,"crossover_hash":`, o.CrossoverHash},
	} {
		if m.value != "" {
			b = append(b, m.key...)
			b = appendJSONString(b, m.value)
		}
	}
	if o.Portable {
		b = append(b, `,"portable":true`...)
	}
	if o.CrashOnly {
		b = append(b, `,"crash_only":true`...)
	}
	return append(b, '}')
}

func (src *Source) appendJSON(b []byte) []byte {
	b = append(b, `{"file":`...)
	b = appendJSONString(b, src.File)
	if src.Function != "" {
		b = append(b, `,"function":`...)
		b = appendJSONString(b, src.Function)
	}
	if src.Block != "" {
		b = append(b, `,"block":`...)
		b = appendJSONString(b, src.Block)
	}
	if src.Line != 0 {
		b = append(b, `,"line":`...)
		b = strconv.AppendInt(b, int64(src.Line), 10)
	}
	return append(b, '}')
}

// isZero is what `omitzero` tests: every field the zero value (a non-nil
// empty map is not).
func (m *Metrics) isZero() bool {
	return m.Functions == 0 && m.Blocks == 0 && m.Insts == 0 && m.Cyclomatic == 0 && m.DomDepth == 0 &&
		m.DefUseDepth == 0 && m.Opcodes == nil && m.Survival == nil
}

func (m *Metrics) appendJSON(b []byte) []byte {
	for _, f := range [...]struct {
		key   string
		value int
	}{
		{`{"functions":`, m.Functions}, {`,"blocks":`, m.Blocks}, {`,"insts":`, m.Insts},
		{`,"cyclomatic":`, m.Cyclomatic}, {`,"dom_depth":`, m.DomDepth}, {`,"def_use_depth":`, m.DefUseDepth},
	} {
		b = append(b, f.key...)
		b = strconv.AppendInt(b, int64(f.value), 10)
	}
	if len(m.Opcodes) > 0 {
		b = append(b, `,"opcodes":`...)
		b = appendRankedMap(b, m.Opcodes, opcodeRanks, func(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) })
	}
	if m.Survival != nil {
		b = append(b, `,"survival":`...)
		b = appendJSONFloat(b, *m.Survival)
	}
	return append(b, '}')
}

// appendInputVector writes a nil vector as null, as encoding/json does.
func appendInputVector(b []byte, vec InputVector) []byte {
	if vec == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for j, v := range vec {
		if j > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"type":`...)
		b = appendJSONString(b, v.Type)
		b = append(b, `,"value":`...)
		b = appendJSONString(b, v.Value)
		b = append(b, '}')
	}
	return append(b, ']')
}

func appendStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, s)
	}
	return append(b, ']')
}

func finite(f float64) bool { return !math.IsInf(f, 0) && !math.IsNaN(f) }

// appendJSONFloat spells a finite float64 as encoding/json does: like
// ECMAScript, in exponent form only below 1e-6 or from 1e21, with the
// exponent's leading zero dropped.
func appendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	return b
}

const hexDigits = "0123456789abcdef"

// appendJSONString quotes s as encoding/json does without HTML escaping:
// the short escapes, \u00XX for other control characters, \ufffd for each
// byte of invalid UTF-8, and U+2028 and U+2029 escaped (JSONP).
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	// The CLIF text, most of a record, has a line break to escape every
	// few dozen bytes: it is copied a word at a time, each word stored
	// whole past the end of b and as much of it kept as comes before its
	// first byte to escape. b keeps room for the rest of s and a word.
	b = slices.Grow(b, len(s)+8)
	i := 0
	for i+8 <= len(s) {
		x := word(s, i)
		n := len(b)
		binary.LittleEndian.PutUint64(b[n:n+8], x)
		if special := notPlain(x); special != 0 {
			k := firstByte(special)
			if i += k; s[i] == '\n' { // most of them, written here without a call
				b = append(b[:n+k], '\\', 'n')
				i++
			} else {
				b, i = appendEscaped(b[:n+k], s, i)
			}
			b = slices.Grow(b, len(s)-i+8) // an escape is longer than its byte
			continue
		}
		b = b[:n+8]
		i += 8
	}
	for i < len(s) {
		if plainInJSON[s[i]] {
			b = append(b, s[i])
			i++
			continue
		}
		b, i = appendEscaped(b, s, i)
	}
	return append(b, '"')
}

// appendEscaped writes the character at s[i], a byte that is not
// plainInJSON, and returns the index after it.
func appendEscaped(b []byte, s string, i int) ([]byte, int) {
	if c := s[i]; c < utf8.RuneSelf {
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		return b, i + 1
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	switch {
	case r == utf8.RuneError && size == 1:
		b = append(b, `\ufffd`...)
	case r == '\u2028' || r == '\u2029':
		b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
	default:
		b = append(b, s[i:i+size]...)
	}
	return b, i + size
}

// appendWithEncodingJSON appends v as encoding/json writes it without HTML
// escaping, or returns its error.
func appendWithEncodingJSON(dst []byte, v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return dst, err
	}
	return append(dst, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...), nil
}
