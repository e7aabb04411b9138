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
	}{
		{"crash", reducetest.Culprit{Op: ir.OpScalarToVector, Type: ir.I8X16},
			func(c reducetest.Culprit) reducetest.Shape { return reducetest.Crash(c, "") }, 1},
		{"miscompile", reducetest.Culprit{Op: ir.OpImul, Type: ir.I32}, reducetest.Miscompile, 2},
		{"trap-kind", reducetest.Culprit{Op: ir.OpSrem, Type: ir.I16}, reducetest.TrapKind, 3},
		{"miscompile in a loop", reducetest.Culprit{Op: ir.OpSrem, Type: ir.I16}, reducetest.Miscompile, 3},
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
			if res.Level != locate.LevelInstruction {
				t.Fatalf("level %q, want %q", res.Level, locate.LevelInstruction)
			}
			if res.Opcode != tc.culprit.Op.String() || res.Type != tc.culprit.Type.String() {
				t.Errorf("located %s %s (%s), want %s", res.Opcode, res.Type, res.Text, tc.culprit)
			}
			f := cand.Module.Func(res.Function)
			if f == nil {
				t.Fatalf("located function %s is not in the case", res.Function)
			}
			rec := res.Record("case")
			if err := rec.Validate(); err != nil {
				t.Errorf("location record: %v", err)
			}
		})
	}
}
