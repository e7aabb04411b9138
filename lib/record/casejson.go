package record

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// unmarshalCase decodes a case record's JSON into c, as json.Unmarshal
// does, but faster: the "clif" member, most of a case's bytes, is cut out
// of the line and unescaped by a scanner made for it, and encoding/json
// decodes only the rest. encoding/json passes over every byte twice (to
// check, then to decode), which made decoding cost as much as parsing the
// CLIF. Lines the scanner does not take (escapes other than the short
// ones, invalid UTF-8, a repeated member, invalid JSON) go to
// json.Unmarshal whole, so results and errors are its own.
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
	rest, clif, ok := cutCLIF(line)
	if !ok || json.Unmarshal(rest, &c) != nil || c.CLIF != "" {
		return Case{}, false
	}
	c.CLIF = clif
	return c, true
}

// cutCLIF finds the top-level "clif" member of the JSON object in line and
// returns the line without it, and its decoded string. ok is false when
// there is no such member or the scanner cannot vouch for it.
func cutCLIF(line []byte) (rest []byte, clif string, ok bool) {
	i := skipSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return nil, "", false
	}
	i = skipSpace(line, i+1)
	for first := true; i < len(line) && line[i] != '}'; first = false {
		start := i // the member's first byte
		if !first {
			if line[i] != ',' {
				return nil, "", false
			}
			i = skipSpace(line, i+1)
		}
		keyStart := i
		end, ok := skipString(line, i)
		if !ok {
			return nil, "", false
		}
		key := line[keyStart:end]
		i = skipSpace(line, end)
		if i >= len(line) || line[i] != ':' {
			return nil, "", false
		}
		i = skipSpace(line, i+1)
		if string(key) == `"clif"` {
			s, end, ok := unquote(line, i)
			if !ok {
				return nil, "", false
			}
			// Drop the member with the comma before it, or, for the first
			// member, with the comma after it.
			cutFrom, cutTo := start, skipSpace(line, end)
			if cutTo >= len(line) || line[cutTo] != ',' && line[cutTo] != '}' {
				return nil, "", false // the rest would hide this
			}
			if first {
				if line[cutTo] == ',' {
					// A member must follow, or the cut would mend a
					// trailing comma.
					if cutTo = skipSpace(line, cutTo+1); cutTo >= len(line) || line[cutTo] != '"' {
						return nil, "", false
					}
				}
				cutFrom = keyStart
			}
			rest = make([]byte, 0, len(line)-(cutTo-cutFrom))
			rest = append(append(rest, line[:cutFrom]...), line[cutTo:]...)
			return rest, s, true
		}
		if i, ok = skipValue(line, i); !ok {
			return nil, "", false
		}
		i = skipSpace(line, i)
	}
	return nil, "", false
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
	// The size is at most the rest of the quoted text: find its end first
	// (a '"' not escaped), so the buffer is allocated once.
	out := make([]byte, 0, bytes.IndexByte(b[i:], '"')+1)
	ascii := true
	for i < len(b) {
		j := i
		for j < len(b) && b[j] >= ' ' && b[j] != '"' && b[j] != '\\' {
			j++
		}
		for _, c := range b[i:j] {
			ascii = ascii && c < utf8.RuneSelf
		}
		out = append(out, b[i:j]...)
		if i = j; i >= len(b) {
			break
		}
		switch b[i] {
		case '"':
			if !ascii && !utf8.Valid(out) {
				return "", 0, false // encoding/json substitutes U+FFFD
			}
			return string(out), i + 1, true
		case '\\':
			if i+1 >= len(b) || shortEscapes[b[i+1]] == 0 {
				return "", 0, false
			}
			out = append(out, shortEscapes[b[i+1]])
			i += 2
		default: // a control character
			return "", 0, false
		}
	}
	return "", 0, false
}
