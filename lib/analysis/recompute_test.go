package analysis

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"cliff/lib/ir"
)

// TestRecomputeMatchesNew: an analysis recomputed in the memory of the
// ones before it, for functions larger and smaller than those, answers as
// a fresh one does.
func TestRecomputeMatchesNew(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	c, d, l := new(CFG), new(DomTree), new(Liveness)
	for iter := range 500 {
		n := 1 + r.IntN(20)
		if iter%10 == 0 {
			n = 40 + r.IntN(40)
		}
		succs := randomSuccs(r, n)
		if iter%2 == 0 {
			succs = randomCFG(r, n)
		}
		idom, rpo := domInfo(NewDomTree(NewCFG(graph(succs))))
		f := randomSSA(r, succs, idom, rpo)
		c.Recompute(f)
		d.Recompute(c)
		l.Recompute(f, c)
		fc := NewCFG(f)
		want, got := describe(f, fc, NewDomTree(fc), NewLiveness(f, fc)), describe(f, c, d, l)
		if got != want {
			t.Fatalf("function %d over %v: recomputed\n%s\nfresh\n%s", iter, succs, got, want)
		}
	}
}

// TestRecomputeGeneratedMatchesNew: over generated functions, largest
// first and then smallest first, an analysis recomputed in the memory of
// the one before answers as a fresh one does.
func TestRecomputeGeneratedMatchesNew(t *testing.T) {
	fs := sampleFuncs(t, 16)
	size := func(f *ir.Function) int { return len(f.Blocks) + len(f.Insts) + len(f.Values) }
	slices.SortStableFunc(fs, func(a, b *ir.Function) int { return size(b) - size(a) })
	order := append(slices.Clone(fs), fs...)
	slices.Reverse(order[len(fs):])
	c, d, l := new(CFG), new(DomTree), new(Liveness)
	for i, f := range order {
		c.Recompute(f)
		d.Recompute(c)
		l.Recompute(f, c)
		fc := NewCFG(f)
		if got, want := describe(f, c, d, l), describe(f, fc, NewDomTree(fc), NewLiveness(f, fc)); got != want {
			t.Fatalf("function %d (%s): recomputed\n%s\nfresh\n%s", i, f.Name, got, want)
		}
	}
}

// describe writes down everything the analyses answer about f.
func describe(f *ir.Function, c *CFG, d *DomTree, l *Liveness) string {
	var b strings.Builder
	fmt.Fprintf(&b, "entry %v layout %v rpo %v edges %d/%d maxdepth %d\n",
		c.Entry(), c.Layout(), c.RPO(), c.Edges(), c.ReachableEdges(), d.MaxDepth())
	for i := range f.Blocks {
		blk := ir.Block(i)
		fmt.Fprintf(&b, "%v: in %v succs %v preds %v rpo %d idom %v kids %v depth %d live %v %v dominated",
			blk, c.InLayout(blk), c.Succs(blk), c.Preds(blk), c.RPONumber(blk), d.Idom(blk), d.Children(blk),
			d.Depth(blk), l.LiveIn(blk), l.LiveOut(blk))
		for j := range f.Blocks {
			if d.Dominates(blk, ir.Block(j)) {
				fmt.Fprintf(&b, " %d", j)
			}
		}
		b.WriteString("\n")
	}
	for i := range f.Insts {
		fmt.Fprintf(&b, "inst%d@%v:%d ", i, c.InstBlock(ir.Inst(i)), c.InstIndex(ir.Inst(i)))
	}
	return b.String()
}
