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
				l := lane(x, i, wx)
				if signed {
					l = sext(l, wx)
				}
				r = setLane(r, i, wr, intToFloat(big128(l, signed), wr))
			}
			fr.set(d, 0, r)
			return flowNext, nil
		}
	})
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
		lo, hi := big.NewInt(0), new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), wr), big.NewInt(1))
		if signed {
			lo = new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), wr-1))
			hi = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), wr-1), big.NewInt(1))
		}
		var r Value
		for i := 0; i < rt.Lanes(); i++ {
			nan, v := truncLane(lane(x, i, wx), wx, lo, hi)
			if nan {
				if !saturate {
					return 0, trap(ir.TrapBadConversionToInteger)
				}
				v = big.NewInt(0)
			}
			switch {
			case v.Cmp(lo) < 0:
				if !saturate {
					return 0, trap(ir.TrapIntegerOverflow)
				}
				v = lo
			case v.Cmp(hi) > 0:
				if !saturate {
					return 0, trap(ir.TrapIntegerOverflow)
				}
				v = hi
			}
			r = setLane(r, i, wr, mask(fromBig(v), wr))
		}
		fr.set(d, 0, r)
		return flowNext, nil
	}
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
