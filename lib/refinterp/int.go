package refinterp

import (
	"math/big"
	"math/bits"

	"cliff/lib/ir"
)

// Integer arithmetic. Lanes arrive zero-extended from their width w;
// kernels sign-extend where the operation is signed and may return bits
// above w (the caller masks).

func minSigned(w uint) u128 { return mask(shl128(u64(1), w-1), w) }

// sx is x sign-extended from w bits to 128.
func sx(x u128, w uint) u128 { return sext(x, w) }

// Lanes of 64 bits or less are computed exactly in 128-bit arithmetic:
// their sums and products (and a carry) cannot overflow it. Only i128
// needs math/big, which allocates; pruning's runs made that a tenth of
// the interpreter's time.

// fitsSigned reports whether the exact r is a signed w-bit number.
func fitsSigned(r u128, w uint) bool { return sext(r, w) == r }

// fitsUnsigned reports whether the exact r (negative as two's
// complement) is an unsigned w-bit number.
func fitsUnsigned(r u128, w uint) bool { return mask(r, w) == r }

// sxInt is the signed value of a lane of w <= 64 bits.
func sxInt(x u128, w uint) int64 { return int64(sext(x, w).Lo) }

var intBinary = map[string]kernel2{
	"add": func(x, y u128, w uint) u128 { return add128(x, y) },
	"sub": func(x, y u128, w uint) u128 { return sub128(x, y) },
	"mul": func(x, y u128, w uint) u128 { return mul128(x, y) },
	"umulhi": func(x, y u128, w uint) u128 {
		switch {
		case w <= 32:
			return u64(x.Lo * y.Lo >> w)
		case w == 64:
			hi, _ := bits.Mul64(x.Lo, y.Lo)
			return u64(hi)
		}
		p := new(big.Int).Mul(big128(x, false), big128(y, false))
		return fromBig(p.Rsh(p, 128))
	},
	"smulhi": func(x, y u128, w uint) u128 {
		if w <= 64 {
			return sar128(mul128(sx(x, w), sx(y, w)), w)
		}
		p := new(big.Int).Mul(big128(sx(x, w), true), big128(sx(y, w), true))
		return fromBig(p.Rsh(p, w))
	},
	"smin": func(x, y u128, w uint) u128 { return pick(slt128(sx(x, w), sx(y, w)), x, y) },
	"smax": func(x, y u128, w uint) u128 { return pick(slt128(sx(y, w), sx(x, w)), x, y) },
	"umin": func(x, y u128, w uint) u128 { return pick(ult128(x, y), x, y) },
	"umax": func(x, y u128, w uint) u128 { return pick(ult128(y, x), x, y) },
	"uadd_sat": func(x, y u128, w uint) u128 {
		r := add128(x, y)
		if w == 128 && ult128(r, x) || w < 128 && mask(r, w) != r {
			return mask(not128(u128{}), w)
		}
		return r
	},
	"usub_sat": func(x, y u128, w uint) u128 {
		if ult128(x, y) {
			return u128{}
		}
		return sub128(x, y)
	},
	"sadd_sat": func(x, y u128, w uint) u128 {
		if w <= 64 {
			return clampSigned(add128(sx(x, w), sx(y, w)), w, true)
		}
		return satSigned(exactSigned(x, y, w, (*big.Int).Add), w)
	},
	"ssub_sat": func(x, y u128, w uint) u128 {
		if w <= 64 {
			return clampSigned(sub128(sx(x, w), sx(y, w)), w, true)
		}
		return satSigned(exactSigned(x, y, w, (*big.Int).Sub), w)
	},
	"avg_round": func(x, y u128, w uint) u128 {
		// (x + y + 1) >> 1 without losing the carry.
		if w <= 64 {
			return shr128(add128(add128(x, y), u64(1)), 1)
		}
		s := new(big.Int).Add(big128(x, false), big128(y, false))
		s.Add(s, big.NewInt(1))
		return fromBig(s.Rsh(s, 1))
	},
	"sqmul_round_sat": func(x, y u128, w uint) u128 {
		// Q-format multiply: (x*y + 2^(w-2)) >> (w-1), saturated.
		if w <= 64 { // |x*y| <= 2^126: the rounding term cannot overflow
			return clampSigned(sar128(add128(mul128(sx(x, w), sx(y, w)), shl128(u64(1), w-2)), w-1), w, true)
		}
		p := new(big.Int).Mul(big128(sx(x, w), true), big128(sx(y, w), true))
		p.Add(p, new(big.Int).Lsh(big.NewInt(1), w-2))
		return satSigned(p.Rsh(p, w-1), w)
	},
}

