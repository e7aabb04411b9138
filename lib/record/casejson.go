package record

import (
	"bytes"
	"encoding/binary"
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
	d.text.Grow(len(line)) // a string's text is shorter than its JSON
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
	// text holds the text of every string read, back to back: a case
	// record has hundreds (input types and values, feature and opcode
	// names, the CLIF), and one allocation for them all instead of one
	// each saves most of the decoding. (Input values and map keys as
	// cliff writes them are copied with the JSON between them, in one
	// piece.) The strings share that one allocation, so any of them keeps
	// all of the record's text alive; it is no longer than the line, and
	// a case is used and dropped as a whole.
	text strings.Builder
}

func (s *jsonScanner) giveUp() { s.fail, s.i = true, len(s.b) }

func (s *jsonScanner) space() {
	if s.i < len(s.b) && s.b[s.i] > ' ' {
		return // cliff writes no spaces: do without a call
	}
	s.i = skipSpace(s.b, s.i)
}

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
	if end := plainRun(s.b, start); end < len(s.b) && s.b[end] == '"' {
		s.i = end + 1
		return s.b[start:end]
	}
	s.giveUp()
	return nil
}

// literal moves past text when it comes next. It skips no spaces, and
// inlined with a constant text it compares without a call: it reads
// cliff's own spelling, and a caller takes other spellings another way.
func (s *jsonScanner) literal(text string) bool {
	if hasLiteral(s.b, s.i, text) {
		s.i += len(text)
		return true
	}
	return false
}

func (s *jsonScanner) string() string {
	s.space()
	start := s.text.Len()
	end, ok := unquote(&s.text, s.b, s.i)
	if !ok {
		s.giveUp()
		return ""
	}
	s.i = end
	return s.text.String()[start:]
}

// keep returns b as a string in text.
func (s *jsonScanner) keep(b []byte) string {
	start := s.text.Len()
	s.text.Write(b)
	return s.text.String()[start:]
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
func (s *jsonScanner) number() []byte {
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
		return nil
	}
	if i < len(b) && b[i] == '.' {
		if i++; i >= len(b) || !isDigitByte(b[i]) {
			s.giveUp()
			return nil
		}
		i = skipDigits(b, i)
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		if i++; i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigitByte(b[i]) {
			s.giveUp()
			return nil
		}
		i = skipDigits(b, i)
	}
	s.i = i
	return b[start:i]
}

func (s *jsonScanner) int() int {
	text := s.number()
	if n, ok := smallUint(bytes.TrimPrefix(text, []byte("-"))); ok {
		if text[0] == '-' {
			return -int(n)
		}
		return int(n)
	}
	n, err := strconv.ParseInt(string(text), 10, 0)
	if err != nil {
		s.giveUp()
	}
	return int(n)
}

func (s *jsonScanner) uint64() uint64 {
	text := s.number()
	if n, ok := smallUint(text); ok {
		return n
	}
	n, err := strconv.ParseUint(string(text), 10, 64)
	if err != nil {
		s.giveUp()
	}
	return n
}

