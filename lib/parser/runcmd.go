package parser

import (
	"strconv"
	"strings"

	"cliff/lib/ir"
)

// Run commands live in comments:
//
//	; run: %f(1, 2) == 3
//	; run: %g(0x7fffffff) != [1, 0x1.0p1]
//	; print: %f(1, 2)
//	; run
//
// As in Cranelift, a command belongs to the function whose body contains
// it or which it follows, and its values are typed by that function's
// signature: the name written in the command is not looked up (filetests
// name functions that do not exist). Comments before the first function are
// not commands. A comment is a command when its first word is `run` or
// `print` followed by `:` or by nothing.

// commandBody strips the comment leaders from a comment's text.
func commandBody(comment string) string { return strings.TrimLeft(comment, "; \t") }

// isCommandLike reports whether a comment is a run command: its first word
// is `run` or `print`, followed by ':' or by nothing.
func isCommandLike(comment string) bool {
	body := commandBody(comment)
	for _, w := range []string{"run", "print"} {
		if rest, ok := strings.CutPrefix(body, w); ok &&
			(strings.HasPrefix(rest, ":") || strings.TrimSpace(rest) == "") {
			return true
		}
	}
	return false
}

// parseRunCommands reads the run commands among the comments kept while
// parsing funcs.
func (p *parser) parseRunCommands(funcs []*ir.Function) ([]ir.RunCommand, error) {
	var cmds []ir.RunCommand
	var named map[string]int // functions per name, made when needed
	for _, c := range p.comments {
		if c.owner < 0 || c.owner >= len(funcs) {
			continue
		}
		text := p.text(c.tok)
		if !isCommandLike(text) {
			continue
		}
		if named == nil {
			named = make(map[string]int)
			for _, f := range funcs {
				named[f.Name]++
			}
		}
		// Commands name their function, and tools find it by that name.
		if name := funcs[c.owner].Name; named[name] > 1 {
			return nil, p.errAt(c.tok, "run command for %s: %d functions in this file have that name", name, named[name])
		}
		body := commandBody(text)
		skipped := len(text) - len(body)
		pos := c.tok.pos()
		sub := &parser{file: p.file, src: p.src, lex: lexerAt(p.src[:c.tok.end], c.tok.off+skipped, pos.Line,
			pos.Col+skipped), // the skipped prefix is ASCII
		}
		sub.setKeepComments(false)
		sub.advance()
		cmd, err := sub.parseRunCommand(funcs[c.owner])
		if err != nil {
			return nil, err
		}
		cmd.Line = pos.Line
		cmd.Text = strings.TrimSpace(body)
		cmds = append(cmds, cmd)
	}
	return cmds, nil
}

// parseRunCommand reads one command for function f, the lookahead being
// the word `run` or `print`.
func (p *parser) parseRunCommand(f *ir.Function) (ir.RunCommand, error) {
	cmd := ir.RunCommand{Func: f.Name}
	sig := &f.Sig
	word := p.tok
	p.advance()
	var err error
	switch {
	case p.text(word) == "run" && p.optional(tokColon):
		if cmd.Args, err = p.parseInvocation(sig); err != nil {
			return cmd, err
		}
		if cmd.Cmp, err = p.parseComparison(); err != nil {
			return cmd, err
		}
		if cmd.Want, err = p.parseExpected(sig); err != nil {
			return cmd, err
		}
	case p.text(word) == "run":
		if len(sig.Params) != 0 || len(sig.Returns) != 1 || !sig.Returns[0].Type.IsInt() {
			return cmd, p.errAt(word, "a bare 'run' needs a function of type () -> int, and %s is not", f.Name)
		}
	case p.optional(tokColon): // print:
		cmd.Kind = ir.RunPrint
		if cmd.Args, err = p.parseInvocation(sig); err != nil {
			return cmd, err
		}
	default: // print
		cmd.Kind = ir.RunPrint
		if len(sig.Params) != 0 {
			return cmd, p.errAt(word, "a bare 'print' needs a function without parameters, and %s has some", f.Name)
		}
	}
	if !p.is(tokEOF) {
		return cmd, p.errAt(p.tok, "unexpected %s after the run command", p.describe(p.tok))
	}
	return cmd, nil
}

