package printer

import (
	"strings"

	"cliff/lib/ir"
)

// Lines prints single instructions and immediates of one function. Making
// one costs a pass over the function (which block holds each instruction,
// the alias map); each line after that costs only its own text, so tools
// that print every instruction of a function separately (the corpus
// extractor, error reports) make one Lines per function.
type Lines struct {
	p   *funcPrinter
	buf []byte // the line being built, reused
}

// NewLines prepares to print lines of f.
func (o Options) NewLines(f *ir.Function) *Lines {
	return &Lines{p: newFuncPrinter(o, f)}
}

// Inst returns instruction i as one line without indentation, with its
// debug tags and source location: `<1, ss0> @0019 call fn0(v1)`.
func (l *Lines) Inst(i ir.Inst) string {
	p := l.p
	if int(i) >= len(p.f.Insts) {
		return "<bad inst " + i.String() + ">"
	}
	d := &p.f.Insts[i]
	buf, _ := p.appendLinePrefix(l.buf[:0], d, 0)
	l.buf = p.appendInst(buf, i, d)
	return strings.TrimSuffix(string(l.buf), "\n")
}

// Immediate returns the text of one immediate or entity reference of
// instruction i, as it appears in the printed instruction: "42", "0x1.8p1",
// "slt", "notrap aligned", "+16", "user1", "xchg", "fn0". Block calls, jump
// tables and exception tables are not single immediates and give "".
func (l *Lines) Immediate(i ir.Inst, k ir.ImmKind) string {
	p := l.p
	if int(i) >= len(p.f.Insts) {
		return ""
	}
	d := &p.f.Insts[i]
	switch k {
	case ir.ImmMemFlags:
		return strings.TrimPrefix(d.Flags.String(), " ")
	case ir.ImmIntCC:
		return d.IntCC.String()
	case ir.ImmFloatCC:
		return d.FloatCC.String()
	case ir.ImmAtomicRmwOp:
		return d.RmwOp.String()
	case ir.ImmOffset32:
		return string(appendOffset32(nil, d.Imm))
	case ir.ImmBlockCall, ir.ImmJumpTable, ir.ImmExceptionTable:
		return ""
	}
	var nd int
	l.buf = p.appendSingleImm(l.buf[:0], k, d, &nd)
	return string(l.buf)
}
