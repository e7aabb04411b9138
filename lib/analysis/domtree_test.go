package analysis

import (
	"math/rand/v2"
	"slices"
	"testing"

	"cliff/lib/ir"
)

func TestDomTree(t *testing.T) {
	for _, tc := range graphCases() {
		t.Run(tc.name, func(t *testing.T) {
			d := NewDomTree(NewCFG(tc.f))
			children := make([][]int, len(tc.idom))
			for _, b := range tc.rpo { // children come in RPO order
				if p := tc.idom[b]; p >= 0 {
					children[p] = append(children[p], b)
				}
			}
			for b := range tc.idom {
				blk := ir.Block(b)
				want := ir.NoBlock
				if tc.idom[b] >= 0 {
					want = ir.Block(tc.idom[b])
				}
				if got := d.Idom(blk); got != want {
					t.Errorf("Idom(%v) = %v, want %v", blk, got, want)
				}
				if got := d.Depth(blk); got != tc.depth[b] {
					t.Errorf("Depth(%v) = %d, want %d", blk, got, tc.depth[b])
				}
				if got := ints(d.Children(blk)); !slices.Equal(got, children[b]) {
					t.Errorf("Children(%v) = %v, want %v", blk, got, children[b])
				}
				// a dominates b exactly when a is on b's idom chain.
				for a := range tc.idom {
					want := false
					if tc.depth[b] >= 0 {
						for x := b; x >= 0; x = tc.idom[x] {
							want = want || x == a
						}
					}
					if got := d.Dominates(ir.Block(a), blk); got != want {
						t.Errorf("Dominates(block%d, %v) = %v, want %v", a, blk, got, want)
					}
				}
			}
			if d.MaxDepth() != tc.maxDepth {
				t.Errorf("MaxDepth = %d, want %d", d.MaxDepth(), tc.maxDepth)
			}
		})
	}
}

// TestDomTreeRandom compares the tree with dominator sets from the naive
// dataflow equations on thousands of random graphs, most of them
// irreducible and with unreachable nodes.
func TestDomTreeRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var irreducible, unreachable int
	for iter := range 5000 {
		n := 1 + r.IntN(16)
		succs := randomSuccs(r, n)
		if iter%2 == 0 {
			succs = randomCFG(r, n)
		}
		d := NewDomTree(NewCFG(graph(succs)))
		dom, reach := naiveDom(succs)
		idom := naiveIdom(dom)
		if slices.Contains(reach, false) {
			unreachable++
		}
		if hasIrreducibleEdge(succs, dom, reach) {
			irreducible++
		}
		for b := range n {
			blk := ir.Block(b)
			want := ir.NoBlock
			if idom[b] >= 0 {
				want = ir.Block(idom[b])
			}
			if got := d.Idom(blk); got != want {
				t.Fatalf("graph %d %v: Idom(%v) = %v, want %v", iter, succs, blk, got, want)
			}
			depth := -1
			for a := range n {
				if dom[b][a] {
					depth++
				}
				if got := d.Dominates(ir.Block(a), blk); got != dom[b][a] {
					t.Fatalf("graph %d %v: Dominates(block%d, %v) = %v, want %v", iter, succs, a, blk, got, dom[b][a])
				}
			}
			if got := d.Depth(blk); got != depth {
				t.Fatalf("graph %d %v: Depth(%v) = %d, want %d", iter, succs, blk, got, depth)
			}
		}
	}
	// The generator must actually produce the hard cases.
	if irreducible < 500 || unreachable < 500 {
		t.Errorf("only %d irreducible and %d graphs with unreachable nodes", irreducible, unreachable)
	}
}

// hasIrreducibleEdge reports whether some reachable cycle is not a natural
// loop: a retreating edge (in DFS order) whose target does not dominate its
// source.
func hasIrreducibleEdge(succs [][]int, dom [][]bool, reach []bool) bool {
	rpo, _ := naiveRPO(succs)
	num := make([]int, len(succs))
	for k, b := range rpo {
		num[b] = k
	}
	for b, ss := range succs {
		for _, s := range ss {
			if reach[b] && num[s] <= num[b] && !dom[b][s] {
				return true
			}
		}
	}
	return false
}

