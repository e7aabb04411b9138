package printer

import (
	"strconv"

	"cliff/lib/ir"
)

// appendInst writes an instruction after its indentation: results, opcode
// and `.type` suffix, operands, the constant comment, and a newline.
func (p *funcPrinter) appendInst(buf []byte, i ir.Inst) []byte {
	d := &p.f.Insts[i]
	for k, r := range d.Results {
		if k > 0 {
			buf = append(buf, ", "...)
		}
		buf = p.appendValue(buf, r)
	}
	if len(d.Results) > 0 {
		buf = append(buf, " = "...)
	}
	buf = append(buf, d.Op.String()...)
	if p.needsSuffix(i, d) {
		buf = append(buf, '.')
		if d.CtrlType == ir.Invalid {
			buf = append(buf, "<missing type>"...)
		} else {
			buf = p.appendType(buf, d.CtrlType)
		}
	}
	buf = p.appendOperands(buf, d)
	buf = p.appendStackMap(buf, d.StackMap)
	if !p.opts.NoConstComments && !p.opts.Compact {
		buf = p.appendConstComments(buf, d)
	}
	return append(buf, '\n')
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
func (p *funcPrinter) appendStackMap(buf []byte, entries []ir.StackMapEntry) []byte {
	if len(entries) == 0 {
		return buf
	}
	buf = append(buf, ", stack_map=["...)
	for k, e := range entries {
		if k > 0 {
			buf = append(buf, ", "...)
		}
		buf = p.appendType(buf, e.Type)
		buf = append(buf, " @ "...)
		buf = appendEnt(buf, "ss", uint32(e.Slot))
		buf = append(buf, '+')
		buf = strconv.AppendUint(buf, uint64(e.Offset), 10)
	}
	return append(buf, ']')
}

// operandList counts the comma-separated operand items written: a space
// goes before the first, ", " before the others.
type operandList struct{ n int }

// next writes the separator before another item.
func (l *operandList) next(buf []byte) []byte {
	l.n++
	if l.n == 1 {
		return append(buf, ' ')
	}
	return append(buf, ", "...)
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
func (p *funcPrinter) appendOperands(buf []byte, d *ir.InstData) []byte {
	info := d.Op.Info()
	fi := info.Format.Info()
	if info.Format == ir.FormatInvalid {
		return p.appendUnknownOperands(buf, d)
	}
	for _, k := range fi.Imms {
		switch k {
		case ir.ImmMemFlags:
			buf = appendMemFlags(buf, d.Flags)
		case ir.ImmIntCC:
			buf = append(buf, ' ')
			buf = append(buf, d.IntCC.String()...)
		case ir.ImmFloatCC:
			buf = append(buf, ' ')
			buf = append(buf, d.FloatCC.String()...)
		case ir.ImmAtomicRmwOp:
			buf = append(buf, ' ')
			buf = append(buf, d.RmwOp.String()...)
		}
	}
	if fi.Values == 0 && !fi.Varargs && len(fi.Imms) == 0 && len(d.Args) == 0 && len(d.Dests) == 0 {
		return append(buf, ' ')
	}

	var l operandList
	nd := 0 // Dests used so far
	fixed := min(fi.Values, len(d.Args))
	if fi.Varargs && (hasImm(fi, ir.ImmFuncRef) || fi.Values >= 1) {
		for _, k := range fi.Imms {
			if k == ir.ImmSigRef {
				buf = l.next(buf)
				buf = appendEnt(buf, "sig", uint32(d.Sig))
			}
		}
		buf = l.next(buf)
		if hasImm(fi, ir.ImmFuncRef) {
			buf = appendEnt(buf, "fn", uint32(d.Func))
		} else {
			buf = p.operand(buf, d.Args, 0)
			for j := 1; j < fi.Values; j++ { // no such format today
				buf = append(buf, ", "...)
				buf = p.operand(buf, d.Args, j)
			}
		}
		buf = append(buf, '(')
		buf = p.appendValues(buf, d.Args[fixed:])
		buf = append(buf, ')')
		for _, k := range fi.Imms {
			if k != ir.ImmSigRef && k != ir.ImmFuncRef && !isModifier(k) {
				buf = p.appendImm(buf, &l, k, d, &nd)
			}
		}
	} else {
		for j := 0; j < fi.Values; j++ {
			buf = l.next(buf)
			buf = p.operand(buf, d.Args, j)
		}
		for _, k := range fi.Imms {
			if !isModifier(k) {
				buf = p.appendImm(buf, &l, k, d, &nd)
			}
		}
		for _, v := range d.Args[fixed:] {
			buf = l.next(buf)
			if fi.Varargs {
				buf = p.appendValue(buf, v)
			} else {
				buf = append(buf, "<extra operand "...)
				buf = p.appendValue(buf, v)
				buf = append(buf, '>')
			}
		}
	}
	for ; nd < len(d.Dests); nd++ {
		buf = l.next(buf)
		buf = append(buf, "<extra block call "...)
		buf = p.appendBlockCall(buf, &d.Dests[nd])
		buf = append(buf, '>')
	}
	if len(d.Handlers) > 0 && !hasImm(fi, ir.ImmExceptionTable) {
		buf = l.next(buf)
		buf = append(buf, "<extra exception handlers>"...)
	}
	return buf
}

// appendUnknownOperands writes what an instruction with a bad opcode holds,
// so that nothing is hidden.
func (p *funcPrinter) appendUnknownOperands(buf []byte, d *ir.InstData) []byte {
	var l operandList
	for _, v := range d.Args {
		buf = l.next(buf)
		buf = p.appendValue(buf, v)
	}
	for k := range d.Dests {
		buf = l.next(buf)
		buf = p.appendBlockCall(buf, &d.Dests[k])
	}
	return buf
}

// operand writes args[j] or a marker when it is missing.
func (p *funcPrinter) operand(buf []byte, args []ir.Value, j int) []byte {
	if j < len(args) {
		return p.appendValue(buf, args[j])
	}
	return append(buf, "<missing operand>"...)
}

func (p *funcPrinter) appendValues(buf []byte, vs []ir.Value) []byte {
	for k, v := range vs {
		if k > 0 {
			buf = append(buf, ", "...)
		}
		buf = p.appendValue(buf, v)
	}
	return buf
}

// appendImm writes one non-modifier immediate or entity reference of kind
// k as operand items; nd counts the Dests consumed by block calls, jump
// tables and exception tables.
func (p *funcPrinter) appendImm(buf []byte, l *operandList, k ir.ImmKind, d *ir.InstData, nd *int) []byte {
	switch k {
	case ir.ImmOffset32:
		buf = appendOffset32(buf, d.Imm)
	case ir.ImmJumpTable:
		// `default, [entry, entry]`
		buf = l.next(buf)
		buf = p.takeDest(buf, d, nd)
		buf = l.next(buf)
		buf = append(buf, '[')
		for k := *nd; k < len(d.Dests); k++ {
			if k > *nd {
				buf = append(buf, ", "...)
			}
			buf = p.appendBlockCall(buf, &d.Dests[k])
		}
		*nd = len(d.Dests)
		buf = append(buf, ']')
	case ir.ImmExceptionTable:
		// `sig0, block1(ret0), [ tag1: block2(exn0), default: block3, context v4 ]`
		buf = l.next(buf)
		buf = appendEnt(buf, "sig", uint32(d.Sig))
		buf = l.next(buf)
		buf = p.takeDest(buf, d, nd)
		buf = l.next(buf)
		buf = append(buf, '[')
		for k := range d.Handlers {
			if k == 0 {
				buf = append(buf, ' ')
			} else {
				buf = append(buf, ", "...)
			}
			buf = p.appendHandler(buf, &d.Handlers[k])
		}
		if len(d.Handlers) > 0 {
			buf = append(buf, ' ')
		}
		buf = append(buf, ']')
	default:
		buf = l.next(buf)
		buf = p.appendSingleImm(buf, k, d, nd)
	}
	return buf
}

// appendSingleImm writes an immediate that is one operand item.
func (p *funcPrinter) appendSingleImm(buf []byte, k ir.ImmKind, d *ir.InstData, nd *int) []byte {
	switch k {
	case ir.ImmInt64:
		buf = appendImm64(buf, signExtend(d.Imm, d.CtrlType))
	case ir.ImmUint8:
		buf = strconv.AppendInt(buf, d.Imm, 10)
	case ir.ImmIeee16:
		buf = appendF16(buf, d.FloatBits)
	case ir.ImmIeee32:
		buf = appendF32(buf, d.FloatBits)
	case ir.ImmIeee64:
		buf = appendF64(buf, d.FloatBits)
	case ir.ImmTrapCode:
		buf = appendTrapCode(buf, d.Trap)
	case ir.ImmFuncRef:
		buf = appendEnt(buf, "fn", uint32(d.Func))
	case ir.ImmSigRef:
		buf = appendEnt(buf, "sig", uint32(d.Sig))
	case ir.ImmStackSlot:
		buf = appendEnt(buf, "ss", uint32(d.Slot))
	case ir.ImmDynStackSlot:
		buf = appendEnt(buf, "dss", uint32(d.DynSlot))
	case ir.ImmGlobalValue:
		buf = appendEnt(buf, "gv", uint32(d.GV))
	case ir.ImmConstant:
		buf = p.appendConstantOperand(buf, d)
	case ir.ImmShuffleMask:
		if len(d.Bytes) == 0 {
			buf = append(buf, "<missing mask>"...)
		} else {
			buf = appendLEHex(buf, d.Bytes)
		}
	case ir.ImmBlockCall:
		buf = p.takeDest(buf, d, nd)
	case ir.ImmRawBlock:
		buf = appendBlockName(buf, d.RawBlock)
	default:
		buf = append(buf, "<bad immediate kind>"...)
	}
	return buf
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
func (p *funcPrinter) appendConstantOperand(buf []byte, d *ir.InstData) []byte {
	switch {
	case d.Const != ir.NoConstant:
		buf = appendEnt(buf, "const", uint32(d.Const))
	case len(d.Bytes) == 0:
		buf = append(buf, "<missing constant>"...)
	case len(d.Bytes) == 16 && hasF128Result(d.Op):
		buf = appendF128(buf, d.Bytes)
	default:
		buf = appendLEHex(buf, d.Bytes)
	}
	return buf
}

func hasF128Result(op ir.Opcode) bool {
	outs := op.Info().Outs
	return len(outs) > 0 && outs[0].Kind == ir.OperandFixed && outs[0].Type == ir.F128
}

// takeDest writes the next block call of d, or a marker when d has too few.
func (p *funcPrinter) takeDest(buf []byte, d *ir.InstData, nd *int) []byte {
	if *nd >= len(d.Dests) {
		return append(buf, "<missing block call>"...)
	}
	c := &d.Dests[*nd]
	*nd++
	return p.appendBlockCall(buf, c)
}

// appendBlockCall writes `block3` or `block3(v1, ret0, exn0)`.
func (p *funcPrinter) appendBlockCall(buf []byte, c *ir.BlockCall) []byte {
	buf = appendBlockName(buf, c.Block)
	if len(c.Args) == 0 {
		return buf
	}
	buf = append(buf, '(')
	for k, a := range c.Args {
		if k > 0 {
			buf = append(buf, ", "...)
		}
		switch a.Kind {
		case ir.ArgValue:
			buf = p.appendValue(buf, a.Value)
		case ir.ArgRet:
			buf = append(buf, "ret"...)
			buf = strconv.AppendUint(buf, uint64(a.Index), 10)
		case ir.ArgExn:
			buf = append(buf, "exn"...)
			buf = strconv.AppendUint(buf, uint64(a.Index), 10)
		default:
			buf = append(buf, "<bad block arg>"...)
		}
	}
	return append(buf, ')')
}

func (p *funcPrinter) appendHandler(buf []byte, h *ir.ExceptionHandler) []byte {
	switch h.Kind {
	case ir.HandlerTag:
		buf = append(buf, "tag"...)
		buf = strconv.AppendUint(buf, uint64(h.Tag), 10)
		buf = append(buf, ": "...)
		buf = p.appendBlockCall(buf, &h.Dest)
	case ir.HandlerDefault:
		buf = append(buf, "default: "...)
		buf = p.appendBlockCall(buf, &h.Dest)
	case ir.HandlerContext:
		buf = append(buf, "context "...)
		buf = p.appendValue(buf, h.Context)
	default:
		buf = append(buf, "<bad handler kind>"...)
	}
	return buf
}

// appendConstComments writes `  ; v1 = 42, v2 = 0.0` naming every operand
// defined by a constant instruction, in write.rs's order (duplicates
// included): value operands, then block-call args (for an exception table
// the handlers' before the normal return's), then exception contexts.
func (p *funcPrinter) appendConstComments(buf []byte, d *ir.InstData) []byte {
	start := len(buf)
	visit := func(buf []byte, v ir.Value) []byte {
		src := p.constSource(v)
		if src == nil {
			return buf
		}
		if len(buf) == start {
			buf = append(buf, "  ; "...)
		} else {
			buf = append(buf, ", "...)
		}
		buf = p.appendValue(buf, v)
		buf = append(buf, " = "...)
		return p.appendConstText(buf, src)
	}
	visitCall := func(buf []byte, c *ir.BlockCall) []byte {
		for _, a := range c.Args {
			if a.Kind == ir.ArgValue {
				buf = visit(buf, a.Value)
			}
		}
		return buf
	}
	for _, v := range d.Args {
		buf = visit(buf, v)
	}
	if !hasImm(d.Op.Format(), ir.ImmExceptionTable) {
		for k := range d.Dests {
			buf = visitCall(buf, &d.Dests[k])
		}
		return buf
	}
	for k := range d.Handlers {
		if h := &d.Handlers[k]; h.Kind == ir.HandlerTag || h.Kind == ir.HandlerDefault {
			buf = visitCall(buf, &h.Dest)
		}
	}
	for k := range d.Dests {
		buf = visitCall(buf, &d.Dests[k])
	}
	for k := range d.Handlers {
		if h := &d.Handlers[k]; h.Kind == ir.HandlerContext {
			buf = visit(buf, h.Context)
		}
	}
	return buf
}

// constSource returns the instruction defining v (after aliases) when it is
// a constant (see constantOps).
func (p *funcPrinter) constSource(v ir.Value) *ir.InstData {
	v = p.resolve(v)
	if v == ir.NoValue {
		return nil
	}
	vd := &p.f.Values[v]
	if vd.Kind != ir.DefResult || int(vd.Inst) >= len(p.f.Insts) {
		return nil
	}
	if src := &p.f.Insts[vd.Inst]; int(src.Op) < len(constantOps) && constantOps[src.Op] {
		return src
	}
	return nil
}

// constantOps marks the opcodes whose results the constant comments name:
// those of a format with no value operands and one immediate that is an
// imm64, a float or a constant (iconst, f32const, vconst, ...).
var constantOps = func() []bool {
	ops := ir.Opcodes()
	out := make([]bool, len(ops)+1)
	for _, op := range ops {
		fi := op.Format()
		if fi.Values != 0 || fi.Varargs || len(fi.Imms) != 1 {
			continue
		}
		switch fi.Imms[0] {
		case ir.ImmInt64, ir.ImmIeee16, ir.ImmIeee32, ir.ImmIeee64, ir.ImmConstant:
			out[op] = true
		}
	}
	return out
}()

// appendConstText writes the constant of src as the comment shows it: like
// the operand, except that an f128const naming a pool constant shows the
// float.
func (p *funcPrinter) appendConstText(buf []byte, src *ir.InstData) []byte {
	k := src.Op.Format().Imms[0]
	if k == ir.ImmConstant && src.Const != ir.NoConstant && hasF128Result(src.Op) {
		for _, c := range p.f.Constants {
			if c.Num == src.Const && len(c.Bytes) == 16 {
				return appendF128(buf, c.Bytes)
			}
		}
	}
	nd := 0
	return p.appendSingleImm(buf, k, src, &nd)
}