// smallUint reads the digits of a number of up to 18 of them, which no
// integer type of a case overflows with; ok is false for anything else
// (a fraction, an exponent, a sign, more digits), which strconv reads. The
// numbers of a case record (opcode counts, metrics, options) are small:
// strconv would take a string, a copy of the bytes, for each.
func smallUint(text []byte) (n uint64, ok bool) {
	if len(text) == 0 || len(text) > 18 {
		return 0, false
	}
	for _, c := range text {
		if !isDigitByte(c) {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	return n, true
}

func (s *jsonScanner) float64() float64 {
	f, err := strconv.ParseFloat(string(s.number()), 64)
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

// objectMap reads an object into a map made at its final size: filling
// a map from empty rehashes it at every doubling, which cost more than
// reading the object. valueAsWritten reads a value as cliff writes it
// (see objectMapAsWritten); value reads any.
func objectMap[V any](s *jsonScanner, value func() V, valueAsWritten func(b []byte, i int) (V, int, bool)) map[string]V {
	if m, ok := objectMapAsWritten(s, valueAsWritten); ok {
		return m
	}
	type entry struct {
		key   string
		value V
	}
	var buf [64]entry
	entries := buf[:0]
	s.object(func(key []byte) { entries = append(entries, entry{s.keep(key), value()}) })
	m := make(map[string]V, len(entries))
	for _, e := range entries {
		m[e.key] = e.value // a repeated key's last value, as encoding/json
	}
	return m
}

// objectMapAsWritten reads an object into a map if it is exactly as cliff
// writes it: no spaces, plain keys, and values that valueAsWritten reads
// (it returns the value at b[i] and the index after it). The features and
// the opcode counts of a case are dozens of members each: here the keys
// are found first and copied to the text in one piece (the JSON between
// them included), which costs less than reading them one by one. ok is
// false, and nothing read, for anything else.
func objectMapAsWritten[V any](s *jsonScanner, valueAsWritten func(b []byte, i int) (V, int, bool)) (_ map[string]V, ok bool) {
	type member struct {
		k0, k1 int // the key is b[k0:k1]
		value  V
	}
	var buf [64]member
	members := buf[:0]
	b, i := s.b, s.i
	if !hasLiteral(b, i, "{") {
		return nil, false
	}
	for i++; !hasLiteral(b, i, "}"); {
		if len(members) > 0 {
			if !hasLiteral(b, i, ",") {
				return nil, false
			}
			i++
		}
		if !hasLiteral(b, i, `"`) {
			return nil, false
		}
		mb := member{k0: i + 1}
		mb.k1 = plainRun(b, mb.k0)
		if !hasLiteral(b, mb.k1, `":`) {
			return nil, false
		}
		if mb.value, i, ok = valueAsWritten(b, mb.k1+len(`":`)); !ok {
			return nil, false
		}
		members = append(members, mb)
	}
	s.i = i + 1
	m := make(map[string]V, len(members))
	if len(members) > 0 {
		from := members[0].k0
		start := s.text.Len()
		s.text.Write(b[from:members[len(members)-1].k1])
		text := s.text.String()[start:]
		for _, mb := range members {
			m[text[mb.k0-from:mb.k1-from]] = mb.value // a repeated key's last value, as encoding/json
		}
	}
	return m, true
}

// boolAsWritten reads true or false at b[i] for objectMapAsWritten.
func boolAsWritten(b []byte, i int) (bool, int, bool) {
	switch {
	case hasLiteral(b, i, "true"):
		return true, i + len("true"), true
	case hasLiteral(b, i, "false"):
		return false, i + len("false"), true
	}
	return false, 0, false
}

// intAsWritten reads an integer of up to 18 digits at b[i], in JSON's
// spelling, for objectMapAsWritten.
func intAsWritten(b []byte, i int) (int, int, bool) {
	start := i
	if hasLiteral(b, i, "-") {
		i++
	}
	digits := i
	i = skipDigits(b, i)
	n, ok := smallUint(b[digits:i])
	if !ok || b[digits] == '0' && i-digits > 1 {
		return 0, 0, false
	}
	if b[start] == '-' {
		return -int(n), i, true
	}
	return int(n), i, true
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

var caseKeys = []string{"kind", "v", "id", "seed", "options", "features", "clif", "entry", "settings", "refined", "inputs", "metrics", "results", "parents"}

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
			c.Features = objectMap(&d.jsonScanner, d.bool, boolAsWritten)
		case 6:
			c.CLIF = d.string()
		case 7:
			c.Entry = d.string()
		case 8:
			c.Settings = d.strings()
		case 9:
			c.Refined = d.strings()
		case 10:
			c.Inputs = d.inputs()
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
		case 13:
			c.Parents = d.parents()
		}
	})
}

var optionKeys = []string{"mode", "index", "profile", "depth", "funcs", "mutation", "inputs", "corpus", "corpus_hash", "mask", "portable", "crash_only", "weights", "weights_hash", "crossover", "crossover_hash"}

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
		case 12:
			o.Weights = d.string()
		case 13:
			o.WeightsHash = d.string()
		case 14:
			o.Crossover = d.string()
		case 15:
			o.CrossoverHash = d.string()
		}
	})
}

var sourceKeys = []string{"file", "function", "block", "line"}

// parents reads a crossover case's parents (most cases of a crossover run
// have some).
func (d *caseDecoder) parents() []Source {
	parents := []Source{}
	d.array(func() {
		var src Source
		var seen uint32
		d.object(func(key []byte) {
			switch d.once(&seen, sourceKeys, key) {
			case 0:
				src.File = d.string()
			case 1:
				src.Function = d.string()
			case 2:
				src.Block = d.string()
			case 3:
				src.Line = d.int()
			}
		})
		parents = append(parents, src)
	})
	return parents
}

var valueKeys = []string{"type", "value"}

// inputs reads the input vectors. A case's vectors have as many values
// each (Validate checks), so the first one's length sizes the others.
func (d *caseDecoder) inputs() []InputVector {
	if inputs, ok := d.inputsAsWritten(); ok {
		return inputs
	}
	inputs := []InputVector{}
	d.array(func() {
		size := 0
		if len(inputs) > 0 {
			size = len(inputs[0])
		}
		inputs = append(inputs, d.inputVector(size))
	})
	return inputs
}

// A valueSpan is where the type and the value of an input value are in
// the line: b[t0:t1] and b[v0:v1].
type valueSpan struct{ t0, t1, v0, v1 int }

