package gen

import (
	"math/big"

	"cliff/lib/ir"
)

// Constant operands of every type (the "edge_constants" feature). The
// "constants" feature makes an integer scalar operand after the first an
// iconst, so that the lowering rules that take an immediate match; this
// one makes float and vector operands constants too (f16const to
// f128const, vconst, splats of a constant), of edge values, and sometimes
// every operand of an instruction, so that the mid-end folds it whole:
// the fold at opt levels speed and speed_and_size is then compared with
// the same instruction computed at run time at opt level none and by the
// interpreters (Cranelift's, and cliff's reference where it runs). The
// mid-end is target-independent, so a wrong fold is wrong code on every
// backend.
//
// Its choices come from a stream of its own, derived from the
// instruction's without drawing from it: with the feature off nothing is
// drawn and every other choice is as it was.
//
// A NaN constant follows the path of any operand: where an operand shows a
// float's bits (ub.NaNSensitive) emit makes it canonical, constant or not.

// edgeConstantsFeature names the feature.
const edgeConstantsFeature = "edge_constants"

// edgeConstantsTag is the stream key of an instruction's constant plan,
// hashed once rather than per instruction.
var edgeConstantsTag = tag(edgeConstantsFeature)

// Probabilities of the feature's choices.
const (
	allConstChance     = 0.15 // every operand of a pure instruction constant
	floatConstChance   = 0.25 // a float or vector operand constant
	constSplatChance   = 0.25 // a vector constant as a splat of a scalar one
	uniformLanesChance = 0.3  // a vconst with one value in every lane
)

// constPlan is an instruction's plan for constant operands.
type constPlan struct {
	on  bool // the feature is on and the instruction is pure
	all bool // every operand the instruction does not take from a snippet
	r   rng
}

// planConstants draws the constant plan of an instruction of info; r is
// the instruction's stream, left as it was.
func (fg *funcGen) planConstants(r *rng, info *ir.OpcodeInfo) constPlan {
	if !fg.c.sw.edgeConstants || !pureForConstants(info) {
		return constPlan{}
	}
	cp := constPlan{on: true, r: newRng(derive(r.State, edgeConstantsTag))}
	cp.all = cp.r.chance(allConstChance)
	return cp
}

// pureForConstants: an instruction without effects, memory or calls, whose
// operands may be constants.
func pureForConstants(info *ir.OpcodeInfo) bool {
	return info.Flags&(ir.FlagSideEffects|ir.FlagCanLoad|ir.FlagCanStore|ir.FlagCall) == 0
}

// edgeConstOperand returns a constant for an operand of type t when the
// plan makes it one: every operand of an all-constant instruction, a float
// or vector operand otherwise a quarter of the time. It reports false
// when the operand is not one, or the profile has no constant of t.
func (fg *funcGen) edgeConstOperand(cp *constPlan, t ir.Type) (ir.Value, bool) {
	if !cp.on {
		return ir.NoValue, false
	}
	isFloatOrVector := t.IsVector() || !t.IsInt()
	if !cp.all && !(isFloatOrVector && cp.r.chance(floatConstChance)) {
		return ir.NoValue, false
	}
	return fg.edgeConst(&cp.r, t)
}

// edgeConst appends a constant of t, an edge value, when the profile
// allows the instructions that make it.
func (fg *funcGen) edgeConst(r *rng, t ir.Type) (ir.Value, bool) {
	p := fg.c.tab.prof
	switch {
	case t.IsVector():
		lane := t.LaneType()
		if r.chance(constSplatChance) && p.Allows(ir.OpSplat, t) {
			if x, ok := fg.edgeConst(r, lane); ok {
				inst := ir.InstData{Op: ir.OpSplat, CtrlType: t, Args: fg.list(x)}
				if _, masked := p.Patterns().Match(fg.f, &inst); !masked {
					return fg.b.Results(fg.b.Append(inst))[0], true
				}
			}
		}
		if !p.Allows(ir.OpVconst, t) {
			return ir.NoValue, false
		}
		le := make([]byte, 0, t.Bytes())
		uniform := r.chance(uniformLanesChance)
		first := constLane(r, lane)
		for i := range t.Lanes() {
			if i == 0 || uniform {
				le = append(le, first...)
			} else {
				le = append(le, constLane(r, lane)...)
			}
		}
		return fg.b.Vconst(t, le), true
	case t.IsInt():
		if t == ir.I128 {
			// Both halves: an i128 edge is not a sign-extended i64.
			le := constLane(r, t)
			if !p.Allows(ir.OpIconcat, ir.I64) {
				return fg.intConst(t, int64(leUint64(le[:8]))), true
			}
			lo := fg.b.Iconst(ir.I64, int64(leUint64(le[:8])))
			hi := fg.b.Iconst(ir.I64, int64(leUint64(le[8:])))
			return fg.b.Ins(ir.OpIconcat, ir.Invalid, lo, hi), true
		}
		if !p.Allows(ir.OpIconst, t) {
			return ir.NoValue, false
		}
		return fg.intConst(t, int64(leUint64(constLane(r, t)))), true
	default:
		if !p.Allows(constOp(t), ir.Invalid) {
			return ir.NoValue, false
		}
		return fg.floatConst(t, constLane(r, t)), true
	}
}

