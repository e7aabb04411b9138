package verify

import "cliff/lib/ir"

// Checks the opcode table cannot express, each as Cranelift's verifier has
// it: immediates in range, memory flags, address widths, constant sizes,
// target settings some opcodes need, and which instructions may carry debug
// tags; and one Cranelift leaves to its parser: which may carry a stack map.
// These are the only places that name opcodes.

// checkSpecial runs the checks the table cannot express: where debug tags
// and stack maps may be, then those of inst's opcode and format.
func (v *verifier) checkSpecial(inst ir.Inst, d *ir.InstData, r *opRules) {
	isCall, isReturn := r.flags.Has(ir.FlagCall), r.flags.Has(ir.FlagReturn)
	if len(d.DebugTags) > 0 && !isCall && d.Op != ir.OpSequencePoint {
		v.instErr(inst, "debug tags present on non-call, non-sequence point instruction")
	}
	if len(d.StackMap) > 0 && (!isCall || isReturn) {
		v.instErr(inst, "stack map can only be attached to a (non-tail) call")
	}
	for _, check := range r.special {
		check(v, inst, d)
	}
}

// opcodeChecks and formatChecks are the special checks of the instructions
// of an opcode or of a format. An instruction gets its opcode's, then its
// format's, then, if it accesses memory, the address width check (the
// order of their messages).
var (
	opcodeChecks = map[ir.Opcode]instCheck{
		ir.OpExtractlane:      (*verifier).checkLane,
		ir.OpInsertlane:       (*verifier).checkLane,
		ir.OpBitcast:          (*verifier).checkBitcast,
		ir.OpGetPinnedReg:     (*verifier).checkPinnedReg,
		ir.OpSetPinnedReg:     (*verifier).checkPinnedReg,
		ir.OpGetFramePointer:  (*verifier).checkFramePointer,
		ir.OpGetReturnAddress: (*verifier).checkFramePointer,
	}
	formatChecks = map[ir.Format]instCheck{
		ir.FormatStore:            (*verifier).checkStoreFlags,
		ir.FormatShuffle:          (*verifier).checkShuffleMask,
		ir.FormatUnaryImm:         (*verifier).checkIntImmBounds,
		ir.FormatUnaryConst:       (*verifier).checkConstantSize,
		ir.FormatUnaryGlobalValue: (*verifier).checkGlobalValueType,
	}
)

// specialChecksOf lists the special checks of op's instructions.
func specialChecksOf(op ir.Opcode) []instCheck {
	var checks []instCheck
	if c := opcodeChecks[op]; c != nil {
		checks = append(checks, c)
	}
	if c := formatChecks[op.Info().Format]; c != nil {
		checks = append(checks, c)
	}
	if addressOperand(op.Info()) >= 0 {
		checks = append(checks, (*verifier).checkAddressWidth)
	}
	return checks
}

// checkLane checks that extractlane and insertlane index a lane of their
// vector.
func (v *verifier) checkLane(inst ir.Inst, d *ir.InstData) {
	if t := v.valueType(d.Args[0]); t != ir.Invalid && d.Imm >= int64(t.Lanes()) {
		v.instErr(inst, "The lane %d does not index into the type %s", d.Imm, t)
	}
}

// checkPinnedReg checks that get_pinned_reg and set_pinned_reg have a
// target with a pinned register.
func (v *verifier) checkPinnedReg(inst ir.Inst, d *ir.InstData) {
	switch {
	case v.opts.PointerType == ir.Invalid:
		v.instErr(inst, "GetPinnedReg/SetPinnedReg need an ISA!")
	case !v.opts.EnablePinnedReg:
		v.instErr(inst, "GetPinnedReg/SetPinnedReg cannot be used without enable_pinned_reg")
	}
}

// checkFramePointer checks that get_frame_pointer and get_return_address
// have a target that keeps frame pointers.
func (v *verifier) checkFramePointer(inst ir.Inst, d *ir.InstData) {
	switch {
	case v.opts.PointerType == ir.Invalid:
		v.instErr(inst, "`get_frame_pointer`/`get_return_address` require an ISA!")
	case !v.opts.PreserveFramePointers:
		v.instErr(inst, "`get_frame_pointer`/`get_return_address` cannot be used without enabling `preserve_frame_pointers`")
	}
}

// checkStoreFlags checks that a store is not marked readonly.
func (v *verifier) checkStoreFlags(inst ir.Inst, d *ir.InstData) {
	if d.Flags.Readonly {
		v.instErr(inst, "A store instruction cannot have the `readonly` MemFlag")
	}
}

