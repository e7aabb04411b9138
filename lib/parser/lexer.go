package parser

import (
	"strconv"
	"strings"

	"cliff/lib/ir"
)

// tokKind is the kind of a lexical token.
type tokKind uint8

const (
	tokEOF          tokKind = iota
	tokInvalid              // a character that starts no token; text holds it
	tokUnterminated         // a string without its closing quote
	tokComment              // ; to the end of the line, text includes the ';'
	tokLPar
	tokRPar
	tokLBrace
	tokRBrace
	tokLBracket
	tokRBracket
	tokLAngle
	tokRAngle
	tokMinus
	tokPlus
	tokStar
	tokComma
	tokDot
	tokColon
	tokEqual
	tokBang
	tokAt
	tokArrow
	tokFloat   // any number with a radix point, or Inf/NaN forms
	tokInteger // any other number, sign included: -10, 0xff_00, +8
	tokType    // i32, f64, i32x4: typ
	tokIdent   // anything else word-like: opcodes, keywords, flags
	tokName    // %name: text includes the '%'
	tokString  // "text": text excludes the quotes
	tokHexSeq  // #89af: text excludes the '#'
	tokSrcLoc  // @00c7: text excludes the '@'
	tokCold    // cold
	// Numbered entities; num holds the number.
	tokValue       // v12
	tokBlock       // block3
	tokStackSlot   // ss3
	tokDynSlot     // dss4
	tokDynType     // dt5
	tokGlobalValue // gv3
	tokMemoryType  // mt0
	tokConstant    // const2
	tokFuncRef     // fn2
	tokSigRef      // sig2
	tokUserRef     // u345
	tokUserName    // userextname345
	tokExTable     // extable123
	tokTag         // tag123
	tokRegion      // region0
	tokRet         // ret123
	tokExn         // exn123
)

// token is one lexical token with its position.
type token struct {
	kind      tokKind
	text      string // the source text (see tokKind for exceptions)
	num       uint32 // numbered entities
	typ       ir.Type
	line, col int
	off, end  int // byte offsets of the token in the source
}

// entityPrefixes maps the word prefix of a numbered entity to its token kind.
var entityPrefixes = map[string]tokKind{
	"v": tokValue, "block": tokBlock, "ss": tokStackSlot, "dss": tokDynSlot,
	"dt": tokDynType, "gv": tokGlobalValue, "mt": tokMemoryType, "const": tokConstant,
	"fn": tokFuncRef, "sig": tokSigRef, "u": tokUserRef, "userextname": tokUserName,
	"extable": tokExTable, "tag": tokTag, "region": tokRegion, "ret": tokRet, "exn": tokExn,
}

// scalarTypes maps scalar type names to types.
var scalarTypes = map[string]ir.Type{
	"i8": ir.I8, "i16": ir.I16, "i32": ir.I32, "i64": ir.I64, "i128": ir.I128,
	"f16": ir.F16, "f32": ir.F32, "f64": ir.F64, "f128": ir.F128,
}

// lexer splits CLIF text into tokens, tracking line and column.
type lexer struct {
	src       string
	pos       int // byte offset of the next character
	line, col int // position of src[pos]
}

func newLexer(src string) *lexer { return &lexer{src: src, line: 1, col: 1} }

// peekAt returns the byte at pos+i, or 0 past the end.
func (l *lexer) peekAt(i int) byte {
	if l.pos+i < len(l.src) {
		return l.src[l.pos+i]
	}
	return 0
}

func (l *lexer) lookingAt(prefix string) bool { return strings.HasPrefix(l.src[l.pos:], prefix) }

// advance moves past one byte, keeping line and column (in runes) current.
func (l *lexer) advance() {
	c := l.src[l.pos]
	l.pos++
	switch {
	case c == '\n':
		l.line++
		l.col = 1
	case c&0xc0 != 0x80: // not a UTF-8 continuation byte
		l.col++
	}
}

