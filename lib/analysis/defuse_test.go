package analysis

import (
	"math/rand/v2"
	"slices"
	"testing"

	"cliff/lib/ir"
)

func TestDefUseUses(t *testing.T) {
	// block0(v0): v1 = iconst; v2 = iadd v0, v1
	//             try_call fn(v2, v1), block1(v1, ret0),
	//                 [tag: block2(exn0, v2), context v1, default: block1(v0, v1)]
	// block1(v3, v4): v5 = iadd v3, a(v1); return v5, v4
	// block2(v6, v7): jump block1(v7, v6)
	b := newFB(3)
	v0 := b.param(0)
	v1 := b.iconst(0)
	v2 := b.iadd(0, v0, v1)
	tc := b.tryCall(0, []ir.Value{v2, v1}, ir.BlockCall{Block: 1, Args: []ir.BlockArg{{Value: v1}, ret(0)}},
		ir.ExceptionHandler{Kind: ir.HandlerTag, Dest: ir.BlockCall{Block: 2, Args: []ir.BlockArg{exn(0), {Value: v2}}}},
		ir.ExceptionHandler{Kind: ir.HandlerContext, Context: v1},
		ir.ExceptionHandler{Kind: ir.HandlerDefault, Dest: to(1, v0, v1)})
	v3, v4 := b.param(1), b.param(1)
	a := b.alias(v1)
	v5 := b.iadd(1, v3, a)
	r := b.ret(1, v5, v4)
	v6, v7 := b.param(2), b.param(2)
	j := b.jump(2, to(1, v7, v6))
	f := b.f
	i2, i5 := f.Values[v2].Inst, f.Values[v5].Inst

	du := NewDefUse(f)
	for _, tc := range []struct {
		v    ir.Value
		want []Use
	}{
		{v0, []Use{{Inst: i2, Kind: UseOperand, Operand: 0},
			{Inst: tc, Kind: UseHandlerArg, Operand: 0, InBlockCall: true, Dest: 2}}},
		{v1, []Use{{Inst: i2, Kind: UseOperand, Operand: 1},
			{Inst: tc, Kind: UseOperand, Operand: 1},
			{Inst: tc, Kind: UseBlockArg, Operand: 0, InBlockCall: true, Dest: 0},
			{Inst: tc, Kind: UseHandlerContext, Dest: 1},
			{Inst: tc, Kind: UseHandlerArg, Operand: 1, InBlockCall: true, Dest: 2},
			{Inst: i5, Kind: UseOperand, Operand: 1}}},
		{v2, []Use{{Inst: tc, Kind: UseOperand, Operand: 0},
			{Inst: tc, Kind: UseHandlerArg, Operand: 1, InBlockCall: true, Dest: 0}}},
		{v3, []Use{{Inst: i5, Kind: UseOperand, Operand: 0}}},
		{v4, []Use{{Inst: r, Kind: UseOperand, Operand: 1}}},
		{v5, []Use{{Inst: r, Kind: UseOperand, Operand: 0}}},
		{v6, []Use{{Inst: j, Kind: UseBlockArg, Operand: 1, InBlockCall: true}}},
		{v7, []Use{{Inst: j, Kind: UseBlockArg, Operand: 0, InBlockCall: true}}},
	} {
		if got := du.Uses(tc.v); !slices.Equal(got, tc.want) {
			t.Errorf("Uses(%v) =\n\t%+v\nwant\n\t%+v", tc.v, got, tc.want)
		}
	}
	if got, want := du.Uses(a), du.Uses(v1); !slices.Equal(got, want) {
		t.Errorf("Uses(alias) = %+v, want the uses of %v", got, v1)
	}
	if got := du.Uses(ir.Value(1000)); got != nil {
		t.Errorf("Uses(undefined) = %+v", got)
	}
	// An alias cycle defines nothing.
	c1 := b.alias(0)
	c2 := b.alias(c1)
	f.Values[c1].AliasOf = c2
	du = NewDefUse(f)
	if got, def := du.Uses(c1), du.Def(c2); got != nil || def.Kind != ir.DefNone {
		t.Errorf("alias cycle: Uses = %+v, Def = %+v", got, def)
	}

	for _, tc := range []struct {
		v    ir.Value
		want Def
	}{
		{v0, Def{Kind: ir.DefParam, Block: 0, Inst: ir.NoInst}},
		{v4, Def{Kind: ir.DefParam, Block: 1, Inst: ir.NoInst, Index: 1}},
		{v2, Def{Kind: ir.DefResult, Block: 0, Inst: i2}},
		{a, Def{Kind: ir.DefResult, Block: 0, Inst: f.Values[v1].Inst}},
		{ir.Value(1000), Def{Kind: ir.DefNone, Block: ir.NoBlock, Inst: ir.NoInst}},
	} {
		if got := du.Def(tc.v); got != tc.want {
			t.Errorf("Def(%v) = %+v, want %+v", tc.v, got, tc.want)
		}
	}
}

