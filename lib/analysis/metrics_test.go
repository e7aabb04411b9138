package analysis

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"testing"

	"cliff/lib/ir"
)

// names sorts opcode names the way Metrics lists them.
func names(ops ...ir.Opcode) []string {
	var out []string
	for _, op := range ops {
		if !slices.Contains(out, op.String()) {
			out = append(out, op.String())
		}
	}
	sort.Strings(out)
	return out
}

func TestCompute(t *testing.T) {
	// Opcodes graph() uses: iconst+brif for two successors, iconst+br_table
	// for more, jump, return.
	for _, tc := range []struct {
		name string
		f    *ir.Function
		want Metrics
	}{{
		name: "empty",
		f:    &ir.Function{},
		want: Metrics{OpcodeSet: []string{}},
	}, {
		name: "single return",
		f:    graph([][]int{{}}),
		want: Metrics{Blocks: 1, Insts: 1, Cyclomatic: 0, Opcodes: 1, OpcodeSet: names(ir.OpReturn)},
	}, {
		name: "chain",
		f:    graph([][]int{{1}, {2}, {3}, {}}),
		want: Metrics{Blocks: 4, Insts: 4, Edges: 3, Cyclomatic: 0, DomDepth: 3,
			Opcodes: 2, OpcodeSet: names(ir.OpJump, ir.OpReturn)},
	}, {
		// iconst -> brif is the only def-use edge.
		name: "diamond",
		f:    graph([][]int{{1, 2}, {3}, {3}, {}}),
		want: Metrics{Blocks: 4, Insts: 5, Edges: 4, Cyclomatic: 1, DomDepth: 1, DefUseDepth: 1,
			Opcodes: 4, OpcodeSet: names(ir.OpIconst, ir.OpBrif, ir.OpJump, ir.OpReturn)},
	}, {
		name: "branches to separate exits",
		f:    graph([][]int{{1, 2}, {}, {}}),
		want: Metrics{Blocks: 3, Insts: 4, Edges: 2, Cyclomatic: 0, DomDepth: 1, DefUseDepth: 1,
			Opcodes: 3, OpcodeSet: names(ir.OpIconst, ir.OpBrif, ir.OpReturn)},
	}, {
		name: "nested loops",
		f:    graph([][]int{{1}, {2, 5}, {3, 4}, {2}, {1}, {}}),
		want: Metrics{Blocks: 6, Insts: 8, Edges: 7, Cyclomatic: 2, DomDepth: 3, DefUseDepth: 1,
			Opcodes: 4, OpcodeSet: names(ir.OpIconst, ir.OpBrif, ir.OpJump, ir.OpReturn)},
	}, {
		name: "irreducible",
		f:    graph([][]int{{1, 2}, {2, 3}, {1}, {}}),
		want: Metrics{Blocks: 4, Insts: 6, Edges: 5, Cyclomatic: 2, DomDepth: 2, DefUseDepth: 1,
			Opcodes: 4, OpcodeSet: names(ir.OpIconst, ir.OpBrif, ir.OpJump, ir.OpReturn)},
	}, {
		// block2 and block3 are unreachable and count for nothing,
		// including block3's brif.
		name: "unreachable blocks",
		f:    graph([][]int{{1}, {}, {1}, {2, 1}}),
		want: Metrics{Blocks: 2, Insts: 2, Edges: 1, Cyclomatic: 0, DomDepth: 1,
			Opcodes: 2, OpcodeSet: names(ir.OpJump, ir.OpReturn)},
	}, {
		name: "self loop",
		f:    graph([][]int{{1}, {1, 2}, {}}),
		want: Metrics{Blocks: 3, Insts: 4, Edges: 3, Cyclomatic: 1, DomDepth: 2, DefUseDepth: 1,
			Opcodes: 4, OpcodeSet: names(ir.OpIconst, ir.OpBrif, ir.OpJump, ir.OpReturn)},
	}, {
		// br_table with targets [1 2 1 3 2] joining at block4: three
		// distinct edges out of block0, so two more paths than a chain.
		name: "br_table with repeated targets",
		f:    graph([][]int{{1, 2, 1, 3, 2}, {4}, {4}, {4}, {}}),
		want: Metrics{Blocks: 5, Insts: 6, Edges: 6, Cyclomatic: 2, DomDepth: 1, DefUseDepth: 1,
			Opcodes: 4, OpcodeSet: names(ir.OpIconst, ir.OpBrTable, ir.OpJump, ir.OpReturn)},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got := Compute(tc.f)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Compute =\n\t%+v\nwant\n\t%+v", got, tc.want)
			}
		})
	}
}

