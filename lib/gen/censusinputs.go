package gen

import (
	"math/big"
	"sync"

	"cliff/lib/ir"
	"cliff/lib/profile/universe"
	"cliff/lib/record"
)

// censusRandomVectors are the input vectors of random values a census case
// gets after its edge-value ones.
const censusRandomVectors = 2

// censusInputs gives a census case's input vectors: edge values of each
// param's lane type (0, 1, -1, MIN, MAX, shift amounts around the width;
// ±0, ±1, ±inf, quiet and signalling NaNs with payloads, subnormals,
// extremes, halves for floats), first the
// same edge in every param (x op x, x == y), then every param at its own
// stride through its edges, each lane of a vector one edge further than
// the lane before (lane mixes), then a few random vectors. A partial
// operation's operands are kept in its domain (censusDomain): no input
// makes the case trap or its result undefined.
func censusInputs(c universe.Combo, main *ir.Function, seed uint64) []record.InputVector {
	params := main.Sig.Params
	if len(params) == 0 {
		return []record.InputVector{{}}
	}
	vectors := censusVectors(c, params, seed)
	out := make([]record.InputVector, 0, len(vectors))
	for _, vec := range vectors {
		iv := make(record.InputVector, len(params))
		for k, p := range params {
			iv[k] = censusValue(p.Type, vec[k])
		}
		out = append(out, iv)
	}
	return out
}

// censusVectors are censusInputs' vectors as little-endian bytes, by
// vector and param (at least one param).
func censusVectors(c universe.Combo, params []ir.AbiParam, seed uint64) [][][]byte {
	edges := make([][][]byte, len(params))
	n := 1
	for k, p := range params {
		edges[k] = laneEdges(p.Type.LaneType())
		n = max(n, len(edges[k]))
	}
	var vectors [][][]byte // [vector][param] bytes
	for i := range 2 * n {
		vec := make([][]byte, len(params))
		for k, p := range params {
			e := edges[k]
			start := i
			if i >= n { // every param at a stride of its own
				start = i*(k+1) + 5*k
			}
			var b []byte
			for j := range p.Type.Lanes() {
				b = append(b, e[(start+j)%len(e)]...)
			}
			vec[k] = b
		}
		vectors = append(vectors, vec)
	}
	r := newRng(derive(seed, tag("inputs")))
	for range censusRandomVectors {
		vec := make([][]byte, len(params))
		for k, p := range params {
			vec[k] = make([]byte, p.Type.Bytes())
			lb := p.Type.LaneType().Bytes()
			for off := 0; off < len(vec[k]); off += lb {
				randomLane(&r, p.Type.LaneType(), vec[k][off:off+lb])
			}
		}
		vectors = append(vectors, vec)
	}
	for i, vec := range vectors {
		censusDomain(c, params, vec, i)
	}
	return vectors
}

// censusDomain moves the operands of a partial operation (the opcode
// table's partial column) into its domain, lane by lane: a divisor of 0
// becomes 1, as does -1 under a MIN dividend (nonzero_nooverflow); a
// float converted to an integer (in_range) that is NaN or whose integer
// part does not fit becomes one of the edge values that do (the i-th, so
// the vectors still differ).
func censusDomain(c universe.Combo, params []ir.AbiParam, vec [][]byte, i int) {
	switch guard := c.Op.Info().Partial; guard {
	case "":
	case "nonzero", "nonzero_nooverflow":
		t := params[1].Type
		lb := t.LaneType().Bytes()
		for off := 0; off < len(vec[1]); off += lb {
			x, y := vec[0][off:off+lb], vec[1][off:off+lb]
			if isZero(y) || guard == "nonzero_nooverflow" && isMinusOne(y) && isIntMin(x) {
				clear(y)
				y[0] = 1
			}
		}
	case "in_range":
		// The sem kernel says the integer's signedness (fcvt_to_int s).
		signed := c.Op.Info().SemKernel == "s"
		ft := params[0].Type.LaneType()
		safe := fcvtSafeEdges(ft, c.Ctrl.LaneBits(), signed)
		lb := ft.Bytes()
		for j, off := 0, 0; off < len(vec[0]); j, off = j+1, off+lb {
			lane := vec[0][off : off+lb]
			if !fcvtInRange(ft, lane, c.Ctrl.LaneBits(), signed) {
				copy(lane, safe[(i+j)%len(safe)])
			}
		}
	default:
		panic("gen: the opcode table gives " + c.Op.String() + " guard " + guard + ", which the census inputs do not have")
	}
}

func isZero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}

func isMinusOne(b []byte) bool {
	for _, x := range b {
		if x != 0xff {
			return false
		}
	}
	return true
}

// isIntMin: the little-endian bytes hold the most negative integer.
func isIntMin(b []byte) bool {
	for _, x := range b[:len(b)-1] {
		if x != 0 {
			return false
		}
	}
	return b[len(b)-1] == 0x80
}

