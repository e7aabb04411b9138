package printer

import (
	"strconv"

	"cliff/lib/ir"
)

// appendInst writes an instruction after its indentation: results, opcode
// and `.type` suffix, operands, the constant comment, and a newline.
func (p *funcPrinter) appendInst(i ir.Inst) {
	d := &p.f.Insts[i]
	for k, r := range d.Results {
		if k > 0 {
			p.str(", ")
		}
		p.appendValue(r)
	}
	if len(d.Results) > 0 {
		p.str(" = ")
	}
	p.str(d.Op.String())
	if p.needsSuffix(i, d) {
		p.str(".")
		if d.CtrlType == ir.Invalid {
			p.str("<missing type>")
		} else {
			p.appendType(d.CtrlType)
		}
	}
	p.appendOperands(d)
	p.appendStackMap(d.StackMap)
	if !p.opts.NoConstComments && !p.opts.Compact {
		p.appendConstComments(d)
	}
	p.str("\n")
}

// needsSuffix is write.rs's type_suffix rule: a polymorphic instruction
// leaves out its controlling type only when the table names an operand
// that carries it and that operand is defined in the instruction's own
// block (so a reader has already seen its type). Two additions keep the
// text faithful where Cranelift's printer is not: the operand must be
// defined before the instruction (Cranelift also drops the suffix for a
// later definition, which breaks dominance and leaves a reader unable to
// type the instruction), and its type must be the controlling type
// (Cranelift derives the type from the operand and forgets a conflicting
// suffix such as `store.i32` of an i64).
func (p *funcPrinter) needsSuffix(i ir.Inst, d *ir.InstData) bool {
	info := d.Op.Info()
	if !info.Polymorphic {
		return false
	}
	k := info.CtrlOperand
	if k < 0 || k >= len(d.Args) {
		return true
	}
	v := p.resolve(d.Args[k])
	return v == ir.NoValue || p.f.Values[v].Type != d.CtrlType || !p.definedBefore(v, i)
}

// definedBefore reports whether v (not an alias) is a param of i's block or
// the result of an instruction earlier in that block.
func (p *funcPrinter) definedBefore(v ir.Value, i ir.Inst) bool {
	blk := p.instBlock[i]
	if blk == ir.NoBlock {
		return false
	}
	vd := &p.f.Values[v]
	switch vd.Kind {
	case ir.DefParam:
		return vd.Block == blk
	case ir.DefResult:
		return int(vd.Inst) < len(p.instBlock) && p.instBlock[vd.Inst] == blk && p.instPos[vd.Inst] < p.instPos[i]
	}
	return false
}

// resolve follows aliases to the value they stand for; it gives up (and
// returns NoValue) on an undefined value or an alias cycle.
func (p *funcPrinter) resolve(v ir.Value) ir.Value {
	for range len(p.f.Values) + 1 {
		if int(v) >= len(p.f.Values) {
			return ir.NoValue
		}
		vd := &p.f.Values[v]
		if vd.Kind != ir.DefAlias {
			return v
		}
		v = vd.AliasOf
	}
	return ir.NoValue
}

// appendStackMap writes `, stack_map=[i64 @ ss0+8, i32 @ ss1+0]`, or
// nothing for an empty stack map. write.rs writes it only after a call's
// operands; an instruction of another kind with a stack map (which
// Cranelift's IR cannot hold) shows it all the same.
func (p *funcPrinter) appendStackMap(entries []ir.StackMapEntry) {
	if len(entries) == 0 {
		return
	}
	p.str(", stack_map=[")
	for k, e := range entries {
		if k > 0 {
			p.str(", ")
		}
		p.appendType(e.Type)
		p.str(" @ ")
		p.ent("ss", uint32(e.Slot))
		p.str("+")
		p.buf = strconv.AppendUint(p.buf, uint64(e.Offset), 10)
	}
	p.str("]")
}

// operandList writes the comma-separated operand items: a space before the
// first, ", " before the others.
type operandList struct {
	p *funcPrinter
	n int
}

func (l *operandList) next() {
	if l.n == 0 {
		l.p.str(" ")
	} else {
		l.p.str(", ")
	}
	l.n++
}

func hasImm(fi *ir.FormatInfo, k ir.ImmKind) bool {
	for _, x := range fi.Imms {
		if x == k {
			return true
		}
	}
	return false
}

