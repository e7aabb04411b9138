package analysis

import (
	"math/rand/v2"
	"slices"
	"testing"

	"cliff/lib/ir"
)

func vals(ns ...int) []ir.Value {
	var out []ir.Value
	for _, n := range ns {
		out = append(out, ir.Value(n))
	}
	return out
}

func TestLiveness(t *testing.T) {
	for _, tc := range []struct {
		name    string
		build   func() *ir.Function
		in, out [][]ir.Value // by block
	}{{
		// block0(v0): v1 = iconst; jump block1(v1)
		// block1(v2): v3 = iadd v2, v0; brif v3, block1(v3), block2
		// block2:     return v0
		name: "loop",
		build: func() *ir.Function {
			b := newFB(3)
			v0 := b.param(0)
			b.jump(0, to(1, b.iconst(0)))
			v2 := b.param(1)
			v3 := b.iadd(1, v2, v0)
			b.brif(1, v3, to(1, v3), to(2))
			b.ret(2, v0)
			return b.f
		},
		in:  [][]ir.Value{nil, vals(0), vals(0)},
		out: [][]ir.Value{vals(0), vals(0), nil},
	}, {
		// block0(v0, v1): v2 = iconst; brif v0, block1, block2
		// block1:         v3 = iadd v1, v1; jump block3(v3)
		// block2:         jump block3(v2)
		// block3(v4):     v5 = iadd v4, v1; return v5
		name: "diamond",
		build: func() *ir.Function {
			b := newFB(4)
			v0, v1 := b.param(0), b.param(0)
			v2 := b.iconst(0)
			b.brif(0, v0, to(1), to(2))
			b.jump(1, to(3, b.iadd(1, v1, v1)))
			b.jump(2, to(3, v2))
			v4 := b.param(3)
			b.ret(3, b.iadd(3, v4, v1))
			return b.f
		},
		in:  [][]ir.Value{nil, vals(1), vals(1, 2), vals(1)},
		out: [][]ir.Value{vals(1, 2), vals(1), vals(1), nil},
	}, {
		// Uses through an alias keep the aliased value live; a value
		// used only in its own block is never live across blocks.
		// block0: v0 = iconst; v1 = iconst; v2 = iadd v1, v1; jump block1
		// block1: v4 = iadd v3, v3; return v4        (v3 -> v0)
		name: "alias",
		build: func() *ir.Function {
			b := newFB(2)
			v0 := b.iconst(0)
			v1 := b.iconst(0)
			b.iadd(0, v1, v1)
			b.jump(0, to(1))
			a := b.alias(v0)
			b.ret(1, b.iadd(1, a, a))
			return b.f
		},
		in:  [][]ir.Value{nil, vals(0)},
		out: [][]ir.Value{vals(0), nil},
	}, {
		// Unreachable blocks have liveness too, and do not leak into
		// their reachable successors' predecessors.
		// block0: v0 = iconst; jump block1
		// block1: return v0
		// block2: v1 = iconst; jump block1     (unreachable)
		// block3: jump block2                  (unreachable)
		name: "unreachable",
		build: func() *ir.Function {
			b := newFB(4)
			v0 := b.iconst(0)
			b.jump(0, to(1))
			b.ret(1, v0)
			b.iconst(2)
			b.jump(2, to(1))
			b.jump(3, to(2))
			return b.f
		},
		in:  [][]ir.Value{nil, vals(0), vals(0), vals(0)},
		out: [][]ir.Value{vals(0), nil, vals(0), vals(0)},
	}, {
		// Malformed: v1 is a result of instructions in block1 and block2,
		// and each definition kills it, so it is live into neither.
		// block0: v0 = iconst; brif v0, block1, block2
		// block1: v1 = iconst; jump block3
		// block2: v1 = iconst (again); jump block3
		// block3: return v1
		name: "defined in two blocks",
		build: func() *ir.Function {
			b := newFB(4)
			b.brif(0, b.iconst(0), to(1), to(2))
			v1 := b.iconst(1)
			b.jump(1, to(3))
			b.f.Insts[b.add(2, ir.InstData{Op: ir.OpIconst})].Results = []ir.Value{v1}
			b.jump(2, to(3))
			b.ret(3, v1)
			return b.f
		},
		in:  [][]ir.Value{nil, nil, nil, vals(1)},
		out: [][]ir.Value{nil, vals(1), vals(1), nil},
	}, {
		// Malformed: an instruction listed twice counts at its first
		// place only, and uses of an alias cycle and of IDs out of range
		// are no uses.
		// block0: v0 = iconst; v1 = iconst; jump block1
		// block1: v2 = iadd v0, v0; v5 = iadd v99, v4; return v2
		// block2: the v5 instruction again  (unreachable)
		// v3 -> v4 -> v3
		name: "listed twice, undefined",
		build: func() *ir.Function {
			b := newFB(3)
			v0 := b.iconst(0)
			b.iconst(0)
			b.jump(0, to(1))
			v2 := b.iadd(1, v0, v0)
			v3 := b.alias(4)
			v4 := b.alias(v3)
			v5 := b.iadd(1, 99, v4)
			b.ret(1, v2)
			b.f.Blocks[2].Insts = append(b.f.Blocks[2].Insts, b.f.Values[v5].Inst)
			return b.f
		},
		in:  [][]ir.Value{nil, vals(0), nil},
		out: [][]ir.Value{vals(0), nil, nil},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.build()
			l := NewLiveness(f, NewCFG(f))
			for b := range tc.in {
				blk := ir.Block(b)
				if got := l.LiveIn(blk); !slices.Equal(got, tc.in[b]) {
					t.Errorf("LiveIn(%v) = %v, want %v", blk, got, tc.in[b])
				}
				if got := l.LiveOut(blk); !slices.Equal(got, tc.out[b]) {
					t.Errorf("LiveOut(%v) = %v, want %v", blk, got, tc.out[b])
				}
				for v := range f.Values {
					val := ir.Value(v)
					rv, ok := naiveResolve(f, val)
					if got, want := l.IsLiveOut(val, blk), ok && slices.Contains(tc.out[b], rv); got != want {
						t.Errorf("IsLiveOut(%v, %v) = %v, want %v", val, blk, got, want)
					}
					if got, want := l.IsLiveIn(val, blk), ok && slices.Contains(tc.in[b], rv); got != want {
						t.Errorf("IsLiveIn(%v, %v) = %v, want %v", val, blk, got, want)
					}
				}
			}
			if l.LiveIn(99) != nil || l.IsLiveOut(0, 99) {
				t.Errorf("blocks outside the layout should have no live values")
			}
		})
	}
}