// perType memoises a function of a lane type, safe for concurrent use:
// the edge values are asked for per constant and per input lane.
type perType[T any] struct {
	mu   sync.Mutex
	m    map[ir.Type]T
	make func(ir.Type) T
}

func (c *perType[T]) get(t ir.Type) T {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.m[t]; ok {
		return v
	}
	if c.m == nil {
		c.m = map[ir.Type]T{}
	}
	v := c.make(t)
	c.m[t] = v
	return v
}

var laneEdgeCache = perType[[][]byte]{make: func(lane ir.Type) [][]byte {
	if lane.IsInt() {
		return intEdges(lane.Bits())
	}
	return append(floatEdges(lane.Bits()), nanEdges(lane.Bits())...)
}}

// laneEdges returns the edge values of a lane type, as little-endian
// bytes (shared: callers copy).
func laneEdges(lane ir.Type) [][]byte { return laneEdgeCache.get(lane) }

// intEdges: 0, 1, -1, MIN, MAX, 2, the shift amounts around the width,
// MIN+1, MAX-1, alternating bits, and for i128 the 64-bit boundaries.
func intEdges(bits int) [][]byte {
	one := big.NewInt(1)
	mod := new(big.Int).Lsh(one, uint(bits))
	min := new(big.Int).Lsh(one, uint(bits-1))
	maxv := new(big.Int).Sub(min, one)
	vals := []*big.Int{
		big.NewInt(0), big.NewInt(1), big.NewInt(-1), min, maxv, big.NewInt(2),
		big.NewInt(int64(bits - 1)), big.NewInt(int64(bits)), big.NewInt(int64(bits + 1)),
		new(big.Int).Add(min, one), new(big.Int).Sub(maxv, one),
		new(big.Int).Div(new(big.Int).Sub(mod, one), big.NewInt(3)), // 0x55..
	}
	if bits == 128 {
		lo := new(big.Int).Lsh(one, 64)
		vals = append(vals, lo, new(big.Int).Sub(lo, one))
	}
	var out [][]byte
	for _, v := range vals {
		out = append(out, leBytes(new(big.Int).Mod(v, mod), bits/8))
	}
	return out
}

// leBytes is v (non-negative, below 2^(8n)) as n little-endian bytes.
func leBytes(v *big.Int, n int) []byte {
	be := v.FillBytes(make([]byte, n))
	for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
		be[i], be[j] = be[j], be[i]
	}
	return be
}

// floatBits assembles a float of the given width from its fields.
func floatBits(bits int, neg bool, exp, frac *big.Int) []byte {
	f := floatFormatOf(bits)
	v := new(big.Int).Lsh(exp, f.frac)
	v.Or(v, frac)
	if neg {
		v.SetBit(v, bits-1, 1)
	}
	return leBytes(v, bits/8)
}

// floatEdges: ±0, ±1, 0.5, -1.5, 2.5 (rounding edges), ±inf, ±NaN (quiet),
// the smallest and largest subnormals, the smallest normal, ±the largest
// finite value.
func floatEdges(bits int) [][]byte {
	f := floatFormatOf(bits)
	one := big.NewInt(1)
	bias := big.NewInt(int64(1)<<(f.exp-1) - 1)
	allExp := big.NewInt(int64(1)<<f.exp - 1)
	zero := big.NewInt(0)
	top := new(big.Int).Lsh(one, f.frac-1)
	allFrac := new(big.Int).Sub(new(big.Int).Lsh(one, f.frac), one)
	add := func(e *big.Int, d int64) *big.Int { return new(big.Int).Add(e, big.NewInt(d)) }
	return [][]byte{
		floatBits(bits, false, zero, zero),
		floatBits(bits, true, zero, zero),
		floatBits(bits, false, bias, zero),
		floatBits(bits, true, bias, zero),
		floatBits(bits, false, add(bias, -1), zero),
		floatBits(bits, true, bias, top),                               // -1.5
		floatBits(bits, false, add(bias, 1), new(big.Int).Rsh(top, 1)), // 2.5
		floatBits(bits, false, allExp, zero),
		floatBits(bits, true, allExp, zero),
		floatBits(bits, false, allExp, top),
		floatBits(bits, true, allExp, top),
		floatBits(bits, false, zero, one),
		floatBits(bits, true, zero, allFrac),
		floatBits(bits, false, one, zero),
		floatBits(bits, false, add(allExp, -1), allFrac),
		floatBits(bits, true, add(allExp, -1), allFrac),
	}
}

