package gen

import "cliff/lib/ir"

// materialize makes a new value of type t from the values in scope (a
// conversion, a splat), or a constant when nothing fits. Constants come
// last: the optimiser folds them, the inputs it cannot.
func (fg *funcGen) materialize(r *rng, t ir.Type) ir.Value {
	p := fg.c.tab.prof
	b := fg.b
	var inst ir.InstData
	switch {
	case t.IsVector():
		if p.Allows(ir.OpSplat, t) {
			inst = ir.InstData{Op: ir.OpSplat, CtrlType: t, Args: fg.list(fg.operand(r, t.LaneType()))}
		} else {
			le := make([]byte, t.Bytes())
			for i := range le {
				le[i] = byte(r.next())
			}
			inst = ir.InstData{Op: ir.OpVconst, CtrlType: t, Bytes: le}
		}
	case t.IsInt():
		src, st, ok := fg.sc.anyOf(r, func(u ir.Type) bool { return u.IsInt() && !u.IsVector() })
		switch {
		case ok && st.Bits() > t.Bits() && p.Allows(ir.OpIreduce, t):
			inst = ir.InstData{Op: ir.OpIreduce, CtrlType: t, Args: fg.list(src)}
		case ok && st.Bits() < t.Bits() && p.Allows(ir.OpUextend, t) && p.Allows(ir.OpSextend, t):
			op := ir.OpUextend
			if r.chance(0.5) {
				op = ir.OpSextend
			}
			inst = ir.InstData{Op: op, CtrlType: t, Args: fg.list(src)}
		default:
			inst = ir.InstData{}
		}
		// A conversion of what scope offers may have a masked shape
		// (uextend.i128 of an icmp): a constant instead.
		if inst.Op != ir.OpInvalid {
			if _, masked := fg.c.tab.prof.Patterns().Match(fg.f, &inst); masked {
				inst = ir.InstData{}
			}
		}
		if inst.Op == ir.OpInvalid {
			v := fg.intConst(t, intEdge(r, min(t.Bits(), 64)))
			fg.sc.push(v, t)
			return v
		}
	default: // a float scalar
		ib := t.AsInt()
		switch {
		case fg.c.tab.allowsFree(ir.OpBitcast, t, ib) && fg.c.typeOK(ib):
			inst = ir.InstData{Op: ir.OpBitcast, CtrlType: t, Args: fg.list(fg.operand(r, ib)), Flags: ir.MemFlags{Endian: ir.EndianLittle}}
		case fg.c.tab.allowsFree(ir.OpFcvtFromSint, t, ir.I64):
			inst = ir.InstData{Op: ir.OpFcvtFromSint, CtrlType: t, Args: fg.list(fg.operand(r, ir.I64))}
		default:
			le := make([]byte, t.Bytes())
			bits := floatEdge(r, min(t.Bits(), 64))
			for i := range min(len(le), 8) {
				le[i] = byte(bits >> (8 * i))
			}
			v := fg.floatConst(t, le)
			fg.sc.push(v, t)
			return v
		}
	}
	return fg.define(b.Append(inst))[0]
}
