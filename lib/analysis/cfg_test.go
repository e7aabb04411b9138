package analysis

import (
	"math/rand/v2"
	"slices"
	"testing"

	"cliff/lib/ir"
)

// blocks turns block numbers into blocks.
func blocks(ns ...int) []ir.Block {
	out := make([]ir.Block, 0, len(ns))
	for _, n := range ns {
		out = append(out, ir.Block(n))
	}
	return out
}

// graphCase is a hand-built CFG with everything the CFG and DomTree should
// say about it. Slices are indexed by block number; idom -1 means NoBlock,
// depth -1 unreachable.
type graphCase struct {
	name           string
	f              *ir.Function
	succs, preds   [][]int
	rpo            []int
	edges          int
	reachableEdges int
	idom           []int
	depth          []int
	maxDepth       int
}

// graphCases are shared by the CFG, DomTree and Metrics tests.
func graphCases() []graphCase {
	// try_call: block0 ends in a try_call whose normal return goes to
	// block1 and whose handlers go to block2 (twice) and block1; the
	// context entry names no block (its zero Dest must not become an edge
	// to block0).
	tc := newFB(3)
	v := tc.iconst(0)
	tc.tryCall(0, []ir.Value{v}, to(1),
		ir.ExceptionHandler{Kind: ir.HandlerTag, Tag: 1, Dest: to(2)},
		ir.ExceptionHandler{Kind: ir.HandlerContext, Context: v},
		ir.ExceptionHandler{Kind: ir.HandlerDefault, Dest: to(2)},
		ir.ExceptionHandler{Kind: ir.HandlerTag, Tag: 2, Dest: to(1)})
	tc.ret(1)
	tc.ret(2)

	// Layout [block2, block0, block1]; block3 exists but is not in the
	// layout, so block0's jump to it is no edge and block3's own branch
	// counts for nothing.
	lay := graph([][]int{{3}, {0}, {1, 0}, {1}})
	lay.Layout = blocks(2, 0, 1)

	return []graphCase{{
		name:  "single block",
		f:     graph([][]int{{}}),
		succs: [][]int{nil}, preds: [][]int{nil},
		rpo: []int{0}, idom: []int{-1}, depth: []int{0},
	}, {
		name:  "diamond",
		f:     graph([][]int{{1, 2}, {3}, {3}, {}}),
		succs: [][]int{{1, 2}, {3}, {3}, nil},
		preds: [][]int{nil, {0}, {0}, {1, 2}},
		rpo:   []int{0, 2, 1, 3}, edges: 4, reachableEdges: 4,
		idom: []int{-1, 0, 0, 0}, depth: []int{0, 1, 1, 1}, maxDepth: 1,
	}, {
		name:  "loop",
		f:     graph([][]int{{1}, {2, 3}, {1}, {}}),
		succs: [][]int{{1}, {2, 3}, {1}, nil},
		preds: [][]int{nil, {0, 2}, {1}, {1}},
		rpo:   []int{0, 1, 3, 2}, edges: 4, reachableEdges: 4,
		idom: []int{-1, 0, 1, 1}, depth: []int{0, 1, 2, 2}, maxDepth: 2,
	}, {
		// block1 heads the outer loop (back edge from block4), block2 the
		// inner one (back edge from block3).
		name:  "nested loops",
		f:     graph([][]int{{1}, {2, 5}, {3, 4}, {2}, {1}, {}}),
		succs: [][]int{{1}, {2, 5}, {3, 4}, {2}, {1}, nil},
		preds: [][]int{nil, {0, 4}, {1, 3}, {2}, {2}, {1}},
		rpo:   []int{0, 1, 5, 2, 4, 3}, edges: 7, reachableEdges: 7,
		idom: []int{-1, 0, 1, 2, 2, 1}, depth: []int{0, 1, 2, 3, 3, 2}, maxDepth: 3,
	}, {
		// The cycle block1 <-> block2 has two entries: neither block
		// dominates the other.
		name:  "irreducible",
		f:     graph([][]int{{1, 2}, {2, 3}, {1}, {}}),
		succs: [][]int{{1, 2}, {2, 3}, {1}, nil},
		preds: [][]int{nil, {0, 2}, {0, 1}, {1}},
		rpo:   []int{0, 1, 3, 2}, edges: 5, reachableEdges: 5,
		idom: []int{-1, 0, 0, 1}, depth: []int{0, 1, 1, 2}, maxDepth: 2,
	}, {
		// block3 -> block2 -> block1 are unreachable; block1 is not.
		name:  "unreachable blocks",
		f:     graph([][]int{{1}, {}, {1}, {2}}),
		succs: [][]int{{1}, nil, {1}, {2}},
		preds: [][]int{nil, {0, 2}, {3}, nil},
		rpo:   []int{0, 1}, edges: 3, reachableEdges: 1,
		idom: []int{-1, 0, -1, -1}, depth: []int{0, 1, -1, -1}, maxDepth: 1,
	}, {
		name:  "self loop",
		f:     graph([][]int{{1}, {1, 2}, {}}),
		succs: [][]int{{1}, {1, 2}, nil},
		preds: [][]int{nil, {0, 1}, {1}},
		rpo:   []int{0, 1, 2}, edges: 3, reachableEdges: 3,
		idom: []int{-1, 0, 1}, depth: []int{0, 1, 2}, maxDepth: 2,
	}, {
		// br_table default block1, entries [block2, block1, block3,
		// block2]; a brif naming block4 twice.
		name:  "br_table with repeated targets",
		f:     graph([][]int{{1, 2, 1, 3, 2}, {4, 4}, {4}, {4}, {}}),
		succs: [][]int{{1, 2, 3}, {4}, {4}, {4}, nil},
		preds: [][]int{nil, {0}, {0}, {0}, {1, 2, 3}},
		rpo:   []int{0, 3, 2, 1, 4}, edges: 6, reachableEdges: 6,
		idom: []int{-1, 0, 0, 0, 0}, depth: []int{0, 1, 1, 1, 1}, maxDepth: 1,
	}, {
		name:  "try_call",
		f:     tc.f,
		succs: [][]int{{1, 2}, nil, nil},
		preds: [][]int{nil, {0}, {0}},
		rpo:   []int{0, 2, 1}, edges: 2, reachableEdges: 2,
		idom: []int{-1, 0, 0}, depth: []int{0, 1, 1}, maxDepth: 1,
	}, {
		name:  "layout order and blocks outside it",
		f:     lay,
		succs: [][]int{nil, {0}, {1, 0}, nil},
		preds: [][]int{{2, 1}, {2}, nil, nil},
		rpo:   []int{2, 1, 0}, edges: 3, reachableEdges: 3,
		idom: []int{2, 2, -1, -1}, depth: []int{1, 1, 0, -1}, maxDepth: 1,
	}}
}