// restOfLine returns the text from the current position up to (not
// including) the next newline and moves there.
func (l *lexer) restOfLine() string {
	start := l.pos
	for l.pos < len(l.src) && l.src[l.pos] != '\n' {
		l.advance()
	}
	return l.src[start:l.pos]
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isWordChar(c byte) bool {
	return isAlpha(c) || isDigit(c) || c == '_'
}
func isHexDigit(c byte) bool { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// next returns the next token, comments included; tokEOF at the end.
func (l *lexer) next() token {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		if c == ' ' || '\t' <= c && c <= '\r' {
			l.advance()
			continue
		}
		break
	}
	t := token{line: l.line, col: l.col, off: l.pos}
	if l.pos >= len(l.src) {
		t.kind = tokEOF
		t.end = l.pos
		return t
	}
	single := func(k tokKind) token {
		l.advance()
		t.kind = k
		return l.finish(t)
	}
	switch c := l.src[l.pos]; {
	case c == ';':
		l.restOfLine()
		t.kind = tokComment
		return l.finish(t)
	case c == '(':
		return single(tokLPar)
	case c == ')':
		return single(tokRPar)
	case c == '{':
		return single(tokLBrace)
	case c == '}':
		return single(tokRBrace)
	case c == '[':
		return single(tokLBracket)
	case c == ']':
		return single(tokRBracket)
	case c == '<':
		return single(tokLAngle)
	case c == '>':
		return single(tokRAngle)
	case c == ',':
		return single(tokComma)
	case c == '.':
		return single(tokDot)
	case c == ':':
		return single(tokColon)
	case c == '=':
		return single(tokEqual)
	case c == '!':
		return single(tokBang)
	case c == '*':
		return single(tokStar)
	case c == '-' && l.peekAt(1) == '>':
		l.advance()
		l.advance()
		t.kind = tokArrow
		return l.finish(t)
	case c == '-' || c == '+' || isDigit(c):
		return l.number(t)
	case isAlpha(c): // a leading '_' is not allowed, as in Cranelift
		if l.lookingAt("NaN") || l.lookingAt("Inf") {
			return l.number(t)
		}
		return l.word(t)
	case c == '%':
		l.advance()
		for l.pos < len(l.src) && isWordChar(l.src[l.pos]) {
			l.advance()
		}
		t.kind = tokName
		return l.finish(t)
	case c == '"':
		l.advance()
		start := l.pos
		for l.pos < len(l.src) && l.src[l.pos] != '"' {
			l.advance()
		}
		if l.pos >= len(l.src) {
			t.kind = tokUnterminated
			return l.finish(t)
		}
		text := l.src[start:l.pos]
		l.advance()
		t.kind = tokString
		t = l.finish(t)
		t.text = text
		return t
	case c == '#':
		l.advance()
		start := l.pos
		for l.pos < len(l.src) && isHexDigit(l.src[l.pos]) {
			l.advance()
		}
		t.kind = tokHexSeq
		t = l.finish(t)
		t.text = l.src[start:l.pos]
		return t
	case c == '@':
		l.advance()
		if !isHexDigit(l.peekAt(0)) {
			t.kind = tokAt
			return l.finish(t)
		}
		start := l.pos
		for l.pos < len(l.src) && isHexDigit(l.src[l.pos]) {
			l.advance()
		}
		t.kind = tokSrcLoc
		t = l.finish(t)
		t.text = l.src[start:l.pos]
		return t
	default:
		// Skip the whole (possibly multi-byte) character.
		l.advance()
		for l.pos < len(l.src) && l.src[l.pos]&0xc0 == 0x80 {
			l.advance()
		}
		t.kind = tokInvalid
		return l.finish(t)
	}
}

// finish sets the token's end and text from the lexer position.
func (l *lexer) finish(t token) token {
	t.end = l.pos
	t.text = l.src[t.off:l.pos]
	return t
}

// lookingAtNumeric reports whether a number can start here (after a sign).
func (l *lexer) lookingAtNumeric() bool {
	c := l.peekAt(0)
	return isDigit(c) || c == '-' || c == '+' || c == '.' ||
		l.lookingAt("NaN") || l.lookingAt("Inf") || l.lookingAt("sNaN")
}

// number scans an integer or float, leaving the checking of its digits to
// the parser (whose rules depend on the expected type). A sign that starts
// no number is a tokMinus or tokPlus.
func (l *lexer) number(t token) token {
	if c := l.src[l.pos]; c == '-' || c == '+' {
		l.advance()
		if !l.lookingAtNumeric() {
			t.kind = tokMinus
			if c == '+' {
				t.kind = tokPlus
			}
			return l.finish(t)
		}
	}
	isFloat := false
	switch {
	case l.lookingAt("NaN:") || l.lookingAt("sNaN:"):
		for l.src[l.pos] != ':' {
			l.advance()
		}
		isFloat = true
	case l.lookingAt("NaN") || l.lookingAt("Inf"):
		isFloat = true
	}
	l.advance() // the first character is part of the number whatever it is
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		if c == '.' {
			isFloat = true
		} else if !isWordChar(c) && c != '-' {
			break
		}
		l.advance()
	}
	t.kind = tokInteger
	if isFloat {
		t.kind = tokFloat
	}
	return l.finish(t)
}

// word scans an identifier-like word and classifies it: a numbered entity
// (v12, block3), a type (i32x4), `cold`, or a plain identifier.
func (l *lexer) word(t token) token {
	for l.pos < len(l.src) && isWordChar(l.src[l.pos]) {
		l.advance()
	}
	t = l.finish(t)
	t.kind = tokIdent
	if prefix, n, ok := splitEntityName(t.text); ok {
		if k, ok := entityPrefixes[prefix]; ok {
			switch {
			case k == tokValue && n >= ^uint32(0)/2, k == tokBlock && n == ^uint32(0):
				// Reserved numbers: an identifier, as in Cranelift.
			default:
				t.kind, t.num = k, n
				return t
			}
		} else if ty, ok := wordType(t.text, prefix, n); ok {
			t.kind, t.typ = tokType, ty
			return t
		}
	}
	if t.text == "cold" {
		t.kind = tokCold
	}
	return t
}

// splitEntityName splits "block15" into "block" and 15. The number may not
// have leading zeros and must fit in 32 bits.
func splitEntityName(s string) (string, uint32, bool) {
	i := len(s)
	for i > 0 && isDigit(s[i-1]) {
		i--
	}
	tail := s[i:]
	if tail == "" || len(tail) > 1 && tail[0] == '0' {
		return "", 0, false
	}
	n, err := strconv.ParseUint(tail, 10, 32)
	if err != nil {
		return "", 0, false
	}
	return s[:i], uint32(n), true
}

// wordType recognizes a scalar type ("i32" splits as "i", 32) or a vector
// type ("i32x4" splits as "i32x", 4).
func wordType(text, prefix string, n uint32) (ir.Type, bool) {
	if lane, ok := strings.CutSuffix(prefix, "x"); ok {
		scalar, ok := scalarTypes[lane]
		if !ok || n > 0xffff {
			return ir.Invalid, false
		}
		v := ir.Vector(scalar, int(n))
		return v, v != ir.Invalid
	}
	scalar, ok := scalarTypes[text]
	return scalar, ok
}
