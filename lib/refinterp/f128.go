package refinterp

import (
	"math"
	"math/big"

	"cliff/lib/ir"
)

// f128 (IEEE binary128) arithmetic in math/big: big.Float rounds each
// operation correctly to its precision, so an operation is run at the
// result's precision, and again at the narrower precision of a subnormal
// result when it is one. Operations on infinities and NaNs, which
// big.Float does not do, are decided first.

// ieee is a binary interchange format: prec significand bits with the
// hidden one, emin the least normal exponent, ebits the exponent width.
type ieee struct {
	prec  int
	emin  int
	ebits uint
}

var f128Format = ieee{prec: 113, emin: -16382, ebits: 15}

func (f ieee) emax() int { return -f.emin + 1 }
func (f ieee) bias() int { return f.emax() }

// f128Val is a decoded f128: its class and sign, and its value when finite.
type f128Val struct {
	nan, inf, neg bool
	v             *big.Float // finite values, exact
}

func decode128(x u128) f128Val {
	f := f128Format
	mbits := uint(f.prec - 1)
	neg := x.Hi>>63 != 0
	e := int(shr128(x, mbits).Lo & (1<<f.ebits - 1))
	frac := mask(x, mbits)
	if e == 1<<f.ebits-1 {
		return f128Val{nan: !frac.IsZero(), inf: frac.IsZero(), neg: neg}
	}
	m := big128(frac, false)
	exp := f.emin - int(mbits)
	if e != 0 {
		m.SetBit(m, int(mbits), 1)
		exp = e - f.bias() - int(mbits)
	}
	v := new(big.Float).SetInt(m)
	v.SetMantExp(v, exp)
	if neg {
		v.Neg(v)
	}
	return f128Val{neg: neg, v: v}
}

// proxy gives a float64 stand-in of the same class for deciding operations on
// infinities: ±Inf, ±0, or ±1 for other finite values.
func (a f128Val) proxy() float64 {
	s := 1.0
	if a.neg {
		s = -1
	}
	switch {
	case a.nan:
		return math.NaN()
	case a.inf:
		return math.Inf(int(s))
	case a.v.Sign() == 0:
		return math.Copysign(0, s)
	}
	return s
}

// encodeSpecial encodes an f128 result that is NaN, an infinity or zero.
func encodeSpecial128(f float64) u128 {
	var r u128
	switch {
	case math.IsNaN(f):
		return canonicalNaN(128)
	case math.IsInf(f, 0):
		r = u128{Lo: 0, Hi: 0x7fff_0000_0000_0000}
	case f != 0:
		panic("encodeSpecial128 of a finite non-zero value")
	}
	if math.Signbit(f) {
		r.Hi |= 1 << 63
	}
	return r
}

// round128 runs op (which sets z from exact operands) at f128 precision,
// with subnormal results rounded at their own precision, and encodes it.
func round128(op func(z *big.Float)) u128 {
	f := f128Format
	z := new(big.Float).SetPrec(uint(f.prec)).SetMode(big.ToNearestEven)
	op(z)
	if z.IsInf() || z.Sign() == 0 {
		return encodeSpecial128(zeroOrInf(z))
	}
	if e := z.MantExp(nil) - 1; e < f.emin {
		// Bits from the leading one down to the least subnormal's.
		p := e - (f.emin - (f.prec - 1)) + 1
		if p <= 0 {
			// Below the least subnormal s: s if above s/2, else 0 (a tie
			// goes to even, 0). Decided at a precision that is exact for
			// +, -, * and fma here and decisive for / and sqrt.
			hi := new(big.Float).SetPrec(1024).SetMode(big.ToNearestEven)
			op(hi)
			half := new(big.Float).SetMantExp(big.NewFloat(1), f.emin-(f.prec-1)-1)
			if new(big.Float).Abs(hi).Cmp(half) <= 0 {
				return encodeSpecial128(math.Copysign(0, float64(hi.Sign())))
			}
			z = new(big.Float).SetMantExp(big.NewFloat(1), f.emin-(f.prec-1))
			if hi.Sign() < 0 {
				z.Neg(z)
			}
		} else {
			z = new(big.Float).SetPrec(uint(p)).SetMode(big.ToNearestEven)
			op(z)
		}
	}
	return encode128(z)
}