func TestValueDominates(t *testing.T) {
	// block0(v0): v1 = iconst; brif v1, block1, block2
	// block1:     v2 = iadd v0, v1; jump block3(v2)
	// block2:     jump block3(v1)
	// block3(v3): v4 = iadd v3, v1; return v4
	// block4:     v5 = iconst; return v5          (unreachable)
	b := newFB(5)
	v0 := b.param(0)
	v1 := b.iconst(0)
	brif := b.brif(0, v1, to(1), to(2))
	v2 := b.iadd(1, v0, v1)
	j1 := b.jump(1, to(3, v2))
	j2 := b.jump(2, to(3, v1))
	v3 := b.param(3)
	v4 := b.iadd(3, v3, v1)
	r3 := b.ret(3, v4)
	v5 := b.iconst(4)
	r4 := b.ret(4, v5)
	a1 := b.alias(v1)
	a2 := b.alias(v2)
	f := b.f
	inst := func(v ir.Value) ir.Inst { return f.Values[v].Inst }
	d := NewDomTree(NewCFG(f))
	for _, tc := range []struct {
		name  string
		v     ir.Value
		user  ir.Inst
		block ir.Block
		want  bool
	}{
		{"param in its block", v0, inst(v1), 0, true},
		{"result before the use", v1, brif, 0, true},
		{"result by its own instruction", v1, inst(v1), 0, false},
		{"result after the use", v4, inst(v4), 3, false},
		{"result used later in the block", v4, r3, 3, true},
		{"entry value in a dominated block", v0, inst(v2), 1, true},
		{"entry result in a dominated block", v1, j2, 2, true},
		{"side of a diamond at the join", v2, r3, 3, false},
		{"side of a diamond in the other side", v2, j2, 2, false},
		{"join param at the join", v3, r3, 3, true},
		{"join param in a predecessor", v3, j1, 1, false},
		{"alias of a dominating value", a1, inst(v4), 3, true},
		{"alias of a non-dominating value", a2, r3, 3, false},
		{"end of block", v2, ir.NoInst, 1, true},
		{"end of another block", v2, ir.NoInst, 3, false},
		{"use in an unreachable block", v5, r4, 4, false},
		{"def in an unreachable block", v5, r3, 3, false},
		{"user not in the given block", v1, j1, 2, false},
		{"undefined value", ir.Value(1000), r3, 3, false},
	} {
		if got := d.ValueDominates(f, tc.v, tc.user, tc.block); got != tc.want {
			t.Errorf("%s: ValueDominates(%v, %v, %v) = %v, want %v", tc.name, tc.v, tc.user, tc.block, got, tc.want)
		}
	}
}

// TestValueDominatesRandom checks that in random SSA functions every use
// in a reachable block is dominated, and that ValueDominates agrees with
// the naive dominator sets and text order for arbitrary value/use pairs.
func TestValueDominatesRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for iter := range 300 {
		succs := randomSuccs(r, 1+r.IntN(10))
		dom, reach := naiveDom(succs)
		rpo, _ := naiveRPO(succs)
		f := randomSSA(r, succs, naiveIdom(dom), rpo)
		c := NewCFG(f)
		d := NewDomTree(c)
		type place struct {
			block ir.Block
			index int
		}
		where := map[ir.Inst]place{}
		for _, b := range f.Layout {
			for i, inst := range f.Blocks[b].Insts {
				where[inst] = place{b, i}
			}
		}
		for _, b := range f.Layout {
			for _, inst := range f.Blocks[b].Insts {
				for _, v := range naiveInstUses(f, inst) {
					if reach[b] && !d.ValueDominates(f, v, inst, b) {
						t.Fatalf("function %d: use of %v by %v in %v not dominated", iter, v, inst, b)
					}
				}
				for v := range f.Values {
					rv, ok := naiveResolve(f, ir.Value(v))
					want := false
					if ok && reach[b] {
						vd := f.Values[rv]
						def, idx := vd.Block, -1
						if vd.Kind == ir.DefResult {
							def, idx = where[vd.Inst].block, where[vd.Inst].index
						}
						want = dom[b][def] && (def != b || idx < where[inst].index)
					}
					if got := d.ValueDominates(f, ir.Value(v), inst, b); got != want {
						t.Fatalf("function %d: ValueDominates(v%d, %v, %v) = %v, want %v", iter, v, inst, b, got, want)
					}
				}
			}
		}
	}
}
