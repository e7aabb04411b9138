package gen

import (
	"encoding/binary"

	"cliff/lib/ir"
	"cliff/lib/printer"
	"cliff/lib/record"
)

// inputs draws the case's input vectors for the entry function: random
// values and edge values (0, -1, MIN, MAX, NaN, -0.0, subnormals, shift
// amounts past the width), so the same code meets both.
func (c *caseGen) inputs(entry *ir.Function) []record.InputVector {
	r := newRng(derive(c.seed, tag("inputs")))
	params := entry.Sig.Params
	typeNames := make([]string, len(params))
	for k, p := range params {
		typeNames[k] = p.Type.String()
	}
	out := make([]record.InputVector, c.g.opts.Inputs)
	values := make([]record.Value, len(out)*len(params)) // every vector's
	var scratch [16]byte                                 // the widest value's bytes
	for i := range out {
		// The first vector is plain random values; later ones lean to
		// edge values more and more.
		edge := float64(i) / float64(len(out))
		vec := record.InputVector(values[:len(params):len(params)])
		values = values[len(params):]
		for k, p := range params {
			dv := ir.DataValue{Type: p.Type, Bytes: inputBytes(&r, p.Type, edge, scratch[:])}
			vec[k] = record.Value{Type: typeNames[k], Value: printer.DataValue(dv)}
		}
		out[i] = vec
	}
	return out
}

// inputBytes draws the little-endian bytes of one value of t into dst,
// each lane an edge value with probability edge, and returns them.
func inputBytes(r *rng, t ir.Type, edge float64, dst []byte) []byte {
	lane := t.LaneType()
	lb := lane.Bytes()
	out := dst[:t.Bytes()]
	clear(out)
	for off := 0; off < len(out); off += lb {
		laneBytes(r, lane, r.chance(edge), out[off:off+lb])
	}
	return out
}

func laneBytes(r *rng, lane ir.Type, edge bool, dst []byte) {
	if !edge {
		for i := range dst {
			dst[i] = byte(r.next())
		}
		if lane.IsFloat() && r.chance(0.8) {
			plainFloat(r, lane, dst) // mostly ordinary numbers, not raw bits
		}
		return
	}
	if lane.IsInt() {
		bits := lane.Bits()
		if bits == 128 {
			lo, hi := uint64(intEdge(r, 64)), uint64(0)
			switch r.intn(4) {
			case 0: // -1 and friends: sign-extended
				if int64(lo) < 0 {
					hi = ^uint64(0)
				}
			case 1: // MIN / MAX of i128
				lo, hi = 0, 1<<63
				if r.chance(0.5) {
					lo, hi = ^uint64(0), 1<<63-1
				}
			}
			binary.LittleEndian.PutUint64(dst, lo)
			binary.LittleEndian.PutUint64(dst[8:], hi)
			return
		}
		x := uint64(intEdge(r, bits))
		for i := range dst {
			dst[i] = byte(x >> (8 * i))
		}
		return
	}
	if lane == ir.F128 {
		f := floatFormats[128]
		for i := range dst {
			dst[i] = 0
		}
		hi := uint64(r.intn(2)) << 63
		expMask := uint64(1)<<f.exp - 1
		switch r.intn(5) {
		case 0: // ±0
		case 1: // ±1
			hi |= (expMask >> 1) << 48
		case 2: // ±inf
			hi |= expMask << 48
		case 3: // NaN
			hi |= expMask<<48 | 1<<47
		case 4: // smallest subnormal
			dst[0] = 1
		}
		binary.LittleEndian.PutUint64(dst[8:], hi)
		return
	}
	x := floatEdge(r, lane.Bits())
	for i := range dst {
		dst[i] = byte(x >> (8 * i))
	}
}

// plainFloat writes a float of moderate magnitude: exponent near the
// bias, random fraction and sign.
func plainFloat(r *rng, lane ir.Type, dst []byte) {
	f := floatFormats[lane.Bits()]
	bias := uint64(1)<<(f.exp-1) - 1
	e := bias - 8 + uint64(r.intn(24))
	if lane.Bits() == 128 {
		hi := uint64(r.intn(2))<<63 | e<<48 | r.next()>>16
		binary.LittleEndian.PutUint64(dst[8:], hi)
		return
	}
	x := uint64(r.intn(2))<<(f.exp+f.frac) | e<<f.frac | r.next()&(1<<f.frac-1)
	for i := range dst {
		dst[i] = byte(x >> (8 * i))
	}
}
