package printer

import (
	"strconv"

	"cliff/lib/ir"
)

// appendInst writes instruction d (numbered i) after its indentation:
// results, opcode and `.type` suffix, operands, the constant comment, and
// a newline.
func (p *funcPrinter) appendInst(buf []byte, i ir.Inst, d *ir.InstData) []byte {
	switch len(d.Results) {
	case 0:
	case 1: // the usual case, without a loop or a call
		if s := p.spellings(d.Results[0]); s != nil { // appendValue, inlined
			buf = s.result.appendTo(buf)
		} else {
			buf = p.appendOtherValue(buf, d.Results[0])
			buf = append(buf, " = "...)
		}
	default:
		buf = p.appendValues(buf, d.Results)
		buf = append(buf, " = "...)
	}
	plan := planOf(d.Op)
	buf = plan.appendName(buf)
	if plan.suffix == suffixAlways || plan.suffix == suffixUnlessOperand && p.needsSuffix(plan.ctrlOperand, i, d) {
		buf = append(buf, '.')
		if name := staticTypeName(d.CtrlType); name != nil { // appendType, inlined
			buf = name.appendTo(buf)
		} else if d.CtrlType == ir.Invalid {
			buf = append(buf, "<missing type>"...)
		} else {
			buf = p.appendType(buf, d.CtrlType)
		}
	}
	buf = p.appendOperands(buf, plan.operands, d)
	if len(d.StackMap) > 0 {
		buf = p.appendStackMap(buf, d.StackMap)
	}
	if p.constComments {
		buf = p.appendConstComments(buf, plan.operands, d)
	}
	return append(buf, '\n')
}

// needsSuffix is write.rs's type_suffix rule for a polymorphic
// instruction whose table row names operand k as the one that carries the
// controlling type: the suffix is left out only when that operand is
// defined in the instruction's own block (so a reader has already seen its
// type). Two additions keep the text faithful where Cranelift's printer is
// not: the operand must be defined before the instruction (Cranelift also
// drops the suffix for a later definition, which breaks dominance and
// leaves a reader unable to type the instruction), and its type must be
// the controlling type (Cranelift derives the type from the operand and
// forgets a conflicting suffix such as `store.i32` of an i64).
func (p *funcPrinter) needsSuffix(k int, i ir.Inst, d *ir.InstData) bool {
	if k >= len(d.Args) {
		return true
	}
	// p.resolve, inlined for a value that is no alias (nearly all): the
	// value is looked up once.
	v := d.Args[k]
	if int(v) >= len(p.values) {
		return true // undefined
	}
	vd := &p.values[v]
	if vd.Kind == ir.DefAlias {
		if v = p.resolve(v); v == ir.NoValue {
			return true
		}
		vd = &p.values[v]
	}
	return vd.Type != d.CtrlType || !p.definedBefore(vd, i)
}

// definedBefore reports whether the value vd describes (no alias) is a
// param of i's block or the result of an instruction earlier in that
// block.
func (p *funcPrinter) definedBefore(vd *ir.ValueData, i ir.Inst) bool {
	at := p.instAt[i]
	if !at.placed {
		return false
	}
	switch vd.Kind {
	case ir.DefParam:
		return vd.Block == at.block
	case ir.DefResult:
		if int(vd.Inst) >= len(p.instAt) {
			return false
		}
		def := p.instAt[vd.Inst]
		return def.placed && def.block == at.block && def.pos < at.pos
	}
	return false
}

// resolve follows aliases to the value they stand for; it gives up (and
// returns NoValue) on an undefined value or an alias cycle.
func (p *funcPrinter) resolve(v ir.Value) ir.Value {
	values := p.f.Values
	if int(v) < len(values) && values[v].Kind != ir.DefAlias {
		return v // nearly every value is no alias
	}
	for range len(values) + 1 {
		if int(v) >= len(values) {
			return ir.NoValue
		}
		vd := &values[v]
		if vd.Kind != ir.DefAlias {
			return v
		}
		v = vd.AliasOf
	}
	return ir.NoValue
}

