package gen

import (
	"encoding/binary"

	"cliff/lib/ir"
	"cliff/lib/ub"
)

// freeVarRules constrain the type of an operand whose type variable is
// not the controlling one, beyond the variable's type set: the rules the
// opcode table's free lines name.
var freeVarRules = map[string]func(ctrl, t ir.Type) bool{
	"same_bits":  sameBits,
	"same_shape": sameShape,
	"same_lanes": sameLanes,
	"vector":     func(ctrl, t ir.Type) bool { return t.IsVector() },
}

func sameBits(ctrl, t ir.Type) bool { return ctrl.Bits() == t.Bits() && ctrl != t }

// sameShape: a scalar converts from any scalar, a vector from a vector of
// as many lanes of the same width.
func sameShape(ctrl, t ir.Type) bool {
	if ctrl.IsVector() || t.IsVector() {
		return ctrl.Lanes() == t.Lanes() && ctrl.LaneBits() == t.LaneBits()
	}
	return true
}

func sameLanes(ctrl, t ir.Type) bool { return ctrl.Lanes() == t.Lanes() }

// freeTypeOK reports whether t may be the type of ot's operands of free
// type variable tv: in the variable's set, allowed by the profile (its
// `with` lists), and by the opcode's rule.
func (tab *tables) freeTypeOK(ot opType, tv int, t ir.Type) bool {
	if !ot.op.Info().TypeVars[tv].Set.Contains(t) {
		return false
	}
	if rule := ot.op.Info().FreeRule; rule != "" && !freeVarRules[rule](ot.ctrl, t) {
		return false
	}
	return !tab.restrictsFree(ot.op, ot.ctrl) || tab.prof.AllowsFree(ot.op, ot.ctrl, t)
}

// operandType chooses the type of operand k of ot, or Invalid when the
// case has no fitting type.
func (fg *funcGen) operandType(r *rng, ot opType, k int) ir.Type {
	in := ot.op.Info().Ins[k]
	if t, fixed := boundType(in, ot.ctrl); fixed {
		return fg.caseType(t)
	}
	if in.Kind != ir.OperandTypeVar {
		return ir.Invalid
	}
	cands := fg.c.tab.operandTypes(ot, k) & fg.c.typeSet
	if cands == 0 {
		return ir.Invalid
	}
	return cands.nth(r.intn(cands.len()))
}

// boundType is the type of an operand or result that the opcode fixes or
// that follows the controlling type ctrl, and whether it is one (a free
// type variable, or a narrower or wider one, is chosen instead).
func boundType(o ir.Operand, ctrl ir.Type) (ir.Type, bool) {
	switch {
	case o.Kind == ir.OperandFixed:
		return o.Type, true
	case o.Kind == ir.OperandTypeVar && o.TypeVar == 0 && o.Derive != ir.DeriveNarrower && o.Derive != ir.DeriveWider:
		return o.Derive.Apply(ctrl), true
	}
	return ir.Invalid, false
}

// caseType is t when the case uses values of t (its swarm's types), else
// ir.Invalid: an opcode whose operand type is fixed or follows its
// controlling type (swizzle's i8x16) must not bring in a type the case
// left out (--features vectors=off still made splats and shuffles).
func (fg *funcGen) caseType(t ir.Type) ir.Type {
	if !fg.c.typeOK(t) {
		return ir.Invalid
	}
	return t
}

// resultTypesOK reports whether the case uses the types of ot's results
// that are fixed or follow its controlling type.
func (fg *funcGen) resultTypesOK(ot opType) bool {
	for _, out := range ot.op.Info().Outs {
		if t, fixed := boundType(out, ot.ctrl); fixed && !fg.c.typeOK(t) {
			return false
		}
	}
	return true
}

// operandTypes returns the candidate types operand k of ot may have where
// the controlling type does not fix it (a free type variable, or a
// narrower or wider one), as the profile and the opcode's rules allow.
// They depend on the profile only: computed once per operand.
func (tab *tables) operandTypes(ot opType, k int) candidateSet {
	key := operandKey{ot, k}
	if set, ok := tab.freeOperands[key]; ok {
		return set
	}
	in := ot.op.Info().Ins[k]
	var set candidateSet
	for i, t := range candidateTypes {
		if in.TypeVar == 0 {
			if in.Derive.Admits(ot.ctrl, t) && tab.allowsFree(ot.op, ot.ctrl, t) {
				set |= 1 << i
			}
		} else if tab.freeTypeOK(ot, in.TypeVar, t) {
			set |= 1 << i
		}
	}
	tab.freeOperands[key] = set
	return set
}

