package gen

import (
	"slices"

	"cliff/lib/ir"
)

// funcGen generates one function.
type funcGen struct {
	c    *caseGen
	idx  int
	seed uint64
	f    *ir.Function
	b    *ir.Builder
	sc   *scope
	// unused are call results not yet used as an operand, with their
	// scope positions: operand selection takes them first.
	unused []scoped
	slots  []slot
	// trip is the product of the trip bounds of the loops around the
	// current position; cost the estimated instructions one call runs.
	trip, cost int
	blocks     int
	refs       []calleeRef // by callee index
	// parent is the crossover callee's parent (crossover.go), nil for
	// the other functions.
	parent *parent
}

type scoped struct {
	pos int
	v   ir.Value
}

// newFunc chooses function i's signature.
func (c *caseGen) newFunc(i int) *funcGen {
	name := funcName(i)
	fg := &funcGen{c: c, idx: i, trip: 1, seed: derive(c.seed, tag(name))}
	r := newRng(derive(fg.seed, tag("signature")))
	var sig ir.Signature
	convs := c.tab.callConvs
	sig.CallConv = convs[r.intn(len(convs))]
	abi := c.abiTypes
	if i == c.crossCallee {
		fg.parent = c.calleeParent
		sig.Params, sig.Returns = c.crossSignature(&r, fg.parent)
		fg.f = ir.NewFunction(name, sig)
		return fg
	}
	if i == 0 {
		// %main takes one param of every type in use: the run-time
		// inputs every value of the case derives from.
		sig.Params = make([]ir.AbiParam, 0, len(abi)+2)
		for _, t := range abi {
			sig.Params = append(sig.Params, ir.AbiParam{Type: t})
		}
		for _, t := range []ir.Type{ir.I64, ir.I32} {
			if len(sig.Params) < maxParams && slices.Contains(abi, t) {
				sig.Params = append(sig.Params, ir.AbiParam{Type: t})
			}
		}
		if len(sig.Params) > maxParams {
			sig.Params = sig.Params[:maxParams]
		}
	} else {
		n := r.between(0, 6)
		if r.chance(0.2) {
			n = r.between(7, maxParams) // past the argument registers
		}
		sig.Params = make([]ir.AbiParam, n)
		for k := range sig.Params {
			sig.Params[k] = ir.AbiParam{Type: abi[r.intn(len(abi))]}
		}
	}
	nret := r.between(1, 4)
	if r.chance(0.1) {
		nret = r.between(5, 10) // multiple returns past the return registers
	}
	if c.g.opts.Record.Portable {
		// Older releases lack enable_multi_ret_implicit_sret: returns
		// must fit in registers on every target.
		nret = min(nret, 2)
	}
	sig.Returns = make([]ir.AbiParam, nret)
	for k := range sig.Returns {
		sig.Returns[k] = ir.AbiParam{Type: abi[r.intn(len(abi))]}
	}
	// A tail function may share its returns with a tail callee, so it
	// can end in a return_call.
	if c.sw.on["tail_calls"] && slices.Contains(convs, ir.CallConvTail) && r.chance(0.6) {
		sig.CallConv = ir.CallConvTail
		for j := i + 1; j < len(c.funcs); j++ {
			if callee := c.funcs[j]; callee.f.Sig.CallConv == ir.CallConvTail && r.chance(0.7) {
				sig.Returns = slices.Clone(callee.f.Sig.Returns)
				break
			}
		}
	}
	fg.f = ir.NewFunction(name, sig)
	return fg
}

// body generates the function's blocks.
func (fg *funcGen) body() error {
	fg.c.g.arena.start(fg.f, fg.c.g.opts.Depth)
	fg.b = ir.NewBuilder(fg.f)
	fg.sc = fg.c.g.scope.reset()
	entry := fg.newBlock()
	fg.b.SwitchToBlock(entry)
	fg.reserveParams(entry, len(fg.f.Sig.Params))
	for _, p := range fg.f.Sig.Params {
		fg.sc.push(fg.b.AppendBlockParam(entry, p.Type), p.Type)
	}
	fg.declareSlots()
	if fg.parent != nil {
		fg.crossBody()
	} else {
		fg.region(0, derive(fg.seed, tag("root")))
		fg.finish()
	}
	fg.c.g.arena.keep(fg.f)
	return nil
}

// finish ends the last block: a return of values in scope, or a tail call
// to a function with the same returns.
func (fg *funcGen) finish() {
	r := newRng(derive(fg.seed, tag("finish")))
	if fg.c.sw.on["tail_calls"] && fg.f.Sig.CallConv == ir.CallConvTail && r.chance(0.7) {
		var cands []int
		for j := fg.idx + 1; j < len(fg.c.funcs); j++ {
			callee := fg.c.funcs[j].f
			if callee.Sig.CallConv == ir.CallConvTail && sameTypes(callee.Sig.Returns, fg.f.Sig.Returns) &&
				fg.cost+fg.c.funcs[j].cost <= maxDynamic {
				cands = append(cands, j)
			}
		}
		if len(cands) > 0 {
			j := cands[r.intn(len(cands))]
			fg.cost += fg.c.funcs[j].cost
			fg.tailCall(&r, j)
			return
		}
	}
	var vals []ir.Value
	for _, ret := range fg.f.Sig.Returns {
		vals = append(vals, fg.operand(&r, ret.Type))
	}
	fg.b.Return(vals...)
}

func sameTypes(a, b []ir.AbiParam) bool {
	return slices.EqualFunc(a, b, func(x, y ir.AbiParam) bool { return x.Type == y.Type })
}
