package gen

import (
	"cliff/lib/ir"
	"cliff/lib/ub"
)

// Region kinds: the four single-entry single-exit structures and a leaf.
const (
	leaf = iota
	sequence
	ifElse
	whileLoop
	switchTable
	numKinds
)

// kindWeights are the odds of each region kind below the depth limit.
var kindWeights = [numKinds]int{leaf: 2, sequence: 2, ifElse: 3, whileLoop: 2, switchTable: 3}

// kindFeature is the feature a kind needs; without it the region keeps its
// children as a sequence, so the rest of the tree stays as it was.
var kindFeature = [numKinds]string{ifElse: "ifelse", whileLoop: "loops", switchTable: "switch"}

// leafPerLevel is how much likelier a leaf gets per level of depth: the
// tree stays bushy near the root and thins out, so size grows roughly
// linearly with --depth rather than exponentially.
const leafPerLevel = 1

// maxBlocks bounds the blocks of one function: a few per level of depth.
func (fg *funcGen) maxBlocks() int { return min(maxBlocks, 16+12*fg.c.g.opts.Depth) }

// maxTrip bounds the product of the trip counts of nested loops.
const maxTrip = 64

// Stream keys of a region's operand choices and of a leaf's fill.
var operandsKey, fillKey = tag("operands"), tag("fill")

// region generates the region at path, depth levels down, into the
// current block (and the blocks it creates), leaving a current block for
// what follows.
func (fg *funcGen) region(depth int, path uint64) {
	r := newRng(path)
	kind := leaf
	if depth < fg.c.g.opts.Depth && fg.blocks < fg.maxBlocks() {
		w := kindWeights
		w[leaf] += depth * leafPerLevel // deeper regions are likelier leaves
		kind = r.pick(w[:])
	}
	child := func(k int) uint64 { return derive(path, uint64(k)) }
	if !fg.c.kindOn[kind] {
		n := 2
		if kind == whileLoop {
			n = 1
		}
		for k := range n {
			fg.region(depth+1, child(k))
		}
		return
	}
	// Operands come from a stream of their own: how many draws choosing
	// one takes depends on the values in scope, which other features
	// change, and the structure must not shift with them.
	or := newRng(derive(path, operandsKey))
	switch kind {
	case leaf:
		// A crossover draws from a stream of its own, and only in
		// cases with the feature on: the others stay as they were.
		if fg.c.sw.crossover {
			cr := newRng(derive(path, crossKey))
			if cr.chance(crossLeaf) && fg.crossover(&cr) {
				return
			}
		}
		fg.fill(derive(path, fillKey))
	case sequence:
		for k := range r.between(2, 3) {
			fg.region(depth+1, child(k))
		}
	case ifElse:
		fg.ifElse(&r, &or, depth, child)
	case whileLoop:
		fg.loop(&r, &or, depth, child)
	case switchTable:
		fg.switchTable(&r, &or, depth, child)
	}
}

// mergeTypes chooses the param types of a join block.
func (fg *funcGen) mergeTypes(r *rng) []ir.Type {
	var ts []ir.Type
	for range r.between(0, 2) {
		ts = append(ts, fg.c.types[r.intn(len(fg.c.types))])
	}
	return ts
}

// jumpTo ends the current block with a jump to merge, passing a value of
// each of its param types from the current scope.
func (fg *funcGen) jumpTo(r *rng, merge ir.Block, types []ir.Type) {
	args := make([]ir.Value, len(types))
	for k, t := range types {
		args[k] = fg.operand(r, t)
	}
	fg.jump(merge, args...)
}

func (fg *funcGen) enterMerge(merge ir.Block, types []ir.Type) {
	fg.b.SwitchToBlock(merge)
	fg.reserveParams(merge, len(types))
	for _, t := range types {
		fg.sc.push(fg.b.AppendBlockParam(merge, t), t)
	}
}

// condition computes a branch condition from data: a comparison of two
// values in scope, or an integer value itself.
func (fg *funcGen) condition(r *rng) ir.Value {
	p := fg.c.tab.prof
	raw, float := r.chance(0.15), r.chance(0.25)
	if raw {
		if v, _, ok := fg.sc.anyOf(r, func(t ir.Type) bool { return t.IsInt() && !t.IsVector() }); ok {
			return v
		}
	}
	if float && fg.c.sw.on["floats"] {
		if x, t, ok := fg.sc.anyOf(r, func(t ir.Type) bool { return (t == ir.F32 || t == ir.F64) && p.Allows(ir.OpFcmp, t) }); ok {
			return fg.b.Fcmp(fg.c.floatCC(r, ir.OpFcmp, t), x, fg.operand(r, t))
		}
	}
	x, t, ok := fg.sc.anyOf(r, func(t ir.Type) bool { return t.IsInt() && !t.IsVector() && p.Allows(ir.OpIcmp, t) })
	if !ok {
		t = ir.I32
		x = fg.operand(r, t)
	}
	return fg.b.Icmp(fg.c.intCC(r, ir.OpIcmp, t), x, fg.operand(r, t))
}

