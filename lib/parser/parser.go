package parser

import (
	"fmt"
	"math"
	"strings"

	"cliff/lib/ir"
)

// ParseFile parses a whole .clif file: `test`, `set` and `target` header
// lines, then functions, and the `; run:` / `; print:` commands written in
// comments (see wantsRunCommands for when). The error, if any, is an *Error.
func ParseFile(name string, src []byte) (*ir.File, error) {
	return newParser(name, string(src)).parseFile()
}

func (p *parser) parseFile() (*ir.File, error) {
	if err := p.checkSize(); err != nil {
		return nil, err
	}
	f := &ir.File{Name: p.file}
	if err := p.parseHeader(f); err != nil {
		return nil, err
	}
	p.setKeepComments(wantsRunCommands(f.Tests))
	funcs, err := p.parseFunctions()
	if err != nil {
		return nil, err
	}
	p.takeComments()
	f.Funcs = funcs
	if f.Commands, err = p.parseRunCommands(funcs); err != nil {
		return nil, err
	}
	return f, nil
}

// wantsRunCommands reports whether run commands are read for a file with
// these `test` lines: when one of them is `test run` or `test interpret`
// (as in Cranelift, where other tests ignore run commands), or when there
// are none (files that cliff's tools write).
func wantsRunCommands(tests []ir.HeaderLine) bool {
	if len(tests) == 0 {
		return true
	}
	for _, t := range tests {
		if len(t.Words) > 0 && (t.Words[0] == "run" || t.Words[0] == "interpret") {
			return true
		}
	}
	return false
}

// ParseModule parses functions only, as test-case records hold them: no
// header lines, and comments are just comments. The error, if any, is an
// *Error.
func ParseModule(name string, src []byte) (*ir.Module, error) {
	return ParseModuleString(name, string(src))
}

// ParseModuleString is ParseModule of text held as a string (a case
// record's CLIF), without copying it to bytes and back.
func ParseModuleString(name, src string) (*ir.Module, error) {
	return newParser(name, src).parseModule()
}

func (p *parser) parseModule() (*ir.Module, error) {
	if err := p.checkSize(); err != nil {
		return nil, err
	}
	funcs, err := p.parseFunctions()
	if err != nil {
		return nil, err
	}
	return &ir.Module{Funcs: funcs}, nil
}

// maxText is the size of the largest text the parser reads, so that every
// line and column fits in a token's 32-bit position.
const maxText = math.MaxInt32 - 1

// checkSize fails for a text larger than maxText.
func (p *parser) checkSize() error {
	if len(p.src) > maxText {
		return &Error{File: p.file, Line: 1, Col: 1, Msg: fmt.Sprintf("text too large: %d bytes (the limit is %d)", len(p.src), maxText)}
	}
	return nil
}

// parser holds the token stream of one source text.
type parser struct {
	file string
	src  string
	lex  lexer
	tok  token // the lookahead, never a comment

	// comments are the comments kept for run commands (see
	// setKeepComments), with the index of the function that owns them: the
	// one whose `function` keyword came last, or -1 before the first.
	comments  []ownedComment
	funcIndex int

	*memory
	// recycler, when not nil, has each function parsed in the memory of
	// the function at its index in the texts it parsed before.
	recycler *Recycler
}

type ownedComment struct {
	tok   token
	owner int
}

func newParser(name, src string) *parser {
	return newParserIn(name, src, new(memory), nil)
}

// newParserIn returns a parser of src allocating from mem, with the
// functions' memory from r when it is not nil.
func newParserIn(name, src string, mem *memory, r *Recycler) *parser {
	p := &parser{file: name, src: src, lex: newLexer(src), funcIndex: -1, memory: mem, recycler: r}
	p.setKeepComments(false)
	p.advance()
	return p
}

// advance reads the next non-comment token into the lookahead. It runs
// for every token, so it is one call: the lexer skips the comments (and
// keeps those that look like run commands, see setKeepComments).
func (p *parser) advance() { p.lex.scan(&p.tok) }

// setKeepComments has the comments read from now on kept for run commands
// (see takeComments), or skipped.
func (p *parser) setKeepComments(keep bool) {
	p.lex.comments = skipComments
	if keep {
		p.lex.comments = keepCommands
	}
}

// takeComments moves the comments the lexer kept since the last call to
// p.comments, owned by the function of index p.funcIndex: called before
// p.funcIndex changes and at the end, it gives each comment the function
// whose `function` keyword came last before it was read.
func (p *parser) takeComments() {
	for _, t := range p.lex.kept {
		p.comments = append(p.comments, ownedComment{t, p.funcIndex})
	}
	p.lex.kept = p.lex.kept[:0]
}

