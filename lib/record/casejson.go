package record

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// unmarshalCase decodes a case record's JSON into c, as json.Unmarshal
// does, but several times faster: encoding/json passes over every byte
// twice (to check, then to decode) and goes through reflection for each of
// the hundred-odd input values, which made decoding cost as much as
// parsing the CLIF. caseDecoder reads the lines cliff writes; a line it is
// not sure to read as encoding/json would (an unknown, repeated or
// differently cased key, null, a \u escape, invalid UTF-8, a number
// encoding/json would reject, invalid JSON) goes to json.Unmarshal whole,
// so values and errors are encoding/json's.
func unmarshalCase(line []byte, c *Case) error {
	if fast, ok := decodeCaseFast(line); ok {
		*c = fast
		return nil
	}
	return json.Unmarshal(line, c)
}

// decodeCaseFast is the fast path of unmarshalCase; ok is false when the
// line needs the slow one.
func decodeCaseFast(line []byte) (c Case, ok bool) {
	d := caseDecoder{jsonScanner: jsonScanner{b: line}}
	d.caseRecord(&c)
	if d.space(); d.i != len(d.b) || d.fail {
		return Case{}, false
	}
	return c, true
}

// A jsonScanner reads JSON values from b, giving up (fail) at anything
// that might not decode exactly as encoding/json decodes it; once failed,
// every method returns zero values.
type jsonScanner struct {
	b    []byte
	i    int
	fail bool
}

func (s *jsonScanner) giveUp() { s.fail, s.i = true, len(s.b) }

func (s *jsonScanner) space() { s.i = skipSpace(s.b, s.i) }

// consume moves past c (after spaces) when it comes next.
func (s *jsonScanner) consume(c byte) bool {
	if s.space(); s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// object calls member with each key of the object that comes next; member
// reads the value. Keys must be plain ASCII without escapes: JSON's key
// matching rules (case folding, escapes) are left to encoding/json.
func (s *jsonScanner) object(member func(key []byte)) {
	if !s.consume('{') {
		s.giveUp()
		return
	}
	if s.consume('}') {
		return
	}
	for !s.fail {
		key := s.key()
		if !s.consume(':') {
			s.giveUp()
			return
		}
		member(key)
		if s.consume(',') {
			continue
		}
		if !s.consume('}') {
			s.giveUp()
		}
		return
	}
}

// array calls elem for each element of the array that comes next.
func (s *jsonScanner) array(elem func()) {
	if !s.consume('[') {
		s.giveUp()
		return
	}
	if s.consume(']') {
		return
	}
	for !s.fail {
		elem()
		if s.consume(',') {
			continue
		}
		if !s.consume(']') {
			s.giveUp()
		}
		return
	}
}

func (s *jsonScanner) key() []byte {
	if s.space(); s.i >= len(s.b) || s.b[s.i] != '"' {
		s.giveUp()
		return nil
	}
	start := s.i + 1
	for j := start; j < len(s.b); j++ {
		switch c := s.b[j]; {
		case c == '"':
			s.i = j + 1
			return s.b[start:j]
		case c < ' ' || c == '\\' || c >= utf8.RuneSelf:
			s.giveUp()
			return nil
		}
	}
	s.giveUp()
	return nil
}

func (s *jsonScanner) string() string {
	s.space()
	v, end, ok := unquote(s.b, s.i)
	if !ok {
		s.giveUp()
		return ""
	}
	s.i = end
	return v
}

func (s *jsonScanner) bool() bool {
	s.space()
	switch {
	case bytes.HasPrefix(s.b[s.i:], []byte("true")):
		s.i += 4
		return true
	case bytes.HasPrefix(s.b[s.i:], []byte("false")):
		s.i += 5
		return false
	}
	s.giveUp()
	return false
}

// number returns the JSON number that comes next, checked against JSON's
// grammar (which strconv's is not).
func (s *jsonScanner) number() string {
	s.space()
	b, start := s.b, s.i
	i := start
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = skipDigits(b, i)
	default:
		s.giveUp()
		return ""
	}
	if i < len(b) && b[i] == '.' {
		if i++; i >= len(b) || !isDigitByte(b[i]) {
			s.giveUp()
			return ""
		}
		i = skipDigits(b, i)
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		if i++; i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigitByte(b[i]) {
			s.giveUp()
			return ""
		}
		i = skipDigits(b, i)
	}
	s.i = i
	return string(b[start:i])
}

