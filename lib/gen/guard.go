package gen

import (
	"encoding/binary"

	"cliff/lib/ir"
	"cliff/lib/ub"
)

// guard makes d total before it is appended: a divisor is never zero (nor
// -1 with a MIN dividend), a float converted to an integer is in range.
// The guards are scaffold: they hold whatever a refinement pass does to
// the values around them. It reports false when the profile cannot
// express the guard (d is then not appended). In crash-only mode nothing
// is guarded.
func (fg *funcGen) guard(r *rng, d *ir.InstData) bool {
	if fg.c.g.opts.CrashOnly {
		return true
	}
	// The opcode table's partial column names the guard.
	switch guard := d.Op.Info().Partial; guard {
	case "":
		return true
	case "nonzero":
		d.Args[1] = ub.Scaffold(fg.b, func() ir.Value { return fg.nonZero(d.Args[1]) })
	case "nonzero_nooverflow":
		d.Args[1] = ub.Scaffold(fg.b, func() ir.Value { return fg.noOverflow(d.Args[0], fg.nonZero(d.Args[1])) })
	case "in_range":
		return fg.inRange(r, d)
	default:
		panic("gen: the opcode table gives " + d.Op.String() + " guard " + guard + ", which cliff-gen does not have")
	}
	return true
}

// intConst appends an integer constant of scalar type t; i128 constants
// are sign-extended from i64, as iconst stops at 64 bits.
func (fg *funcGen) intConst(t ir.Type, x int64) ir.Value {
	if t == ir.I128 {
		return fg.b.Ins(ir.OpSextend, ir.I128, fg.b.Iconst(ir.I64, x))
	}
	return fg.b.Iconst(t, x)
}

// nonZero returns y, or 1 where y is 0.
func (fg *funcGen) nonZero(y ir.Value) ir.Value {
	t := fg.f.Values[y].Type
	isZero := fg.b.Icmp(ir.IntEq, y, fg.intConst(t, 0))
	return fg.b.Ins(ir.OpSelect, ir.Invalid, isZero, fg.intConst(t, 1), y)
}

// noOverflow returns y, or 1 where x is MIN and y is -1 (the one signed
// division that overflows).
func (fg *funcGen) noOverflow(x, y ir.Value) ir.Value {
	t := fg.f.Values[y].Type
	minusOne := fg.intConst(t, -1)
	// MIN is -1 shifted left by width-1 (an i128 MIN has no iconst).
	min := fg.b.Ins(ir.OpIshl, ir.Invalid, minusOne, fg.b.Iconst(ir.I32, int64(t.Bits()-1)))
	isMin := fg.b.Icmp(ir.IntEq, x, min)
	isMinusOne := fg.b.Icmp(ir.IntEq, y, minusOne)
	both := fg.b.Ins(ir.OpBand, ir.Invalid, isMin, isMinusOne)
	return fg.b.Ins(ir.OpSelect, ir.Invalid, both, fg.intConst(t, 1), y)
}

// inRange replaces the float operand of fcvt_to_sint/uint by 0 where it
// is NaN or out of the integer's range; where the profile has no float
// compare for the type, the saturating conversion is used instead.
func (fg *funcGen) inRange(r *rng, d *ir.InstData) bool {
	p := fg.c.tab.prof
	x := d.Args[0]
	ft := fg.f.Values[x].Type
	sat := map[ir.Opcode]ir.Opcode{ir.OpFcvtToSint: ir.OpFcvtToSintSat, ir.OpFcvtToUint: ir.OpFcvtToUintSat}[d.Op]
	canGuard := p.AllowsImm(ir.OpFcmp, ft, "ge") && p.AllowsImm(ir.OpFcmp, ft, "gt") && p.AllowsImm(ir.OpFcmp, ft, "lt") &&
		fg.c.tab.allowsFree(ir.OpSelect, ft, ir.I8) && p.Allows(constOp(ft), ir.Invalid)
	if !canGuard || r.chance(0.3) {
		if !fg.c.tab.allowsFree(sat, d.CtrlType, ft) {
			return false
		}
		d.Op = sat
		return true
	}
	n := d.CtrlType.Bits()
	d.Args[0] = ub.Scaffold(fg.b, func() ir.Value {
		var lowOK ir.Value
		if d.Op == ir.OpFcvtToSint {
			lowOK = fg.atLeastMinus(x, ft, n-1)
		} else {
			lowOK = fg.b.Fcmp(ir.FloatGt, x, fg.floatConst(ft, pow2(ft, true, 0)))
		}
		top := n
		if d.Op == ir.OpFcvtToSint {
			top = n - 1
		}
		highOK := fg.b.Fcmp(ir.FloatLt, x, fg.floatConst(ft, pow2(ft, false, top)))
		ok := fg.b.Ins(ir.OpBand, ir.Invalid, lowOK, highOK)
		return fg.b.Ins(ir.OpSelect, ir.Invalid, ok, x, fg.floatConst(ft, make([]byte, ft.Bytes())))
	})
	return true
}

// atLeastMinus compares x >= -2^k, or x > -inf where -2^k is not finite
// in ft (every finite value is then in range).
func (fg *funcGen) atLeastMinus(x ir.Value, ft ir.Type, k int) ir.Value {
	if finite(ft, k) {
		return fg.b.Fcmp(ir.FloatGe, x, fg.floatConst(ft, pow2(ft, true, k)))
	}
	return fg.b.Fcmp(ir.FloatGt, x, fg.floatConst(ft, pow2(ft, true, k)))
}

// finite reports whether 2^k is a finite value of ft.
func finite(ft ir.Type, k int) bool {
	f := floatFormatOf(ft.Bits())
	bias := 1<<(f.exp-1) - 1
	return bias+k < 1<<f.exp-1
}

// pow2 returns the little-endian bytes of ±2^k in ft, or ±inf when 2^k
// is not finite.
func pow2(ft ir.Type, neg bool, k int) []byte {
	f := floatFormatOf(ft.Bits())
	bias := 1<<(f.exp-1) - 1
	e := uint64(bias + k)
	if !finite(ft, k) {
		e = 1<<f.exp - 1
	}
	// sign and exponent sit above the fraction: in the top 64 bits for
	// f128 (fraction 112 bits = 64 + 48).
	shift := f.frac
	hi := false
	if ft.Bits() == 128 {
		shift, hi = f.frac-64, true
	}
	word := e << shift
	if neg {
		word |= 1 << (shift + f.exp)
	}
	out := make([]byte, 16)
	if hi {
		binary.LittleEndian.PutUint64(out[8:], word)
	} else {
		binary.LittleEndian.PutUint64(out, word)
	}
	return out[:ft.Bytes()]
}

// floatConst appends the float scalar constant of ft with the given
// little-endian bytes.
func (fg *funcGen) floatConst(ft ir.Type, le []byte) ir.Value {
	var x uint64
	for i := len(le) - 1; i >= 0 && i < 8; i-- {
		x = x<<8 | uint64(le[i])
	}
	switch ft {
	case ir.F16:
		return fg.b.F16const(uint16(x))
	case ir.F32:
		return fg.b.F32const(uint32(x))
	case ir.F64:
		return fg.b.F64const(x)
	}
	return fg.b.F128const(le)
}
