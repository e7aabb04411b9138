package parents

import (
	"encoding/json"
	"unicode/utf8"

	"cliff/lib/record"
)

// Records are decoded by hand when they have the form cliff-extract
// writes for a function: encoding/json went through each byte of a
// record twice, and with the CLIF text of every function in the corpus,
// that was a third of cliff-gen's time to load it (70 ms of 200). Anything
// else (a key the decoder does not know, as a block snippet's insts or a
// field added to record.Snippet later, or one spelled in another case;
// null; a number with a fraction or exponent; a \u escape; a byte that is
// not ASCII) is left to encoding/json, which decodes it the same or says
// what is wrong (TestDecodeSnippet).

// unmarshal decodes a snippet record into s, which it takes zeroed, as
// json.Unmarshal does.
func (d *decoder) unmarshal(line []byte, s *record.Snippet) error {
	if d.snippet(line, s) {
		return nil
	}
	*s = record.Snippet{}
	return json.Unmarshal(line, s)
}

// snippet decodes line into s, which it takes zeroed, and reports whether
// it could: false leaves s to be zeroed again.
func (d *decoder) snippet(line []byte, s *record.Snippet) bool {
	d.buf, d.pos, d.ok = line, 0, true
	ok := d.object(func(key []byte) bool {
		switch string(key) {
		case "kind":
			s.Kind = d.str()
		case "v":
			s.Version = d.int()
		case "id":
			s.ID = d.str()
		case "source":
			d.source(&s.Source)
		case "level":
			s.Level = d.str()
		case "count":
			s.Count = d.int()
		case "function":
			s.Function = d.str()
		case "runs":
			s.Runs = d.runs()
		default:
			return false
		}
		return d.ok
	})
	d.space()
	return ok && d.ok && d.pos == len(d.buf)
}

// decoder reads JSON from buf at pos; ok turns false at the first thing
// it does not take, and stays so. A decoder decodes one record after
// another, in the same scratch memory for strings with escapes.
type decoder struct {
	buf     []byte
	pos     int
	ok      bool
	scratch []byte
}

func (d *decoder) space() {
	for d.pos < len(d.buf) {
		switch d.buf[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// eat takes c, after any space.
func (d *decoder) eat(c byte) bool {
	d.space()
	if d.pos < len(d.buf) && d.buf[d.pos] == c {
		d.pos++
		return true
	}
	return false
}

// object reads an object, calling field after each key and its colon to
// read the value; field returns false to give up.
func (d *decoder) object(field func(key []byte) bool) bool {
	d.ok = d.eat('{')
	if !d.ok || d.eat('}') {
		return d.ok
	}
	for {
		key := d.key()
		if !d.ok || !d.eat(':') || !field(key) {
			d.ok = false
			return false
		}
		if d.eat('}') {
			return true
		}
		if !d.eat(',') {
			d.ok = false
			return false
		}
	}
}

// array reads an array, calling elem to read each element.
func (d *decoder) array(elem func()) {
	if d.ok = d.ok && d.eat('['); !d.ok || d.eat(']') {
		return
	}
	for d.ok {
		elem()
		if d.eat(']') {
			return
		}
		d.ok = d.ok && d.eat(',')
	}
}

// key reads a key, a string without escapes, in buf.
func (d *decoder) key() []byte {
	if d.ok = d.ok && d.eat('"'); !d.ok {
		return nil
	}
	start := d.pos
	for d.pos < len(d.buf) {
		switch c := d.buf[d.pos]; {
		case c == '"':
			d.pos++
			return d.buf[start : d.pos-1]
		case c < 0x20 || c >= utf8.RuneSelf || c == '\\':
			d.ok = false
			return nil
		}
		d.pos++
	}
	d.ok = false
	return nil
}

// str reads a string of ASCII text whose escapes are single characters.
func (d *decoder) str() string {
	if d.ok = d.ok && d.eat('"'); !d.ok {
		return ""
	}
	start := d.pos
	for d.pos < len(d.buf) {
		switch c := d.buf[d.pos]; {
		case c == '"':
			s := string(d.buf[start:d.pos])
			d.pos++
			return s
		case c == '\\':
			return d.escaped(start)
		case c < 0x20 || c >= utf8.RuneSelf:
			d.ok = false
			return ""
		}
		d.pos++
	}
	d.ok = false
	return ""
}

// escaped reads the rest of a string that started at start and has an
// escape at pos.
func (d *decoder) escaped(start int) string {
	out := append(d.scratch[:0], d.buf[start:d.pos]...)
	defer func() { d.scratch = out }()
	for d.pos < len(d.buf) {
		c := d.buf[d.pos]
		d.pos++
		switch {
		case c == '"':
			return string(out)
		case c == '\\' && d.pos < len(d.buf):
			e := unescape[d.buf[d.pos]]
			if e == 0 {
				d.ok = false
				return ""
			}
			out = append(out, e)
			d.pos++
		case c < 0x20 || c >= utf8.RuneSelf || c == '\\':
			d.ok = false
			return ""
		default:
			out = append(out, c)
		}
	}
	d.ok = false
	return ""
}

// unescape holds what the escapes of one character stand for, by the
// character after the backslash (0: no such escape).
var unescape = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// int reads an integer of at most 15 digits, well within an int.
func (d *decoder) int() int {
	if !d.ok {
		return 0
	}
	d.space()
	neg := d.pos < len(d.buf) && d.buf[d.pos] == '-'
	if neg {
		d.pos++
	}
	start, n := d.pos, 0
	for d.pos < len(d.buf) && d.buf[d.pos] >= '0' && d.buf[d.pos] <= '9' && d.pos-start < 15 {
		n = 10*n + int(d.buf[d.pos]-'0')
		d.pos++
	}
	digits := d.pos - start
	// JSON has no leading zeros; a fraction, exponent or 16th digit is
	// encoding/json's to judge.
	if digits == 0 || digits > 1 && d.buf[start] == '0' ||
		d.pos < len(d.buf) && (d.buf[d.pos] == '.' || d.buf[d.pos] == 'e' || d.buf[d.pos] == 'E' || d.buf[d.pos] >= '0' && d.buf[d.pos] <= '9') {
		d.ok = false
		return 0
	}
	if neg {
		return -n
	}
	return n
}

func (d *decoder) source(src *record.Source) {
	d.object(func(key []byte) bool {
		switch string(key) {
		case "file":
			src.File = d.str()
		case "function":
			src.Function = d.str()
		case "block":
			src.Block = d.str()
		case "line":
			src.Line = d.int()
		default:
			return false
		}
		return d.ok
	})
}

// runs reads run lines' arguments: as encoding/json does, an empty array
// is an empty list, not nil.
func (d *decoder) runs() []record.InputVector {
	runs := []record.InputVector{}
	d.array(func() {
		vec := record.InputVector{}
		d.array(func() {
			var v record.Value
			d.object(func(key []byte) bool {
				switch string(key) {
				case "type":
					v.Type = d.str()
				case "value":
					v.Value = d.str()
				default:
					return false
				}
				return d.ok
			})
			vec = append(vec, v)
		})
		runs = append(runs, vec)
	})
	return runs
}