func zeroOrInf(z *big.Float) float64 {
	s := 1.0
	if z.Signbit() {
		s = -1
	}
	if z.IsInf() {
		return math.Inf(int(s))
	}
	return math.Copysign(0, s)
}

// encode128 encodes a value already rounded to what f128 can hold.
func encode128(z *big.Float) u128 {
	if z.IsInf() || z.Sign() == 0 {
		return encodeSpecial128(zeroOrInf(z))
	}
	f := f128Format
	a := new(big.Float).Abs(z)
	e := a.MantExp(nil) - 1
	if e > f.emax() {
		return encodeSpecial128(math.Inf(z.Sign()))
	}
	var r u128
	if e >= f.emin {
		sig, _ := new(big.Float).SetMantExp(a, f.prec-1-e).Int(nil)
		sig.SetBit(sig, f.prec-1, 0)
		r = or128(fromBig(sig), shl128(u64(uint64(e+f.bias())), uint(f.prec-1)))
	} else {
		sig, _ := new(big.Float).SetMantExp(a, f.prec-1-f.emin).Int(nil)
		r = fromBig(sig)
	}
	if z.Sign() < 0 {
		r.Hi |= 1 << 63
	}
	return r
}

// f128Binary are fadd, fsub, fmul, fdiv, fmin, fmax on f128.
var f128Binary = map[string]func(a, b f128Val) u128{
	"add": arith128((*big.Float).Add, func(a, b float64) float64 { return a + b }),
	"sub": arith128((*big.Float).Sub, func(a, b float64) float64 { return a - b }),
	"mul": arith128((*big.Float).Mul, func(a, b float64) float64 { return a * b }),
	"div": func(a, b f128Val) u128 {
		if !a.nan && !b.nan && !a.inf && !b.inf && a.v.Sign() == 0 && b.v.Sign() == 0 {
			return canonicalNaN(128)
		}
		if !a.nan && !b.nan && !a.inf && !b.inf && b.v.Sign() == 0 {
			return encodeSpecial128(a.proxy() / b.proxy())
		}
		return arith128((*big.Float).Quo, func(a, b float64) float64 { return a / b })(a, b)
	},
	"min": func(a, b f128Val) u128 { return minMax128(a, b, true) },
	"max": func(a, b f128Val) u128 { return minMax128(a, b, false) },
}

func arith128(op func(z, x, y *big.Float) *big.Float, special func(a, b float64) float64) func(a, b f128Val) u128 {
	return func(a, b f128Val) u128 {
		if a.nan || b.nan || a.inf || b.inf {
			return encodeSpecial128(special(a.proxy(), b.proxy()))
		}
		if a.v.Sign() == 0 && b.v.Sign() == 0 {
			// Signed zeros: the float64 stand-ins follow IEEE.
			return encodeSpecial128(special(a.proxy(), b.proxy()))
		}
		return round128(func(z *big.Float) { op(z, a.v, b.v) })
	}
}

func minMax128(a, b f128Val, isMin bool) u128 {
	if a.nan || b.nan {
		return canonicalNaN(128)
	}
	c := cmp128(a, b)
	if c == 0 { // equal, or +0 and -0: min takes the negative one
		if a.neg == isMin {
			return value128(a)
		}
		return value128(b)
	}
	if (c < 0) == isMin {
		return value128(a)
	}
	return value128(b)
}

func value128(a f128Val) u128 {
	if a.inf || a.v.Sign() == 0 {
		return encodeSpecial128(a.proxy())
	}
	return encode128(a.v)
}

// cmp128 compares two non-NaN values.
func cmp128(a, b f128Val) int {
	fa, fb := a.proxy(), b.proxy()
	if a.inf || b.inf {
		switch {
		case fa < fb:
			return -1
		case fa > fb:
			return 1
		}
		if a.inf && b.inf {
			return 0
		}
		if a.inf { // and b finite
			return int(math.Copysign(1, fa))
		}
		return -int(math.Copysign(1, fb))
	}
	return a.v.Cmp(b.v)
}

