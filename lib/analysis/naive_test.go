package analysis

import "cliff/lib/ir"

// Slow, obviously correct versions of the analyses, for cross-checking on
// random inputs. They work on the successor lists the tests generate (node
// i is block i, entry 0, layout in ID order) or directly on ir data.

// naiveSuccs deduplicates each successor list, keeping first-seen order.
func naiveSuccs(succs [][]int) [][]int {
	out := make([][]int, len(succs))
	for i, ss := range succs {
		seen := map[int]bool{}
		for _, s := range ss {
			if !seen[s] {
				seen[s] = true
				out[i] = append(out[i], s)
			}
		}
	}
	return out
}

// naiveRPO is the reverse post-order of a recursive depth-first search from
// node 0 that visits successors in order; reach marks the visited nodes.
func naiveRPO(succs [][]int) (rpo []int, reach []bool) {
	reach = make([]bool, len(succs))
	var post []int
	var visit func(int)
	visit = func(n int) {
		reach[n] = true
		for _, s := range succs[n] {
			if !reach[s] {
				visit(s)
			}
		}
		post = append(post, n)
	}
	if len(succs) > 0 {
		visit(0)
	}
	for i := len(post) - 1; i >= 0; i-- {
		rpo = append(rpo, post[i])
	}
	return rpo, reach
}

// naiveDom computes dominator sets by the textbook dataflow equations
// Dom(entry) = {entry}, Dom(n) = {n} ∪ ∩ Dom(p) over reachable preds p,
// iterated to a fixed point: dom[b][a] says a dominates b. Unreachable
// nodes dominate nothing and are dominated by nothing.
func naiveDom(succs [][]int) (dom [][]bool, reach []bool) {
	n := len(succs)
	_, reach = naiveRPO(succs)
	preds := make([][]int, n)
	for i, ss := range succs {
		for _, s := range ss {
			preds[s] = append(preds[s], i)
		}
	}
	dom = make([][]bool, n)
	for b := range dom {
		dom[b] = make([]bool, n)
		if !reach[b] {
			continue
		}
		for a := range dom[b] {
			dom[b][a] = reach[a] && (b != 0 || a == 0)
		}
	}
	for changed := true; changed; {
		changed = false
		for b := 1; b < n; b++ {
			if !reach[b] {
				continue
			}
			for a := range n {
				want := a == b
				if !want && reach[a] {
					want = true
					for _, p := range preds[b] {
						if reach[p] && !dom[p][a] {
							want = false
							break
						}
					}
				}
				if dom[b][a] != want {
					dom[b][a] = want
					changed = true
				}
			}
		}
	}
	return dom, reach
}

// naiveIdom picks, among the strict dominators of each node, the one all
// the others dominate: the one with the most dominators. -1 for the entry
// and unreachable nodes.
func naiveIdom(dom [][]bool) []int {
	count := func(b int) (k int) {
		for _, d := range dom[b] {
			if d {
				k++
			}
		}
		return k
	}
	idom := make([]int, len(dom))
	for b := range dom {
		idom[b] = -1
		for a, d := range dom[b] {
			if d && a != b && (idom[b] < 0 || count(a) > count(idom[b])) {
				idom[b] = a
			}
		}
	}
	return idom
}

// naiveResolve follows aliases; ok is false for undefined values.
func naiveResolve(f *ir.Function, v ir.Value) (ir.Value, bool) {
	seen := map[ir.Value]bool{}
	for int(v) < len(f.Values) && !seen[v] {
		seen[v] = true
		switch f.Values[v].Kind {
		case ir.DefAlias:
			v = f.Values[v].AliasOf
		case ir.DefNone:
			return 0, false
		default:
			return v, true
		}
	}
	return 0, false
}

// naiveInstUses lists the values an instruction uses, resolved.
func naiveInstUses(f *ir.Function, inst ir.Inst) []ir.Value {
	var vs []ir.Value
	add := func(v ir.Value) {
		if v, ok := naiveResolve(f, v); ok {
			vs = append(vs, v)
		}
	}
	d := &f.Insts[inst]
	for _, v := range d.Args {
		add(v)
	}
	calls := append([]ir.BlockCall(nil), d.Dests...)
	for _, h := range d.Handlers {
		if h.Kind == ir.HandlerContext {
			add(h.Context)
		} else {
			calls = append(calls, h.Dest)
		}
	}
	for _, c := range calls {
		for _, a := range c.Args {
			if a.Kind == ir.ArgValue {
				add(a.Value)
			}
		}
	}
	return vs
}

