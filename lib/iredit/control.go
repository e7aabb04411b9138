package iredit

import (
	"slices"

	"cliff/lib/analysis"
	"cliff/lib/ir"
	"cliff/lib/ub"
)

// CollapseBranch replaces the terminator of b, a brif or br_table, by a
// jump to its destination arm (0 = then or default). The blocks only the
// other arms reached become unreachable: Cleanup drops them. It reports
// false when the terminator has no such arm or has exception handlers.
func CollapseBranch(f *ir.Function, b ir.Block, arm int) bool {
	t := Terminator(f, b)
	if t == ir.NoInst {
		return false
	}
	d := &f.Insts[t]
	if (d.Op != ir.OpBrif && d.Op != ir.OpBrTable) || arm >= len(d.Dests) {
		return false
	}
	dest := d.Dests[arm]
	*d = ir.InstData{Op: ir.OpJump, Dests: []ir.BlockCall{dest}, SrcLoc: d.SrcLoc}
	return true
}

// Terminates reports whether every loop of f (every cycle of blocks
// reachable from the entry) still has an edge out of it: an edit that
// leaves a cycle without an exit (a loop branch collapsed to its body)
// would make a case run forever.
func Terminates(f *ir.Function) bool {
	cfg := analysis.NewCFG(f)
	// Tarjan's strongly connected components over the reachable blocks.
	index := map[ir.Block]int{}
	low := map[ir.Block]int{}
	onStack := map[ir.Block]bool{}
	var stack []ir.Block
	ok := true
	var visit func(b ir.Block)
	visit = func(b ir.Block) {
		index[b], low[b] = len(index), len(index)
		stack = append(stack, b)
		onStack[b] = true
		for _, s := range cfg.Succs(b) {
			if _, seen := index[s]; !seen {
				visit(s)
				low[b] = min(low[b], low[s])
			} else if onStack[s] {
				low[b] = min(low[b], index[s])
			}
		}
		if low[b] != index[b] {
			return
		}
		var comp []ir.Block
		for {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[n] = false
			comp = append(comp, n)
			if n == b {
				break
			}
		}
		if !cyclic(cfg, comp) {
			return
		}
		for _, n := range comp {
			for _, s := range cfg.Succs(n) {
				if !slices.Contains(comp, s) {
					return
				}
			}
			if Terminator(f, n) != ir.NoInst && f.Insts[Terminator(f, n)].Op.Info().Flags&ir.FlagReturn != 0 {
				return
			}
		}
		ok = false
	}
	if len(f.Layout) > 0 {
		visit(cfg.Entry())
	}
	return ok
}

// cyclic reports whether a strongly connected component is a cycle: more
// than one block, or one block that branches to itself.
func cyclic(cfg *analysis.CFG, comp []ir.Block) bool {
	return len(comp) > 1 || slices.Contains(cfg.Succs(comp[0]), comp[0])
}

// EarlyReturn ends block b after its first keep instructions with a return
// of "current values" (CLIR's execution barrier): for each return type of
// f, the latest value of that type that dominates the barrier and is not an
// address, or a constant when there is none. The rest of b goes, and the
// blocks only b reached become unreachable.
func EarlyReturn(f *ir.Function, b ir.Block, keep int) bool {
	cfg := analysis.NewCFG(f)
	dom := analysis.NewDomTree(cfg)
	if !cfg.Reachable(b) {
		return false
	}
	bd := &f.Blocks[b]
	if keep >= len(bd.Insts) { // only the terminator may go
		keep = len(bd.Insts) - 1
	}
	if keep < 0 {
		keep = 0
	}
	rets := CurrentValues(f, dom, b, keep)
	bd.Insts = slices.Clone(bd.Insts[:keep])
	return endWithReturn(f, b, keep, rets)
}

// endWithReturn ends block b with a return of vals, first defining at pos
// a zero of the return type for each value that is missing (ir.NoValue).
func endWithReturn(f *ir.Function, b ir.Block, pos int, vals []ir.Value) bool {
	for k, v := range vals {
		if v != ir.NoValue {
			continue
		}
		nv := ir.Value(len(f.Values))
		f.Values = append(f.Values, ir.ValueData{Type: f.Sig.Returns[k].Type})
		n := DefineConst(f, b, pos, nv, 0)
		if n == 0 {
			return false
		}
		pos += n
		vals[k] = nv
	}
	i := ir.Inst(len(f.Insts))
	f.Insts = append(f.Insts, ir.InstData{Op: ir.OpReturn, Args: vals})
	f.Blocks[b].Insts = append(f.Blocks[b].Insts, i)
	return true
}