func ints(bs []ir.Block) []int {
	var out []int
	for _, b := range bs {
		out = append(out, int(b))
	}
	return out
}

func TestCFG(t *testing.T) {
	for _, tc := range graphCases() {
		t.Run(tc.name, func(t *testing.T) {
			c := NewCFG(tc.f)
			if want := tc.f.Layout[0]; c.Entry() != want {
				t.Errorf("Entry = %v, want %v", c.Entry(), want)
			}
			for b := range tc.succs {
				blk := ir.Block(b)
				if got := ints(c.Succs(blk)); !slices.Equal(got, tc.succs[b]) {
					t.Errorf("Succs(%v) = %v, want %v", blk, got, tc.succs[b])
				}
				if got := ints(c.Preds(blk)); !slices.Equal(got, tc.preds[b]) {
					t.Errorf("Preds(%v) = %v, want %v", blk, got, tc.preds[b])
				}
				if got, want := c.Reachable(blk), slices.Contains(tc.rpo, b); got != want {
					t.Errorf("Reachable(%v) = %v, want %v", blk, got, want)
				}
			}
			if got := ints(c.RPO()); !slices.Equal(got, tc.rpo) {
				t.Errorf("RPO = %v, want %v", got, tc.rpo)
			}
			for k, b := range tc.rpo {
				if got := c.RPONumber(ir.Block(b)); got != k {
					t.Errorf("RPONumber(block%d) = %d, want %d", b, got, k)
				}
			}
			if c.Edges() != tc.edges || c.ReachableEdges() != tc.reachableEdges {
				t.Errorf("Edges, ReachableEdges = %d, %d, want %d, %d",
					c.Edges(), c.ReachableEdges(), tc.edges, tc.reachableEdges)
			}
		})
	}
}