// text returns the text of a token of this parser's source.
func (p *parser) text(t token) string { return p.src[t.off:t.end] }

// consumeLine returns the rest of the line after the lookahead token and
// moves to the first token of the following lines.
func (p *parser) consumeLine() string {
	rest := p.lex.restOfLine()
	p.advance()
	return rest
}

// errAt builds an *Error at a token's position.
func (p *parser) errAt(t token, format string, args ...any) *Error {
	return p.errAtPos(t.pos(), format, args...)
}

// errAtPos builds an *Error at a position.
func (p *parser) errAtPos(pos ir.Pos, format string, args ...any) *Error {
	return &Error{File: p.file, Line: pos.Line, Col: pos.Col, Msg: fmt.Sprintf(format, args...)}
}

// expected reports that the lookahead is not what the grammar wants here.
func (p *parser) expected(what string) *Error {
	return p.errAt(p.tok, "expected %s, found %s", what, p.describe(p.tok))
}

// describe names a token for error messages.
func (p *parser) describe(t token) string {
	switch t.kind {
	case tokEOF:
		return "end of file"
	case tokInvalid:
		return fmt.Sprintf("invalid character %q", p.text(t))
	case tokUnterminated:
		return "unterminated string"
	}
	text := p.text(t)
	if len(text) > 40 {
		text = text[:40] + "..."
	}
	return "'" + text + "'"
}

// is reports whether the lookahead has the kind.
func (p *parser) is(k tokKind) bool { return p.tok.kind == k }

// isSignedInteger reports whether the lookahead is an integer written with
// a sign, as offsets are (`+8`, `-4`).
func (p *parser) isSignedInteger() bool {
	if p.tok.kind != tokInteger {
		return false
	}
	c := p.src[p.tok.off]
	return c == '+' || c == '-'
}

// isIdent reports whether the lookahead is the identifier word.
func (p *parser) isIdent(word string) bool { return p.tok.kind == tokIdent && p.text(p.tok) == word }

// optional consumes the lookahead if it has the kind.
func (p *parser) optional(k tokKind) bool {
	if p.tok.kind == k {
		p.advance()
		return true
	}
	return false
}

// optionalIdent consumes the lookahead if it is the identifier word.
func (p *parser) optionalIdent(word string) bool {
	if p.isIdent(word) {
		p.advance()
		return true
	}
	return false
}

// expect consumes a token of the kind or fails with "expected what".
func (p *parser) expect(k tokKind, what string) (token, error) {
	t := p.tok
	if t.kind != k {
		return t, p.expected(what)
	}
	p.advance()
	return t, nil
}

// need consumes a token of the kind or fails with "expected what".
func (p *parser) need(k tokKind, what string) error {
	if p.tok.kind != k {
		return p.expected(what)
	}
	p.advance()
	return nil
}

// parseHeader reads `test` lines, then `set` and `target` lines in order.
func (p *parser) parseHeader(f *ir.File) error {
	for p.isIdent("test") {
		line := p.tok.pos().Line
		f.Tests = append(f.Tests, ir.HeaderLine{Kind: ir.HeaderTest, Words: headerWords(p.consumeLine()), Line: line})
	}
	for p.isIdent("set") || p.isIdent("target") {
		kind := ir.HeaderSet
		if p.text(p.tok) == "target" {
			kind = ir.HeaderTarget
		}
		t := p.tok
		words := headerWords(p.consumeLine())
		if kind == ir.HeaderTarget && len(words) == 0 {
			return p.errAt(t, "expected target triple after 'target'")
		}
		f.Header = append(f.Header, ir.HeaderLine{Kind: kind, Words: words, Line: t.pos().Line})
	}
	return nil
}

// headerWords splits the rest of a header line into words, dropping a
// trailing comment.
func headerWords(rest string) []string {
	if i := strings.IndexByte(rest, ';'); i >= 0 {
		rest = rest[:i]
	}
	return strings.Fields(rest)
}

// parseFunctions reads functions up to the end of the text.
func (p *parser) parseFunctions() ([]*ir.Function, error) {
	var funcs []*ir.Function
	for !p.is(tokEOF) {
		f, err := p.parseFunction()
		if err != nil {
			return nil, err
		}
		funcs = append(funcs, f)
	}
	return funcs, nil
}