// operandKey names operand k of ot.
type operandKey struct {
	ot opType
	k  int
}

// emit appends an instance of ot: operands from args where given (a
// snippet's dataflow) and chosen otherwise, immediates from imms where
// given and drawn otherwise, guards and NaN canonicalisation as lib/ub
// requires. It returns the results, or nil when the case cannot express
// the instruction (then nothing is appended).
func (fg *funcGen) emit(r *rng, ot opType, args []ir.Value, imms *ir.InstData) []ir.Value {
	info := ot.op.Info()
	if !fg.resultTypesOK(ot) {
		return nil
	}
	types := make([]ir.Type, len(info.Ins))
	for k := range info.Ins {
		if k < len(args) && args[k] != ir.NoValue {
			types[k] = fg.f.Values[args[k]].Type
			continue
		}
		if types[k] = fg.operandType(r, ot, k); types[k] == ir.Invalid {
			return nil
		}
	}
	if ot.op == ir.OpIconcat && types[0] != types[1] {
		types[1] = types[0]
	}
	// The profile's own word on the instruction, whichever path chose
	// its opcode and operands (the tables, a snippet, a mutation).
	if !fg.c.tab.prof.AllowsTypes(ot.op, ot.ctrl, types) {
		return nil
	}
	nan := nanOperands[ot.op]
	for k, t := range types {
		if nan.has(k) && ub.HasFloatLanes(t) && !fg.canCanon(t) {
			return nil
		}
	}
	d := ir.InstData{Op: ot.op, CtrlType: ot.ctrl, Args: fg.c.g.arena.operands(len(types))}
	cp := fg.planConstants(r, info)
	for k, t := range types {
		var ok bool
		switch {
		case k < len(args) && args[k] != ir.NoValue:
			d.Args[k] = args[k]
		case k > 0 && fg.constOperand(r, info, t):
			d.Args[k] = fg.intConst(t, operandConst(r, t.Bits()))
		default:
			if d.Args[k], ok = fg.edgeConstOperand(&cp, t); !ok {
				d.Args[k] = fg.operand(r, t)
			}
		}
		if nan.has(k) {
			d.Args[k] = ub.CanonNaN(fg.b, d.Args[k])
		}
	}
	fg.immediates(r, &d, types, imms)
	if !fg.guard(r, &d) {
		return nil
	}
	// A mask's operand-producer patterns (select_spectre_guard of a
	// uextend.i128 of an icmp) judge the instruction as it would be
	// appended: operands, guards and canonical NaNs included. One that
	// matches is left out, as the profile's tables leave out a masked
	// combination; whatever its guards appended stays, dead.
	if _, masked := fg.c.tab.prof.Patterns().Match(fg.f, &d); masked {
		return nil
	}
	return fg.define(fg.b.Append(d))
}

// operandSet is a set of operand indices.
type operandSet uint64

func (s operandSet) has(k int) bool { return s&(1<<k) != 0 }

// nanOperands holds by opcode the operands that show a float's NaN bits
// (ub.NaNSensitive), asked of every operand emitted.
var nanOperands = func() []operandSet {
	out := make([]operandSet, len(ir.Opcodes())+1)
	for _, op := range ir.Opcodes() {
		for k := range op.Info().Ins {
			if ub.NaNSensitive(op, k) {
				out[op] |= 1 << k
			}
		}
	}
	return out
}()

// canCanon reports whether ub.CanonNaN can canonicalise values of t in
// this profile.
func (fg *funcGen) canCanon(t ir.Type) bool {
	p := fg.c.tab.prof
	if !p.AllowsImm(ir.OpFcmp, t, "uno") {
		return false
	}
	if t.IsVector() {
		mask := t.AsInt()
		return p.Allows(ir.OpVconst, t) && fg.c.tab.allowsFree(ir.OpBitcast, t, mask) && p.Allows(ir.OpBitselect, t)
	}
	return fg.c.tab.allowsFree(ir.OpSelect, t, ir.I8) && p.Allows(constOp(t), ir.Invalid)
}

