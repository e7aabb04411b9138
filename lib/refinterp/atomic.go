package refinterp

import (
	"cliff/lib/ir"
)

// Atomic read-modify-write and compare-and-swap. The interpreter runs one
// thread, so an atomic access is an ordinary one (atomic_load and
// atomic_store use the load and store shapes) and fence does nothing.

// rmwOps are atomic_rmw's operations on the old value x and the operand y.
var rmwOps = [...]kernel2{
	ir.RmwAdd:  intBinary["add"],
	ir.RmwSub:  intBinary["sub"],
	ir.RmwAnd:  func(x, y u128, w uint) u128 { return u128{Lo: x.Lo & y.Lo, Hi: x.Hi & y.Hi} },
	ir.RmwNand: func(x, y u128, w uint) u128 { return not128(u128{Lo: x.Lo & y.Lo, Hi: x.Hi & y.Hi}) },
	ir.RmwOr:   func(x, y u128, w uint) u128 { return or128(x, y) },
	ir.RmwXor:  func(x, y u128, w uint) u128 { return u128{Lo: x.Lo ^ y.Lo, Hi: x.Hi ^ y.Hi} },
	ir.RmwXchg: func(x, y u128, w uint) u128 { return y },
	ir.RmwUmin: intBinary["umin"],
	ir.RmwUmax: intBinary["umax"],
	ir.RmwSmin: intBinary["smin"],
	ir.RmwSmax: intBinary["smax"],
}

func init() {
	shapes["atomic_rmw"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		p, pt := fr.arg(d, 0)
		x, xt := fr.arg(d, 1)
		b, err := t.mem.at(address(p, pt, 0), xt.Bytes())
		if err != nil {
			return 0, err
		}
		order := byteOrder(d.Flags)
		old := readInt(b, order)
		w := uint(xt.Bits())
		writeInt(b, mask(rmwOps[d.RmwOp](old, x, w), w), order)
		fr.set(d, 0, old)
		return flowNext, nil
	})
	shapes["atomic_cas"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		p, pt := fr.arg(d, 0)
		e, et := fr.arg(d, 1)
		x, _ := fr.arg(d, 2)
		b, err := t.mem.at(address(p, pt, 0), et.Bytes())
		if err != nil {
			return 0, err
		}
		order := byteOrder(d.Flags)
		old := readInt(b, order)
		if old == e {
			writeInt(b, x, order)
		}
		fr.set(d, 0, old)
		return flowNext, nil
	})
}