// naiveBlockSuccs reads the successors of a block off its last instruction.
func naiveBlockSuccs(f *ir.Function, b ir.Block) []ir.Block {
	insts := f.Blocks[b].Insts
	if len(insts) == 0 {
		return nil
	}
	d := &f.Insts[insts[len(insts)-1]]
	var out []ir.Block
	for _, c := range d.Dests {
		out = append(out, c.Block)
	}
	for _, h := range d.Handlers {
		if h.Kind != ir.HandlerContext {
			out = append(out, h.Dest.Block)
		}
	}
	return out
}

// naiveLiveness explores backwards from each upward-exposed use until the
// definition, one value at a time (the "path exploration" method), over all
// layout blocks.
func naiveLiveness(f *ir.Function) (in, out map[ir.Block]map[ir.Value]bool) {
	in = map[ir.Block]map[ir.Value]bool{}
	out = map[ir.Block]map[ir.Value]bool{}
	defined := map[ir.Block]map[ir.Value]bool{}
	preds := map[ir.Block][]ir.Block{}
	for _, b := range f.Layout {
		in[b], out[b], defined[b] = map[ir.Value]bool{}, map[ir.Value]bool{}, map[ir.Value]bool{}
		for _, p := range f.Blocks[b].Params {
			defined[b][p] = true
		}
		for _, inst := range f.Blocks[b].Insts {
			for _, r := range f.Insts[inst].Results {
				defined[b][r] = true
			}
		}
		for _, s := range naiveBlockSuccs(f, b) {
			preds[s] = append(preds[s], b)
		}
	}
	var explore func(v ir.Value, b ir.Block)
	explore = func(v ir.Value, b ir.Block) {
		if in[b][v] {
			return
		}
		in[b][v] = true
		for _, p := range preds[b] {
			out[p][v] = true
			if !defined[p][v] {
				explore(v, p)
			}
		}
	}
	for _, b := range f.Layout {
		before := map[ir.Value]bool{}
		for _, p := range f.Blocks[b].Params {
			before[p] = true
		}
		for _, inst := range f.Blocks[b].Insts {
			for _, v := range naiveInstUses(f, inst) {
				if !before[v] {
					explore(v, b)
				}
			}
			for _, r := range f.Insts[inst].Results {
				before[r] = true
			}
		}
	}
	return in, out
}

// naiveChainDepth is the def-use chain depth of a function in valid SSA,
// computed from the definition by memoized recursion: the longest path to
// an instruction is one more than the longest path to any instruction
// defining a value it uses, where a block param stands for the values
// passed to it along CFG edges that are not retreating (in the DFS order
// rpo) and retN/exnN stand for the try_call passing them.
func naiveChainDepth(f *ir.Function, rpoNum map[ir.Block]int) int {
	instBlock := map[ir.Inst]ir.Block{}
	for _, b := range f.Layout {
		for _, inst := range f.Blocks[b].Insts {
			instBlock[inst] = b
		}
	}
	// incoming[param] lists (branch, arg) pairs along forward edges.
	type flow struct {
		branch ir.Inst
		arg    ir.BlockArg
	}
	incoming := map[ir.Value][]flow{}
	for _, x := range f.Layout {
		if _, ok := rpoNum[x]; !ok {
			continue
		}
		for _, inst := range f.Blocks[x].Insts {
			d := &f.Insts[inst]
			calls := append([]ir.BlockCall(nil), d.Dests...)
			for _, h := range d.Handlers {
				if h.Kind != ir.HandlerContext {
					calls = append(calls, h.Dest)
				}
			}
			for _, c := range calls {
				if n, ok := rpoNum[c.Block]; !ok || n <= rpoNum[x] {
					continue
				}
				for i, a := range c.Args {
					p := f.Blocks[c.Block].Params[i]
					incoming[p] = append(incoming[p], flow{inst, a})
				}
			}
		}
	}
	// sources returns the instructions standing behind a value.
	var sources func(v ir.Value) []ir.Inst
	sources = func(v ir.Value) []ir.Inst {
		vd := f.Values[v]
		if vd.Kind == ir.DefResult {
			return []ir.Inst{vd.Inst}
		}
		var out []ir.Inst
		for _, fl := range incoming[v] {
			if fl.arg.Kind != ir.ArgValue {
				out = append(out, fl.branch)
			} else if a, ok := naiveResolve(f, fl.arg.Value); ok {
				out = append(out, sources(a)...)
			}
		}
		return out
	}
	memo := map[ir.Inst]int{}
	var longest func(inst ir.Inst) int
	longest = func(inst ir.Inst) int {
		if d, ok := memo[inst]; ok {
			return d
		}
		d := 0
		for _, v := range naiveInstUses(f, inst) {
			for _, src := range sources(v) {
				d = max(d, longest(src)+1)
			}
		}
		memo[inst] = d
		return d
	}
	best := 0
	for b := range rpoNum {
		for _, inst := range f.Blocks[b].Insts {
			best = max(best, longest(inst))
		}
	}
	return best
}
