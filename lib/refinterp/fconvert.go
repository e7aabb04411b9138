package refinterp

import (
	"math"
	"math/big"

	"cliff/lib/ir"
)

// Conversions between floats, and between floats and integers.

func init() {
	// fpromote, fdemote: one rounding to the result's width.
	shapes["fconvert"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		x, xt := fr.arg(d, 0)
		rt := fr.resType(d, 0)
		wx, wr := uint(xt.LaneBits()), uint(rt.LaneBits())
		var r Value
		for i := 0; i < rt.Lanes(); i++ {
			l := lane(x, i, wx)
			switch {
			case wx == 128:
				l = fromF128(decode128(l), wr)
			case wr == 128:
				l = toF128(l, wx)
			default:
				l = encodeFloat(decodeFloat(l, wx), wr)
			}
			r = setLane(r, i, wr, l)
		}
		fr.set(d, 0, r)
		return flowNext, nil
	})
	// fvdemote: f64x2 to the two low lanes of an f32x4, the others zero.
	shapes["fvdemote"] = only(twoLanes(64, 32))
	// fvpromote_low: the two low lanes of an f32x4 to an f64x2.
	shapes["fvpromote_low"] = only(twoLanes(32, 64))
	// fcvt_to_int u|s: truncate toward zero; NaN traps with bad_toint, a
	// value out of the result's range with int_ovf.
	shapes["fcvt_to_int"] = kernelShape(map[string]bool{"u": false, "s": true}, func(signed bool) semFn {
		return toInt(signed, false)
	})
	// fcvt_to_int_sat u|s: NaN gives 0, out of range the nearest bound.
	shapes["fcvt_to_int_sat"] = kernelShape(map[string]bool{"u": false, "s": true}, func(signed bool) semFn {
		return toInt(signed, true)
	})
	// fcvt_from_int u|s: rounded to nearest, ties to even.
	shapes["fcvt_from_int"] = kernelShape(map[string]bool{"u": false, "s": true}, func(signed bool) semFn {
		return func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
			x, xt := fr.arg(d, 0)
			rt := fr.resType(d, 0)
			wx, wr := uint(xt.LaneBits()), uint(rt.LaneBits())
			var r Value
			for i := 0; i < rt.Lanes(); i++ {
				r = setLane(r, i, wr, intLaneToFloat(lane(x, i, wx), wx, signed, wr))
			}
			fr.set(d, 0, r)
			return flowNext, nil
		}
	})
}

// intLaneToFloat rounds the integer lane l of wx bits (signed or not)
// to a w-bit float. An f32 or f64 of a lane of up to 64 bits is Go's
// conversion, which rounds once to nearest, ties to even, and does not
// allocate; the rest is intToFloat's (intLaneToFloatBig).
func intLaneToFloat(l u128, wx uint, signed bool, w uint) u128 {
	if wx > 64 || w != 32 && w != 64 {
		return intLaneToFloatBig(l, wx, signed, w)
	}
	if signed {
		x := sxInt(l, wx)
		if w == 32 {
			return u64(uint64(math.Float32bits(float32(x))))
		}
		return u64(math.Float64bits(float64(x)))
	}
	if w == 32 {
		return u64(uint64(math.Float32bits(float32(l.Lo))))
	}
	return u64(math.Float64bits(float64(l.Lo)))
}

// intLaneToFloatBig is intLaneToFloat in math/big, for any widths.
func intLaneToFloatBig(l u128, wx uint, signed bool, w uint) u128 {
	if signed {
		l = sext(l, wx)
	}
	return intToFloat(big128(l, signed), w)
}

// intToFloat rounds v to a w-bit float.
func intToFloat(v *big.Int, w uint) u128 {
	if w == 128 {
		return round128(func(z *big.Float) { z.SetInt(v) })
	}
	f := new(big.Float).SetInt(v) // exact: 128 bits fit the default precision
	switch w {
	case 64:
		x, _ := f.Float64()
		return u64(math.Float64bits(x))
	case 32:
		x, _ := f.Float32()
		return u64(uint64(math.Float32bits(x)))
	}
	// f16: round to 11 significant bits; an integer is never subnormal.
	f.SetMode(big.ToNearestEven).SetPrec(11)
	x, _ := f.Float64()
	return encodeFloat(x, 16)
}

