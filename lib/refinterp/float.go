package refinterp

import (
	"fmt"
	"math"
	"math/big"

	"cliff/lib/ir"
)

// Floating point. f16, f32 and f64 lanes are decoded to float64 (exactly),
// computed there and rounded once to their width: for +, -, *, / and sqrt
// that gives the correctly rounded result, since float64 has more than
// twice the precision plus two bits of f32 and f16. fma rounds once from
// the exact value. f128 is computed in math/big (f128.go).
//
// NaN results: Cranelift documents their sign and payload as
// nondeterministic (../shared/CLIF.md); the reference gives the canonical
// NaN (positive, quiet, zero payload), as enable_nan_canonicalization
// does. fneg, fabs and fcopysign are bitwise and keep payloads.

func decodeFloat(x u128, w uint) float64 {
	switch w {
	case 16:
		return f16ToF64(uint16(x.Lo))
	case 32:
		return float64(math.Float32frombits(uint32(x.Lo)))
	}
	return math.Float64frombits(x.Lo)
}

func encodeFloat(f float64, w uint) u128 {
	if math.IsNaN(f) {
		return canonicalNaN(w)
	}
	switch w {
	case 16:
		return u64(uint64(f16FromF64(f)))
	case 32:
		return u64(uint64(math.Float32bits(float32(f))))
	}
	return u64(math.Float64bits(f))
}

func canonicalNaN(w uint) u128 {
	switch w {
	case 16:
		return u64(0x7e00)
	case 32:
		return u64(0x7fc0_0000)
	case 64:
		return u64(0x7ff8_0000_0000_0000)
	}
	return u128{Lo: 0, Hi: 0x7fff_8000_0000_0000}
}

func f16ToF64(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	e, m := int(h>>10&0x1f), float64(h&0x3ff)
	switch e {
	case 0:
		return sign * math.Ldexp(m, -24)
	case 0x1f:
		if m != 0 {
			return math.NaN()
		}
		return sign * math.Inf(1)
	}
	return sign * math.Ldexp(1024+m, e-25)
}

// f16FromF64 rounds f to the nearest f16, ties to even.
func f16FromF64(f float64) uint16 {
	var sign uint16
	if math.Signbit(f) {
		sign = 0x8000
	}
	a := math.Abs(f)
	switch {
	case math.IsNaN(f):
		return 0x7e00
	case a >= 65520: // halfway between the largest f16, 65504, and 2^16 rounds to even: infinity
		return sign | 0x7c00
	case a < 0x1p-14: // subnormal: units of 2^-24
		return sign | uint16(math.RoundToEven(a*0x1p24))
	}
	frac, exp := math.Frexp(a) // a = frac * 2^exp, frac in [0.5, 1)
	m := math.RoundToEven(frac * 2048)
	e := exp - 1
	if m == 2048 {
		m, e = 1024, e+1
	}
	if e > 15 {
		return sign | 0x7c00
	}
	return sign | uint16(e+15)<<10 | uint16(m-1024)
}

// floatLanes checks that t has lanes the arithmetic handles.
func floatLanes(t ir.Type, what string) error {
	if t.LaneBits() == 128 {
		return fmt.Errorf("%w: %s on %s", ErrUnsupported, what, t)
	}
	return nil
}

var floatBinary = map[string]func(a, b float64) float64{
	"add": func(a, b float64) float64 { return a + b },
	"sub": func(a, b float64) float64 { return a - b },
	"mul": func(a, b float64) float64 { return a * b },
	"div": func(a, b float64) float64 { return a / b },
	// fmin, fmax: NaN if either is NaN; -0.0 is less than +0.0.
	"min": func(a, b float64) float64 {
		if math.IsNaN(a) || math.IsNaN(b) {
			return math.NaN()
		}
		return math.Min(a, b)
	},
	"max": func(a, b float64) float64 {
		if math.IsNaN(a) || math.IsNaN(b) {
			return math.NaN()
		}
		return math.Max(a, b)
	},
}

var floatUnary = map[string]func(a float64) float64{
	"sqrt":    math.Sqrt,
	"ceil":    math.Ceil,
	"floor":   math.Floor,
	"trunc":   math.Trunc,
	"nearest": math.RoundToEven,
}

// Bitwise float operations, on the sign bit of each lane.
var floatSign = map[string]kernel2{
	"neg": func(x, _ u128, w uint) u128 { return xorBit(x, w-1) },
	"abs": func(x, _ u128, w uint) u128 { return mask(x, w-1) },
	"copysign": func(x, y u128, w uint) u128 {
		m := mask(x, w-1)
		if y != mask(y, w-1) {
			m = xorBit(m, w-1)
		}
		return m
	},
}

// xorBit flips bit i of x.
func xorBit(x u128, i uint) u128 {
	b := shl128(u64(1), i)
	return u128{Lo: x.Lo ^ b.Lo, Hi: x.Hi ^ b.Hi}
}