// allowsFree asks the profile about op with controlling type ctrl and
// free operand type free, for opcodes that have one.
func (tab *tables) allowsFree(op ir.Opcode, ctrl, free ir.Type) bool {
	if !tab.restrictsFree(op, ctrl) {
		return tab.prof.Allows(op, ctrl)
	}
	return tab.prof.AllowsFree(op, ctrl, free)
}

// intCC draws an integer condition the profile allows for op and ctrl.
func (c *caseGen) intCC(r *rng, op ir.Opcode, ctrl ir.Type) ir.IntCC {
	if names := c.tab.prof.Imms(op, ctrl); len(names) > 0 {
		if cc, ok := ir.ParseIntCC(names[r.intn(len(names))]); ok {
			return cc
		}
	}
	return ir.IntCCs()[r.intn(len(ir.IntCCs()))]
}

// floatCC draws a float condition the profile allows for op and ctrl.
func (c *caseGen) floatCC(r *rng, op ir.Opcode, ctrl ir.Type) ir.FloatCC {
	if names := c.tab.prof.Imms(op, ctrl); len(names) > 0 {
		if cc, ok := ir.ParseFloatCC(names[r.intn(len(names))]); ok {
			return cc
		}
	}
	return ir.FloatCCs()[r.intn(len(ir.FloatCCs()))]
}

// immediates fills d's immediates: taken from given when it has them
// (a corpus instruction), drawn otherwise.
func (fg *funcGen) immediates(r *rng, d *ir.InstData, types []ir.Type, given *ir.InstData) {
	for _, k := range d.Op.Format().Imms {
		switch k {
		case ir.ImmInt64:
			if given != nil {
				d.Imm = given.Imm
			} else {
				d.Imm = intEdge(r, d.CtrlType.Bits())
			}
			// iconst holds its immediate zero-extended from the type's
			// width (the corpus writes -1 for iconst.i8 255).
			if bits := d.CtrlType.Bits(); bits > 0 && bits < 64 {
				d.Imm &= 1<<bits - 1
			}
		case ir.ImmUint8:
			lanes := d.CtrlType.Lanes() // the vector's, for extractlane and insertlane
			d.Imm = int64(r.intn(lanes))
			if given != nil && given.Imm >= 0 && int(given.Imm) < lanes {
				d.Imm = given.Imm
			}
		case ir.ImmIeee16, ir.ImmIeee32, ir.ImmIeee64:
			bits := map[ir.ImmKind]int{ir.ImmIeee16: 16, ir.ImmIeee32: 32, ir.ImmIeee64: 64}[k]
			d.FloatBits = floatEdge(r, bits)
			if given != nil {
				d.FloatBits = given.FloatBits
			}
		case ir.ImmIntCC:
			ctrl := types[0] // icmp's controlling type is its operands'
			d.IntCC = fg.c.intCC(r, d.Op, ctrl)
			if given != nil && fg.c.tab.prof.AllowsImm(d.Op, ctrl, given.IntCC.String()) {
				d.IntCC = given.IntCC
			}
		case ir.ImmFloatCC:
			ctrl := types[0]
			d.FloatCC = fg.c.floatCC(r, d.Op, ctrl)
			if given != nil && fg.c.tab.prof.AllowsImm(d.Op, ctrl, given.FloatCC.String()) {
				d.FloatCC = given.FloatCC
			}
		case ir.ImmMemFlags:
			// bitcast's only flag is the byte order of lane
			// reinterpretation: little on every target. (s390x lowers
			// big too, but Cranelift's interpreter, the expected side of
			// a target's own campaign, asserts on a big vector bitcast.)
			d.Flags = ir.MemFlags{Endian: ir.EndianLittle}
		case ir.ImmShuffleMask:
			d.Bytes = shuffleMask(r)
			if given != nil && len(given.Bytes) == 16 {
				d.Bytes = given.Bytes
			}
		case ir.ImmConstant:
			n := 16
			if d.CtrlType != ir.Invalid {
				n = d.CtrlType.Bytes()
			}
			d.Bytes = make([]byte, n)
			for i := 0; i < n; i += 8 {
				var lane [8]byte
				binary.LittleEndian.PutUint64(lane[:], uint64(intEdge(r, 64)))
				copy(d.Bytes[i:], lane[:])
			}
			if given != nil && len(given.Bytes) == n {
				d.Bytes = given.Bytes
			}
		case ir.ImmTrapCode:
			d.Trap = ir.TrapUser + ir.TrapCode(r.between(1, 9)) // crash-only mode
		case ir.ImmAtomicRmwOp:
			d.RmwOp = ir.AtomicRmwOp(r.intn(11))
		}
	}
}

