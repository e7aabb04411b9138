package analysis

import (
	"math/rand/v2"
	"slices"
	"testing"

	"cliff/lib/ir"
)

// splitAt splits block a of f before its instruction at as lib/refine's
// decoy does (see CFG.SplitBlock): a ends in a new brif to the new blocks
// tail (after a in the layout, with a's instructions from at on) and side
// (last in the layout, with a new instruction and a jump to tail). It
// returns tail and side.
func splitAt(f *ir.Function, a ir.Block, at int) (tail, side ir.Block) {
	b := &fb{f}
	tail, side = ir.Block(len(f.Blocks)), ir.Block(len(f.Blocks)+1)
	f.Blocks = append(f.Blocks, ir.BlockData{Used: true}, ir.BlockData{Used: true})
	k := slices.Index(f.Layout, a)
	f.Layout = append(slices.Insert(f.Layout, k+1, tail), side)
	insts := f.Blocks[a].Insts
	f.Blocks[tail].Insts = slices.Clone(insts[at:])
	f.Blocks[a].Insts = slices.Clone(insts[:at])
	cond := b.iconst(int(a))
	b.brif(int(a), cond, to(int(tail)), to(int(side)))
	b.iadd(int(side), cond, cond)
	b.jump(int(side), to(int(tail)))
	return tail, side
}

// TestSplitBlock: over random functions, split at random reachable blocks
// one after another, the CFG brought up to date by SplitBlock and the
// dominator tree by Update, after each split or a few, answer as fresh
// ones do; and Update recomputes a tree whose CFG was recomputed.
func TestSplitBlock(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	splits, recomputes := 0, 0
	for iter := range 400 {
		n := 1 + r.IntN(16)
		succs := randomSuccs(r, n)
		if iter%2 == 0 {
			succs = randomCFG(r, n)
		}
		idom, rpo := domInfo(NewDomTree(NewCFG(graph(succs))))
		f := randomSSA(r, succs, idom, rpo)
		c := NewCFG(f)
		d := NewDomTree(c)
		for range 1 + r.IntN(4) {
			if r.IntN(6) == 0 {
				c.Recompute(f)
				recomputes++
				continue
			}
			rpo := c.RPO()
			a := rpo[r.IntN(len(rpo))]
			insts := f.Blocks[a].Insts
			if len(insts) == 0 {
				continue
			}
			at := r.IntN(len(insts))
			tail, side := splitAt(f, a, at)
			if !c.SplitBlock(f, a, tail, side, at) {
				t.Fatalf("function %d over %v: SplitBlock(block%d, %d) refused a split", iter, succs, a, at)
			}
			splits++
			if r.IntN(2) == 0 {
				d.Update() // else after the next split, or at the end
			}
		}
		d.Update()
		fc := NewCFG(f)
		if got, want := describe(f, c, d, NewLiveness(f, c)), describe(f, fc, NewDomTree(fc), NewLiveness(f, fc)); got != want {
			t.Fatalf("function %d over %v: updated\n%s\nfresh\n%s", iter, succs, got, want)
		}
		if c.Edges() != fc.Edges() || c.ReachableEdges() != fc.ReachableEdges() {
			t.Fatalf("function %d: edges %d/%d, fresh %d/%d", iter, c.Edges(), c.ReachableEdges(), fc.Edges(), fc.ReachableEdges())
		}
	}
	if splits < 500 || recomputes < 50 {
		t.Errorf("only %d splits and %d recomputes", splits, recomputes)
	}
}

// TestSplitBlockRefusesOtherChanges: a change that is not the split
// SplitBlock describes leaves the CFG as it was and says so.
func TestSplitBlockRefusesOtherChanges(t *testing.T) {
	// block0: v0 = iconst; brif v0, block1, block2
	// block1: jump block2
	// block2: return
	build := func() *ir.Function { return graph([][]int{{1, 2}, {2}, nil}) }
	for _, tc := range []struct {
		name   string
		change func(f *ir.Function) (a, tail, side ir.Block, at int)
	}{
		{"unreachable block", func(f *ir.Function) (ir.Block, ir.Block, ir.Block, int) {
			f.Layout = append(f.Layout, 3)
			f.Blocks = append(f.Blocks, ir.BlockData{Used: true})
			(&fb{f}).ret(3)
			tail, side := splitAt(f, 3, 0)
			return 3, tail, side, 0
		}},
		{"side not last", func(f *ir.Function) (ir.Block, ir.Block, ir.Block, int) {
			tail, side := splitAt(f, 0, 1)
			f.Layout[len(f.Layout)-1], f.Layout[len(f.Layout)-2] = f.Layout[len(f.Layout)-2], f.Layout[len(f.Layout)-1]
			return 0, tail, side, 1
		}},
		{"tail elsewhere", func(f *ir.Function) (ir.Block, ir.Block, ir.Block, int) {
			tail, side := splitAt(f, 0, 1)
			f.Layout = slices.DeleteFunc(f.Layout, func(b ir.Block) bool { return b == tail })
			f.Layout = slices.Insert(f.Layout, 0, tail)
			return 0, tail, side, 1
		}},
		{"side goes elsewhere", func(f *ir.Function) (ir.Block, ir.Block, ir.Block, int) {
			tail, side := splitAt(f, 0, 1)
			term := f.Blocks[side].Insts[len(f.Blocks[side].Insts)-1]
			f.Insts[term].Dests[0].Block = 2
			return 0, tail, side, 1
		}},
		{"a branches the other way round", func(f *ir.Function) (ir.Block, ir.Block, ir.Block, int) {
			tail, side := splitAt(f, 0, 1)
			term := f.Blocks[0].Insts[len(f.Blocks[0].Insts)-1]
			d := f.Insts[term].Dests
			d[0], d[1] = d[1], d[0]
			return 0, tail, side, 1
		}},
		{"tail's branch changed", func(f *ir.Function) (ir.Block, ir.Block, ir.Block, int) {
			tail, side := splitAt(f, 0, 1)
			term := f.Blocks[tail].Insts[len(f.Blocks[tail].Insts)-1]
			f.Insts[term].Dests[1].Block = 1
			return 0, tail, side, 1
		}},
		{"tail's instructions not a's", func(f *ir.Function) (ir.Block, ir.Block, ir.Block, int) {
			tail, side := splitAt(f, 0, 1)
			f.Blocks[tail].Insts = append([]ir.Inst{f.Blocks[1].Insts[0]}, f.Blocks[tail].Insts...)
			return 0, tail, side, 1
		}},
		{"old instruction added to a", func(f *ir.Function) (ir.Block, ir.Block, ir.Block, int) {
			tail, side := splitAt(f, 0, 1)
			f.Blocks[0].Insts = slices.Insert(f.Blocks[0].Insts, 1, f.Blocks[2].Insts[0])
			return 0, tail, side, 1
		}},
		{"split at the end", func(f *ir.Function) (ir.Block, ir.Block, ir.Block, int) {
			tail, side := splitAt(f, 0, 2)
			return 0, tail, side, 2
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := build()
			c := NewCFG(f)
			before := describe(f, c, NewDomTree(c), NewLiveness(f, c))
			a, tail, side, at := tc.change(f)
			if c.SplitBlock(f, a, tail, side, at) {
				t.Fatal("SplitBlock took the change for a split")
			}
			// c describes the function as it was: compare on a copy of
			// it with the new blocks and instructions cut off.
			old := build()
			if got := describe(old, c, NewDomTree(c), NewLiveness(old, c)); got != before {
				t.Errorf("SplitBlock changed the CFG:\n%s\nwas\n%s", got, before)
			}
		})
	}
}