func toInt(signed, saturate bool) semFn {
	return func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		x, xt := fr.arg(d, 0)
		rt := fr.resType(d, 0)
		wx, wr := uint(xt.LaneBits()), uint(rt.LaneBits())
		var r Value
		for i := 0; i < rt.Lanes(); i++ {
			c, v := truncToInt(lane(x, i, wx), wx, wr, signed)
			switch {
			case c == toIntNaN && !saturate:
				return 0, trap(ir.TrapBadConversionToInteger)
			case c == toIntNaN:
				v = u128{}
			case c != toIntOK && !saturate:
				return 0, trap(ir.TrapIntegerOverflow)
			case c == toIntBelow && signed:
				v = minSigned(wr)
			case c == toIntBelow:
				v = u128{}
			case c == toIntAbove && signed:
				v = mask(sub128(minSigned(wr), u64(1)), wr)
			case c == toIntAbove:
				v = mask(not128(u128{}), wr)
			}
			r = setLane(r, i, wr, v)
		}
		fr.set(d, 0, r)
		return flowNext, nil
	}
}

// A toIntClass is where a float lane, truncated, falls against an
// integer type's range.
type toIntClass uint8

const (
	toIntOK    toIntClass = iota // in the range
	toIntNaN                     // a NaN
	toIntBelow                   // below the range (-Inf included)
	toIntAbove                   // above the range (+Inf included)
)

// truncToInt truncates the float lane x of wx bits toward zero and
// classifies it against the range of wr-bit integers, signed or not; v
// is its bits (wr wide) when in the range. Lanes of up to 64 bits to
// integers of up to 64 bits are computed in float64, without
// allocating: the truncated lane and the bounds -2^(wr-1), 2^(wr-1)
// and 2^wr are all exact there. The rest is truncToIntBig's.
func truncToInt(x u128, wx, wr uint, signed bool) (c toIntClass, v u128) {
	if wx > 64 || wr > 64 {
		return truncToIntBig(x, wx, wr, signed)
	}
	f := math.Trunc(decodeFloat(x, wx))
	lo, limit := 0.0, math.Ldexp(1, int(wr)) // the range is [lo, limit)
	if signed {
		lo, limit = -math.Ldexp(1, int(wr-1)), math.Ldexp(1, int(wr-1))
	}
	switch {
	case math.IsNaN(f):
		return toIntNaN, u128{}
	case f < lo:
		return toIntBelow, u128{}
	case f >= limit:
		return toIntAbove, u128{}
	case signed:
		return toIntOK, mask(u64(uint64(int64(f))), wr)
	}
	return toIntOK, u64(uint64(f))
}

// truncToIntBig is truncToInt in math/big, for any widths.
func truncToIntBig(x u128, wx, wr uint, signed bool) (toIntClass, u128) {
	lo, hi := big.NewInt(0), new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), wr), big.NewInt(1))
	if signed {
		lo = new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), wr-1))
		hi = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), wr-1), big.NewInt(1))
	}
	nan, v := truncLane(x, wx, lo, hi)
	switch {
	case nan:
		return toIntNaN, u128{}
	case v.Cmp(lo) < 0:
		return toIntBelow, u128{}
	case v.Cmp(hi) > 0:
		return toIntAbove, u128{}
	}
	return toIntOK, mask(fromBig(v), wr)
}

// truncLane truncates a float lane toward zero; an infinity gives a value
// just outside [lo, hi] on its side.
func truncLane(x u128, w uint, lo, hi *big.Int) (nan bool, v *big.Int) {
	if w == 128 {
		a := decode128(x)
		switch {
		case a.nan:
			return true, nil
		case a.inf && a.neg:
			return false, new(big.Int).Sub(lo, big.NewInt(1))
		case a.inf:
			return false, new(big.Int).Add(hi, big.NewInt(1))
		}
		v, _ = a.v.Int(nil)
		return false, v
	}
	f := decodeFloat(x, w)
	switch {
	case math.IsNaN(f):
		return true, nil
	case math.IsInf(f, 1):
		return false, new(big.Int).Add(hi, big.NewInt(1))
	case math.IsInf(f, -1):
		return false, new(big.Int).Sub(lo, big.NewInt(1))
	}
	v, _ = big.NewFloat(math.Trunc(f)).Int(nil)
	return false, v
}

// twoLanes converts the two low float lanes of the operand, of from bits,
// to lanes of to bits; the result's other lanes are zero.
func twoLanes(from, to uint) semFn {
	return func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		x, _ := fr.arg(d, 0)
		var r Value
		for i := 0; i < 2; i++ {
			r = setLane(r, i, to, encodeFloat(decodeFloat(lane(x, i, from), from), to))
		}
		fr.set(d, 0, r)
		return flowNext, nil
	}
}