// f128Unary are sqrt and the roundings on f128.
var f128Unary = map[string]func(a f128Val) u128{
	"sqrt": func(a f128Val) u128 {
		if a.nan || a.inf || a.v.Sign() == 0 || a.neg {
			return encodeSpecial128(math.Sqrt(a.proxy()))
		}
		return round128(func(z *big.Float) { z.Sqrt(a.v) })
	},
	"ceil":    roundInt128(func(t, frac *big.Float, neg bool) int { return boolInt(!neg && frac.Sign() != 0) }),
	"floor":   roundInt128(func(t, frac *big.Float, neg bool) int { return -boolInt(neg && frac.Sign() != 0) }),
	"trunc":   roundInt128(func(t, frac *big.Float, neg bool) int { return 0 }),
	"nearest": roundInt128(nearestStep),
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// nearestStep rounds half to even: the step from the truncation t.
func nearestStep(t, frac *big.Float, neg bool) int {
	c := new(big.Float).Abs(frac).Cmp(big.NewFloat(0.5))
	away := c > 0
	if c == 0 {
		ti, _ := t.Int(nil)
		away = ti.Bit(0) == 1
	}
	if !away {
		return 0
	}
	if neg {
		return -1
	}
	return 1
}

// roundInt128 rounds to an integer: step says whether to move from the
// truncation by -1, 0 or 1. A zero result keeps the operand's sign.
func roundInt128(step func(t, frac *big.Float, neg bool) int) func(a f128Val) u128 {
	return func(a f128Val) u128 {
		if a.nan || a.inf || a.v.Sign() == 0 {
			return encodeSpecial128(a.proxy())
		}
		if a.v.MantExp(nil)-1 >= f128Format.prec-1 {
			return encode128(a.v) // already an integer
		}
		ti, _ := a.v.Int(nil)
		t := new(big.Float).SetInt(ti)
		frac := new(big.Float).Sub(a.v, t)
		t.Add(t, big.NewFloat(float64(step(t, frac, a.neg))))
		if t.Sign() == 0 {
			return encodeSpecial128(math.Copysign(0, a.proxy()))
		}
		return encode128(t)
	}
}

// fma128 is a*b+c rounded once.
func fma128(a, b, c f128Val) u128 {
	if a.nan || b.nan || c.nan || a.inf || b.inf || c.inf {
		return encodeSpecial128(a.proxy()*b.proxy() + c.proxy())
	}
	p := new(big.Float).SetPrec(2*uint(f128Format.prec)).Mul(a.v, b.v) // exact
	if p.Sign() == 0 && c.v.Sign() == 0 {
		return encodeSpecial128(a.proxy()*b.proxy() + c.proxy())
	}
	return round128(func(z *big.Float) { z.Add(p, c.v) })
}

// floatCompare128 is fcmp on f128.
func floatCompare128(cc ir.FloatCC, a, b f128Val) bool {
	if a.nan || b.nan {
		return floatCompare(cc, math.NaN(), 0)
	}
	c := cmp128(a, b)
	return floatCompare(cc, float64(c), 0)
}

// toF128 converts a narrower float exactly; fromF128 rounds an f128 to
// width w.
func toF128(x u128, w uint) u128 {
	f := decodeFloat(x, w)
	if math.IsNaN(f) || math.IsInf(f, 0) || f == 0 {
		return encodeSpecial128(f)
	}
	return encode128(new(big.Float).SetFloat64(f))
}

func fromF128(a f128Val, w uint) u128 {
	if a.nan || a.inf || a.v.Sign() == 0 {
		return encodeFloat(a.proxy(), w)
	}
	switch w {
	case 64:
		f, _ := a.v.Float64()
		return u64(math.Float64bits(f))
	case 32:
		f, _ := a.v.Float32()
		return u64(uint64(math.Float32bits(f)))
	}
	// f16: round to 11 bits, or to the subnormal quantum 2^-24.
	e := a.v.MantExp(nil) - 1
	p := 11
	if e < -14 {
		p = e + 25
	}
	if p <= 0 {
		half := new(big.Float).SetMantExp(big.NewFloat(1), -25)
		if new(big.Float).Abs(a.v).Cmp(half) <= 0 {
			return encodeFloat(math.Copysign(0, a.proxy()), 16)
		}
		return encodeFloat(math.Copysign(0x1p-24, a.proxy()), 16)
	}
	f, _ := new(big.Float).SetPrec(uint(p)).SetMode(big.ToNearestEven).Set(a.v).Float64()
	return encodeFloat(f, 16)
}
