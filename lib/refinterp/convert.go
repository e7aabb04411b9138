package refinterp

import (
	"encoding/binary"
	"fmt"

	"cliff/lib/ir"
)

// Bitwise operations on whole values, width changes of integers, selects,
// constants and bitcasts.

func init() {
	// band, bor, bxor work on the bits of any type, floats and vectors too.
	shapes["bits_binary"] = kernelShape(map[string]func(a, b uint64) uint64{
		"and": func(a, b uint64) uint64 { return a & b },
		"or":  func(a, b uint64) uint64 { return a | b },
		"xor": func(a, b uint64) uint64 { return a ^ b },
	}, func(k func(a, b uint64) uint64) semFn {
		return func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
			x, _ := fr.arg(d, 0)
			y, _ := fr.arg(d, 1)
			fr.set(d, 0, u128{Lo: k(x.Lo, y.Lo), Hi: k(x.Hi, y.Hi)})
			return flowNext, nil
		}
	})
	shapes["bits_unary"] = kernelShape(map[string]bool{"not": true}, func(bool) semFn {
		return func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
			x, _ := fr.arg(d, 0)
			fr.set(d, 0, mask(not128(x), uint(fr.resType(d, 0).Bits())))
			return flowNext, nil
		}
	})
	// extend u|s and ireduce: lane by lane to the result's lane width.
	shapes["extend"] = kernelShape(map[string]bool{"u": false, "s": true}, func(signed bool) semFn {
		return resize(signed)
	})
	shapes["ireduce"] = only(resize(false))
	shapes["isplit"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		x, xt := fr.arg(d, 0)
		h := uint(xt.Bits() / 2)
		fr.set(d, 0, mask(x, h))
		fr.set(d, 1, shr128(x, h))
		return flowNext, nil
	})
	shapes["iconcat"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		lo, lt := fr.arg(d, 0)
		hi, _ := fr.arg(d, 1)
		fr.set(d, 0, or128(lo, shl128(hi, uint(lt.Bits()))))
		return flowNext, nil
	})
	shapes["select"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		c, _ := fr.arg(d, 0)
		x, _ := fr.arg(d, 1)
		y, _ := fr.arg(d, 2)
		fr.set(d, 0, pick(!c.IsZero(), x, y))
		return flowNext, nil
	})
	shapes["bitselect"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		c, _ := fr.arg(d, 0)
		x, _ := fr.arg(d, 1)
		y, _ := fr.arg(d, 2)
		fr.set(d, 0, u128{Lo: c.Lo&x.Lo | ^c.Lo&y.Lo, Hi: c.Hi&x.Hi | ^c.Hi&y.Hi})
		return flowNext, nil
	})
	shapes["fconst"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		fr.set(d, 0, u64(d.FloatBits))
		return flowNext, nil
	})
	shapes["const_data"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		b := d.Bytes
		if d.Const != ir.NoConstant {
			found := false
			for _, c := range fr.fn.f.Constants {
				if c.Num == d.Const {
					b, found = c.Bytes, true
				}
			}
			if !found {
				return 0, fmt.Errorf("%s: %s is not declared", fr.fn.f.Name, d.Const)
			}
		}
		rt := fr.resType(d, 0)
		if len(b) > rt.Bytes() {
			return 0, fmt.Errorf("%s: %d bytes of constant data for a %s", fr.fn.f.Name, len(b), rt)
		}
		fr.set(d, 0, FromBytes(b))
		return flowNext, nil
	})
	// bitcast keeps the bits; between vectors of other lane shapes the
	// lanes are reordered as a store and load in the flags' byte order
	// would (big-endian swaps bytes within lanes).
	shapes["bitcast"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		x, xt := fr.arg(d, 0)
		rt := fr.resType(d, 0)
		order := byteOrder(d.Flags)
		if order == binary.BigEndian && (xt.IsVector() || rt.IsVector()) {
			var buf [16]byte
			writeValue(buf[:xt.Bytes()], xt, x, order)
			x = readValue(buf[:rt.Bytes()], rt, order)
		}
		fr.set(d, 0, x)
		return flowNext, nil
	})
}

// resize converts each lane of the operand to the result's lane width,
// sign- or zero-extending (or truncating).
func resize(signed bool) semFn {
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
			r = setLane(r, i, wr, l)
		}
		fr.set(d, 0, r)
		return flowNext, nil
	}
}