func init() {
	shapes["float_binary"] = func(kernel string) semFn {
		if k, ok := floatBinary[kernel]; ok {
			k128 := f128Binary[kernel]
			return func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
				rt := fr.resType(d, 0)
				x, _ := fr.arg(d, 0)
				y, _ := fr.arg(d, 1)
				if rt.LaneBits() == 128 {
					fr.set(d, 0, k128(decode128(x), decode128(y)))
					return flowNext, nil
				}
				fr.set(d, 0, map2(rt, x, y, func(a, b u128, w uint) u128 {
					return encodeFloat(k(decodeFloat(a, w), decodeFloat(b, w)), w)
				}))
				return flowNext, nil
			}
		}
		if k, ok := floatSign[kernel]; ok {
			return binaryLanes(k)
		}
		return nil
	}
	shapes["float_unary"] = func(kernel string) semFn {
		if k, ok := floatUnary[kernel]; ok {
			k128 := f128Unary[kernel]
			return func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
				rt := fr.resType(d, 0)
				x, _ := fr.arg(d, 0)
				if rt.LaneBits() == 128 {
					fr.set(d, 0, k128(decode128(x)))
					return flowNext, nil
				}
				fr.set(d, 0, map1(rt, x, func(a u128, w uint) u128 {
					return encodeFloat(k(decodeFloat(a, w)), w)
				}))
				return flowNext, nil
			}
		}
		if k, ok := floatSign[kernel]; ok {
			return unaryLanes(func(x u128, w uint) u128 { return k(x, u128{}, w) })
		}
		return nil
	}
	shapes["fma"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		rt := fr.resType(d, 0)
		x, _ := fr.arg(d, 0)
		y, _ := fr.arg(d, 1)
		z, _ := fr.arg(d, 2)
		if rt.LaneBits() == 128 {
			fr.set(d, 0, fma128(decode128(x), decode128(y), decode128(z)))
			return flowNext, nil
		}
		w := uint(rt.LaneBits())
		var r Value
		for i := 0; i < rt.Lanes(); i++ {
			a, b, c := decodeFloat(lane(x, i, w), w), decodeFloat(lane(y, i, w), w), decodeFloat(lane(z, i, w), w)
			r = setLane(r, i, w, fma(a, b, c, w))
		}
		fr.set(d, 0, r)
		return flowNext, nil
	})
	shapes["fcmp"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		x, xt := fr.arg(d, 0)
		y, _ := fr.arg(d, 1)
		if xt.LaneBits() == 128 {
			fr.set(d, 0, boolFlag(floatCompare128(d.FloatCC, decode128(x), decode128(y))))
			return flowNext, nil
		}
		w := uint(xt.LaneBits())
		vec, cc := xt.IsVector(), d.FloatCC
		fr.set(d, 0, map2(xt, x, y, func(a, b u128, _ uint) u128 {
			return truthy(floatCompare(cc, decodeFloat(a, w), decodeFloat(b, w)), vec, w)
		}))
		return flowNext, nil
	})
}

// fma computes a*b+c rounded once to w bits.
func fma(a, b, c float64, w uint) u128 {
	switch w {
	case 64:
		return encodeFloat(math.FMA(a, b, c), 64)
	case 16:
		// The exact value of an f16 a*b+c fits in float64's 53 bits.
		return encodeFloat(a*b+c, 16)
	}
	if math.IsNaN(a) || math.IsNaN(b) || math.IsNaN(c) || math.IsInf(a, 0) || math.IsInf(b, 0) || math.IsInf(c, 0) {
		return encodeFloat(a*b+c, w) // no rounding question; inf*0 and inf-inf give NaN
	}
	// f32: exact in big.Float, then rounded once. An exact zero takes
	// the sign IEEE gives it, which float64 arithmetic gets right.
	p := new(big.Float).SetPrec(2000).SetFloat64(a)
	p.Mul(p, new(big.Float).SetFloat64(b))
	p.Add(p, new(big.Float).SetFloat64(c))
	if p.Sign() == 0 {
		return encodeFloat(a*b+c, w)
	}
	f, _ := p.Float32()
	return u64(uint64(math.Float32bits(f)))
}

func floatCompare(cc ir.FloatCC, a, b float64) bool {
	uno := math.IsNaN(a) || math.IsNaN(b)
	switch cc {
	case ir.FloatOrd:
		return !uno
	case ir.FloatUno:
		return uno
	case ir.FloatEq:
		return a == b
	case ir.FloatNe:
		return a != b
	case ir.FloatOne:
		return !uno && a != b
	case ir.FloatUeq:
		return uno || a == b
	case ir.FloatLt:
		return a < b
	case ir.FloatLe:
		return a <= b
	case ir.FloatGt:
		return a > b
	case ir.FloatGe:
		return a >= b
	case ir.FloatUlt:
		return uno || a < b
	case ir.FloatUle:
		return uno || a <= b
	case ir.FloatUgt:
		return uno || a > b
	case ir.FloatUge:
		return uno || a >= b
	}
	return false
}