// checkShuffleMask checks shuffle's 16 lane indexes into two i8x16.
func (v *verifier) checkShuffleMask(inst ir.Inst, d *ir.InstData) {
	mask := d.Bytes
	if len(mask) != 16 {
		v.instErr(inst, "the shuffle immediate wasn't 16-bytes long")
		return
	}
	for _, i := range mask {
		if i >= 32 {
			v.instErr(inst, "shuffle immediate index %d is larger than the maximum 31", i)
			return
		}
	}
}

// checkIntImmBounds checks that an integer constant fits its type without
// sign bits above it (iconst.i8 0xff, not -1).
func (v *verifier) checkIntImmBounds(inst ir.Inst, d *ir.InstData) {
	t, ok := v.ctrlType(d, rulesOf(d.Op))
	if !ok || !t.IsInt() || t.Bits() >= 64 {
		return
	}
	if uint64(d.Imm)>>t.Bits() != 0 {
		v.instErr(inst, "constant immediate is out of bounds")
	}
}

// checkConstantSize checks that a constant fills its result type exactly.
func (v *verifier) checkConstantSize(inst ir.Inst, d *ir.InstData) {
	if len(d.Results) == 0 {
		return
	}
	t := v.valueType(d.Results[0])
	if t == ir.Invalid || t.IsDynamic() {
		return
	}
	data, name := d.Bytes, "the constant"
	if d.Const != ir.NoConstant {
		c := v.constant(d.Const)
		if c == nil {
			return // reported by checkEntityRefs
		}
		data, name = c.Bytes, d.Const.String()
	}
	if len(data) != t.Bytes() {
		v.instErr(inst, "The instruction expects %s to have a size of %d bytes but it has %d", name, t.Bytes(), len(data))
	}
}

// checkBitcast checks that a bitcast keeps the width, takes no memory flag
// but an explicit byte order, and has one when it changes the lane count.
func (v *verifier) checkBitcast(inst ir.Inst, d *ir.InstData) {
	to, ok := v.ctrlType(d, rulesOf(d.Op))
	from := v.valueType(d.Args[0])
	if !ok || from == ir.Invalid {
		return
	}
	fl := d.Flags
	switch {
	case to.Bits() != from.Bits():
		v.instErr(inst, "The bitcast argument %s has a type of %d bits, which doesn't match an expected type of %d bits",
			d.Args[0], from.Bits(), to.Bits())
	case fl.NoTrap || fl.Trap != ir.TrapNone || fl.Aligned || fl.Readonly || fl.CanMove || fl.HasRegion:
		v.instErr(inst, "The bitcast instruction only accepts the `big` or `little` memory flags")
	case d.Flags.Endian == ir.EndianNative && to.Lanes() != from.Lanes():
		v.instErr(inst, "Byte order specifier required for bitcast instruction changing lane count")
	}
}

// checkGlobalValueType checks that symbol_value and tls_value produce the
// type of their global value (known only with a target).
func (v *verifier) checkGlobalValueType(inst ir.Inst, d *ir.InstData) {
	g := v.gv(d.GV)
	if v.opts.PointerType == ir.Invalid || g == nil || len(d.Results) == 0 {
		return
	}
	got, want := v.valueType(d.Results[0]), v.gvType(g)
	if got != ir.Invalid && got != want {
		v.instErr(inst, "global_value instruction with type %s references global value with type %s", got, want)
	}
}

// addressOperand is the operand of a memory access that holds the address,
// by format (-1: none); only opcodes that load or store have one.
func addressOperand(info *ir.OpcodeInfo) int {
	mem := info.Flags&(ir.FlagCanLoad|ir.FlagCanStore) != 0
	if !mem {
		return -1
	}
	switch info.Format {
	case ir.FormatLoad, ir.FormatLoadNoOffset, ir.FormatAtomicCas, ir.FormatAtomicRmw:
		return 0
	case ir.FormatStore, ir.FormatStoreNoOffset:
		return 1
	}
	return -1
}

// checkAddressWidth checks that a memory access's address has the target's
// pointer width.
func (v *verifier) checkAddressWidth(inst ir.Inst, d *ir.InstData) {
	ptr := v.opts.PointerType
	if ptr == ir.Invalid {
		return
	}
	a := d.Args[addressOperand(d.Op.Info())]
	t := v.valueType(a)
	if t != ir.Invalid && t.Bits() != ptr.Bits() {
		v.instErr(inst, "invalid pointer width (got %d, expected %d) encountered %s", t.Bits(), ptr.Bits(), a)
	}
}