// appendStackMap writes `, stack_map=[i64 @ ss0+8, i32 @ ss1+0]` for a
// non-empty stack map. write.rs writes it only after a call's operands; an
// instruction of another kind with a stack map (which Cranelift's IR
// cannot hold) shows it all the same.
func (p *funcPrinter) appendStackMap(buf []byte, entries []ir.StackMapEntry) []byte {
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

// appendOperands writes the operands of d as its format's plan says (see
// operandPlan). Operands the format lacks room for, or needs but does not
// find, come out as markers.
func (p *funcPrinter) appendOperands(buf []byte, plan *operandPlan, d *ir.InstData) []byte {
	if plan.onlyValues && len(d.Args) == plan.values && len(d.Dests) == 0 && len(d.Handlers) == 0 {
		// What the items would write, as a plain list (see onlyValues).
		buf = append(buf, ' ')
		return p.appendValues(buf, d.Args)
	}
	if plan.unknown {
		return p.appendUnknownOperands(buf, d)
	}
	for _, k := range plan.modifiers {
		buf = appendModifier(buf, k, d)
	}
	if plan.bare && len(d.Args) == 0 && len(d.Dests) == 0 {
		return append(buf, ' ')
	}
	nd := 0 // Dests used so far
	for k := range plan.items {
		it := &plan.items[k]
		buf = it.sep.append(buf)
		switch it.kind {
		case itemValue:
			if int(it.value) >= len(d.Args) {
				buf = append(buf, "<missing operand>"...)
			} else if s := p.spellings(d.Args[it.value]); s != nil { // appendValue, inlined
				buf = s.name.appendTo(buf)
			} else {
				buf = p.appendOtherValue(buf, d.Args[it.value])
			}
		case itemBlockCall:
			buf = p.takeDest(buf, d, &nd)
		case itemImm:
			buf = p.appendSingleImm(buf, it.imm, d, &nd)
		case itemOffset:
			buf = appendOffset32(buf, d.Imm)
		case itemCallArgs:
			buf = append(buf, '(')
			buf = p.appendValues(buf, d.Args[min(plan.values, len(d.Args)):])
			buf = append(buf, ')')
		case itemJumpTable:
			buf = p.appendJumpTable(buf, d, &nd)
		case itemExceptionTable:
			buf = p.appendExceptionTable(buf, d, &nd)
		}
	}
	// Most instructions end here: see so without a call.
	if len(d.Args) > plan.values && !plan.callArgs || nd < len(d.Dests) || len(d.Handlers) > 0 && !plan.exceptionTable {
		buf = p.appendExtraOperands(buf, plan, d, nd)
	}
	return buf
}

// appendExtraOperands writes what follows the plan's items and depends on
// the instruction: variable args, and anything the format has no room for
// (the first nd Dests having been written).
func (p *funcPrinter) appendExtraOperands(buf []byte, plan *operandPlan, d *ir.InstData, nd int) []byte {
	l := operandList{n: plan.counted}
	if !plan.callArgs {
		for _, v := range d.Args[min(plan.values, len(d.Args)):] {
			buf = l.next(buf)
			if plan.varargs {
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
	if len(d.Handlers) > 0 && !plan.exceptionTable {
		buf = l.next(buf)
		buf = append(buf, "<extra exception handlers>"...)
	}
	return buf
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

// appendModifier writes a modifier immediate with its leading space.
func appendModifier(buf []byte, k ir.ImmKind, d *ir.InstData) []byte {
	switch k {
	case ir.ImmMemFlags:
		return appendMemFlags(buf, d.Flags)
	case ir.ImmIntCC:
		buf = append(buf, ' ')
		return append(buf, d.IntCC.String()...)
	case ir.ImmFloatCC:
		buf = append(buf, ' ')
		return append(buf, d.FloatCC.String()...)
	case ir.ImmAtomicRmwOp:
		buf = append(buf, ' ')
		return append(buf, d.RmwOp.String()...)
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

func (p *funcPrinter) appendValues(buf []byte, vs []ir.Value) []byte {
	for k, v := range vs {
		// appendValue, inlined, with the separator.
		switch s := p.spellings(v); {
		case s != nil && k > 0:
			buf = s.comma.appendTo(buf)
		case s != nil:
			buf = s.name.appendTo(buf)
		default:
			if k > 0 {
				buf = append(buf, ',', ' ')
			}
			buf = p.appendOtherValue(buf, v)
		}
	}
	return buf
}

// appendJumpTable writes `default, [entry, entry]`: the next block call,
// then all the rest; nd counts the Dests consumed.
func (p *funcPrinter) appendJumpTable(buf []byte, d *ir.InstData, nd *int) []byte {
	buf = p.takeDest(buf, d, nd)
	buf = append(buf, ", ["...)
	for k := *nd; k < len(d.Dests); k++ {
		if k > *nd {
			buf = append(buf, ", "...)
		}
		buf = p.appendBlockCall(buf, &d.Dests[k])
	}
	*nd = len(d.Dests)
	return append(buf, ']')
}

// appendExceptionTable writes
// `sig0, block1(ret0), [ tag1: block2(exn0), default: block3, context v4 ]`.
func (p *funcPrinter) appendExceptionTable(buf []byte, d *ir.InstData, nd *int) []byte {
	buf = appendEnt(buf, "sig", uint32(d.Sig))
	buf = append(buf, ", "...)
	buf = p.takeDest(buf, d, nd)
	buf = append(buf, ", ["...)
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
	return append(buf, ']')
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
	if int(t) >= len(signShifts) {
		return x
	}
	shift := signShifts[t]
	return x << shift >> shift
}

// signShifts holds, for each type narrower than 64 bits, the shift that
// sign-extends a number of its width; 0 for the others (and for invalid
// types, whose immediates print as stored).
var signShifts = func() (shifts [1 << 9]uint8) {
	for t := range shifts {
		if ir.Type(t).Valid() {
			if bits := ir.Type(t).Bits(); bits > 0 && bits < 64 {
				shifts[t] = uint8(64 - bits)
			}
		}
	}
	return shifts
}()

// appendConstantOperand writes a constant reference or inline data: hex
// bytes, or a float for an opcode whose result is f128.
func (p *funcPrinter) appendConstantOperand(buf []byte, d *ir.InstData) []byte {
	switch {
	case d.Const != ir.NoConstant:
		buf = appendEnt(buf, "const", uint32(d.Const))
	case len(d.Bytes) == 0:
		buf = append(buf, "<missing constant>"...)
	case len(d.Bytes) == 16 && planOf(d.Op).f128Result:
		buf = appendF128(buf, d.Bytes)
	default:
		buf = appendLEHex(buf, d.Bytes)
	}
	return buf
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
		if a.Kind == ir.ArgValue {
			if s := p.spellings(a.Value); s != nil { // appendValue, inlined, with the separator
				if k > 0 {
					buf = s.comma.appendTo(buf)
				} else {
					buf = s.name.appendTo(buf)
				}
				continue
			}
		}
		if k > 0 {
			buf = append(buf, ", "...)
		}
		switch a.Kind {
		case ir.ArgValue:
			buf = p.appendOtherValue(buf, a.Value)
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
func (p *funcPrinter) appendConstComments(buf []byte, plan *operandPlan, d *ir.InstData) []byte {
	c := constComment{p: p, start: len(buf)}
	for _, v := range d.Args {
		buf = c.visit(buf, v)
	}
	if !plan.exceptionTable {
		for k := range d.Dests {
			buf = c.visitCall(buf, &d.Dests[k])
		}
		return buf
	}
	for k := range d.Handlers {
		if h := &d.Handlers[k]; h.Kind == ir.HandlerTag || h.Kind == ir.HandlerDefault {
			buf = c.visitCall(buf, &h.Dest)
		}
	}
	for k := range d.Dests {
		buf = c.visitCall(buf, &d.Dests[k])
	}
	for k := range d.Handlers {
		if h := &d.Handlers[k]; h.Kind == ir.HandlerContext {
			buf = c.visit(buf, h.Context)
		}
	}
	return buf
}

// constComment writes one instruction's constant comment; start is where
// the line's text ended before it, so the first entry opens the comment.
type constComment struct {
	p     *funcPrinter
	start int
}

// visit adds `v1 = 42` when v is defined by a constant instruction.
func (c *constComment) visit(buf []byte, v ir.Value) []byte {
	if int(v) >= len(c.p.isConst) || !c.p.isConst[v] {
		return buf
	}
	return c.add(buf, v)
}

func (c *constComment) add(buf []byte, v ir.Value) []byte {
	src := c.p.constSource(v)
	if len(buf) == c.start {
		buf = append(buf, "  ; "...)
	} else {
		buf = append(buf, ", "...)
	}
	buf = c.p.appendValue(buf, v)
	buf = append(buf, " = "...)
	return c.p.appendConstText(buf, src)
}

func (c *constComment) visitCall(buf []byte, bc *ir.BlockCall) []byte {
	for _, a := range bc.Args {
		if a.Kind == ir.ArgValue {
			buf = c.visit(buf, a.Value)
		}
	}
	return buf
}

// constSource returns the instruction defining v (after aliases) when it is
// a constant (see constantImm).
func (p *funcPrinter) constSource(v ir.Value) *ir.InstData {
	v = p.resolve(v)
	if v == ir.NoValue {
		return nil
	}
	vd := &p.values[v]
	if vd.Kind != ir.DefResult || int(vd.Inst) >= len(p.f.Insts) {
		return nil
	}
	if src := &p.f.Insts[vd.Inst]; planOf(src.Op).constImm != ir.ImmNone {
		return src
	}
	return nil
}

// appendConstText writes the constant of src as the comment shows it: like
// the operand, except that an f128const naming a pool constant shows the
// float.
func (p *funcPrinter) appendConstText(buf []byte, src *ir.InstData) []byte {
	plan := planOf(src.Op)
	k := plan.constImm
	if k == ir.ImmConstant && src.Const != ir.NoConstant && plan.f128Result {
		for _, c := range p.f.Constants {
			if c.Num == src.Const && len(c.Bytes) == 16 {
				return appendF128(buf, c.Bytes)
			}
		}
	}
	nd := 0
	return p.appendSingleImm(buf, k, src, &nd)
}