func (s *jsonScanner) int() int {
	n, err := strconv.ParseInt(s.number(), 10, 0)
	if err != nil {
		s.giveUp()
	}
	return int(n)
}

func (s *jsonScanner) uint64() uint64 {
	n, err := strconv.ParseUint(s.number(), 10, 64)
	if err != nil {
		s.giveUp()
	}
	return n
}

func (s *jsonScanner) float64() float64 {
	f, err := strconv.ParseFloat(s.number(), 64)
	if err != nil {
		s.giveUp()
	}
	return f
}

// quotedUint64 reads a uint64 written as a decimal string (`json:",string"`).
func (s *jsonScanner) quotedUint64() uint64 {
	text := s.string()
	if text == "" || text[0] == '0' && len(text) > 1 || strings.IndexFunc(text, func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
		s.giveUp()
		return 0
	}
	n, err := strconv.ParseUint(text, 10, 64)
	if err != nil {
		s.giveUp()
	}
	return n
}

func (s *jsonScanner) strings() []string {
	out := []string{} // [] decodes to an empty slice, not nil
	s.array(func() { out = append(out, s.string()) })
	return out
}

// once marks key as seen in *seen (one bit per key of the object being
// read, by its index in keys) and gives up on a key met twice or not in
// keys: encoding/json merges repeated objects and ignores unknown keys.
func (s *jsonScanner) once(seen *uint32, keys []string, key []byte) int {
	for k, name := range keys {
		if string(key) == name {
			if *seen&(1<<k) != 0 {
				break
			}
			*seen |= 1 << k
			return k
		}
	}
	s.giveUp()
	return -1
}

// A caseDecoder reads a case record with a jsonScanner.
type caseDecoder struct{ jsonScanner }

var caseKeys = []string{"kind", "v", "id", "seed", "options", "features", "clif", "entry", "settings", "refined", "inputs", "metrics", "results"}

func (d *caseDecoder) caseRecord(c *Case) {
	var seen uint32
	d.object(func(key []byte) {
		switch d.once(&seen, caseKeys, key) {
		case 0:
			c.Kind = d.string()
		case 1:
			c.Version = d.int()
		case 2:
			c.ID = d.string()
		case 3:
			c.Seed = d.quotedUint64()
		case 4:
			d.options(&c.Options)
		case 5:
			c.Features = map[string]bool{}
			d.object(func(name []byte) { c.Features[string(name)] = d.bool() })
		case 6:
			c.CLIF = d.string()
		case 7:
			c.Entry = d.string()
		case 8:
			c.Settings = d.strings()
		case 9:
			c.Refined = d.strings()
		case 10:
			c.Inputs = []InputVector{}
			d.array(func() { c.Inputs = append(c.Inputs, d.inputVector()) })
		case 11:
			d.metrics(&c.Metrics)
		case 12:
			// Results are rare on the way into cliff-refine, and varied:
			// encoding/json decodes them.
			d.space()
			end, ok := skipValue(d.b, d.i)
			if !ok || json.Unmarshal(d.b[d.i:end], &c.Results) != nil || c.Results == nil {
				d.giveUp()
				return
			}
			d.i = end
		}
	})
}

var optionKeys = []string{"mode", "index", "profile", "depth", "funcs", "mutation", "inputs", "corpus", "corpus_hash", "mask", "portable", "crash_only"}

func (d *caseDecoder) options(o *GenOptions) {
	var seen uint32
	d.object(func(key []byte) {
		switch d.once(&seen, optionKeys, key) {
		case 0:
			o.Mode = d.string()
		case 1:
			o.Index = d.uint64()
		case 2:
			o.Profile = d.string()
		case 3:
			o.Depth = d.int()
		case 4:
			o.Funcs = d.int()
		case 5:
			o.Mutation = d.float64()
		case 6:
			o.Inputs = d.int()
		case 7:
			o.Corpus = d.string()
		case 8:
			o.CorpusHash = d.string()
		case 9:
			o.Mask = d.string()
		case 10:
			o.Portable = d.bool()
		case 11:
			o.CrashOnly = d.bool()
		}
	})
}