// TestDefUseRandom checks that the uses of every value are exactly the
// operands that name it (or an alias of it), counted independently.
func TestDefUseRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for iter := range 300 {
		succs := randomSuccs(r, 1+r.IntN(10))
		dom, _ := naiveDom(succs)
		rpo, _ := naiveRPO(succs)
		f := randomSSA(r, succs, naiveIdom(dom), rpo)
		du := NewDefUse(f)
		want := map[ir.Value]int{}
		for _, b := range f.Layout {
			for _, inst := range f.Blocks[b].Insts {
				for _, v := range naiveInstUses(f, inst) {
					want[v]++
				}
			}
		}
		for v := range f.Values {
			rv, ok := naiveResolve(f, ir.Value(v))
			n := 0
			if ok {
				n = want[rv]
			}
			uses := du.Uses(ir.Value(v))
			if len(uses) != n {
				t.Fatalf("function %d: %d uses of v%d, want %d", iter, len(uses), v, n)
			}
			for _, u := range uses {
				if got := useValue(f, u); got != ir.Value(v) && f.Values[got].AliasOf != rv && got != rv {
					t.Fatalf("function %d: use %+v of v%d names %v", iter, u, v, got)
				}
			}
		}
	}
}

// useValue reads the value a Use points at.
func useValue(f *ir.Function, u Use) ir.Value {
	d := &f.Insts[u.Inst]
	switch u.Kind {
	case UseBlockArg:
		return d.Dests[u.Dest].Args[u.Operand].Value
	case UseHandlerArg:
		return d.Handlers[u.Dest].Dest.Args[u.Operand].Value
	case UseHandlerContext:
		return d.Handlers[u.Dest].Context
	}
	return d.Args[u.Operand]
}