func pick(c bool, x, y u128) u128 {
	if c {
		return x
	}
	return y
}

// exactSigned applies op to x and y taken as signed w-bit numbers.
func exactSigned(x, y u128, w uint, op func(z, a, b *big.Int) *big.Int) *big.Int {
	return op(new(big.Int), big128(sx(x, w), true), big128(sx(y, w), true))
}

func exactUnsigned(x, y u128, op func(z, a, b *big.Int) *big.Int) *big.Int {
	return op(new(big.Int), big128(x, false), big128(y, false))
}

// satSigned clamps r to the signed w-bit range.
func satSigned(r *big.Int, w uint) u128 {
	lo := new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), w-1))
	hi := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), w-1), big.NewInt(1))
	if r.Cmp(lo) < 0 {
		r = lo
	} else if r.Cmp(hi) > 0 {
		r = hi
	}
	return fromBig(r)
}

// fitsBig reports whether r fits in w bits, signed or unsigned.
func fitsBig(r *big.Int, w uint, signed bool) bool {
	if !signed {
		return r.Sign() >= 0 && r.BitLen() <= int(w)
	}
	lo := new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), w-1))
	return r.Cmp(lo) >= 0 && r.BitLen() <= int(w)-1 || r.Cmp(lo) == 0
}

var intUnary = map[string]kernel1{
	"neg": func(x u128, w uint) u128 { return sub128(u128{}, x) },
	"abs": func(x u128, w uint) u128 {
		if neg128(sx(x, w)) {
			return sub128(u128{}, x)
		}
		return x
	},
	"clz": func(x u128, w uint) u128 { return u64(uint64(leadingZeros128(x) - (128 - w))) },
	"ctz": func(x u128, w uint) u128 {
		if x.IsZero() {
			return u64(uint64(w))
		}
		return u64(uint64(trailingZeros128(x)))
	},
	"cls": func(x u128, w uint) u128 {
		s := sx(x, w)
		if neg128(s) {
			s = not128(s)
		}
		return u64(uint64(leadingZeros128(mask(s, w)) - (128 - w) - 1))
	},
	"popcnt": func(x u128, w uint) u128 {
		return u64(uint64(bits.OnesCount64(x.Lo) + bits.OnesCount64(x.Hi)))
	},
	"bitrev": func(x u128, w uint) u128 {
		r := u128{Lo: bits.Reverse64(x.Hi), Hi: bits.Reverse64(x.Lo)}
		return shr128(r, 128-w)
	},
	"bswap": func(x u128, w uint) u128 {
		r := u128{Lo: bits.ReverseBytes64(x.Hi), Hi: bits.ReverseBytes64(x.Lo)}
		return shr128(r, 128-w)
	},
}

// Division traps: by zero with int_divz, signed MIN / -1 with int_ovf
// (sdiv only: srem of MIN by -1 is 0, as Cranelift documents).
var intDiv = map[string]func(x, y u128, w uint) (u128, ir.TrapCode){
	"udiv": func(x, y u128, w uint) (u128, ir.TrapCode) {
		if y.IsZero() {
			return u128{}, ir.TrapIntegerDivisionByZero
		}
		if w <= 64 {
			return u64(x.Lo / y.Lo), 0
		}
		return fromBig(exactUnsigned(x, y, (*big.Int).Quo)), 0
	},
	"urem": func(x, y u128, w uint) (u128, ir.TrapCode) {
		if y.IsZero() {
			return u128{}, ir.TrapIntegerDivisionByZero
		}
		if w <= 64 {
			return u64(x.Lo % y.Lo), 0
		}
		return fromBig(exactUnsigned(x, y, (*big.Int).Rem)), 0
	},
	"sdiv": func(x, y u128, w uint) (u128, ir.TrapCode) {
		if y.IsZero() {
			return u128{}, ir.TrapIntegerDivisionByZero
		}
		if x == minSigned(w) && y == mask(not128(u128{}), w) {
			return u128{}, ir.TrapIntegerOverflow
		}
		if w <= 64 {
			return u64(uint64(sxInt(x, w) / sxInt(y, w))), 0
		}
		return fromBig(exactSigned(x, y, w, (*big.Int).Quo)), 0
	},
	"srem": func(x, y u128, w uint) (u128, ir.TrapCode) {
		if y.IsZero() {
			return u128{}, ir.TrapIntegerDivisionByZero
		}
		if w <= 64 { // Go's MIN % -1 is 0, as Cranelift's srem
			return u64(uint64(sxInt(x, w) % sxInt(y, w))), 0
		}
		return fromBig(exactSigned(x, y, w, (*big.Int).Rem)), 0
	},
}

