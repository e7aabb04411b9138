package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"cliff/lib/ir"
	"cliff/lib/profile"
	"cliff/lib/ub"
	"cliff/lib/verify"
)

// testCorpus is a sample of the corpus cliff-extract makes from
// Cranelift's filetests: every tenth block-level snippet.
const testCorpus = "testdata/corpus.jsonl.zst"

func newGen(t testing.TB, profileName string, depth int, features map[string]bool) *Generator {
	t.Helper()
	return newGenWith(t, profileName, depth, features, nil)
}

func newGenWith(t testing.TB, profileName string, depth int, features map[string]bool, corpus *Corpus) *Generator {
	t.Helper()
	p, err := profile.Load(profileName)
	if err != nil {
		t.Fatal(err)
	}
	opts := DefaultOptions(p, 42, depth)
	opts.Features, opts.Corpus = features, corpus
	g, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func caseJSON(t testing.TB, g *Generator, index uint64) []byte {
	t.Helper()
	c, _, err := g.Case(index)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSameSeedSameBytes: a case depends on the seed, its index and the
// options only, not on what was generated before or by which generator.
func TestSameSeedSameBytes(t *testing.T) {
	a, b := newGen(t, "compat", 6, nil), newGen(t, "compat", 6, nil)
	for i := uint64(0); i < 30; i++ {
		first := caseJSON(t, a, i)
		if again := caseJSON(t, b, i); !bytes.Equal(first, again) {
			t.Fatalf("case %d differs between two generators with the same options", i)
		}
	}
	// Out of order, and again on the same generator.
	for _, i := range []uint64{17, 3, 17, 0} {
		if !bytes.Equal(caseJSON(t, a, i), caseJSON(t, b, i)) {
			t.Fatalf("case %d differs when generated out of order", i)
		}
	}
	if bytes.Equal(caseJSON(t, a, 1), caseJSON(t, a, 2)) {
		t.Fatal("cases 1 and 2 are identical")
	}
}

// TestReuseSameBytes: building each case in the memory of the one before
// (Options.Reuse, as cliff-gen does) changes no case, from small to deep
// ones, whose functions outgrow the room they start with.
func TestReuseSameBytes(t *testing.T) {
	p, err := profile.Load("compat")
	if err != nil {
		t.Fatal(err)
	}
	for _, depth := range []int{0, 5, 12} {
		opts := DefaultOptions(p, 42, depth)
		fresh, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		opts.Reuse = true
		reusing, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		for i := uint64(0); i < 40; i++ {
			if !bytes.Equal(caseJSON(t, fresh, i), caseJSON(t, reusing, i)) {
				t.Fatalf("depth %d: case %d differs when built in reused memory", depth, i)
			}
		}
	}
}

// TestEveryCaseVerifies generates cases for every profile at several
// depths and checks them with cliff's verifier and the lib/ub invariants
// that a verifier does not know.
func TestEveryCaseVerifies(t *testing.T) {
	corpus, err := LoadCorpus(testCorpus)
	if err != nil {
		t.Fatal(err)
	}
	for _, prof := range append([]string{"compat"}, profile.Arches...) {
		for _, depth := range []int{0, 3, 8} {
			t.Run(fmt.Sprintf("%s/depth%d", prof, depth), func(t *testing.T) {
				g := newGenWith(t, prof, depth, map[string]bool{"snippets": true}, corpus)
				n := 60
				if testing.Short() {
					n = 10
				}
				for i := uint64(0); i < uint64(n); i++ {
					c, mod, err := g.Case(i)
					if err != nil {
						t.Fatal(err)
					}
					if errs := verify.ModuleWith(mod, verify.Options{PointerType: g.opts.Profile.Pointer}); len(errs) > 0 {
						t.Fatalf("case %d: %v\n%s", i, errs, c.CLIF)
					}
					checkInvariants(t, mod, c.CLIF, g.opts.Profile)
					if len(c.Inputs) != DefaultInputs || len(c.Inputs[0]) != len(mod.Funcs[0].Sig.Params) {
						t.Fatalf("case %d: %d input vectors of %d values for %d params", i, len(c.Inputs), len(c.Inputs[0]), len(mod.Funcs[0].Sig.Params))
					}
				}
			})
		}
	}
}

// checkInvariants checks what keeps a case free of traps and
// target-dependent results: no trapping opcode outside the guarded ones,
// addresses only as addresses, memory in an explicit byte order prof
// allows, NaN-sensitive operands canonical, call graph acyclic.
func checkInvariants(t *testing.T, mod *ir.Module, text string, prof *profile.Profile) {
	t.Helper()
	index := map[string]int{}
	for i, f := range mod.Funcs {
		index[f.Name] = i
	}
	for fi, f := range mod.Funcs {
		for _, blk := range f.Layout {
			for _, inst := range f.Blocks[blk].Insts {
				d := &f.Insts[inst]
				info := d.Op.Info()
				if info.Flags.Has(ir.FlagCanTrap) && !guarded(d.Op) && !d.Op.IsCall() && d.Op != ir.OpCallIndirect {
					t.Fatalf("%s: trapping %s outside crash-only mode\n%s", f.Name, d.Op, text)
				}
				if info.Flags&(ir.FlagCanLoad|ir.FlagCanStore) != 0 && len(d.Args) > 0 && !d.Flags.NoTrap {
					t.Fatalf("%s: %s without notrap", f.Name, d.Op)
				}
				if info.Flags&(ir.FlagCanLoad|ir.FlagCanStore) != 0 && !slices.Contains(prof.ByteOrders, d.Flags.Endian) {
					t.Fatalf("%s: %s in byte order %v, not one of the profile's %v", f.Name, d.Op, d.Flags.Endian, prof.ByteOrders)
				}
				for k, a := range d.Args {
					addrUse := (info.Flags&(ir.FlagCanLoad|ir.FlagCanStore) != 0 && info.Ins[min(k, len(info.Ins)-1)].Name == "p") ||
						((d.Op == ir.OpCallIndirect || d.Op == ir.OpReturnCallIndirect) && k == 0)
					if ub.IsAddress(f, a) && !addrUse {
						t.Fatalf("%s: address %s used as operand %d of %s\n%s", f.Name, a, k, d.Op, text)
					}
					if !ub.IsScaffold(d) && ub.NaNSensitive(d.Op, k) && ub.HasFloatLanes(f.Values[a].Type) && !canonical(f, a) {
						t.Fatalf("%s: %s reaches NaN-sensitive operand %d of %s uncanonicalised\n%s", f.Name, a, k, d.Op, text)
					}
				}
				for _, fr := range f.FuncRefs {
					if callee, ok := index[fr.Name]; !ok || callee <= fi {
						t.Fatalf("%s: refers to %s: the call graph must go to later functions only", f.Name, fr.Name)
					}
				}
			}
		}
	}
}

// canonical reports whether v is the result of ub.CanonNaN (a scaffold
// select or bitselect).
func canonical(f *ir.Function, v ir.Value) bool {
	vd := &f.Values[v]
	if vd.Kind != ir.DefResult {
		return false
	}
	d := &f.Insts[vd.Inst]
	return ub.IsScaffold(d) && (d.Op == ir.OpSelect || d.Op == ir.OpBitselect)
}

// TestFeaturesSwitchOff: a feature switched off is absent, and switching
// an opcode family or a value type off leaves the control-flow skeleton of
// every case as it was (the structure draws from streams of its own).
func TestFeaturesSwitchOff(t *testing.T) {
	skeleton := func(g *Generator, i uint64) string {
		_, mod, err := g.Case(i)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, f := range mod.Funcs {
			for _, blk := range f.Layout {
				insts := f.Blocks[blk].Insts
				d := &f.Insts[insts[len(insts)-1]]
				fmt.Fprintf(&b, "%s/%d ", d.Op, len(d.Dests))
			}
			b.WriteString("| ")
		}
		return b.String()
	}
	count := func(g *Generator, i uint64, op ir.Opcode) int {
		_, mod, err := g.Case(i)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, f := range mod.Funcs {
			for _, d := range f.Insts {
				if d.Op == op {
					n++
				}
			}
		}
		return n
	}
	on := newGen(t, "compat", 6, nil)
	for _, off := range []string{"ops:float", "ops:bitwise", "floats", "vectors", "i128", "snippets", "atomics", "edge_constants"} {
		g := newGen(t, "compat", 6, map[string]bool{off: false})
		for i := uint64(0); i < 20; i++ {
			if a, b := skeleton(on, i), skeleton(g, i); a != b && on.caseFeatures(i)[off] {
				t.Fatalf("%s off changes the skeleton of case %d:\n on: %s\noff: %s", off, i, a, b)
			}
		}
	}
	// Depth 3 stays below the block budget, which would otherwise spend
	// the blocks a loop leaves unused on other structures.
	on = newGen(t, "compat", 3, nil)
	noSwitch := newGen(t, "compat", 3, map[string]bool{"switch": false})
	noLoops := newGen(t, "compat", 3, map[string]bool{"loops": false})
	for i := uint64(0); i < 20; i++ {
		if n := count(noSwitch, i, ir.OpBrTable); n != 0 {
			t.Fatalf("case %d has %d br_table with switches off", i, n)
		}
		if n := count(noLoops, i, ir.OpBrTable); n != count(on, i, ir.OpBrTable) && on.caseFeatures(i)["loops"] {
			t.Fatalf("case %d: switching loops off changes the number of switches", i)
		}
	}
}

// TestTypeFeaturesOffLeaveTheTypeOut: a value type switched off appears
// in no value of any case, also through an opcode whose operand or result
// type is fixed (swizzle, shuffle: i8x16) or follows its controlling type.
// vectors=off used to leave splats and shuffles in two thirds of cases.
func TestTypeFeaturesOffLeaveTheTypeOut(t *testing.T) {
	for _, tc := range []struct {
		feature string
		has     func(ir.Type) bool
	}{
		{"vectors", ir.Type.IsVector},
		{"i128", func(t ir.Type) bool { return t.LaneType() == ir.I128 }},
		{"f16", func(t ir.Type) bool { return t.LaneType() == ir.F16 }},
		{"f128", func(t ir.Type) bool { return t.LaneType() == ir.F128 }},
		{"floats", func(t ir.Type) bool { return t.LaneType() == ir.F32 || t.LaneType() == ir.F64 }},
	} {
		t.Run(tc.feature, func(t *testing.T) {
			g := newGen(t, "compat", 5, map[string]bool{tc.feature: false})
			for i := uint64(0); i < 60; i++ {
				_, mod, err := g.Case(i)
				if err != nil {
					t.Fatal(err)
				}
				for _, f := range mod.Funcs {
					for v, vd := range f.Values {
						if vd.Kind != ir.DefAlias && tc.has(vd.Type) {
							t.Fatalf("case %d: %s v%d is a %s with %s off", i, f.Name, v, vd.Type, tc.feature)
						}
					}
				}
			}
		})
	}
}

// caseFeatures is the swarm choice of case i.
func (g *Generator) caseFeatures(i uint64) map[string]bool {
	return drawSwarm(CaseSeed(g.opts.Seed, i), g.opts.Features, g.weights, g.opts.Parents != nil).on
}

// FuzzGeneratedCasesVerify: whatever the seed and options, a generated
// case passes cliff's verifier and the invariants.
func FuzzGeneratedCasesVerify(f *testing.F) {
	f.Add(uint64(1), uint64(0), uint8(3), uint8(4), uint8(50), uint8(0))
	f.Add(uint64(99), uint64(7), uint8(9), uint8(1), uint8(100), uint8(1))
	profiles := append([]string{"compat"}, profile.Arches...)
	corpus, err := LoadCorpus(testCorpus)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, seed, index uint64, depth, funcs, mutation, prof uint8) {
		p, err := profile.Load(profiles[int(prof)%len(profiles)])
		if err != nil {
			t.Fatal(err)
		}
		g, err := New(Options{Seed: seed, Profile: p, Depth: int(depth % 8), Funcs: 1 + int(funcs%6),
			Mutation: float64(mutation%101) / 100, Inputs: 2, Corpus: corpus})
		if err != nil {
			t.Fatal(err)
		}
		c, mod, err := g.Case(index)
		if err != nil {
			t.Fatal(err)
		}
		if errs := verify.ModuleWith(mod, verify.Options{PointerType: p.Pointer}); len(errs) > 0 {
			t.Fatalf("%v\n%s", errs, c.CLIF)
		}
		checkInvariants(t, mod, c.CLIF, p)
	})
}
