package gen

import "cliff/lib/ir"

// Slot actions: what one slot of a leaf block becomes.
const (
	actCompute = iota // a computation drawn from the profile
	actSnippet        // a corpus snippet, instantiated in place
	actCall           // a direct or indirect call
	actMemory         // a load or store on a stack slot
	numActs
)

var actWeights = [numActs]int{actCompute: 8, actSnippet: 4, actCall: 1, actMemory: 2}

// fill appends a leaf's instructions to the current block. Each slot has
// its own stream, so a slot whose action is switched off leaves the
// others' choices alone.
func (fg *funcGen) fill(seed uint64) {
	r := newRng(seed)
	n := r.between(1, 5)
	for s := range n {
		sr := newRng(derive(seed, uint64(s)))
		switch sr.pick(actWeights[:]) {
		case actCompute:
			fg.compute(&sr)
		case actSnippet:
			if fg.c.g.opts.Corpus != nil && fg.c.sw.snippets {
				fg.snippet(&sr)
			} else {
				fg.compute(&sr)
			}
		case actCall:
			if fg.idx+1 < len(fg.c.funcs) {
				fg.call(&sr)
			}
		case actMemory:
			if len(fg.slots) > 0 {
				fg.memory(&sr)
			}
		}
	}
}

// operand returns a value of type t for a free operand: an unused call
// result first, else a recent value in scope, else a new one made from
// what is in scope (materialize).
func (fg *funcGen) operand(r *rng, t ir.Type) ir.Value {
	for k := len(fg.unused) - 1; k >= 0; k-- {
		u := fg.unused[k]
		if !fg.sc.holds(u.pos, u.v) {
			fg.unused = append(fg.unused[:k], fg.unused[k+1:]...)
			continue
		}
		if fg.f.Values[u.v].Type == t {
			fg.unused = append(fg.unused[:k], fg.unused[k+1:]...)
			return u.v
		}
	}
	if v, ok := fg.sc.pick(r, t); ok && !r.chance(0.05) {
		return v
	}
	return fg.materialize(r, t)
}

// define puts an instruction's results in scope.
func (fg *funcGen) define(inst ir.Inst) []ir.Value {
	res := fg.b.Results(inst)
	for _, v := range res {
		fg.sc.push(v, fg.f.Values[v].Type)
	}
	fg.cost += fg.trip
	return res
}

// compute appends one computation: a family by the case's weights, then
// an opcode and type of it that the case's types allow.
func (fg *funcGen) compute(r *rng) {
	fam := r.pickOf(fg.c.sw.weights, fg.c.sw.total)
	if fam < 0 {
		return
	}
	ots := fg.c.tab.byFamily[fam]
	for tries := 0; tries < 4 && len(ots) > 0; tries++ {
		ot := ots[fg.c.g.weights.pick(r, fam, len(ots))]
		if fg.c.typeOK(ot.ctrl) {
			fg.emit(r, ot, nil, nil)
			return
		}
	}
}

// typeOK reports whether the case uses t (Invalid: no type, fine). The
// case's types are candidates, each a bit of typeSet: a test of that bit,
// not a scan of c.types, since each instruction drawn asks it of its
// controlling type and results (TestTypeOK).
func (c *caseGen) typeOK(t ir.Type) bool {
	return t == ir.Invalid || candidateOf(t)&c.typeSet != 0
}