// isModifier tells the immediates written right after the opcode, before
// the operands and without commas: `load.i32 notrap aligned v0`,
// `icmp eq v0, v1`, `atomic_rmw.i32 add v0, v1`.
func isModifier(k ir.ImmKind) bool {
	switch k {
	case ir.ImmMemFlags, ir.ImmIntCC, ir.ImmFloatCC, ir.ImmAtomicRmwOp:
		return true
	}
	return false
}

// appendOperands writes the operands of d as write.rs's write_operands
// does, driven by the format's description instead of one case per format:
//
//   - modifiers (memory flags, condition codes, the atomic operation) first;
//   - call-shaped formats (variable args with a func_ref or a callee value)
//     write `sig0, v1(args)`, `fn0(args)`, then any exception table;
//   - other formats write the fixed values, then the immediates in order
//     (an offset32 sticks to the item before it: `v1+8`, `ss0+8`), then any
//     variable args;
//   - a format with no operands at all writes a lone space (`fence `).
//
// Operands the format lacks room for, or needs but does not find, come out
// as markers.
func (p *funcPrinter) appendOperands(d *ir.InstData) {
	info := d.Op.Info()
	fi := info.Format.Info()
	if info.Format == ir.FormatInvalid {
		p.appendUnknownOperands(d)
		return
	}
	for _, k := range fi.Imms {
		switch k {
		case ir.ImmMemFlags:
			p.str(d.Flags.String())
		case ir.ImmIntCC:
			p.str(" ")
			p.str(d.IntCC.String())
		case ir.ImmFloatCC:
			p.str(" ")
			p.str(d.FloatCC.String())
		case ir.ImmAtomicRmwOp:
			p.str(" ")
			p.str(d.RmwOp.String())
		}
	}
	if fi.Values == 0 && !fi.Varargs && len(fi.Imms) == 0 && len(d.Args) == 0 && len(d.Dests) == 0 {
		p.str(" ")
		return
	}

	l := operandList{p: p}
	nd := 0 // Dests used so far
	fixed := min(fi.Values, len(d.Args))
	if fi.Varargs && (hasImm(fi, ir.ImmFuncRef) || fi.Values >= 1) {
		for _, k := range fi.Imms {
			if k == ir.ImmSigRef {
				l.next()
				p.ent("sig", uint32(d.Sig))
			}
		}
		l.next()
		if hasImm(fi, ir.ImmFuncRef) {
			p.ent("fn", uint32(d.Func))
		} else {
			p.operand(d.Args, 0)
			for j := 1; j < fi.Values; j++ { // no such format today
				p.str(", ")
				p.operand(d.Args, j)
			}
		}
		p.str("(")
		p.appendValues(d.Args[fixed:])
		p.str(")")
		for _, k := range fi.Imms {
			if k != ir.ImmSigRef && k != ir.ImmFuncRef && !isModifier(k) {
				p.appendImm(&l, k, d, &nd)
			}
		}
	} else {
		for j := 0; j < fi.Values; j++ {
			l.next()
			p.operand(d.Args, j)
		}
		for _, k := range fi.Imms {
			if !isModifier(k) {
				p.appendImm(&l, k, d, &nd)
			}
		}
		for _, v := range d.Args[fixed:] {
			l.next()
			if fi.Varargs {
				p.appendValue(v)
			} else {
				p.str("<extra operand ")
				p.appendValue(v)
				p.str(">")
			}
		}
	}
	for ; nd < len(d.Dests); nd++ {
		l.next()
		p.str("<extra block call ")
		p.appendBlockCall(&d.Dests[nd])
		p.str(">")
	}
	if len(d.Handlers) > 0 && !hasImm(fi, ir.ImmExceptionTable) {
		l.next()
		p.str("<extra exception handlers>")
	}
}

// appendUnknownOperands writes what an instruction with a bad opcode holds,
// so that nothing is hidden.
func (p *funcPrinter) appendUnknownOperands(d *ir.InstData) {
	l := operandList{p: p}
	for _, v := range d.Args {
		l.next()
		p.appendValue(v)
	}
	for k := range d.Dests {
		l.next()
		p.appendBlockCall(&d.Dests[k])
	}
}

// operand writes args[j] or a marker when it is missing.
func (p *funcPrinter) operand(args []ir.Value, j int) {
	if j < len(args) {
		p.appendValue(args[j])
	} else {
		p.str("<missing operand>")
	}
}

func (p *funcPrinter) appendValues(vs []ir.Value) {
	for k, v := range vs {
		if k > 0 {
			p.str(", ")
		}
		p.appendValue(v)
	}
}

