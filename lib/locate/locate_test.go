package locate_test

import (
	"context"
	"testing"

	"cliff/lib/ir"
	"cliff/lib/locate"
	"cliff/lib/record"
	"cliff/lib/reduce"
	"cliff/lib/reduce/reducetest"
)

func configs() []record.Config {
	return []record.Config{
		{Arch: "x86_64", OptLevel: "speed", Executor: record.ExecNative},
		{Arch: "aarch64", OptLevel: "speed", Executor: record.ExecQemu},
	}
}

func TestLocateGenerated(t *testing.T) {
	for _, tc := range []struct {
		name    string
		culprit reducetest.Culprit
		shape   func(reducetest.Culprit) reducetest.Shape
		seed    uint64
		// exact: the culprit itself is found in the generated case. A
		// culprit whose result feeds a loop's scaffold (a guard computed
		// from a loop-carried value) cannot be substituted without
		// breaking lib/ub's rules: localisation then names the first
		// substitutable instruction downstream of it.
		exact bool
	}{
		{"crash", reducetest.Culprit{Op: ir.OpScalarToVector, Type: ir.I8X16},
			func(c reducetest.Culprit) reducetest.Shape { return reducetest.Crash(c, "") }, 1, true},
		{"miscompile", reducetest.Culprit{Op: ir.OpImul, Type: ir.I32}, reducetest.Miscompile, 2, true},
		{"trap-kind", reducetest.Culprit{Op: ir.OpSrem, Type: ir.I16}, reducetest.TrapKind, 3, false},
		{"miscompile in a loop", reducetest.Culprit{Op: ir.OpSrem, Type: ir.I16}, reducetest.Miscompile, 3, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			shape := tc.shape(tc.culprit)
			cand, err := reducetest.Generated(tc.seed, 5, 200, configs(), shape)
			if err != nil {
				t.Fatal(err)
			}
			oracle := &reducetest.Checked{Shape: shape}
			tester := reduce.NewTester(oracle, shape(cand))
			res, err := locate.Locate(context.Background(), tester, cand)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d instructions, located %+v, oracle %+v", tc.name, cand.Insts(), *res, tester.Stats)
			for _, p := range oracle.Problems {
				t.Errorf("candidate sent to the oracle: %s", p)
			}
			if f := reducetest.FuncWith(cand.Module, tc.culprit); res.Function != f.Name {
				t.Errorf("located function %s, want %s", res.Function, f.Name)
			}
			if res.Level != locate.LevelInstruction {
				t.Errorf("level %q, want %q", res.Level, locate.LevelInstruction)
			}
			if tc.exact && (res.Opcode != tc.culprit.Op.String() || res.Type != tc.culprit.Type.String()) {
				t.Errorf("located %s %s (%s), want %s", res.Opcode, res.Type, res.Text, tc.culprit)
			}
			if err := res.Record("case").Validate(); err != nil {
				t.Errorf("location record: %v", err)
			}

			// On the reduced case, every shape is located to its
			// instruction.
			red, err := reduce.Reduce(context.Background(), tester, cand, reduce.Options{})
			if err != nil {
				t.Fatal(err)
			}
			res, err = locate.Locate(context.Background(), tester, red.Case)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("reduced: located %+v", *res)
			if res.Level != locate.LevelInstruction || res.Opcode != tc.culprit.Op.String() || res.Type != tc.culprit.Type.String() {
				t.Errorf("in the reduced case, located %s %s %s (%s), want the instruction %s", res.Level, res.Opcode, res.Type, res.Text, tc.culprit)
			}
			for _, p := range oracle.Problems {
				t.Errorf("candidate sent to the oracle: %s", p)
			}
		})
	}
}

// TestLocateCrashInLaterCallee: a compiler crash in the second callee.
// Barriers do not isolate it (every function is compiled, wherever
// execution stops); stubs do.
func TestLocateCrashInLaterCallee(t *testing.T) {
	c := &record.Case{ID: "calls", CLIF: `function %main(i8) -> i8 {
    fn0 = %f1(i8) -> i8
    fn1 = %f2(i8) -> i8

block0(v0: i8):
    v1 = call fn0(v0)
    v2 = call fn1(v1)
    return v2
}

function %f1(i8) -> i8 {
block0(v0: i8):
    v1 = iadd v0, v0
    return v1
}

function %f2(i8) -> i8 {
block0(v0: i8):
    v1 = scalar_to_vector.i8x16 v0
    v2 = extractlane v1, 0
    return v2
}
`, Inputs: []record.InputVector{{{Type: "i8", Value: "1"}}}}
	cand, err := reduce.NewCandidate(c, configs())
	if err != nil {
		t.Fatal(err)
	}
	shape := reducetest.Crash(reducetest.Culprit{Op: ir.OpScalarToVector, Type: ir.I8X16}, "")
	res, err := locate.Locate(context.Background(), reduce.NewTester(&reducetest.Checked{Shape: shape}, shape(cand)), cand)
	if err != nil {
		t.Fatal(err)
	}
	if res.Function != "%f2" || res.Level != locate.LevelInstruction || res.Text != "v1 = scalar_to_vector.i8x16 v0" {
		t.Errorf("located %+v, want the scalar_to_vector of %%f2", *res)
	}
}