// CurrentValues picks, for each return type of f, the latest value of that
// type live at index pos of block b: defined before pos in b, a param of
// b, or defined in a dominating block, nearest first. It is ir.NoValue
// where no value fits.
func CurrentValues(f *ir.Function, dom *analysis.DomTree, b ir.Block, pos int) []ir.Value {
	var cands []ir.Value // nearest first
	for blk, end := b, pos; blk != ir.NoBlock; {
		insts := f.Blocks[blk].Insts
		for k := min(end, len(insts)) - 1; k >= 0; k-- {
			rs := f.Insts[insts[k]].Results
			for j := len(rs) - 1; j >= 0; j-- {
				cands = append(cands, rs[j])
			}
		}
		for j := len(f.Blocks[blk].Params) - 1; j >= 0; j-- {
			cands = append(cands, f.Blocks[blk].Params[j])
		}
		next := dom.Idom(blk)
		if next == ir.NoBlock || next == blk {
			break
		}
		// A dominating block's values, up to its terminator (whose
		// results, a try_call's, exist only on its edges).
		blk, end = next, len(f.Blocks[next].Insts)-1
	}
	out := make([]ir.Value, len(f.Sig.Returns))
	used := map[ir.Value]bool{}
	for k, r := range f.Sig.Returns {
		out[k] = ir.NoValue
		for _, v := range cands {
			if f.Values[v].Type == r.Type && !used[v] && !ub.IsAddress(f, v) {
				out[k] = v
				used[v] = true
				break
			}
		}
		if out[k] == ir.NoValue { // reuse one already returned rather than a constant
			for _, v := range cands {
				if f.Values[v].Type == r.Type && !ub.IsAddress(f, v) {
					out[k] = v
					break
				}
			}
		}
	}
	return out
}

// MergeJump merges into block a the block its jump goes to, when a is that
// block's only predecessor: the block's params become the jump's args.
func MergeJump(f *ir.Function, a ir.Block) bool {
	t := Terminator(f, a)
	if t == ir.NoInst || f.Insts[t].Op != ir.OpJump || len(f.Layout) == 0 {
		return false
	}
	dest := f.Insts[t].Dests[0]
	b := dest.Block
	if b == a || b == f.Layout[0] {
		return false
	}
	cfg := analysis.NewCFG(f)
	if preds := cfg.Preds(b); len(preds) != 1 || preds[0] != a {
		return false
	}
	for k, p := range f.Blocks[b].Params {
		arg := dest.Args[k]
		if arg.Kind != ir.ArgValue {
			return false
		}
		ReplaceUses(f, p, arg.Value)
	}
	ad := &f.Blocks[a]
	ad.Insts = append(slices.Clone(ad.Insts[:len(ad.Insts)-1]), f.Blocks[b].Insts...)
	f.Blocks[b] = ir.BlockData{}
	f.Layout = slices.DeleteFunc(slices.Clone(f.Layout), func(x ir.Block) bool { return x == b })
	return true
}

// RunLoopOnce turns the loop headed by block h into straight code that
// runs its body once: h, whose terminator is a brif with one arm into the
// loop and one out of it, jumps into the loop; each back edge (a jump to h
// from a block h dominates) jumps to the exit instead, passing the exit's
// args with h's params replaced by the back edge's args. The body then
// runs exactly as in the loop's first iteration, so it stays defined, and
// the case cannot run forever.
func RunLoopOnce(f *ir.Function, h ir.Block) bool {
	t := Terminator(f, h)
	if t == ir.NoInst || f.Insts[t].Op != ir.OpBrif {
		return false
	}
	cfg := analysis.NewCFG(f)
	dom := analysis.NewDomTree(cfg)
	var latches []ir.Block
	for _, p := range cfg.Preds(h) {
		if dom.Dominates(h, p) {
			lt := Terminator(f, p)
			if f.Insts[lt].Op != ir.OpJump {
				return false
			}
			latches = append(latches, p)
		}
	}
	if len(latches) == 0 {
		return false
	}
	// The loop's body: the blocks that reach a latch without passing h.
	body := map[ir.Block]bool{h: true}
	work := slices.Clone(latches)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if body[b] {
			continue
		}
		body[b] = true
		work = append(work, cfg.Preds(b)...)
	}
	d := f.Insts[t]
	in, out := -1, -1
	switch {
	case body[d.Dests[0].Block] && !body[d.Dests[1].Block]:
		in, out = 0, 1
	case body[d.Dests[1].Block] && !body[d.Dests[0].Block]:
		in, out = 1, 0
	default:
		return false
	}
	exit := d.Dests[out]
	params := f.Blocks[h].Params
	for _, l := range latches {
		lt := Terminator(f, l)
		back := f.Insts[lt].Dests[0]
		args := make([]ir.BlockArg, len(exit.Args))
		for k, a := range exit.Args {
			args[k] = a
			if a.Kind != ir.ArgValue {
				return false
			}
			if j := slices.Index(params, f.Resolve(a.Value)); j >= 0 {
				args[k] = back.Args[j]
			}
		}
		f.Insts[lt] = ir.InstData{Op: ir.OpJump, Dests: []ir.BlockCall{{Block: exit.Block, Args: args}}}
	}
	f.Insts[t] = ir.InstData{Op: ir.OpJump, Dests: []ir.BlockCall{d.Dests[in]}}
	return true
}
