package refinterp

import (
	"math"
	"math/big"

	"cliff/lib/ir"
)

// The x86-specific opcodes: their semantics are the x86 instructions'
// they are named after (Intel SDM), lane by lane.

func init() {
	// pmulhrsw: (x*y + 2^(w-2)) >> (w-1) with no saturation: the one
	// overflowing case, MIN*MIN, wraps to MIN (sqmul_round_sat saturates).
	intBinary["pmulhrsw"] = func(x, y u128, w uint) u128 {
		p := new(big.Int).Mul(big128(sx(x, w), true), big128(sx(y, w), true))
		p.Add(p, new(big.Int).Lsh(big.NewInt(1), w-2))
		return fromBig(p.Rsh(p, w-1))
	}
	// pshufb: byte i is 0 when bit 7 of y[i] is set, else x[y[i] & 15].
	shapes["pshufb"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		x, _ := fr.arg(d, 0)
		y, _ := fr.arg(d, 1)
		var r Value
		for i := 0; i < 16; i++ {
			if k := lane(y, i, 8).Lo; k&0x80 == 0 {
				r = setLane(r, i, 8, lane(x, int(k&15), 8))
			}
		}
		fr.set(d, 0, r)
		return flowNext, nil
	})
	// pmaddubsw: lane i is x[2i]*y[2i] + x[2i+1]*y[2i+1], x signed and y
	// unsigned bytes, saturated to i16 (Cranelift's documentation; x86's
	// pmaddubsw takes its destination, here y, as the unsigned operand).
	shapes["pmaddubsw"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		x, _ := fr.arg(d, 0)
		y, _ := fr.arg(d, 1)
		var r Value
		for i := 0; i < 8; i++ {
			s := int64(0)
			for j := 2 * i; j <= 2*i+1; j++ {
				s += int64(int8(lane(x, j, 8).Lo)) * int64(lane(y, j, 8).Lo)
			}
			s = min(max(s, math.MinInt16), math.MaxInt16)
			r = setLane(r, i, 16, u64(uint64(s)))
		}
		fr.set(d, 0, r)
		return flowNext, nil
	})
	// blendv: per lane, x where the top bit of c's lane is set, else y.
	shapes["blendv"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		c, ct := fr.arg(d, 0)
		x, _ := fr.arg(d, 1)
		y, _ := fr.arg(d, 2)
		w := uint(ct.LaneBits())
		var r Value
		for i := 0; i < ct.Lanes(); i++ {
			top := lane(c, i, w) != mask(lane(c, i, w), w-1)
			r = setLane(r, i, w, pick(top, lane(x, i, w), lane(y, i, w)))
		}
		fr.set(d, 0, r)
		return flowNext, nil
	})
	// cvtt2dq: truncate each float lane to the result's lane width; NaN
	// and out-of-range lanes give the signed minimum ("integer
	// indefinite"). Result lanes beyond x's are zero (cvttpd2dq).
	shapes["cvtt2dq"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		x, xt := fr.arg(d, 0)
		if err := floatLanes(xt, d.Op.String()); err != nil {
			return 0, err
		}
		rt := fr.resType(d, 0)
		wx, wr := uint(xt.LaneBits()), uint(rt.LaneBits())
		lo := new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), wr-1))
		hi := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), wr-1), big.NewInt(1))
		var r Value
		for i := 0; i < min(xt.Lanes(), rt.Lanes()); i++ {
			f := decodeFloat(lane(x, i, wx), wx)
			v := lo
			if !math.IsNaN(f) && !math.IsInf(f, 0) {
				if n, _ := big.NewFloat(math.Trunc(f)).Int(nil); n.Cmp(lo) >= 0 && n.Cmp(hi) <= 0 {
					v = n
				}
			}
			r = setLane(r, i, wr, mask(fromBig(v), wr))
		}
		fr.set(d, 0, r)
		return flowNext, nil
	})
}