func (fg *funcGen) ifElse(r, or *rng, depth int, child func(int) uint64) {
	cond := fg.condition(or)
	then, els, merge := fg.newBlock(), fg.newBlock(), fg.newBlock()
	fg.brif(cond, then, nil, els, nil)
	fg.arms(r, or, depth, child, []ir.Block{then, els}, merge)
}

// arms fills each arm block with a region of its own (what one arm
// defines is out of scope in the next) that jumps to merge, passing
// values of the types merge takes as params, and then enters merge.
func (fg *funcGen) arms(r, or *rng, depth int, child func(int) uint64, arms []ir.Block, merge ir.Block) {
	types := fg.mergeTypes(r)
	for k, arm := range arms {
		m := fg.sc.mark()
		fg.b.SwitchToBlock(arm)
		fg.region(depth+1, child(k))
		fg.jumpTo(or, merge, types)
		fg.sc.pop(m)
	}
	fg.enterMerge(merge, types)
}

// maxCases bounds the cases of a switch.
const maxCases = 4

func (fg *funcGen) switchTable(r, or *rng, depth int, child func(int) uint64) {
	// The index: a value in scope, narrowed to few bits so that the cases
	// are all taken for some input; any index is safe (the default).
	n := r.between(2, maxCases)
	idx := fg.operand(or, ir.I32)
	narrow := fg.b.Iconst(ir.I32, int64(2*n-1))
	idx = fg.b.Ins(ir.OpBand, ir.Invalid, fg.unmasked(or, ir.OpBand, idx, narrow), narrow)
	cases := make([]ir.Block, n, maxCases)
	for k := range cases {
		cases[k] = fg.newBlock()
	}
	merge := fg.newBlock()
	// br_table's destinations: the default, then the table.
	dests := fg.dests(1 + r.between(n, 2*n))
	table := dests[1:]
	for k := range table {
		table[k] = ir.BlockCall{Block: cases[r.intn(n)]}
	}
	for k := range min(n, len(table)) {
		table[k] = ir.BlockCall{Block: cases[k]} // every case reachable
	}
	dests[0] = ir.BlockCall{Block: cases[r.intn(n)]}
	fg.b.Append(ir.InstData{Op: ir.OpBrTable, Args: fg.list(idx), Dests: dests})
	fg.arms(r, or, depth, child, cases, merge)
}

// loop generates a while loop whose trip count is a value in scope masked
// to a few bits: bounded, but unknown to the compiler. The counter and
// its compare, increment and branches are scaffold (lib/ub), so no pass
// can make the loop run longer.
func (fg *funcGen) loop(r, or *rng, depth int, child func(int) uint64) {
	bits := r.between(1, 3)
	for bits > 0 && fg.trip<<bits > maxTrip {
		bits--
	}
	ct := ir.I32
	if r.chance(0.3) {
		ct = ir.I64
	}
	carried := fg.mergeTypes(r)
	src := fg.operand(or, ct)
	bound := ub.Scaffold(fg.b, func() ir.Value {
		narrow := fg.b.Iconst(ct, int64(1)<<bits-1)
		return fg.b.Ins(ir.OpBand, ir.Invalid, fg.unmasked(or, ir.OpBand, src, narrow), narrow)
	})
	zero := ub.Scaffold(fg.b, func() ir.Value { return fg.b.Iconst(ct, 0) })
	inits := make([]ir.Value, len(carried))
	for k, t := range carried {
		inits[k] = fg.operand(or, t)
	}
	header, body, exit := fg.newBlock(), fg.newBlock(), fg.newBlock()
	ub.Scaffold(fg.b, func() ir.Inst { return fg.jump(header, append([]ir.Value{zero}, inits...)...) })

	fg.b.SwitchToBlock(header)
	fg.reserveParams(header, 1+len(carried))
	counter := fg.b.AppendBlockParam(header, ct)
	params := make([]ir.Value, len(carried))
	for k, t := range carried {
		params[k] = fg.b.AppendBlockParam(header, t)
	}
	ub.Scaffold(fg.b, func() ir.Inst {
		more := fg.b.Icmp(ir.IntUlt, counter, bound)
		return fg.brif(more, body, nil, exit, params)
	})
	// The header dominates the body and the exit.
	fg.sc.push(counter, ct)
	for k, t := range carried {
		fg.sc.push(params[k], t)
	}

	m := fg.sc.mark()
	outer := fg.trip
	fg.trip <<= bits
	fg.b.SwitchToBlock(body)
	fg.region(depth+1, child(0))
	next := make([]ir.Value, len(carried))
	for k, t := range carried {
		next[k] = fg.operand(or, t)
	}
	ub.Scaffold(fg.b, func() ir.Inst {
		inc := fg.b.Ins(ir.OpIadd, ir.Invalid, counter, fg.b.Iconst(ct, 1))
		return fg.jump(header, append([]ir.Value{inc}, next...)...)
	})
	fg.trip = outer
	fg.sc.pop(m)

	fg.b.SwitchToBlock(exit)
	fg.reserveParams(exit, len(carried))
	for _, t := range carried {
		fg.sc.push(fg.b.AppendBlockParam(exit, t), t)
	}
}