// Shifts take the amount modulo the lane width; the amount is a scalar
// of any integer type, the same for every lane.
var intShift = map[string]kernel2{
	"ishl": func(x, n u128, w uint) u128 { return shl128(x, uint(n.Lo)&(w-1)) },
	"ushr": func(x, n u128, w uint) u128 { return shr128(x, uint(n.Lo)&(w-1)) },
	"sshr": func(x, n u128, w uint) u128 { return sar128(sx(x, w), uint(n.Lo)&(w-1)) },
	"rotl": func(x, n u128, w uint) u128 {
		s := uint(n.Lo) & (w - 1)
		if s == 0 {
			return x
		}
		return or128(shl128(x, s), shr128(x, w-s))
	},
	"rotr": func(x, n u128, w uint) u128 {
		s := uint(n.Lo) & (w - 1)
		if s == 0 {
			return x
		}
		return or128(shr128(x, s), mask(shl128(x, w-s), w))
	},
}

func or128(a, b u128) u128 { return u128{Lo: a.Lo | b.Lo, Hi: a.Hi | b.Hi} }

// Overflow-reporting arithmetic: the wrapped result and whether the exact
// one does not fit. carry is the carry or borrow in (0 or 1).
var intOverflow = map[string]func(x, y, carry u128, w uint) (u128, bool){
	"uadd": func(x, y, c u128, w uint) (u128, bool) {
		if w <= 64 {
			r := add128(add128(x, y), c)
			return r, !fitsUnsigned(r, w)
		}
		r := exactUnsigned(x, y, (*big.Int).Add)
		r.Add(r, big128(c, false))
		return fromBig(r), !fitsBig(r, w, false)
	},
	"usub": func(x, y, c u128, w uint) (u128, bool) {
		if w <= 64 {
			r := sub128(sub128(x, y), c)
			return r, !fitsUnsigned(r, w)
		}
		r := exactUnsigned(x, y, (*big.Int).Sub)
		r.Sub(r, big128(c, false))
		return fromBig(r), !fitsBig(r, w, false)
	},
	"umul": func(x, y, c u128, w uint) (u128, bool) {
		if w <= 64 {
			r := mul128(x, y)
			return r, !fitsUnsigned(r, w)
		}
		r := exactUnsigned(x, y, (*big.Int).Mul)
		return fromBig(r), !fitsBig(r, w, false)
	},
	"sadd": func(x, y, c u128, w uint) (u128, bool) {
		if w <= 64 {
			r := add128(add128(sx(x, w), sx(y, w)), c)
			return r, !fitsSigned(r, w)
		}
		r := exactSigned(x, y, w, (*big.Int).Add)
		r.Add(r, big128(c, false))
		return fromBig(r), !fitsBig(r, w, true)
	},
	"ssub": func(x, y, c u128, w uint) (u128, bool) {
		if w <= 64 {
			r := sub128(sub128(sx(x, w), sx(y, w)), c)
			return r, !fitsSigned(r, w)
		}
		r := exactSigned(x, y, w, (*big.Int).Sub)
		r.Sub(r, big128(c, false))
		return fromBig(r), !fitsBig(r, w, true)
	},
	"smul": func(x, y, c u128, w uint) (u128, bool) {
		if w <= 64 {
			r := mul128(sx(x, w), sx(y, w))
			return r, !fitsSigned(r, w)
		}
		r := exactSigned(x, y, w, (*big.Int).Mul)
		return fromBig(r), !fitsBig(r, w, true)
	},
}

func boolFlag(b bool) u128 {
	if b {
		return u64(1)
	}
	return u128{}
}