// appendImm writes one non-modifier immediate or entity reference of kind
// k as operand items; nd counts the Dests consumed by block calls, jump
// tables and exception tables.
func (p *funcPrinter) appendImm(l *operandList, k ir.ImmKind, d *ir.InstData, nd *int) {
	switch k {
	case ir.ImmOffset32:
		p.buf = appendOffset32(p.buf, d.Imm)
	case ir.ImmJumpTable:
		// `default, [entry, entry]`
		l.next()
		p.takeDest(d, nd)
		l.next()
		p.str("[")
		for k := *nd; k < len(d.Dests); k++ {
			if k > *nd {
				p.str(", ")
			}
			p.appendBlockCall(&d.Dests[k])
		}
		*nd = len(d.Dests)
		p.str("]")
	case ir.ImmExceptionTable:
		// `sig0, block1(ret0), [ tag1: block2(exn0), default: block3, context v4 ]`
		l.next()
		p.ent("sig", uint32(d.Sig))
		l.next()
		p.takeDest(d, nd)
		l.next()
		p.str("[")
		for k := range d.Handlers {
			if k == 0 {
				p.str(" ")
			} else {
				p.str(", ")
			}
			p.appendHandler(&d.Handlers[k])
		}
		if len(d.Handlers) > 0 {
			p.str(" ")
		}
		p.str("]")
	default:
		l.next()
		p.appendSingleImm(k, d, nd)
	}
}

// appendSingleImm writes an immediate that is one operand item.
func (p *funcPrinter) appendSingleImm(k ir.ImmKind, d *ir.InstData, nd *int) {
	switch k {
	case ir.ImmInt64:
		p.buf = appendImm64(p.buf, signExtend(d.Imm, d.CtrlType))
	case ir.ImmUint8:
		p.buf = strconv.AppendInt(p.buf, d.Imm, 10)
	case ir.ImmIeee16:
		p.buf = appendF16(p.buf, d.FloatBits)
	case ir.ImmIeee32:
		p.buf = appendF32(p.buf, d.FloatBits)
	case ir.ImmIeee64:
		p.buf = appendF64(p.buf, d.FloatBits)
	case ir.ImmTrapCode:
		p.str(d.Trap.String())
	case ir.ImmFuncRef:
		p.ent("fn", uint32(d.Func))
	case ir.ImmSigRef:
		p.ent("sig", uint32(d.Sig))
	case ir.ImmStackSlot:
		p.ent("ss", uint32(d.Slot))
	case ir.ImmDynStackSlot:
		p.ent("dss", uint32(d.DynSlot))
	case ir.ImmGlobalValue:
		p.ent("gv", uint32(d.GV))
	case ir.ImmConstant:
		p.appendConstantOperand(d)
	case ir.ImmShuffleMask:
		if len(d.Bytes) == 0 {
			p.str("<missing mask>")
		} else {
			p.buf = appendLEHex(p.buf, d.Bytes)
		}
	case ir.ImmBlockCall:
		p.takeDest(d, nd)
	case ir.ImmRawBlock:
		p.appendBlockName(d.RawBlock)
	default:
		p.str("<bad immediate kind>")
	}
}

// signExtend reads an imm64 as a signed number of the controlling type's
// width, as write.rs does before printing iconst's immediate (the IR keeps
// it zero-extended: iconst.i8 -1 holds 255).
func signExtend(x int64, t ir.Type) int64 {
	if !t.Valid() {
		return x
	}
	bits := t.Bits()
	if bits == 0 || bits >= 64 {
		return x
	}
	shift := uint(64 - bits)
	return x << shift >> shift
}

// appendConstantOperand writes a constant reference or inline data: hex
// bytes, or a float for an opcode whose result is f128.
func (p *funcPrinter) appendConstantOperand(d *ir.InstData) {
	switch {
	case d.Const != ir.NoConstant:
		p.ent("const", uint32(d.Const))
	case len(d.Bytes) == 0:
		p.str("<missing constant>")
	case len(d.Bytes) == 16 && hasF128Result(d.Op):
		p.buf = appendF128(p.buf, d.Bytes)
	default:
		p.buf = appendLEHex(p.buf, d.Bytes)
	}
}

func hasF128Result(op ir.Opcode) bool {
	outs := op.Info().Outs
	return len(outs) > 0 && outs[0].Kind == ir.OperandFixed && outs[0].Type == ir.F128
}