// TestLivenessRandom compares the bitset dataflow with per-value path
// exploration on random functions, valid SSA in reachable blocks and
// anything at all in unreachable ones.
func TestLivenessRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	nonempty := 0
	for iter := range 1000 {
		n := 1 + r.IntN(14)
		succs := randomSuccs(r, n)
		if iter%2 == 0 {
			succs = randomCFG(r, n)
		}
		dom, _ := naiveDom(succs)
		rpo, _ := naiveRPO(succs)
		f := randomSSA(r, succs, naiveIdom(dom), rpo)
		l := NewLiveness(f, NewCFG(f))
		in, out := naiveLiveness(f)
		for _, b := range f.Layout {
			wantIn, wantOut := sortedKeys(in[b]), sortedKeys(out[b])
			if got := l.LiveIn(b); !slices.Equal(got, wantIn) {
				t.Fatalf("function %d over %v: LiveIn(%v) = %v, want %v", iter, succs, b, got, wantIn)
			}
			if got := l.LiveOut(b); !slices.Equal(got, wantOut) {
				t.Fatalf("function %d over %v: LiveOut(%v) = %v, want %v", iter, succs, b, got, wantOut)
			}
			if len(wantOut) > 0 {
				nonempty++
			}
		}
	}
	if nonempty < 1000 {
		t.Errorf("only %d blocks with live-out values", nonempty)
	}
}

