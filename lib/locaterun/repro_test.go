package locaterun

import (
	"strings"
	"testing"

	"cliff/lib/parser"
	"cliff/lib/record"
	"cliff/lib/reduce"
)

// TestReproFileNotRun: a configuration that gave no answer (unsupported,
// a harness error) is neither passing nor failing in the repro: listed as
// passing it became a target line that fails for its own reason (an
// i64x2 on riscv64 without has_v).
func TestReproFileNotRun(t *testing.T) {
	const clif = "function %main(i64) -> i64 {\nblock0(v0: i64):\n    return v0\n}\n"
	mod, err := parser.ParseModuleString("t", clif)
	if err != nil {
		t.Fatal(err)
	}
	cfg := func(arch, exec string, flags ...string) record.Config {
		return record.Config{Arch: arch, OptLevel: "none", Flags: flags, Executor: exec}
	}
	v := &record.Verdict{Verdict: record.OutcomeCompileCrash, Sides: []record.Side{
		{Configs: []record.Config{cfg("x86_64", record.ExecNative)}, Status: record.StatusOK, Hash: "a"},
		{Configs: []record.Config{cfg("riscv64", record.ExecQemu, "has_v")}, Status: record.StatusCompileCrash},
		{Configs: []record.Config{cfg("riscv64", record.ExecQemu)}, Status: record.StatusUnsupported},
	}}
	got, err := reproFile(v, &reduce.Candidate{Module: mod, CLIF: clif, Entry: "%main"}, "compile_crash riscv64/*: panic", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"; fails:  riscv64/none/qemu:has_v", "; passes: x86_64/none/native", "; not run (unsupported): riscv64/none/qemu\n", "target riscv64 has_v\n", "target x86_64\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("the repro lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "target riscv64\n") || strings.Contains(got, "passes: riscv64") {
		t.Errorf("the unsupported configuration became a target or a pass:\n%s", got)
	}
}
