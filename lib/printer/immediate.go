package printer

import (
	"strings"

	"cliff/lib/ir"
)

// Immediate returns the text of one immediate or entity reference of
// instruction i, as it appears in the printed instruction: "42", "0x1.8p1",
// "slt", "notrap aligned", "+16", "user1", "xchg", "fn0". Block calls, jump
// tables and exception tables are not single immediates and give "".
// Corpus tools use it to record an instruction's immediates one by one.
func Immediate(f *ir.Function, i ir.Inst, k ir.ImmKind) string {
	if int(i) >= len(f.Insts) {
		return ""
	}
	d := &f.Insts[i]
	p := newFuncPrinter(Options{}, f)
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
	p.appendSingleImm(k, d, &nd)
	return string(p.buf)
}
