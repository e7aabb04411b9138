package parser

import (
	"math"
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

// token is one lexical token with its position. Its text is src[off:end]
// (parser.text) rather than a string: with no pointer in it, a token is
// copied and written without the garbage collector's write barriers, and
// a test case has a few thousand tokens. The position is 32-bit, which
// keeps a token to 32 bytes (the parser copies them often) and limits the
// text to maxText bytes.
type token struct {
	kind      tokKind
	typ       ir.Type // tokType
	num       uint32  // numbered entities
	off, end  int     // the token's text (see tokKind for exceptions)
	line, col int32   // where the token starts
}

// pos returns where the token starts.
func (t token) pos() ir.Pos { return ir.Pos{Line: int(t.line), Col: int(t.col)} }

// entityKind returns the token kind of a numbered entity's word prefix
// ("v", "block", ...), tokEOF for other words. A switch, not a map: the
// lexer asks for every word.
func entityKind(prefix string) tokKind {
	switch prefix {
	case "v":
		return tokValue
	case "block":
		return tokBlock
	case "ss":
		return tokStackSlot
	case "dss":
		return tokDynSlot
	case "dt":
		return tokDynType
	case "gv":
		return tokGlobalValue
	case "mt":
		return tokMemoryType
	case "const":
		return tokConstant
	case "fn":
		return tokFuncRef
	case "sig":
		return tokSigRef
	case "u":
		return tokUserRef
	case "userextname":
		return tokUserName
	case "extable":
		return tokExTable
	case "tag":
		return tokTag
	case "region":
		return tokRegion
	case "ret":
		return tokRet
	case "exn":
		return tokExn
	}
	return tokEOF
}

// scalarType returns the scalar type with the name.
func scalarType(name string) (ir.Type, bool) {
	switch name {
	case "i8":
		return ir.I8, true
	case "i16":
		return ir.I16, true
	case "i32":
		return ir.I32, true
	case "i64":
		return ir.I64, true
	case "i128":
		return ir.I128, true
	case "f16":
		return ir.F16, true
	case "f32":
		return ir.F32, true
	case "f64":
		return ir.F64, true
	case "f128":
		return ir.F128, true
	}
	return ir.Invalid, false
}

// lexer splits CLIF text into tokens, tracking line and column.
//
// Columns count runes. Tokens other than strings, comments and invalid
// characters are ASCII, so the scanners step over them a byte at a time
// without bookkeeping, and a column is computed from the offset of the
// line's start, moved on by the UTF-8 continuation bytes met on the line
// so far (which take no column).
type lexer struct {
	src       string
	pos       int // byte offset of the next character
	line      int // line of src[pos]
	lineStart int // where the line would start if it were all ASCII

	// comments says what scan does with comments. The parser has it skip
	// them, so that reading a token is one call whatever comes first.
	comments commentMode
	// kept are the comments that look like run commands, in order, when
	// comments is keepCommands.
	kept []token
}

// commentMode is what the lexer does with comments.
type commentMode uint8

const (
	lexComments  commentMode = iota // return them as tokComment tokens
	skipComments                    // skip them
	keepCommands                    // skip them, keeping those like run commands
)

// newLexer returns a lexer of src that returns comments as tokens.
func newLexer(src string) lexer { return lexer{src: src, line: 1} }

// lexerAt returns a lexer that starts at offset pos of src, which is at
// line and col.
func lexerAt(src string, pos, line, col int) lexer {
	return lexer{src: src, pos: pos, line: line, lineStart: pos - col + 1}
}

// col returns the column (in runes, from 1) of src[pos].
func (l *lexer) col() int { return l.pos - l.lineStart + 1 }

// peekAt returns the byte at pos+i, or 0 past the end.
func (l *lexer) peekAt(i int) byte {
	if l.pos+i < len(l.src) {
		return l.src[l.pos+i]
	}
	return 0
}

func (l *lexer) lookingAt(prefix string) bool { return strings.HasPrefix(l.src[l.pos:], prefix) }

// advance moves past one byte of any kind, keeping line and column
// current.
func (l *lexer) advance() {
	c := l.src[l.pos]
	l.pos++
	switch {
	case c == '\n':
		l.line++
		l.lineStart = l.pos
	case c&0xc0 == 0x80:
		l.lineStart++
	}
}

// restOfLine returns the text from the current position up to (not
// including) the next newline and moves there.
func (l *lexer) restOfLine() string {
	start := l.pos
	end := strings.IndexByte(l.src[start:], '\n')
	if end < 0 {
		end = len(l.src) - start
	}
	for _, c := range []byte(l.src[start : start+end]) {
		if c&0xc0 == 0x80 {
			l.lineStart++
		}
	}
	l.pos = start + end
	return l.src[start:l.pos]
}

// Character classes, as tables: the lexer asks for every byte.
var (
	wordChars = byteSet(func(c byte) bool { return isAlpha(c) || isDigit(c) || c == '_' })
	// wordLetters are the word characters that end a run of digits.
	wordLetters = byteSet(func(c byte) bool { return isAlpha(c) || c == '_' })
	hexDigits   = byteSet(func(c byte) bool { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' })
)

func byteSet(in func(byte) bool) (set [256]bool) {
	for c := range set {
		set[c] = in(byte(c))
	}
	return set
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// isSpace reports whether c is white space: ' ', or '\t' to '\r'.
func isSpace(c byte) bool { return c == ' ' || '\t' <= c && c <= '\r' }

// The scanning loops below work on local copies of the lexer's fields, so
// that the compiler keeps them in registers rather than storing the
// position through the pointer at every byte.

// startClass is what a token that starts with a given byte can be, so that
// scan picks its scanner with one table look-up.
type startClass uint8

const (
	startInvalid startClass = iota // no token starts with the byte
	startSingle                    // a token by itself (singleTokens)
	startMinus                     // '-': an arrow, or a number's sign
	startNumber                    // a digit or '+'
	startWord                      // a letter
	startNaNInf                    // 'N' or 'I': NaN or Inf, else a word
	startComment                   // ';'
	startName                      // '%'
	startString                    // '"'
	startHex                       // '#'
	startAt                        // '@'
)

// startClasses classifies each byte for scan. A leading '_' is not
// allowed in a word, as in Cranelift.
var startClasses = func() (classes [256]startClass) {
	for c := range classes {
		b := byte(c)
		switch {
		case b == '-':
			classes[c] = startMinus
		case singleTokens[c] != tokEOF:
			classes[c] = startSingle
		case b == '+' || isDigit(b):
			classes[c] = startNumber
		case b == 'N' || b == 'I':
			classes[c] = startNaNInf
		case isAlpha(b):
			classes[c] = startWord
		case b == ';':
			classes[c] = startComment
		case b == '%':
			classes[c] = startName
		case b == '"':
			classes[c] = startString
		case b == '#':
			classes[c] = startHex
		case b == '@':
			classes[c] = startAt
		}
	}
	return classes
}()

// scan reads the next token into t (usually the parser's lookahead);
// tokEOF at the end. Comments are tokens unless l.comments says to skip
// them.
func (l *lexer) scan(t *token) {
again:
	// Skip white space, counting lines. (uint comparisons spare the loops
	// here and in word their bounds checks.)
	src, pos := l.src, l.pos
	var c byte
	for {
		if uint(pos) >= uint(len(src)) {
			l.pos = pos
			*t = token{kind: tokEOF, off: pos, end: pos, line: int32(l.line), col: int32(l.col())}
			return
		}
		// Most bytes are not space: one comparison tells.
		if c = src[pos]; c > ' ' || !isSpace(c) {
			break
		}
		if c == '\n' {
			l.line++
			l.lineStart = pos + 1
		}
		pos++
	}
	line, col := int32(l.line), int32(pos-l.lineStart+1)
	class := startClasses[c]
	if class == startSingle { // a third of all tokens
		l.pos = pos + 1
		*t = token{kind: singleTokens[c], off: pos, end: pos + 1, line: line, col: col}
		return
	}
	l.pos = pos
	*t = token{off: pos, end: pos, line: line, col: col}
	switch class {
	case startMinus:
		if l.peekAt(1) != '>' {
			l.number(t)
			return
		}
		l.pos += 2
		t.kind, t.end = tokArrow, l.pos
	case startNumber:
		l.number(t)
	case startNaNInf:
		if l.lookingAt("NaN") || l.lookingAt("Inf") {
			l.number(t)
			return
		}
		l.word(t)
	case startWord:
		// Values are a quarter of all tokens, and most of what word does
		// is for the other words: a value vN is read here (as word would
		// read it), the rest left to word (TestWordFastPaths).
		if c == 'v' {
			var v uint64
			end := pos + 1
			for ; uint(end) < uint(len(src)); end++ {
				d := src[end] - '0'
				if d > 9 {
					break
				}
				// Numbers from 2^31 - 1 are reserved for identifiers, as in
				// Cranelift; stopping there also keeps v from wrapping.
				if v = v*10 + uint64(d); v >= math.MaxUint32/2 {
					break
				}
			}
			// No digits, a leading zero, or more word to come: word tells.
			if digits := end - pos - 1; !(digits == 0 || digits > 1 && src[pos+1] == '0' || v >= math.MaxUint32/2 ||
				uint(end) < uint(len(src)) && wordChars[src[end]]) {
				l.pos = end
				t.kind, t.num, t.end = tokValue, uint32(v), end
				return
			}
		}
		// Scalar types (i32, f64) are the next commonest words: a letter
		// and digits that scalarType knows, which word would read as the
		// same type.
		if c == 'i' || c == 'f' {
			end := pos + 1
			for uint(end) < uint(len(src)) && isDigit(src[end]) {
				end++
			}
			if uint(end) >= uint(len(src)) || !wordChars[src[end]] {
				if ty, ok := scalarType(src[pos:end]); ok {
					l.pos = end
					t.kind, t.typ, t.end = tokType, ty, end
					return
				}
			}
		}
		l.word(t)
	case startComment:
		l.restOfLine()
		t.kind = tokComment
		l.finish(t)
		if l.comments != lexComments {
			if l.comments == keepCommands && isCommandLike(l.src[t.off:t.end]) {
				l.kept = append(l.kept, *t)
			}
			goto again
		}
	case startName:
		l.pos++
		l.skipWord()
		t.kind = tokName
		l.finish(t)
	case startString:
		l.advance()
		start := l.pos
		for l.pos < len(l.src) && l.src[l.pos] != '"' {
			l.advance()
		}
		if l.pos >= len(l.src) {
			t.kind = tokUnterminated
			l.finish(t)
			return
		}
		t.kind, t.off, t.end = tokString, start, l.pos
		l.advance()
	case startHex:
		l.pos++
		start := l.pos
		l.skipHex()
		t.kind, t.off, t.end = tokHexSeq, start, l.pos
	case startAt:
		l.pos++
		if !hexDigits[l.peekAt(0)] {
			t.kind = tokAt
			l.finish(t)
			return
		}
		start := l.pos
		l.skipHex()
		t.kind, t.off, t.end = tokSrcLoc, start, l.pos
	default:
		// Skip the whole (possibly multi-byte) character.
		l.advance()
		for l.pos < len(l.src) && l.src[l.pos]&0xc0 == 0x80 {
			l.advance()
		}
		t.kind = tokInvalid
		l.finish(t)
	}
}

// singleTokens maps the characters that are a token by themselves to its
// kind; '-' is a tokArrow when '>' follows (else a number's sign).
var singleTokens = [256]tokKind{
	'(': tokLPar, ')': tokRPar, '{': tokLBrace, '}': tokRBrace, '[': tokLBracket,
	']': tokRBracket, '<': tokLAngle, '>': tokRAngle, ',': tokComma, '.': tokDot,
	':': tokColon, '=': tokEqual, '!': tokBang, '*': tokStar, '-': tokArrow,
}

// skipWord moves past word characters (ASCII, so no bookkeeping).
func (l *lexer) skipWord() {
	src, pos := l.src, l.pos
	for pos < len(src) && wordChars[src[pos]] {
		pos++
	}
	l.pos = pos
}

// skipHex moves past hex digits.
func (l *lexer) skipHex() {
	src, pos := l.src, l.pos
	for pos < len(src) && hexDigits[src[pos]] {
		pos++
	}
	l.pos = pos
}

// finish ends the token's text at the lexer position.
func (l *lexer) finish(t *token) { t.end = l.pos }

// lookingAtNumeric reports whether a number can start here (after a sign).
func (l *lexer) lookingAtNumeric() bool {
	c := l.peekAt(0)
	return isDigit(c) || c == '-' || c == '+' || c == '.' ||
		l.lookingAt("NaN") || l.lookingAt("Inf") || l.lookingAt("sNaN")
}

// number scans an integer or float, leaving the checking of its digits to
// the parser (whose rules depend on the expected type). A sign that starts
// no number is a tokMinus or tokPlus.
func (l *lexer) number(t *token) {
	if c := l.src[l.pos]; c == '-' || c == '+' {
		l.advance()
		if !l.lookingAtNumeric() {
			t.kind = tokMinus
			if c == '+' {
				t.kind = tokPlus
			}
			l.finish(t)
			return
		}
	}
	isFloat := false
	if c := l.src[l.pos]; c == 'N' || c == 's' || c == 'I' { // as NaN, sNaN and Inf do, and no other number
		switch {
		case l.lookingAt("NaN:") || l.lookingAt("sNaN:"):
			for l.src[l.pos] != ':' {
				l.advance()
			}
			isFloat = true
		case l.lookingAt("NaN") || l.lookingAt("Inf"):
			isFloat = true
		}
	}
	l.advance() // the first character is part of the number whatever it is
	src, pos := l.src, l.pos
	for ; uint(pos) < uint(len(src)); pos++ { // ASCII
		c := src[pos]
		if c == '.' {
			isFloat = true
		} else if !wordChars[c] && c != '-' {
			break
		}
	}
	l.pos = pos
	t.kind = tokInteger
	if isFloat {
		t.kind = tokFloat
	}
	l.finish(t)
}

// word scans an identifier-like word and classifies it: a numbered entity
// (v12, block3), a type (i32x4), `cold`, or a plain identifier.
func (l *lexer) word(t *token) {
	// One pass finds the end of the word, where the digits at its end
	// start and their value: an entity or a type is a prefix and a number
	// (block15, i32x4). The word alternates runs of letters and of digits;
	// the value of the last run of digits is kept.
	src, start := l.src, l.pos
	pos, digits := start, start
	var n uint64 // wraps for long runs, which isEntityNumber rejects
	for {
		for uint(pos) < uint(len(src)) && wordLetters[src[pos]] {
			pos++
		}
		digits, n = pos, 0
		for ; uint(pos) < uint(len(src)); pos++ {
			d := src[pos] - '0'
			if d > 9 {
				break
			}
			n = n*10 + uint64(d)
		}
		if uint(pos) >= uint(len(src)) || !wordLetters[src[pos]] {
			break
		}
	}
	l.pos, t.end, t.kind = pos, pos, tokIdent
	if digits == pos {
		if pos-start == len("cold") && src[start:pos] == "cold" {
			t.kind = tokCold
		}
		return
	}
	if !isEntityNumber(pos-digits, src[digits], n) {
		return
	}
	prefix := src[start:digits]
	if k := entityKind(prefix); k != tokEOF {
		switch {
		case k == tokValue && n >= math.MaxUint32/2, k == tokBlock && n == math.MaxUint32:
			// Reserved numbers: an identifier, as in Cranelift.
		default:
			t.kind, t.num = k, uint32(n)
		}
	} else if ty, ok := wordType(src[start:pos], prefix, uint32(n)); ok {
		t.kind, t.typ = tokType, ty
	}
}

// isEntityNumber reports whether the count digits at the end of a word,
// the first of which is first and whose value is n (modulo 2^64), are the
// number of an entity name: decimal digits without leading zeros that fit
// in 32 bits.
func isEntityNumber(count int, first byte, n uint64) bool {
	return count > 0 && (count == 1 || first != '0') && count <= 10 && n <= math.MaxUint32
}

// wordType recognizes a scalar type ("i32" splits as "i", 32) or a vector
// type ("i32x4" splits as "i32x", 4).
func wordType(text, prefix string, n uint32) (ir.Type, bool) {
	if lane, ok := strings.CutSuffix(prefix, "x"); ok {
		scalar, ok := scalarType(lane)
		if !ok || n > 0xffff {
			return ir.Invalid, false
		}
		v := ir.Vector(scalar, int(n))
		return v, v != ir.Invalid
	}
	return scalarType(text)
}
