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
	got, err := reproFile(v, &reduce.Candidate{Module: mod, CLIF: clif, Entry: "%main"}, "compile_crash riscv64/*: panic", nil, nil)
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

// TestReproFileKeepsFailingSet: a configuration that passed on the
// original case and fails on the reduced one (issue 27: x86_64 on an i128
// param once the setting it needs was gone) is neither a failing nor a
// passing target of the file, and the file says so.
func TestReproFileKeepsFailingSet(t *testing.T) {
	const clif = "function %main(i128) -> i64 {\nblock0(v0: i128):\n    v1 = ireduce.i64 v0\n    return v1\n}\n"
	mod, err := parser.ParseModuleString("t", clif)
	if err != nil {
		t.Fatal(err)
	}
	x86 := record.Config{Arch: "x86_64", OptLevel: "none", Executor: record.ExecNative}
	riscv := record.Config{Arch: "riscv64", OptLevel: "none", Executor: record.ExecQemu}
	v := &record.Verdict{Verdict: record.OutcomeCompileCrash, Sides: []record.Side{
		{Configs: []record.Config{riscv}, Status: record.StatusCompileCrash},
		{Configs: []record.Config{x86}, Status: record.StatusCompileCrash},
	}}
	got, err := reproFile(v, &reduce.Candidate{Module: mod, CLIF: clif, Entry: "%main"}, "compile_crash riscv64/*: panic", nil, []record.Config{x86})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "; fails:  riscv64/none/qemu") || !strings.Contains(got, "left out: x86_64/none/native passed on the original case") {
		t.Errorf("the repro does not say riscv64 fails and x86_64 was left out:\n%s", got)
	}
	if strings.Contains(got, "target x86_64") || strings.Contains(got, "fails:  x86_64") || strings.Contains(got, "x86_64/none/native,") {
		t.Errorf("x86_64, which passed on the original, is a target of the reduced file:\n%s", got)
	}
}

// TestFinalPassing: the final passing configurations run with the settings reduction
// kept on the failing configuration, the same on every candidate the
// tester checks (Tester.Passing) and on the last run, and share no slice
// with the stake.
func TestFinalPassing(t *testing.T) {
	x86 := record.Config{Arch: "x86_64", OptLevel: "none", Executor: record.ExecNative, Flags: []string{"has_sse41"}, Settings: []string{"regalloc_algorithm=single_pass"}}
	riscv := record.Config{Arch: "riscv64", OptLevel: "none", Executor: record.ExecQemu, Settings: []string{"enable_llvm_abi_extensions=true"}}
	st := stake{failing: riscv, finalPassing: []record.Config{x86}}
	c := &reduce.Candidate{Configs: []record.Config{riscv}}
	refs := finalPassing(st, c)
	if len(refs) != 1 || refs[0].String() != "x86_64/none/native:has_sse41+enable_llvm_abi_extensions=true" {
		t.Fatalf("final passing configurations %v", refs)
	}
	refs[0].Flags[0], refs[0].Settings[0] = "x", "y"
	if st.finalPassing[0].Flags[0] != "has_sse41" || c.Configs[0].Settings[0] != "enable_llvm_abi_extensions=true" {
		t.Error("finalPassing shares slices with the stake or the candidate")
	}
	if refs := finalPassing(stake{failing: riscv}, c); len(refs) != 0 {
		t.Errorf("a stake without final passing configurations gave %v", refs)
	}
}