func TestCFGEmptyAndOutOfRange(t *testing.T) {
	c := NewCFG(&ir.Function{})
	if c.Entry() != ir.NoBlock || len(c.RPO()) != 0 || c.Edges() != 0 {
		t.Errorf("empty function: entry %v, rpo %v, edges %d", c.Entry(), c.RPO(), c.Edges())
	}
	d := NewDomTree(c)
	if d.MaxDepth() != 0 || d.Dominates(0, 0) || d.Idom(0) != ir.NoBlock {
		t.Errorf("empty function: dom tree not empty")
	}

	// Branches to blocks past f.Blocks and a layout naming one are ignored.
	f := graph([][]int{{1, 7}, {}})
	f.Layout = append(f.Layout, 9, 0)
	c = NewCFG(f)
	if got := ints(c.Succs(0)); !slices.Equal(got, []int{1}) {
		t.Errorf("Succs(block0) = %v, want [1]", got)
	}
	if got := ints(c.Layout()); !slices.Equal(got, []int{0, 1}) {
		t.Errorf("Layout = %v, want [0 1]", got)
	}
	if c.Succs(99) != nil || c.Preds(99) != nil || c.Reachable(99) || c.InstBlock(99) != ir.NoBlock || c.InstIndex(99) != -1 {
		t.Errorf("out-of-range queries should give empty answers")
	}
}

func TestCFGInstPositions(t *testing.T) {
	b := newFB(2)
	v0 := b.iconst(0)
	j := b.jump(0, to(1))
	v1 := b.iadd(1, v0, v0)
	r := b.ret(1, v1)
	b.f.Blocks[1].Insts = append(b.f.Blocks[1].Insts, j) // listed twice: first place wins
	c := NewCFG(b.f)
	for _, tc := range []struct {
		inst  ir.Inst
		block ir.Block
		index int
	}{
		{b.f.Values[v0].Inst, 0, 0}, {j, 0, 1}, {b.f.Values[v1].Inst, 1, 0}, {r, 1, 1},
	} {
		if c.InstBlock(tc.inst) != tc.block || c.InstIndex(tc.inst) != tc.index {
			t.Errorf("%v at %v:%d, want %v:%d", tc.inst, c.InstBlock(tc.inst), c.InstIndex(tc.inst), tc.block, tc.index)
		}
	}
	// PlacedAt is InstBlock and InstIndex in one: true at the first
	// listing of each instruction, false at the second and out of range.
	for _, blk := range []ir.Block{0, 1, 2} {
		for idx := range 4 {
			for inst := range ir.Inst(len(b.f.Insts) + 1) {
				want := c.InstBlock(inst) == blk && c.InstIndex(inst) == idx
				if got := c.PlacedAt(inst, blk, idx); got != want {
					t.Errorf("PlacedAt(%v, %v, %d) = %v, want %v", inst, blk, idx, got, want)
				}
			}
		}
	}
	if !c.PlacedAt(j, 0, 1) || c.PlacedAt(j, 1, 2) {
		t.Errorf("PlacedAt of the jump listed twice: %v at its first listing, %v at its second", c.PlacedAt(j, 0, 1), c.PlacedAt(j, 1, 2))
	}
}

// TestCFGRandom checks successors, predecessors, reachability and RPO
// against the naive versions on random graphs.
func TestCFGRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for iter := range 2000 {
		n := 1 + r.IntN(12)
		succs := randomSuccs(r, n)
		f := graph(succs)
		c := NewCFG(f)
		want := naiveSuccs(succs)
		wantPreds := make([][]int, n)
		edges := 0
		for i, ss := range want {
			edges += len(ss)
			for _, s := range ss {
				wantPreds[s] = append(wantPreds[s], i)
			}
		}
		rpo, reach := naiveRPO(want)
		for i := range n {
			if got := ints(c.Succs(ir.Block(i))); !slices.Equal(got, want[i]) {
				t.Fatalf("graph %d %v: Succs(block%d) = %v, want %v", iter, succs, i, got, want[i])
			}
			if got := ints(c.Preds(ir.Block(i))); !slices.Equal(got, wantPreds[i]) {
				t.Fatalf("graph %d %v: Preds(block%d) = %v, want %v", iter, succs, i, got, wantPreds[i])
			}
			if c.Reachable(ir.Block(i)) != reach[i] {
				t.Fatalf("graph %d %v: Reachable(block%d) = %v", iter, succs, i, !reach[i])
			}
		}
		if got := ints(c.RPO()); !slices.Equal(got, rpo) {
			t.Fatalf("graph %d %v: RPO = %v, want %v", iter, succs, got, rpo)
		}
		if c.Edges() != edges {
			t.Fatalf("graph %d %v: Edges = %d, want %d", iter, succs, c.Edges(), edges)
		}
	}
}