func sortedKeys(m map[ir.Value]bool) []ir.Value {
	var out []ir.Value
	for v := range m {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}

// naiveUseCounts counts the uses InstData.ForEachUse lists, aliases
// resolved, over every listing of every instruction of f.Layout.
func naiveUseCounts(f *ir.Function) []int32 {
	counts := make([]int32, len(f.Values))
	for _, b := range f.Layout {
		for _, inst := range f.Blocks[b].Insts {
			f.Insts[inst].ForEachUse(func(v ir.Value) {
				if v = f.Resolve(v); int(v) < len(counts) {
					counts[v]++
				}
			})
		}
	}
	return counts
}

// TestRecomputeCounting: the counts RecomputeCounting takes from its scan
// are a plain count over the layout exactly when it says they are whole,
// which it says of tidy functions only; and the liveness is Recompute's.
func TestRecomputeCounting(t *testing.T) {
	// block0(v0): v1 = iadd v0, v0; brif v1, block1(v1), block2
	// block1(v2): return v2, v0
	// block2:     return v0
	tidy := func() *fb {
		b := newFB(3)
		v0 := b.param(0)
		v1 := b.iadd(0, v0, v0)
		b.brif(0, v1, to(1, v1), to(2))
		v2 := b.param(1)
		b.ret(1, v2, v0)
		b.ret(2, v0)
		return b
	}
	for _, tc := range []struct {
		name  string
		build func() *ir.Function
		whole bool
	}{
		{"tidy", func() *ir.Function { return tidy().f }, true},
		{"alias", func() *ir.Function {
			b := tidy()
			b.ret(2, b.alias(0))
			return b.f
		}, false},
		{"unused value ID", func() *ir.Function {
			b := tidy()
			b.f.Values = append(b.f.Values, ir.ValueData{})
			return b.f
		}, false},
		{"block listed twice", func() *ir.Function {
			b := tidy()
			b.f.Layout = append(b.f.Layout, 1)
			return b.f
		}, false},
		{"block out of range", func() *ir.Function {
			b := tidy()
			b.f.Layout = append(b.f.Layout, 7)
			return b.f
		}, false},
		{"instruction listed twice", func() *ir.Function {
			b := tidy()
			b.f.Blocks[2].Insts = append([]ir.Inst{0}, b.f.Blocks[2].Insts...)
			return b.f
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.build()
			c := NewCFG(f)
			l := new(Liveness)
			counts, whole := l.RecomputeCounting(f, c, []int32{9, 9})
			if whole != tc.whole {
				t.Fatalf("whole = %v, want %v", whole, tc.whole)
			}
			if whole {
				if want := naiveUseCounts(f); !slices.Equal(counts, want) {
					t.Errorf("counts %v, want %v", counts, want)
				}
			}
			if got, want := describe(f, c, NewDomTree(c), l), describe(f, c, NewDomTree(c), NewLiveness(f, c)); got != want {
				t.Errorf("liveness\n%s\nwant\n%s", got, want)
			}
		})
	}

	r := rand.New(rand.NewPCG(13, 14))
	l, wholes := new(Liveness), 0
	var counts []int32
	for iter := range 500 {
		n := 1 + r.IntN(14)
		succs := randomCFG(r, n)
		c := NewCFG(graph(succs))
		idom, rpo := domInfo(NewDomTree(c))
		f := randomSSA(r, succs, idom, rpo)
		c.Recompute(f)
		var whole bool
		counts, whole = l.RecomputeCounting(f, c, counts)
		if whole {
			wholes++
			if want := naiveUseCounts(f); !slices.Equal(counts, want) {
				t.Fatalf("function %d over %v: counts %v, want %v", iter, succs, counts, want)
			}
		}
		if got, want := describe(f, c, NewDomTree(c), l), describe(f, c, NewDomTree(c), NewLiveness(f, c)); got != want {
			t.Fatalf("function %d over %v: liveness\n%s\nwant\n%s", iter, succs, got, want)
		}
	}
	if wholes < 25 { // randomSSA makes aliases: 48 of them are whole
		t.Errorf("only %d of 500 random functions whole", wholes)
	}
}

// TestLivenessDefined holds Defined to a plain listing of each block's
// params and placed instructions' results, on random functions tidy and
// broken (metrics_walk_test's mutations), and on one whose instructions
// list more results than the function has values, past the room the scan
// makes for them.
func TestLivenessDefined(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	muts := append(slices.Clone(mutations), mutation{"more results than values", false, func(r *rand.Rand, f *ir.Function) {
		d := randomInst(r, f)
		for range 2*len(f.Values) + 1 {
			d.Results = append(d.Results, randomValue(r, f))
		}
	}})
	l := new(Liveness)
	for iter := range 200 {
		succs := randomSuccs(r, 1+r.IntN(12))
		dom, _ := naiveDom(succs)
		rpo, _ := naiveRPO(succs)
		base := randomSSA(r, succs, naiveIdom(dom), rpo)
		if len(base.Insts) == 0 || len(base.Values) == 0 {
			continue
		}
		for _, mu := range muts {
			f := cloneFunc(base)
			mu.do(r, f)
			c := NewCFG(f)
			l.Recompute(f, c)
			fresh := NewLiveness(f, c) // room for len(f.Values) values only
			for b := range ir.Block(len(f.Blocks) + 1) {
				var want []ir.Value
				if c.InLayout(b) {
					want = append(want, f.Blocks[b].Params...)
					for idx, inst := range f.Blocks[b].Insts {
						if c.PlacedAt(inst, b, idx) {
							want = append(want, f.Insts[inst].Results...)
						}
					}
				}
				if got := l.Defined(b); !slices.Equal(got, want) {
					t.Fatalf("function %d, mutation %q: Defined(%v) = %v, want %v", iter, mu.name, b, got, want)
				}
				if got := fresh.Defined(b); !slices.Equal(got, want) {
					t.Fatalf("function %d, mutation %q: fresh Defined(%v) = %v, want %v", iter, mu.name, b, got, want)
				}
			}
		}
	}
	if got := new(Liveness).Defined(0); got != nil {
		t.Errorf("Defined before any Recompute = %v", got)
	}
}