// parseInvocation reads `%name(args)`, the args typed by the signature's
// params.
func (p *parser) parseInvocation(sig *ir.Signature) ([]ir.DataValue, error) {
	if err := p.need(tokName, "a function name, e.g. %my_fn"); err != nil {
		return nil, err
	}
	if err := p.need(tokLPar, "'(' after the function name"); err != nil {
		return nil, err
	}
	args, err := p.parseDataValues(sig.Params)
	if err != nil {
		return nil, err
	}
	if err := p.need(tokRPar, "')' after "+plural(len(sig.Params), "argument")); err != nil {
		return nil, err
	}
	return args, nil
}

// parseComparison reads `==` or `!=`.
func (p *parser) parseComparison() (string, error) {
	switch {
	case p.optional(tokEqual):
		if err := p.need(tokEqual, "'==' or '!='"); err != nil {
			return "", err
		}
		return "==", nil
	case p.optional(tokBang):
		if err := p.need(tokEqual, "'==' or '!='"); err != nil {
			return "", err
		}
		return "!=", nil
	}
	return "", p.expected("'==' or '!='")
}

// parseExpected reads the expected results: one value alone, or a
// bracketed comma-separated list when there are zero or several.
func (p *parser) parseExpected(sig *ir.Signature) ([]ir.DataValue, error) {
	if len(sig.Returns) == 1 {
		return p.parseDataValues(sig.Returns)
	}
	if err := p.need(tokLBracket, "'[' before "+plural(len(sig.Returns), "expected result")); err != nil {
		return nil, err
	}
	want, err := p.parseDataValues(sig.Returns)
	if err != nil {
		return nil, err
	}
	if err := p.need(tokRBracket, "']' after "+plural(len(sig.Returns), "expected result")); err != nil {
		return nil, err
	}
	return want, nil
}

// parseDataValues reads one comma-separated value per param.
func (p *parser) parseDataValues(params []ir.AbiParam) ([]ir.DataValue, error) {
	out := make([]ir.DataValue, 0, len(params))
	for i, a := range params {
		if i > 0 {
			if err := p.need(tokComma, "',' between values"); err != nil {
				return nil, err
			}
		}
		dv, err := p.parseDataValue(a.Type)
		if err != nil {
			return nil, err
		}
		out = append(out, dv)
	}
	return out, nil
}

// parseDataValue reads one value of type t: an integer, a float in exact
// notation, or a vector as `[lanes...]` or one hexadecimal number.
func (p *parser) parseDataValue(t ir.Type) (ir.DataValue, error) {
	start := p.tok
	var b []byte
	var err error
	if t.IsScalar() {
		b, err = p.scalarLiteral(t)
	} else {
		if t.Bytes() > 16 {
			return ir.DataValue{}, p.errAt(start, "run command values larger than 128 bits (%s) are not supported", t)
		}
		b, err = p.vectorConst(t)
	}
	if err != nil {
		return ir.DataValue{}, err
	}
	return ir.DataValue{Type: t, Bytes: b}, nil
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// ParseDataValue reads one value of type t written as in a run command
// ("0x7fffffff", "-0x1.8p1", "NaN", "[1 2 3 4]"), as test-case records
// hold their inputs. The whole text must be the value.
func ParseDataValue(t ir.Type, text string) (ir.DataValue, error) {
	if dv, ok := plainInt(t, text); ok {
		return dv, nil
	}
	if dv, ok := plainVector(t, text); ok {
		return dv, nil
	}
	if dv, ok := plainFloat(t, text); ok {
		return dv, nil
	}
	p := newParser("value", text)
	dv, err := p.parseDataValue(t)
	if err != nil {
		return ir.DataValue{}, err
	}
	if p.tok.kind != tokEOF {
		return ir.DataValue{}, p.errAt(p.tok, "unexpected %q after the %s value", p.text(p.tok), t)
	}
	return dv, nil
}

// plainInt reads the commonest input, a decimal integer of i8 to i64 in
// the type's signed range, without a parser: case records hold them by
// the million, and a parser per value was most of what reading them cost
// (cliff-refine's pruning reads every case's inputs). Anything else is
// the parser's, which reads these the same (FuzzParseDataValue).
func plainInt(t ir.Type, text string) (ir.DataValue, bool) {
	bits := t.Bits()
	if !t.IsInt() || t.IsVector() || bits > 64 || len(text) == 0 || len(text) > 20 {
		return ir.DataValue{}, false
	}
	digits := text
	if digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 1 && digits[0] == '0' {
		return ir.DataValue{}, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return ir.DataValue{}, false
		}
	}
	x, err := strconv.ParseInt(text, 10, bits)
	if err != nil {
		return ir.DataValue{}, false
	}
	b := make([]byte, bits/8)
	for i := range b {
		b[i] = byte(x >> (8 * i))
	}
	return ir.DataValue{Type: t, Bytes: b}, true
}