// floatValue decodes little-endian float bits exactly; ok is false for
// NaN and the infinities.
func floatValue(lane ir.Type, b []byte) (*big.Float, bool) {
	f := floatFormatOf(lane.Bits())
	be := make([]byte, len(b))
	for i := range b {
		be[len(b)-1-i] = b[i]
	}
	v := new(big.Int).SetBytes(be)
	neg := v.Bit(lane.Bits()-1) == 1
	frac := new(big.Int).And(v, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), f.frac), big.NewInt(1)))
	exp := new(big.Int).Rsh(v, f.frac)
	exp.SetBit(exp, int(f.exp), 0)
	e := int(exp.Int64())
	bias := 1<<(f.exp-1) - 1
	if e == 1<<f.exp-1 {
		return nil, false
	}
	m := new(big.Float).SetPrec(256).SetInt(frac)
	scale := 1 - bias - int(f.frac)
	if e != 0 {
		m.Add(m, new(big.Float).SetPrec(256).SetMantExp(big.NewFloat(1), int(f.frac)))
		scale = e - bias - int(f.frac)
	}
	m.SetMantExp(m, scale)
	if neg {
		m.Neg(m)
	}
	return m, true
}

// fcvtInRange reports whether fcvt_to_uint/sint to an n-bit integer is
// defined on the float lane: not NaN or infinite, and its integer part
// (truncated toward zero) representable.
func fcvtInRange(lane ir.Type, b []byte, n int, signed bool) bool {
	x, ok := floatValue(lane, b)
	if !ok {
		return false
	}
	lo := new(big.Float).SetPrec(256).SetInt64(-1) // x > -1 (truncates to 0)
	hi := new(big.Float).SetPrec(256).SetMantExp(big.NewFloat(1), n)
	if signed {
		lo.SetMantExp(big.NewFloat(-1), n-1)
		lo.Sub(lo, big.NewFloat(1)) // x > -2^(n-1) - 1
		hi.SetMantExp(big.NewFloat(1), n-1)
	}
	return x.Cmp(lo) > 0 && x.Cmp(hi) < 0
}

// fcvtSafeEdges are the float values of lane type ft whose conversion to
// an n-bit integer is defined: the float edges that are, and the values
// closest to the bounds of the integer range that ft holds (2^n - 1,
// 2^n less one unit in the last place, -2^(n-1), -2^(n-1) - 0.5, ...).
func fcvtSafeEdges(ft ir.Type, n int, signed bool) [][]byte {
	var out [][]byte
	for _, e := range laneEdges(ft) {
		if fcvtInRange(ft, e, n, signed) {
			out = append(out, e)
		}
	}
	p := int(floatFormatOf(ft.Bits()).frac) + 1
	pow := func(k int) *big.Float { return new(big.Float).SetPrec(256).SetMantExp(big.NewFloat(1), k) }
	sub := func(a, b *big.Float) *big.Float { return new(big.Float).SetPrec(256).Sub(a, b) }
	half := big.NewFloat(0.5)
	top := n
	if signed {
		top = n - 1
	}
	cands := []*big.Float{
		sub(pow(top), big.NewFloat(1)), sub(pow(top), half), sub(pow(top), pow(top-p)),
		big.NewFloat(-0.5), sub(big.NewFloat(0), sub(big.NewFloat(1), pow(-p))),
	}
	if signed {
		m := new(big.Float).SetPrec(256).Neg(pow(top))
		cands = append(cands, m, sub(m, half), sub(m, pow(top-p)))
	}
	for _, x := range cands {
		if b, ok := encodeFloat(ft, x); ok && fcvtInRange(ft, b, n, signed) {
			out = append(out, b)
		}
	}
	return out
}

// encodeFloat returns the bits of x in lane type ft, when x is a finite
// value ft holds exactly.
func encodeFloat(ft ir.Type, x *big.Float) ([]byte, bool) {
	f := floatFormatOf(ft.Bits())
	bias := 1<<(f.exp-1) - 1
	if x.Sign() == 0 {
		return floatBits(ft.Bits(), x.Signbit(), big.NewInt(0), big.NewInt(0)), true
	}
	neg := x.Sign() < 0
	a := new(big.Float).SetPrec(256).Abs(x)
	mant := new(big.Float).SetPrec(256)
	e := a.MantExp(mant) // a = mant * 2^e, mant in [0.5, 1)
	biased := e - 1 + bias
	var exp int
	var frac *big.Float
	if biased >= 1 {
		if biased >= 1<<f.exp-1 {
			return nil, false
		}
		exp = biased
		frac = new(big.Float).SetPrec(256).SetMantExp(mant, 1)        // [1, 2)
		frac.Sub(frac, big.NewFloat(1)).SetMantExp(frac, int(f.frac)) // fraction bits
	} else {
		frac = new(big.Float).SetPrec(256).SetMantExp(a, bias-1+int(f.frac))
	}
	if !frac.IsInt() {
		return nil, false
	}
	fi, _ := frac.Int(nil)
	return floatBits(ft.Bits(), neg, big.NewInt(int64(exp)), fi), true
}