// inputsAsWritten reads the input vectors if they are exactly as cliff
// writes them: no spaces, each value {"type":T,"value":V} with T and V
// plain (no escapes, ASCII). A case has a hundred-odd values, and reading
// them by the general methods cost a quarter of decoding a case: here the
// values are found first, then copied to text in one piece (the JSON
// between the strings included) and made pieces of it, and all the
// vectors share one array of values. ok is false, and nothing read, for
// anything else (the general methods read it).
func (d *caseDecoder) inputsAsWritten() (inputs []InputVector, ok bool) {
	b, i := d.b, d.i
	var spanBuf [160]valueSpan
	spans := spanBuf[:0]
	var lenBuf [16]int
	lens := lenBuf[:0] // values in each vector
	if !hasLiteral(b, i, "[") {
		return nil, false
	}
	i++
	for !hasLiteral(b, i, "]") {
		if len(lens) > 0 {
			if !hasLiteral(b, i, ",") {
				return nil, false
			}
			i++
		}
		if !hasLiteral(b, i, "[") {
			return nil, false
		}
		i++
		n := 0
		for !hasLiteral(b, i, "]") {
			if n > 0 {
				if !hasLiteral(b, i, ",") {
					return nil, false
				}
				i++
			}
			if !hasLiteral(b, i, `{"type":"`) {
				return nil, false
			}
			var sp valueSpan
			sp.t0 = i + len(`{"type":"`)
			sp.t1 = plainRun(b, sp.t0)
			if !hasLiteral(b, sp.t1, `","value":"`) {
				return nil, false
			}
			sp.v0 = sp.t1 + len(`","value":"`)
			sp.v1 = plainRun(b, sp.v0)
			if !hasLiteral(b, sp.v1, `"}`) {
				return nil, false
			}
			i = sp.v1 + len(`"}`)
			spans = append(spans, sp)
			n++
		}
		i++
		lens = append(lens, n)
	}
	d.i = i + 1
	values := make([]Value, len(spans))
	if len(spans) > 0 {
		from := spans[0].t0
		start := d.text.Len()
		d.text.Write(b[from:spans[len(spans)-1].v1])
		text := d.text.String()[start:]
		for k, sp := range spans {
			values[k] = Value{Type: text[sp.t0-from : sp.t1-from], Value: text[sp.v0-from : sp.v1-from]}
		}
	}
	inputs = make([]InputVector, len(lens))
	for j, n := range lens {
		inputs[j] = InputVector(values[:n:n]) // []: an empty vector, not nil
		values = values[n:]
	}
	return inputs, true
}

// hasLiteral says whether text comes at b[i:]; inlined with a constant
// text it compares without a call.
func hasLiteral(b []byte, i int, text string) bool {
	return i <= len(b) && len(b)-i >= len(text) && string(b[i:i+len(text)]) == text
}

func (d *caseDecoder) inputVector(size int) InputVector {
	vec := make(InputVector, 0, size)
	d.array(func() { vec = append(vec, d.value()) })
	return vec
}

// value reads an input value. cliff writes each as {"type":T,"value":V}:
// read as that (a case has a hundred values), or else as any object.
func (d *caseDecoder) value() Value {
	d.space()
	start := d.i
	if d.literal(`{"type":`) {
		typ := d.string()
		if d.literal(`,"value":`) {
			value := d.string()
			if d.literal(`}`) {
				return Value{Type: typ, Value: value}
			}
		}
	}
	d.i = start
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
	return v
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
			m.Opcodes = objectMap(&d.jsonScanner, d.int, intAsWritten)
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

// unquote appends the text of the JSON string starting at b[i] to out
// and returns the index after it.
func unquote(out *strings.Builder, b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, false
	}
	i++
	if j := plainRun(b, i); j < len(b) && b[j] == '"' {
		out.Write(b[i:j]) // no escapes: all strings but the CLIF
		return j + 1, true
	}
	// The CLIF has a line break every few dozen bytes: the text is copied
	// a word at a time into buf, each word stored whole past the text and
	// as much of it kept as comes before its first byte that is not
	// plain, and buf goes to out when full. Writing each stretch between
	// escapes to out would cost more than copying its bytes.
	var buf [1024]byte
	n := 0 // bytes of text in buf
	for {
		if n > len(buf)-16 {
			out.Write(buf[:n])
			n = 0
		}
		// Plain words, while b has a word left and buf room for it and
		// for a rune after it. A run of plain bytes moves i and n alike,
		// so one bound on i checks both: the words cost no more checks.
		stop := min(len(b)-8, i+len(buf)-16-n)
		for i <= stop {
			x := word(b, i)
			binary.LittleEndian.PutUint64(buf[n:], x)
			if special := notPlain(x); special != 0 {
				k := firstByte(special)
				n += k
				i += k
				break
			}
			n += 8
			i += 8
		}
		if i >= len(b) {
			return 0, false
		}
		// buf has room for a rune (four bytes) here.
		switch c := b[i]; {
		case plainInJSON[c]:
			if i+8 <= len(b) {
				continue // buf is full
			}
			buf[n] = c // the last bytes of the line
			n++
			i++
		case c == '"':
			out.Write(buf[:n])
			return i + 1, true
		case c == '\\':
			if i+1 >= len(b) || shortEscapes[b[i+1]] == 0 {
				return 0, false
			}
			buf[n] = shortEscapes[b[i+1]]
			n++
			i += 2
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				return 0, false // encoding/json substitutes U+FFFD
			}
			n += copy(buf[n:], b[i:i+size])
			i += size
		default: // a control character
			return 0, false
		}
	}
}
