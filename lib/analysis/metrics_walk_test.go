package analysis

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"cliff/lib/ir"
)

// withoutAliases returns f with every use of an alias replaced by the
// value it stands for, and the aliases made unused slots: a tidy function
// when f came from randomSSA.
func withoutAliases(f *ir.Function) *ir.Function {
	g := cloneFunc(f)
	res := func(v ir.Value) ir.Value {
		if r := resolveAlias(f, v); r != ir.NoValue {
			return r
		}
		return v
	}
	for i := range g.Insts {
		d := &g.Insts[i]
		for k, v := range d.Args {
			d.Args[k] = res(v)
		}
		for _, c := range d.Dests {
			for k, a := range c.Args {
				if a.Kind == ir.ArgValue {
					c.Args[k].Value = res(a.Value)
				}
			}
		}
		for k, h := range d.Handlers {
			if h.Kind == ir.HandlerContext {
				d.Handlers[k].Context = res(h.Context)
			}
			for j, a := range h.Dest.Args {
				if a.Kind == ir.ArgValue {
					h.Dest.Args[j].Value = res(a.Value)
				}
			}
		}
	}
	for v := range g.Values {
		if g.Values[v].Kind == ir.DefAlias {
			g.Values[v] = ir.ValueData{}
		}
	}
	return g
}

// cloneFunc copies what the analyses read, so that mutations leave the
// original alone.
func cloneFunc(f *ir.Function) *ir.Function {
	g := &ir.Function{Name: f.Name, Layout: slices.Clone(f.Layout), Values: slices.Clone(f.Values)}
	for _, b := range f.Blocks {
		b.Params, b.Insts = slices.Clone(b.Params), slices.Clone(b.Insts)
		g.Blocks = append(g.Blocks, b)
	}
	for _, d := range f.Insts {
		d.Args, d.Results = slices.Clone(d.Args), slices.Clone(d.Results)
		d.Dests = slices.Clone(d.Dests)
		for k := range d.Dests {
			d.Dests[k].Args = slices.Clone(d.Dests[k].Args)
		}
		d.Handlers = slices.Clone(d.Handlers)
		for k := range d.Handlers {
			d.Handlers[k].Dest.Args = slices.Clone(d.Handlers[k].Dest.Args)
		}
		g.Insts = append(g.Insts, d)
	}
	return g
}

// A mutation breaks a function in one way; tidy says whether the function
// stays tidy (see metricsScratch.walk), so that walk's own depth counts.
type mutation struct {
	name string
	tidy bool
	do   func(r *rand.Rand, f *ir.Function)
}

// randomValue is any value ID, a few past the end included.
func randomValue(r *rand.Rand, f *ir.Function) ir.Value {
	return ir.Value(r.IntN(len(f.Values) + 3))
}

func randomInst(r *rand.Rand, f *ir.Function) *ir.InstData {
	return &f.Insts[r.IntN(len(f.Insts))]
}