// constOperand decides whether an operand after the first of an
// instruction of info, of type t, is a constant of its own: an integer
// scalar of a pure instruction, a quarter of the time when the case's
// "constants" feature is on. The lowering rules that take an immediate
// (an add of imm12, a shift by a constant, a compare with zero, a
// division by a constant) match only an operand defined by an iconst; one
// operand still varies, so the optimiser cannot fold the instruction.
func (fg *funcGen) constOperand(r *rng, info *ir.OpcodeInfo, t ir.Type) bool {
	return fg.c.sw.constants && t.IsInt() && !t.IsVector() &&
		info.Flags&(ir.FlagSideEffects|ir.FlagCanLoad|ir.FlagCanStore|ir.FlagCall) == 0 && r.chance(0.25)
}

// operandConst draws a constant operand of the given width: an edge value
// (intEdge), a small number (the immediate fields of every target), or a
// mask of low ones (logical immediates).
func operandConst(r *rng, bits int) int64 {
	switch r.intn(4) {
	case 0:
		return int64(r.intn(256))
	case 1:
		if bits > 64 {
			bits = 64
		}
		k := r.between(1, bits)
		return int64(^uint64(0) >> (64 - k))
	default:
		return intEdge(r, bits)
	}
}

// intEdge draws an integer of the given width, edge values half the time.
func intEdge(r *rng, bits int) int64 {
	if bits <= 0 || bits > 64 {
		bits = 64
	}
	var x uint64
	switch r.intn(10) {
	case 0:
		x = 0
	case 1:
		x = 1
	case 2:
		x = ^uint64(0) // -1
	case 3:
		x = 1 << (bits - 1) // MIN
	case 4:
		x = 1<<(bits-1) - 1 // MAX
	case 5:
		x = uint64(r.intn(bits + 8)) // shift amounts around the width
	default:
		x = r.next()
	}
	if bits < 64 {
		x &= 1<<bits - 1
	}
	return int64(x)
}

// floatEdge draws float bits of the given width: zeros, ones, infinities,
// subnormals, NaN, extremes or random bits.
func floatEdge(r *rng, bits int) uint64 {
	f := floatFormatOf(bits)
	exp, frac := f.exp, f.frac
	sign := uint64(r.intn(2)) << (exp + frac)
	expMask := uint64(1)<<exp - 1
	switch r.intn(9) {
	case 0:
		return sign // ±0
	case 1:
		return sign | (expMask>>1)<<frac // ±1
	case 2:
		return sign | expMask<<frac // ±inf
	case 3:
		return sign | expMask<<frac | 1<<(frac-1) // NaN
	case 4:
		return sign | 1 // smallest subnormal
	case 5:
		return sign | (expMask-1)<<frac | (1<<frac - 1) // largest finite
	}
	x := r.next() & (1<<(exp+frac+1) - 1)
	return x
}

// floatFormat is an IEEE binary format: exponent and fraction widths.
type floatFormat struct{ exp, frac uint }

// floatFormatOf returns the format of floats of the given width (the zero
// format for other widths). A switch, not a map: it is asked for every
// float input lane and float immediate.
func floatFormatOf(bits int) floatFormat {
	switch bits {
	case 16:
		return floatFormat{5, 10}
	case 32:
		return floatFormat{8, 23}
	case 64:
		return floatFormat{11, 52}
	case 128:
		return floatFormat{15, 112}
	}
	return floatFormat{}
}