// plainVector reads the vector input cliff writes, 0x and two hex digits
// per byte, most significant first, without a parser (as plainInt, for
// the same reason).
func plainVector(t ir.Type, text string) (ir.DataValue, bool) {
	n := t.Bytes()
	if !t.IsVector() || n > 16 || len(text) != 2+2*n || text[:2] != "0x" {
		return ir.DataValue{}, false
	}
	b := make([]byte, n)
	for i := range b {
		hi, ok1 := digitVal(text[2+2*i])
		lo, ok2 := digitVal(text[3+2*i])
		if !ok1 || !ok2 {
			return ir.DataValue{}, false
		}
		b[n-1-i] = byte(hi<<4 | lo)
	}
	return ir.DataValue{Type: t, Bytes: b}, true
}

// plainFloat reads the float input cliff writes for a normal number,
// [-]0x1.FRACpEXP with every fraction digit the format has, without a
// parser (as plainInt, for the same reason). Zeros, subnormals, NaNs and
// infinities are the parser's.
func plainFloat(t ir.Type, text string) (ir.DataValue, bool) {
	var expBits, fracBits uint
	switch t {
	case ir.F16:
		expBits, fracBits = 5, 10
	case ir.F32:
		expBits, fracBits = 8, 23
	case ir.F64:
		expBits, fracBits = 11, 52
	case ir.F128:
		expBits, fracBits = 15, 112
	default:
		return ir.DataValue{}, false
	}
	neg := strings.HasPrefix(text, "-")
	if neg {
		text = text[1:]
	}
	digits := int(fracBits+3) / 4
	if len(text) < 6+digits || text[:4] != "0x1." || text[4+digits] != 'p' {
		return ir.DataValue{}, false
	}
	var hi, lo uint64 // the fraction digits, 4 bits each, as one number
	for _, c := range []byte(text[4 : 4+digits]) {
		d, ok := digitVal(c)
		if !ok || c >= 'A' && c <= 'F' {
			return ir.DataValue{}, false
		}
		hi, lo = hi<<4|lo>>60, lo<<4|d
	}
	// The digits hold the fraction left-aligned: the bits below it are 0.
	shift := uint(4*digits) - fracBits
	if lo&(1<<shift-1) != 0 {
		return ir.DataValue{}, false
	}
	lo = lo>>shift | hi<<(64-shift)
	hi >>= shift
	exp := text[5+digits:]
	expNeg := strings.HasPrefix(exp, "-")
	if expNeg {
		exp = exp[1:]
	}
	if exp == "" || len(exp) > 5 || len(exp) > 1 && exp[0] == '0' || expNeg && exp == "0" {
		return ir.DataValue{}, false
	}
	e := 0
	for _, c := range []byte(exp) {
		if c < '0' || c > '9' {
			return ir.DataValue{}, false
		}
		e = e*10 + int(c-'0')
	}
	if expNeg {
		e = -e
	}
	bias := 1<<(expBits-1) - 1
	biased := e + bias
	if biased < 1 || biased > 2*bias { // subnormal, or past the largest finite
		return ir.DataValue{}, false
	}
	// sign, exponent and fraction as a 128-bit number, then its low bytes
	top := uint64(biased)
	if neg {
		top |= 1 << expBits
	}
	if fracBits >= 64 {
		hi |= top << (fracBits - 64)
	} else {
		lo |= top << fracBits
	}
	b := make([]byte, t.Bytes())
	for i := range b {
		if i < 8 {
			b[i] = byte(lo >> (8 * i))
		} else {
			b[i] = byte(hi >> (8 * (i - 8)))
		}
	}
	return ir.DataValue{Type: t, Bytes: b}, true
}