var mutations = []mutation{
	{"none", true, func(*rand.Rand, *ir.Function) {}},
	// Uses of values defined later, nowhere or out of range: not SSA, and
	// the order must cut them.
	{"operand", true, func(r *rand.Rand, f *ir.Function) {
		for range 3 {
			if d := randomInst(r, f); len(d.Args) > 0 {
				d.Args[r.IntN(len(d.Args))] = randomValue(r, f)
			}
		}
	}},
	{"block arg", true, func(r *rand.Rand, f *ir.Function) {
		for range 3 {
			if d := randomInst(r, f); len(d.Dests) > 0 {
				c := d.Dests[r.IntN(len(d.Dests))]
				if len(c.Args) > 0 {
					c.Args[r.IntN(len(c.Args))] = ir.BlockArg{Kind: ir.ArgValue, Value: randomValue(r, f)}
				}
			}
		}
	}},
	{"branch anywhere", true, func(r *rand.Rand, f *ir.Function) {
		d := randomInst(r, f)
		d.Dests = append(d.Dests, to(r.IntN(len(f.Blocks)), randomValue(r, f), randomValue(r, f)))
	}},
	{"listed twice", true, func(r *rand.Rand, f *ir.Function) {
		b := &f.Blocks[r.IntN(len(f.Blocks))]
		b.Insts = slices.Insert(b.Insts, r.IntN(len(b.Insts)+1), ir.Inst(r.IntN(len(f.Insts))))
	}},
	{"bad opcode", true, func(r *rand.Rand, f *ir.Function) {
		randomInst(r, f).Op = ir.Opcode(60000)
	}},
	{"alias", false, func(r *rand.Rand, f *ir.Function) {
		v := randomValue(r, f) % ir.Value(len(f.Values))
		f.Values[v] = ir.ValueData{Kind: ir.DefAlias, AliasOf: randomValue(r, f)}
	}},
	{"result of another", false, func(r *rand.Rand, f *ir.Function) {
		v := randomValue(r, f) % ir.Value(len(f.Values))
		f.Values[v] = ir.ValueData{Kind: ir.DefResult, Inst: ir.Inst(r.IntN(len(f.Insts)))}
	}},
	{"param of another", false, func(r *rand.Rand, f *ir.Function) {
		v := randomValue(r, f) % ir.Value(len(f.Values))
		f.Values[v] = ir.ValueData{Kind: ir.DefParam, Block: ir.Block(r.IntN(len(f.Blocks)))}
	}},
	{"unused slot", false, func(r *rand.Rand, f *ir.Function) {
		f.Values[randomValue(r, f)%ir.Value(len(f.Values))] = ir.ValueData{}
	}},
	{"listed as param", false, func(r *rand.Rand, f *ir.Function) {
		b := &f.Blocks[r.IntN(len(f.Blocks))]
		b.Params = append(b.Params, randomValue(r, f))
	}},
	{"listed as result", false, func(r *rand.Rand, f *ir.Function) {
		d := randomInst(r, f)
		d.Results = append(d.Results, randomValue(r, f))
	}},
}

// TestWalkMatchesChainDepth holds Compute to its references on random
// functions: the def-use chain depth to chainDepth (defuse.go), the
// dominator tree depth to DomTree, Insts to the CFG's placement. Each
// function is made tidy, then broken in one way: the mutations that keep
// it tidy test walk's own depth (walk must say tidy), the others the
// fallback to chainDepth (walk must notice, or give the same depth).
func TestWalkMatchesChainDepth(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	tidyWalks := 0
	for iter := range 400 {
		succs := randomSuccs(r, 1+r.IntN(12))
		dom, _ := naiveDom(succs)
		rpo, _ := naiveRPO(succs)
		base := withoutAliases(randomSSA(r, succs, naiveIdom(dom), rpo))
		if len(base.Insts) == 0 || len(base.Values) == 0 {
			continue
		}
		for _, mu := range mutations {
			f := cloneFunc(base)
			mu.do(r, f)
			c := NewCFG(f)
			insts := 0
			for _, b := range c.RPO() {
				for idx, inst := range f.Blocks[b].Insts {
					if c.PlacedAt(inst, b, idx) {
						insts++
					}
				}
			}
			got := Compute(f)
			if want := chainDepth(f, c); got.DefUseDepth != want {
				t.Fatalf("function %d, mutation %q: DefUseDepth = %d, chainDepth = %d", iter, mu.name, got.DefUseDepth, want)
			}
			if want := NewDomTree(c).MaxDepth(); got.DomDepth != want {
				t.Fatalf("function %d, mutation %q: DomDepth = %d, DomTree says %d", iter, mu.name, got.DomDepth, want)
			}
			if got.Insts != insts {
				t.Fatalf("function %d, mutation %q: Insts = %d, the CFG places %d", iter, mu.name, got.Insts, insts)
			}

			var s metricsScratch
			s.cfg.Recompute(f)
			s.opcodes = make([]int32, numOpcodes)
			_, depth, tidy := s.walk(f)
			if mu.tidy && !tidy {
				t.Fatalf("function %d, mutation %q: walk says untidy", iter, mu.name)
			}
			if tidy {
				tidyWalks++
				if want := chainDepth(f, c); depth != want {
					t.Fatalf("function %d, mutation %q: tidy walk depth = %d, chainDepth = %d", iter, mu.name, depth, want)
				}
			}
		}
	}
	if tidyWalks < 1000 {
		t.Errorf("only %d tidy walks: the fast path is hardly tested", tidyWalks)
	}
}

