package gen

import (
	"path"
	"slices"

	"cliff/lib/ir"
)

// addrTypeVar is the opcode table's name for address type variables; they
// always take the target's pointer type.
const addrTypeVar = "iAddr"

// A combo is one (opcode, controlling type, free operand type) candidate.
type combo struct {
	op         ir.Opcode
	ctrl, free ir.Type
}

// freeOperand says how an opcode's free operand type varies: a narrower or
// wider variant of the controlling type (ireduce, uextend, fpromote), or a
// type variable of its own (select's condition, a conversion's source, a
// shift amount). Address type variables are not free: they take the
// pointer type.
type freeOperand struct {
	derive ir.Derive  // DeriveNarrower or DeriveWider, or DeriveNone
	set    ir.TypeSet // when derive is DeriveNone
}

func freeOperandOf(op ir.Opcode) (freeOperand, bool) {
	info := op.Info()
	for _, o := range slices.Concat(info.Ins, info.Outs) {
		if o.Kind == ir.OperandTypeVar && o.TypeVar == 0 &&
			(o.Derive == ir.DeriveNarrower || o.Derive == ir.DeriveWider) {
			return freeOperand{derive: o.Derive}, true
		}
	}
	for _, tv := range info.TypeVars[min(1, len(info.TypeVars)):] {
		if tv.Name != addrTypeVar {
			return freeOperand{set: tv.Set}, true
		}
	}
	return freeOperand{}, false
}

// candidates lists the free types allowed with ctrl among types, before
// the exclusions.
func (fo freeOperand) candidates(op ir.Opcode, ctrl ir.Type, types []ir.Type, rules []shapeRule) []ir.Type {
	var out []ir.Type
	for _, t := range types {
		ok := fo.set.Contains(t)
		if fo.derive != ir.DeriveNone {
			ok = fo.derive.Admits(ctrl, t)
		}
		for _, r := range rules {
			ok = ok && r.holds(ctrl, t)
		}
		if ok {
			out = append(out, t)
		}
	}
	return out
}

func (r shapeRule) holds(ctrl, free ir.Type) bool {
	switch r {
	case sameBits:
		return ctrl.Bits() == free.Bits()
	case sameLanes:
		return ctrl.Lanes() == free.Lanes()
	}
	return false
}

// operandTypes lists the types of every fixed operand and result of the
// combination (call arguments, typed by signatures, aside).
func operandTypes(c combo, pointer ir.Type) []ir.Type {
	info := c.op.Info()
	var out []ir.Type
	for _, o := range slices.Concat(info.Ins, info.Outs) {
		switch {
		case o.Kind == ir.OperandFixed:
			out = append(out, o.Type)
		case o.Kind != ir.OperandTypeVar:
		case info.TypeVars[o.TypeVar].Name == addrTypeVar:
			out = append(out, pointer)
		case o.TypeVar == 0 && (o.Derive == ir.DeriveNarrower || o.Derive == ir.DeriveWider):
			out = append(out, c.free)
		case o.TypeVar == 0:
			out = append(out, o.Derive.Apply(c.ctrl))
		default:
			out = append(out, o.Derive.Apply(c.free))
		}
	}
	return out
}

// ctrlCandidates lists the controlling types op may have on a target with
// the given types and pointer type, before the exclusions; [ir.Invalid]
// for a monomorphic opcode.
func ctrlCandidates(op ir.Opcode, types []ir.Type, pointer ir.Type) []ir.Type {
	info := op.Info()
	if !info.Polymorphic {
		return []ir.Type{ir.Invalid}
	}
	tv := info.TypeVars[0]
	if tv.Name == addrTypeVar {
		return []ir.Type{pointer}
	}
	var out []ir.Type
	for _, t := range types {
		if tv.Set.Contains(t) {
			out = append(out, t)
		}
	}
	return out
}

// matches reports whether the exclusion covers the combination (ignoring
// its immediates).
func (e *exclude) matches(c combo) bool {
	if !slices.Contains(e.ops, c.op) {
		return false
	}
	ctrl := typeName(c.ctrl)
	for _, p := range e.pats {
		if ok, _ := path.Match(p.ctrl, ctrl); !ok {
			continue
		}
		if p.free == "" {
			return true
		}
		if ok, _ := path.Match(p.free, typeName(c.free)); ok {
			return true
		}
	}
	return false
}

// typeName spells a type as patterns see it: "-" for no type.
func typeName(t ir.Type) string {
	if t == ir.Invalid {
		return "-"
	}
	return t.String()
}

// immediates lists every immediate keyword op takes (its condition codes
// or atomic operations), or nil when its immediates are not keywords.
func immediates(op ir.Opcode) []string {
	var out []string
	for _, k := range op.Format().Imms {
		switch k {
		case ir.ImmIntCC:
			for _, c := range ir.IntCCs() {
				out = append(out, c.String())
			}
		case ir.ImmFloatCC:
			for _, c := range ir.FloatCCs() {
				out = append(out, c.String())
			}
		case ir.ImmAtomicRmwOp:
			for o := ir.AtomicRmwOp(0); ; o++ {
				if _, ok := ir.ParseAtomicRmwOp(o.String()); !ok {
					break
				}
				out = append(out, o.String())
			}
		}
	}
	return out
}
