package metrics

import (
	"maps"
	"testing"

	"cliff/lib/analysis"
	"cliff/lib/ir"
	"cliff/lib/parser"
	"cliff/lib/record"
)

func TestOf(t *testing.T) {
	tests := []struct {
		name string
		clif string
		want record.Metrics
	}{
		{
			name: "straight line",
			clif: `function %f(i64) -> i64 {
block0(v0: i64):
    v1 = iconst.i64 1
    v2 = iadd v0, v1
    return v2
}
`,
			want: record.Metrics{Functions: 1, Blocks: 1, Insts: 3, Cyclomatic: 0, DomDepth: 0, DefUseDepth: 2,
				Opcodes: map[string]int{"iconst": 1, "iadd": 1, "return": 1}},
		},
		{
			// A diamond (M = 1, dominator depth 1, def-use depth 1) in %f
			// and a loop (M = 1, dominator depth 2, def-use depth 2:
			// iconst -> isub -> jump) in %g: cyclomatic sums, depths take
			// the maximum, opcodes add up across functions.
			name: "two functions",
			clif: `function %f(i64) -> i64 {
block0(v0: i64):
    brif v0, block1, block2
block1:
    v1 = iadd v0, v0
    jump block3(v1)
block2:
    jump block3(v0)
block3(v2: i64):
    return v2
}

function %g(i64) -> i64 {
block0(v0: i64):
    jump block1(v0)
block1(v1: i64):
    brif v1, block2, block3
block2:
    v2 = iconst.i64 1
    v3 = isub v1, v2
    jump block1(v3)
block3:
    return v1
}
`,
			want: record.Metrics{Functions: 2, Blocks: 8, Insts: 11, Cyclomatic: 2, DomDepth: 2, DefUseDepth: 2,
				Opcodes: map[string]int{"brif": 2, "iadd": 1, "jump": 4, "return": 2, "iconst": 1, "isub": 1}},
		},
		{
			// Cranelift never lowers block2: its imul is not counted.
			name: "unreachable block",
			clif: `function %f(i64) -> i64 {
block0(v0: i64):
    v1 = iadd v0, v0
    return v1
block2:
    v2 = imul v0, v0
    return v2
}
`,
			want: record.Metrics{Functions: 1, Blocks: 1, Insts: 2, DefUseDepth: 1,
				Opcodes: map[string]int{"iadd": 1, "return": 1}},
		},
		{
			name: "empty module",
			clif: "",
			want: record.Metrics{Opcodes: map[string]int{}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mod, err := parser.ParseModule(tt.name, []byte(tt.clif))
			if err != nil {
				t.Fatal(err)
			}
			got := Of(mod)
			if !equalMetrics(got, tt.want) {
				t.Errorf("Of:\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// equalMetrics compares the figures Of computes; Survival must be nil.
func equalMetrics(a, b record.Metrics) bool {
	return a.Functions == b.Functions && a.Blocks == b.Blocks && a.Insts == b.Insts &&
		a.Cyclomatic == b.Cyclomatic && a.DomDepth == b.DomDepth && a.DefUseDepth == b.DefUseDepth &&
		maps.Equal(a.Opcodes, b.Opcodes) && a.Opcodes != nil && a.Survival == nil && b.Survival == nil
}

// TestOfCountsEachPlacedInstructionOnce lists an instruction in a second
// block, as a buggy pass could: analysis counts it at its first place
// only, and so must the opcode counts.
func TestOfCountsEachPlacedInstructionOnce(t *testing.T) {
	mod, err := parser.ParseModule("dup", []byte(`function %f(i64) -> i64 {
block0(v0: i64):
    v1 = popcnt v0
    jump block1
block1:
    return v1
}
`))
	if err != nil {
		t.Fatal(err)
	}
	f := mod.Funcs[0]
	f.Blocks[1].Insts = append([]ir.Inst{f.Blocks[0].Insts[0]}, f.Blocks[1].Insts...)
	got := Of(mod)
	if got.Insts != 3 || got.Opcodes["popcnt"] != 1 {
		t.Errorf("Of = %+v, want 3 insts with one popcnt", got)
	}
}

// TestOfOpcodesSumToInsts: the opcode counts cover exactly the
// instructions Insts counts, on modules of generated shape.
func TestOfOpcodesSumToInsts(t *testing.T) {
	for i, m := range benchModules() {
		got := Of(m)
		sum := 0
		for _, n := range got.Opcodes {
			sum += n
		}
		if sum != got.Insts || got.Insts != analysis.ComputeModule(m).Insts {
			t.Errorf("module %d: opcode counts sum to %d, Insts = %d", i, sum, got.Insts)
		}
	}
}
