package refinterp

import (
	"cliff/lib/ir"
)

// Vector operations that move lanes around or change their shape. Lane
// indices count from lane 0, the lowest bits.

func init() {
	shapes["splat"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		x, _ := fr.arg(d, 0)
		rt := fr.resType(d, 0)
		w := uint(rt.LaneBits())
		var r Value
		for i := 0; i < rt.Lanes(); i++ {
			r = setLane(r, i, w, x)
		}
		fr.set(d, 0, r)
		return flowNext, nil
	})
	shapes["insertlane"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		x, xt := fr.arg(d, 0)
		y, _ := fr.arg(d, 1)
		fr.set(d, 0, setLane(x, int(d.Imm), uint(xt.LaneBits()), y))
		return flowNext, nil
	})
	shapes["extractlane"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		x, xt := fr.arg(d, 0)
		fr.set(d, 0, lane(x, int(d.Imm), uint(xt.LaneBits())))
		return flowNext, nil
	})
	shapes["scalar_to_vector"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		x, xt := fr.arg(d, 0)
		fr.set(d, 0, mask(x, uint(xt.Bits())))
		return flowNext, nil
	})
	// swizzle: lane i of the result is byte y[i] of x, or 0 when y[i] is
	// out of range.
	shapes["swizzle"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		x, _ := fr.arg(d, 0)
		y, _ := fr.arg(d, 1)
		var r Value
		for i := 0; i < 16; i++ {
			if k := lane(y, i, 8).Lo; k < 16 {
				r = setLane(r, i, 8, lane(x, int(k), 8))
			}
		}
		fr.set(d, 0, r)
		return flowNext, nil
	})
	// shuffle: byte i of the result is byte mask[i] of a:b (32 bytes), or
	// 0 when mask[i] is 32 or more.
	shapes["shuffle"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		a, _ := fr.arg(d, 0)
		b, _ := fr.arg(d, 1)
		var r Value
		for i, k := range d.Bytes {
			switch {
			case k < 16:
				r = setLane(r, i, 8, lane(a, int(k), 8))
			case k < 32:
				r = setLane(r, i, 8, lane(b, int(k)-16, 8))
			}
		}
		fr.set(d, 0, r)
		return flowNext, nil
	})
	shapes["vany_true"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		x, _ := fr.arg(d, 0)
		fr.set(d, 0, boolFlag(!x.IsZero()))
		return flowNext, nil
	})
	shapes["vall_true"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		x, xt := fr.arg(d, 0)
		w := uint(xt.LaneBits())
		all := true
		for i := 0; i < xt.Lanes(); i++ {
			all = all && !lane(x, i, w).IsZero()
		}
		fr.set(d, 0, boolFlag(all))
		return flowNext, nil
	})
	// vhigh_bits: bit i of the result is the sign bit of lane i.
	shapes["vhigh_bits"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		x, xt := fr.arg(d, 0)
		w := uint(xt.LaneBits())
		var r u128
		for i := 0; i < xt.Lanes(); i++ {
			if lane(x, i, w) != mask(lane(x, i, w), w-1) {
				r = or128(r, shl128(u64(1), uint(i)))
			}
		}
		fr.set(d, 0, mask(r, uint(fr.resType(d, 0).Bits())))
		return flowNext, nil
	})
	// pairwise add: the sums of adjacent lanes of x, then of y.
	shapes["pairwise"] = kernelShape(map[string]kernel2{"add": intBinary["add"]}, func(k kernel2) semFn {
		return func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
			x, xt := fr.arg(d, 0)
			y, _ := fr.arg(d, 1)
			w, n := uint(xt.LaneBits()), xt.Lanes()
			var r Value
			for i := 0; i < n; i++ {
				src, j := x, 2*i
				if i >= n/2 {
					src, j = y, 2*(i-n/2)
				}
				r = setLane(r, i, w, k(lane(src, j, w), lane(src, j+1, w), w))
			}
			fr.set(d, 0, r)
			return flowNext, nil
		}
	})
	// narrow: the lanes of x then of y, each saturated to half width.
	// s: signed to signed; u: signed to unsigned; uu: unsigned to unsigned.
	shapes["narrow"] = kernelShape(map[string]func(x u128, w uint) u128{
		"s":  func(x u128, w uint) u128 { return clampSigned(sext(x, 2*w), w, true) },
		"u":  func(x u128, w uint) u128 { return clampSigned(sext(x, 2*w), w, false) },
		"uu": func(x u128, w uint) u128 { return pick(x == mask(x, w), x, mask(not128(u128{}), w)) },
	}, func(k func(x u128, w uint) u128) semFn {
		return func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
			x, xt := fr.arg(d, 0)
			y, _ := fr.arg(d, 1)
			wx, n := uint(xt.LaneBits()), xt.Lanes()
			var r Value
			for i := 0; i < 2*n; i++ {
				src, j := x, i
				if i >= n {
					src, j = y, i-n
				}
				r = setLane(r, i, wx/2, k(lane(src, j, wx), wx/2))
			}
			fr.set(d, 0, r)
			return flowNext, nil
		}
	})
	// widen: the low or high half of the lanes, each extended to double width.
	shapes["widen"] = kernelShape(map[string][2]bool{
		"s_low": {true, false}, "s_high": {true, true}, "u_low": {false, false}, "u_high": {false, true},
	}, func(k [2]bool) semFn {
		signed, high := k[0], k[1]
		return func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
			x, xt := fr.arg(d, 0)
			rt := fr.resType(d, 0)
			wx, wr := uint(xt.LaneBits()), uint(rt.LaneBits())
			var r Value
			for i := 0; i < rt.Lanes(); i++ {
				j := i
				if high {
					j += rt.Lanes()
				}
				l := lane(x, j, wx)
				if signed {
					l = sext(l, wx)
				}
				r = setLane(r, i, wr, l)
			}
			fr.set(d, 0, r)
			return flowNext, nil
		}
	})
}

// clampSigned clamps the 128-bit signed x to w bits, signed or unsigned.
func clampSigned(x u128, w uint, signed bool) u128 {
	lo, hi := u128{}, mask(not128(u128{}), w)
	if signed {
		lo, hi = sext(minSigned(w), w), mask(not128(u128{}), w-1)
	}
	switch {
	case slt128(x, lo):
		return lo
	case slt128(hi, x):
		return hi
	}
	return x
}