// leUint64 reads up to 8 little-endian bytes.
func leUint64(le []byte) uint64 {
	var x uint64
	for i := min(len(le), 8) - 1; i >= 0; i-- {
		x = x<<8 | uint64(le[i])
	}
	return x
}

// constLane draws the little-endian bytes of one value of a lane type (a
// scalar type): an edge value (constEdges) seven times in eight, random
// bits otherwise.
func constLane(r *rng, lane ir.Type) []byte {
	if r.intn(8) == 0 {
		b := make([]byte, lane.Bytes())
		for i := range b {
			if i%8 == 0 {
				x := r.next()
				for j := i; j < len(b) && j < i+8; j++ {
					b[j] = byte(x >> (8 * (j - i)))
				}
			}
		}
		return b
	}
	e := constEdges(lane)
	return e[r.intn(len(e))]
}

var constEdgeCache = perType[[][]byte]{make: func(lane ir.Type) [][]byte {
	e := append([][]byte(nil), laneEdges(lane)...)
	if !lane.IsInt() {
		e = append(e, roundingEdges(lane)...)
	}
	return e
}}

// constEdges are the edge values of a lane type that constants take: the
// census's edge values (laneEdges, quiet and signalling NaNs with payloads
// among them), and for floats also values that round (roundingEdges).
// Shared: callers do not modify them.
func constEdges(lane ir.Type) [][]byte { return constEdgeCache.get(lane) }

// nanEdges: quiet NaNs with a payload (both signs), signalling NaNs with
// the smallest and the largest payload.
func nanEdges(bits int) [][]byte {
	f := floatFormatOf(bits)
	one := big.NewInt(1)
	allExp := new(big.Int).Sub(new(big.Int).Lsh(one, f.exp), one)
	quiet := new(big.Int).Lsh(one, f.frac-1)
	payload := big.NewInt(0x15)
	qp := new(big.Int).Or(quiet, payload)
	sBig := new(big.Int).Sub(quiet, one) // every payload bit below the quiet bit
	return [][]byte{
		floatBits(bits, false, allExp, qp),
		floatBits(bits, true, allExp, qp),
		floatBits(bits, false, allExp, one),
		floatBits(bits, true, allExp, sBig),
	}
}

// roundingEdges are values of ft that round: the next value above 1, 2^p
// (where adding 1 rounds), and for each narrower float format the values
// that fdemote rounds: ties to even down and up, just above a tie, the
// tie above the narrower format's largest finite value (rounds to
// infinity) and half its smallest subnormal (rounds to zero).
func roundingEdges(ft ir.Type) [][]byte {
	p := int(floatFormatOf(ft.Bits()).frac) + 1
	pow := func(k int) *big.Float { return new(big.Float).SetPrec(512).SetMantExp(big.NewFloat(1), k) }
	add := func(xs ...*big.Float) *big.Float {
		s := new(big.Float).SetPrec(512)
		for _, x := range xs {
			s.Add(s, x)
		}
		return s
	}
	one := big.NewFloat(1)
	cands := []*big.Float{add(one, pow(1-p)), pow(p)}
	for _, nt := range []ir.Type{ir.F16, ir.F32, ir.F64} {
		if nt.Bits() >= ft.Bits() {
			continue
		}
		nf := floatFormatOf(nt.Bits())
		np := int(nf.frac) + 1
		emax := 1<<(nf.exp-1) - 1
		emin := 2 - 1<<(nf.exp-1)
		largest := new(big.Float).SetPrec(512).Sub(pow(emax+1), pow(emax+1-np))
		cands = append(cands,
			add(one, pow(-np)),              // a tie: rounds down to 1
			add(one, pow(1-np), pow(-np)),   // a tie: rounds up to even
			add(one, pow(-np), pow(-np-2)),  // just above a tie: rounds up
			add(largest, pow(emax-np)),      // a tie above the largest: infinity
			pow(emin-np),                    // half the smallest subnormal: zero
			new(big.Float).Neg(pow(emax+1)), // -2^(emax+1): -infinity
		)
	}
	var out [][]byte
	for _, x := range cands {
		if b, ok := encodeFloat(ft, x); ok {
			out = append(out, b)
		}
	}
	return out
}