func TestChainDepth(t *testing.T) {
	// Each case builds one function.
	for _, tc := range []struct {
		name  string
		build func() *ir.Function
		want  int
	}{
		{"lone return", func() *ir.Function {
			b := newFB(1)
			b.ret(0)
			return b.f
		}, 0},
		{"straight line", func() *ir.Function {
			// v1 = iconst; v2 = iadd v1, v1; return v2
			b := newFB(1)
			v1 := b.iconst(0)
			b.ret(0, b.iadd(0, v1, v1))
			return b.f
		}, 2},
		{"function params start no chain", func() *ir.Function {
			// block0(v0): v1 = iadd v0, v0; return v1
			b := newFB(1)
			v0 := b.param(0)
			b.ret(0, b.iadd(0, v0, v0))
			return b.f
		}, 1},
		{"through block params", func() *ir.Function {
			// block0: v0 = iconst; jump block1(v0)
			// block1(v1): v2 = iadd v1, v1; jump block2(v2)
			// block2(v3): return v3
			// iconst -> iadd -> return: the jumps are side branches.
			b := newFB(3)
			b.jump(0, to(1, b.iconst(0)))
			v1 := b.param(1)
			b.jump(1, to(2, b.iadd(1, v1, v1)))
			b.ret(2, b.param(2))
			return b.f
		}, 2},
		{"loop back edge through a param is cut", func() *ir.Function {
			// block0: v0 = iconst; jump block1(v0)
			// block1(v1): v2 = iadd v1, v1; brif v2, block1(v2), block2
			// block2: return v2
			b := newFB(3)
			b.jump(0, to(1, b.iconst(0)))
			v1 := b.param(1)
			v2 := b.iadd(1, v1, v1)
			b.brif(1, v2, to(1, v2), to(2))
			b.ret(2, v2)
			return b.f
		}, 2},
		{"longer chain around a loop", func() *ir.Function {
			// block0: v0 = iconst; jump block1(v0)
			// block1(v1): v2 = iadd v1, v1; v3 = iadd v2, v2; v4 = iadd v3, v3
			//             brif v4, block1(v4), block2
			// block2: return v1
			// Through the loop param only from block0: iconst -> iadd^3 -> brif.
			b := newFB(3)
			b.jump(0, to(1, b.iconst(0)))
			v1 := b.param(1)
			v2 := b.iadd(1, v1, v1)
			v3 := b.iadd(1, v2, v2)
			v4 := b.iadd(1, v3, v3)
			b.brif(1, v4, to(1, v4), to(2))
			b.ret(2, v1)
			return b.f
		}, 4},
		{"try_call results flow through retN", func() *ir.Function {
			// block0: v0 = iconst; try_call fn(v0), block1(ret0), [default: block2(exn0)]
			// block1(v1): v2 = iadd v1, v1; return v2
			// block2(v3): return v3
			b := newFB(3)
			v0 := b.iconst(0)
			b.tryCall(0, []ir.Value{v0}, ir.BlockCall{Block: 1, Args: []ir.BlockArg{ret(0)}},
				ir.ExceptionHandler{Kind: ir.HandlerDefault, Dest: ir.BlockCall{Block: 2, Args: []ir.BlockArg{exn(0)}}})
			v1 := b.param(1)
			b.ret(1, b.iadd(1, v1, v1))
			b.ret(2, b.param(2))
			return b.f
		}, 3},
		{"irreducible cycle", func() *ir.Function {
			// block0: v0 = iconst; brif v0, block1(v0), block2(v0)
			// block1(v1): v2 = iadd v1, v1; brif v2, block2(v2), block3
			// block2(v3): v4 = iadd v3, v3; jump block1(v4)
			// block3: return
			// RPO is 0 1 3 2: block1 -> block2 is forward, block2 -> block1
			// is cut. Longest: iconst -> iadd(b1) -> [v3] iadd(b2) -> jump.
			b := newFB(4)
			v0 := b.iconst(0)
			b.brif(0, v0, to(1, v0), to(2, v0))
			v1 := b.param(1)
			v2 := b.iadd(1, v1, v1)
			b.brif(1, v2, to(2, v2), to(3))
			v3 := b.param(2)
			b.jump(2, to(1, b.iadd(2, v3, v3)))
			b.ret(3)
			return b.f
		}, 3},
		{"unreachable code does not count", func() *ir.Function {
			b := newFB(2)
			b.ret(0)
			v := b.iconst(1)
			b.ret(1, b.iadd(1, b.iadd(1, v, v), v))
			return b.f
		}, 0},
		{"use before def in a block is not an edge", func() *ir.Function {
			// Invalid SSA: v1 = iadd v2, v2; v2 = iadd v1, v1 must not loop.
			b := newFB(1)
			i := b.add(0, ir.InstData{Op: ir.OpIadd, Args: []ir.Value{1, 1}, Results: []ir.Value{0}})
			b.f.Values = append(b.f.Values, ir.ValueData{Type: ir.I32, Kind: ir.DefResult, Inst: i})
			v1 := b.iadd(0, 0, 0)
			b.ret(0, v1)
			return b.f
		}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.build()
			if got := NewDefUse(f).ChainDepth(); got != tc.want {
				t.Errorf("ChainDepth = %d, want %d", got, tc.want)
			}
		})
	}
}

// TestChainDepthRandom compares the one-pass computation with a memoized
// recursion over the definition (block params pass values along edges
// that are not retreating) on random SSA functions.
func TestChainDepthRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	deep := 0
	for iter := range 1000 {
		succs := randomSuccs(r, 1+r.IntN(10))
		if iter%2 == 0 {
			succs = randomCFG(r, 1+r.IntN(10))
		}
		dom, _ := naiveDom(succs)
		rpo, _ := naiveRPO(succs)
		f := randomSSA(r, succs, naiveIdom(dom), rpo)
		rpoNum := map[ir.Block]int{}
		for k, b := range rpo {
			rpoNum[ir.Block(b)] = k
		}
		want := naiveChainDepth(f, rpoNum)
		if got := NewDefUse(f).ChainDepth(); got != want {
			t.Fatalf("function %d over %v: ChainDepth = %d, want %d", iter, succs, got, want)
		}
		if want >= 5 {
			deep++
		}
	}
	if deep < 100 {
		t.Errorf("only %d functions with chains of 5 or more", deep)
	}
}