var valueKeys = []string{"type", "value"}

func (d *caseDecoder) inputVector() InputVector {
	vec := InputVector{}
	d.array(func() {
		var v Value
		var seen uint32
		d.object(func(key []byte) {
			switch d.once(&seen, valueKeys, key) {
			case 0:
				v.Type = d.string()
			case 1:
				v.Value = d.string()
			}
		})
		vec = append(vec, v)
	})
	return vec
}

var metricKeys = []string{"functions", "blocks", "insts", "cyclomatic", "dom_depth", "def_use_depth", "opcodes", "survival"}

func (d *caseDecoder) metrics(m *Metrics) {
	var seen uint32
	d.object(func(key []byte) {
		switch d.once(&seen, metricKeys, key) {
		case 0:
			m.Functions = d.int()
		case 1:
			m.Blocks = d.int()
		case 2:
			m.Insts = d.int()
		case 3:
			m.Cyclomatic = d.int()
		case 4:
			m.DomDepth = d.int()
		case 5:
			m.DefUseDepth = d.int()
		case 6:
			m.Opcodes = map[string]int{}
			d.object(func(name []byte) { m.Opcodes[string(name)] = d.int() })
		case 7:
			v := d.float64()
			m.Survival = &v
		}
	})
}

func isDigitByte(c byte) bool { return '0' <= c && c <= '9' }

func skipDigits(b []byte, i int) int {
	for i < len(b) && isDigitByte(b[i]) {
		i++
	}
	return i
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the JSON string starting at b[i].
func skipString(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, false
	}
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1, true
		}
	}
	return 0, false
}

// skipValue returns the index after the JSON value starting at b[i]. It
// finds the value's end in valid JSON; json.Unmarshal checks the rest.
func skipValue(b []byte, i int) (int, bool) {
	depth := 0
	for i < len(b) {
		switch b[i] {
		case '"':
			end, ok := skipString(b, i)
			if !ok {
				return 0, false
			}
			i = end
		case '{', '[':
			depth++
			i++
		case '}', ']':
			if depth == 0 {
				return i, true
			}
			depth--
			i++
		case ',':
			if depth == 0 {
				return i, true
			}
			i++
		default:
			i++
		}
		if depth == 0 && i < len(b) && (b[i] == ',' || b[i] == '}' || b[i] == ']' || b[i] <= ' ') {
			return i, true
		}
	}
	return i, depth == 0
}

// shortEscapes maps the character after a backslash to what it stands for
// (\uXXXX is left to encoding/json).
var shortEscapes = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// unquote decodes the JSON string starting at b[i], returning it and the
// index after it.
func unquote(b []byte, i int) (string, int, bool) {
	if i >= len(b) || b[i] != '"' {
		return "", 0, false
	}
	i++
	if j := plainRun(b, i); j < len(b) && b[j] == '"' {
		return string(b[i:j]), j + 1, true // plain ASCII, the usual case
	}
	// The size is at most the rest of the quoted text up to the first '"'
	// not escaped; a strings.Builder hands its buffer over as the string.
	var out strings.Builder
	out.Grow(bytes.IndexByte(b[i:], '"') + 1)
	ascii := true
	for i < len(b) {
		j := i
		for j = plainRun(b, j); j < len(b) && b[j] >= utf8.RuneSelf; j = plainRun(b, j+1) {
			ascii = false
		}
		out.Write(b[i:j])
		if i = j; i >= len(b) {
			break
		}
		switch b[i] {
		case '"':
			if !ascii && !utf8.ValidString(out.String()) {
				return "", 0, false // encoding/json substitutes U+FFFD
			}
			return out.String(), i + 1, true
		case '\\':
			if i+1 >= len(b) || shortEscapes[b[i+1]] == 0 {
				return "", 0, false
			}
			out.WriteByte(shortEscapes[b[i+1]])
			i += 2
		default: // a control character
			return "", 0, false
		}
	}
	return "", 0, false
}