func init() {
	shapes["int_binary"] = kernelShape(intBinary, binaryLanes)
	shapes["int_unary"] = kernelShape(intUnary, unaryLanes)
	shapes["int_shift"] = kernelShape(intShift, func(k kernel2) semFn {
		return func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
			x, _ := fr.arg(d, 0)
			n, _ := fr.arg(d, 1)
			rt := fr.resType(d, 0)
			w := uint(rt.LaneBits())
			fr.set(d, 0, map1(rt, x, func(x u128, _ uint) u128 { return k(x, n, w) }))
			return flowNext, nil
		}
	})
	shapes["int_div"] = kernelShape(intDiv, func(k func(x, y u128, w uint) (u128, ir.TrapCode)) semFn {
		return func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
			x, _ := fr.arg(d, 0)
			y, _ := fr.arg(d, 1)
			rt := fr.resType(d, 0)
			var code ir.TrapCode
			r := map2(rt, x, y, func(x, y u128, w uint) u128 {
				q, c := k(x, y, w)
				if c != ir.TrapNone && code == ir.TrapNone {
					code = c
				}
				return q
			})
			if code != ir.TrapNone {
				return 0, trap(code)
			}
			fr.set(d, 0, r)
			return flowNext, nil
		}
	})
	overflow := func(withCarry bool) func(func(x, y, c u128, w uint) (u128, bool)) semFn {
		return func(k func(x, y, c u128, w uint) (u128, bool)) semFn {
			return func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
				x, _ := fr.arg(d, 0)
				y, _ := fr.arg(d, 1)
				var c u128
				if withCarry {
					c, _ = fr.arg(d, 2)
					c = boolFlag(!c.IsZero())
				}
				rt := fr.resType(d, 0)
				w := uint(rt.LaneBits())
				r, of := k(x, y, c, w)
				fr.set(d, 0, mask(r, w))
				fr.set(d, 1, boolFlag(of))
				return flowNext, nil
			}
		}
	}
	shapes["int_overflow"] = kernelShape(intOverflow, overflow(false))
	shapes["int_overflow_carry"] = kernelShape(intOverflow, overflow(true))
	shapes["int_overflow_trap"] = kernelShape(intOverflow, func(k func(x, y, c u128, w uint) (u128, bool)) semFn {
		return func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
			x, _ := fr.arg(d, 0)
			y, _ := fr.arg(d, 1)
			w := uint(fr.resType(d, 0).LaneBits())
			r, of := k(x, y, u128{}, w)
			if of {
				return 0, trap(d.Trap)
			}
			fr.set(d, 0, mask(r, w))
			return flowNext, nil
		}
	})
	shapes["icmp"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		x, xt := fr.arg(d, 0)
		y, _ := fr.arg(d, 1)
		w := uint(xt.LaneBits())
		vec := xt.IsVector()
		cc := d.IntCC
		fr.set(d, 0, map2(xt, x, y, func(a, b u128, _ uint) u128 {
			return truthy(intCompare(cc, a, b, w), vec, w)
		}))
		return flowNext, nil
	})
	shapes["iconst"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		fr.set(d, 0, mask(u128{Lo: uint64(d.Imm), Hi: uint64(d.Imm >> 63)}, uint(fr.resType(d, 0).Bits())))
		return flowNext, nil
	})
	shapes["bmask"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		x, xt := fr.arg(d, 0)
		rt := fr.resType(d, 0)
		wx, wr := uint(xt.LaneBits()), uint(rt.LaneBits())
		var r Value
		for i := 0; i < rt.Lanes(); i++ {
			r = setLane(r, i, wr, boolLane(!lane(x, i, wx).IsZero(), wr))
		}
		fr.set(d, 0, r)
		return flowNext, nil
	})
}

func intCompare(cc ir.IntCC, a, b u128, w uint) bool {
	switch cc {
	case ir.IntEq:
		return a == b
	case ir.IntNe:
		return a != b
	case ir.IntSlt:
		return slt128(sx(a, w), sx(b, w))
	case ir.IntSge:
		return !slt128(sx(a, w), sx(b, w))
	case ir.IntSgt:
		return slt128(sx(b, w), sx(a, w))
	case ir.IntSle:
		return !slt128(sx(b, w), sx(a, w))
	case ir.IntUlt:
		return ult128(a, b)
	case ir.IntUge:
		return !ult128(a, b)
	case ir.IntUgt:
		return ult128(b, a)
	case ir.IntUle:
		return !ult128(b, a)
	}
	return false
}