// TestComputeRandom checks the identities that tie the metrics to the
// analyses on random functions.
func TestComputeRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for iter := range 300 {
		succs := randomSuccs(r, 1+r.IntN(12))
		dom, _ := naiveDom(succs)
		rpo, _ := naiveRPO(succs)
		f := randomSSA(r, succs, naiveIdom(dom), rpo)
		m := Compute(f)
		c := NewCFG(f)
		if m.Blocks != len(c.RPO()) || m.Edges != c.ReachableEdges() || m.Cyclomatic != m.Edges-m.Blocks+1 {
			t.Fatalf("function %d: %+v does not match the CFG", iter, m)
		}
		if m.Cyclomatic < 0 {
			t.Fatalf("function %d: cyclomatic complexity %d < 0", iter, m.Cyclomatic)
		}
		if m.DomDepth != NewDomTree(c).MaxDepth() || m.DefUseDepth != NewDefUse(f).ChainDepth() {
			t.Fatalf("function %d: %+v does not match the dominator tree or def-use chains", iter, m)
		}
		if m.Opcodes != len(m.OpcodeSet) || !sort.StringsAreSorted(m.OpcodeSet) {
			t.Fatalf("function %d: opcodes %d %v", iter, m.Opcodes, m.OpcodeSet)
		}
	}
}

func TestComputeModule(t *testing.T) {
	diamond := graph([][]int{{1, 2}, {3}, {3}, {}})
	loops := graph([][]int{{1}, {2, 5}, {3, 4}, {2}, {1}, {}})
	b := newFB(1)
	v := b.iconst(0)
	b.ret(0, b.iadd(0, b.iadd(0, v, v), v))
	chain := b.f

	got := ComputeModule(&ir.Module{Funcs: []*ir.Function{diamond, loops, chain, {}}})
	want := Metrics{
		Blocks:      4 + 6 + 1,
		Insts:       5 + 8 + 4,
		Edges:       4 + 7 + 0,
		Cyclomatic:  1 + 2 + 0 + 0, // = E - N + P with P = 3 non-empty functions
		DomDepth:    3,
		DefUseDepth: 3,
		Opcodes:     5,
		OpcodeSet:   names(ir.OpIconst, ir.OpBrif, ir.OpJump, ir.OpReturn, ir.OpIadd),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ComputeModule =\n\t%+v\nwant\n\t%+v", got, want)
	}
	if got.Cyclomatic != got.Edges-got.Blocks+3 {
		t.Errorf("module cyclomatic %d is not E - N + P", got.Cyclomatic)
	}
}

func TestOpcodeDiversity(t *testing.T) {
	seen := map[ir.Opcode]bool{ir.OpIadd: true, ir.OpIconst: true, ir.OpReturn: true, ir.OpJump: false}
	for _, tc := range []struct {
		name    string
		profile []ir.Opcode
		want    float64
	}{
		{"empty profile", nil, 0},
		{"all covered", []ir.Opcode{ir.OpIadd, ir.OpReturn}, 1},
		{"half", []ir.Opcode{ir.OpIadd, ir.OpBrif}, 0.5},
		{"false entries are not seen", []ir.Opcode{ir.OpJump, ir.OpIconst}, 0.5},
		{"repeats count once", []ir.Opcode{ir.OpIadd, ir.OpIadd, ir.OpIadd, ir.OpBrif}, 0.5},
		{"none", []ir.Opcode{ir.OpBrif, ir.OpIcmp, ir.OpJump}, 0},
	} {
		if got := OpcodeDiversity(seen, tc.profile); got != tc.want {
			t.Errorf("%s: OpcodeDiversity = %v, want %v", tc.name, got, tc.want)
		}
	}

	seen = map[ir.Opcode]bool{}
	AddOpcodes(seen, graph([][]int{{1, 2}, {}, {}, {1}}))
	if want := map[ir.Opcode]bool{ir.OpIconst: true, ir.OpBrif: true, ir.OpReturn: true}; !reflect.DeepEqual(seen, want) {
		t.Errorf("AddOpcodes = %v, want %v (block3's jump is unreachable)", seen, want)
	}
}