// TestComputeReusesScratch: the pooled tables give the same metrics
// whatever was computed with them before, larger or smaller.
func TestComputeReusesScratch(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var funcs []*ir.Function
	for range 30 {
		succs := randomSuccs(r, 1+r.IntN(20))
		dom, _ := naiveDom(succs)
		rpo, _ := naiveRPO(succs)
		funcs = append(funcs, randomSSA(r, succs, naiveIdom(dom), rpo))
	}
	var fresh []Metrics
	for _, f := range funcs {
		s := new(metricsScratch)
		s.opcodes = make([]int32, numOpcodes)
		fresh = append(fresh, s.compute(f))
	}
	var s metricsScratch
	for pass := range 2 {
		for i := range funcs {
			if pass == 1 {
				i = len(funcs) - 1 - i
			}
			s.opcodes = make([]int32, numOpcodes)
			if got := s.compute(funcs[i]); !reflect.DeepEqual(got, fresh[i]) {
				t.Fatalf("function %d in pass %d: %+v, fresh %+v", i, pass, got, fresh[i])
			}
		}
	}
}

// TestComputeModuleCounts: the counts cover the instructions Insts counts,
// one per distinct opcode in opcode order, appended after what the slice
// held, and name the opcodes ComputeModule lists.
func TestComputeModuleCounts(t *testing.T) {
	diamond := graph([][]int{{1, 2}, {3}, {3}, {}})
	loops := graph([][]int{{1}, {2, 5}, {3, 4}, {2}, {1}, {}})
	mod := &ir.Module{Funcs: []*ir.Function{diamond, loops}}
	prefix := []OpcodeCount{{ir.OpTrap, 7}}
	m, counts := ComputeModuleCounts(mod, prefix)
	if !reflect.DeepEqual(counts[:1], prefix) {
		t.Fatalf("counts start %v, want the prefix %v", counts[:1], prefix)
	}
	counts = counts[1:]
	want := []OpcodeCount{{ir.OpJump, 5}, {ir.OpBrif, 3}, {ir.OpReturn, 2}, {ir.OpIconst, 3}}
	slices.SortFunc(want, func(a, b OpcodeCount) int { return int(a.Op) - int(b.Op) })
	if !reflect.DeepEqual(counts, want) {
		t.Errorf("counts = %v, want %v", counts, want)
	}
	full := ComputeModule(mod)
	if m.OpcodeSet != nil || m.Opcodes != len(counts) {
		t.Errorf("ComputeModuleCounts metrics %+v: want no OpcodeSet and %d opcodes", m, len(counts))
	}
	m.OpcodeSet = full.OpcodeSet
	if !reflect.DeepEqual(m, full) {
		t.Errorf("ComputeModuleCounts metrics %+v, ComputeModule %+v", m, full)
	}
	var names []string
	sum := 0
	for _, c := range counts {
		names = append(names, c.Op.String())
		sum += c.N
	}
	slices.Sort(names)
	if !reflect.DeepEqual(names, full.OpcodeSet) || sum != full.Insts {
		t.Errorf("counts %v name %v and sum to %d; ComputeModule lists %v of %d instructions", counts, names, sum, full.OpcodeSet, full.Insts)
	}
}