// takeDest writes the next block call of d, or a marker when d has too few.
func (p *funcPrinter) takeDest(d *ir.InstData, nd *int) {
	if *nd >= len(d.Dests) {
		p.str("<missing block call>")
		return
	}
	p.appendBlockCall(&d.Dests[*nd])
	*nd++
}

// appendBlockCall writes `block3` or `block3(v1, ret0, exn0)`.
func (p *funcPrinter) appendBlockCall(c *ir.BlockCall) {
	p.appendBlockName(c.Block)
	if len(c.Args) == 0 {
		return
	}
	p.str("(")
	for k, a := range c.Args {
		if k > 0 {
			p.str(", ")
		}
		switch a.Kind {
		case ir.ArgValue:
			p.appendValue(a.Value)
		case ir.ArgRet:
			p.str("ret")
			p.buf = strconv.AppendUint(p.buf, uint64(a.Index), 10)
		case ir.ArgExn:
			p.str("exn")
			p.buf = strconv.AppendUint(p.buf, uint64(a.Index), 10)
		default:
			p.str("<bad block arg>")
		}
	}
	p.str(")")
}

func (p *funcPrinter) appendHandler(h *ir.ExceptionHandler) {
	switch h.Kind {
	case ir.HandlerTag:
		p.str("tag")
		p.buf = strconv.AppendUint(p.buf, uint64(h.Tag), 10)
		p.str(": ")
		p.appendBlockCall(&h.Dest)
	case ir.HandlerDefault:
		p.str("default: ")
		p.appendBlockCall(&h.Dest)
	case ir.HandlerContext:
		p.str("context ")
		p.appendValue(h.Context)
	default:
		p.str("<bad handler kind>")
	}
}

// appendConstComments writes `  ; v1 = 42, v2 = 0.0` naming every operand
// defined by a constant instruction, in write.rs's order (duplicates
// included): value operands, then block-call args (for an exception table
// the handlers' before the normal return's), then exception contexts.
func (p *funcPrinter) appendConstComments(d *ir.InstData) {
	sep := "  ; "
	visit := func(v ir.Value) {
		src := p.constSource(v)
		if src == nil {
			return
		}
		p.str(sep)
		sep = ", "
		p.appendValue(v)
		p.str(" = ")
		p.appendConstText(src)
	}
	visitCall := func(c *ir.BlockCall) {
		for _, a := range c.Args {
			if a.Kind == ir.ArgValue {
				visit(a.Value)
			}
		}
	}
	for _, v := range d.Args {
		visit(v)
	}
	if !hasImm(d.Op.Format(), ir.ImmExceptionTable) {
		for k := range d.Dests {
			visitCall(&d.Dests[k])
		}
		return
	}
	for k := range d.Handlers {
		if h := &d.Handlers[k]; h.Kind == ir.HandlerTag || h.Kind == ir.HandlerDefault {
			visitCall(&h.Dest)
		}
	}
	for k := range d.Dests {
		visitCall(&d.Dests[k])
	}
	for k := range d.Handlers {
		if h := &d.Handlers[k]; h.Kind == ir.HandlerContext {
			visit(h.Context)
		}
	}
}

// constSource returns the instruction defining v (after aliases) when it is
// a constant: a format with no value operands and one immediate that is an
// imm64, a float or a constant.
func (p *funcPrinter) constSource(v ir.Value) *ir.InstData {
	v = p.resolve(v)
	if v == ir.NoValue {
		return nil
	}
	vd := &p.f.Values[v]
	if vd.Kind != ir.DefResult || int(vd.Inst) >= len(p.f.Insts) {
		return nil
	}
	src := &p.f.Insts[vd.Inst]
	fi := src.Op.Format()
	if fi.Values != 0 || fi.Varargs || len(fi.Imms) != 1 {
		return nil
	}
	switch fi.Imms[0] {
	case ir.ImmInt64, ir.ImmIeee16, ir.ImmIeee32, ir.ImmIeee64, ir.ImmConstant:
		return src
	}
	return nil
}

// appendConstText writes the constant of src as the comment shows it: like
// the operand, except that an f128const naming a pool constant shows the
// float.
func (p *funcPrinter) appendConstText(src *ir.InstData) {
	k := src.Op.Format().Imms[0]
	if k == ir.ImmConstant && src.Const != ir.NoConstant && hasF128Result(src.Op) {
		for _, c := range p.f.Constants {
			if c.Num == src.Const && len(c.Bytes) == 16 {
				p.buf = appendF128(p.buf, c.Bytes)
				return
			}
		}
	}
	nd := 0
	p.appendSingleImm(k, src, &nd)
}
