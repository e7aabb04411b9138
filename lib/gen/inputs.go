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
			vec[k] = record.Value{Type: typeName(p.Type), Value: printer.DataValue(dv)}
		}
		out[i] = vec
	}
	c.applyHints(out)
	return out
}

// applyHints gives %main's params that a crossover parent's param is
// bound to the values of that parent's run lines: in every other vector,
// the first included, so that the rest keep the random and edge values.
func (c *caseGen) applyHints(out []record.InputVector) {
	for k, column := range c.hints {
		for i := 0; i < len(out); i += 2 {
			if k < len(out[i]) && out[i][k].Type == column[0].Type {
				out[i][k] = column[(i/2)%len(column)]
			}
		}
	}
}

// typeNames holds the names of the candidate types by type code: every
// case names the type of each of its input values, and ir.Type.String
// builds the name each time.
var typeNames = func() (out [fixedTypeCodes]string) {
	for _, t := range candidateTypes {
		out[t] = t.String()
	}
	return out
}()

func typeName(t ir.Type) string {
	if int(t) < len(typeNames) && typeNames[t] != "" {
		return typeNames[t]
	}
	return t.String()
}

// inputBytes draws the little-endian bytes of one value of t into dst,
// each lane an edge value with probability edge, and returns them. Every
// way of drawing a lane writes all its bytes, so dst needs no clearing.
func inputBytes(r *rng, t ir.Type, edge float64, dst []byte) []byte {
	lane := t.LaneType()
	lb := lane.Bytes()
	out := dst[:t.Bytes()]
	for off := 0; off < len(out); off += lb {
		if r.chance(edge) {
			edgeLane(r, lane, out[off:off+lb])
		} else {
			randomLane(r, lane, out[off:off+lb])
		}
	}
	return out
}

// randomLane draws a lane of random bytes, one draw per byte (which is
// what fixes every case's inputs: drawing a word per 8 bytes would change
// them all).
func randomLane(r *rng, lane ir.Type, dst []byte) {
	// In a local, the stream's state stays in a register across the
	// loop rather than going through memory at every byte.
	s := r.Stream
	for i := range dst {
		dst[i] = byte(s.Next())
	}
	r.Stream = s
	if lane.IsFloat() && r.chance(0.8) {
		plainFloat(r, lane, dst) // mostly ordinary numbers, not raw bits
	}
}

// edgeLane writes an edge value of lane.
func edgeLane(r *rng, lane ir.Type, dst []byte) {
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
		f := floatFormatOf(128)
		clear(dst)
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
	f := floatFormatOf(lane.Bits())
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
