package engine

import (
	"context"
	"testing"

	"cliff/lib/judge"
	"cliff/lib/record"
)

// TestStackOverflow: an endless recursion exhausts the native stack
// (SIGSEGV in the guard area below it), which the harness tells from
// other faults: x86_64 and riscv64 (under QEMU) say stack_overflow, as the reference and
// Cranelift's interpreter do, and the verdict is stack_overflow, not a
// crash of one side against the others (issue 27).
func TestStackOverflow(t *testing.T) {
	e := newTestEngine(t)
	defer e.Close()
	configs, err := Configs(ConfigSpec{Arches: []string{"x86_64", "riscv64", "interp", "ref"}, Opts: []string{"none"}})
	if err != nil {
		t.Fatal(err)
	}
	c := &record.Case{ID: "recursion", CLIF: "function %f(i64) -> i64 {\n    fn0 = %f(i64) -> i64\n\nblock0(v0: i64):\n    v1 = iconst.i64 1\n    v2 = iadd v0, v1\n    v3 = call fn0(v2)\n    return v3\n}\n",
		Inputs: []record.InputVector{{{Type: "i64", Value: "0"}}}}
	c.Stamp()
	if err := e.Run(context.Background(), []*record.Case{c}, configs); err != nil {
		t.Fatal(err)
	}
	for _, r := range c.Results {
		if r.Status != record.StatusStackOverflow {
			t.Errorf("%s: %s (%s %s), want stack_overflow", r.Config, r.Status, r.Signal, r.Message)
		}
	}
	if v := judge.Case(c); v.Verdict != record.OutcomeStackOverflow {
		t.Errorf("verdict %s, want stack_overflow", v.Verdict)
	}
}

// TestStackOverflowAnswered: a compiled configuration's stack overflow
// where another configuration answered is a crash, as before the harness
// told overflows apart: Cranelift's code needed a stack the others did
// not.
func TestStackOverflowAnswered(t *testing.T) {
	ok := record.RunResult{Config: record.Config{Arch: "ref", OptLevel: "none", Executor: record.ExecRef}, Status: record.StatusOK, Hash: "a", Outputs: []string{"i64 1"}}
	over := record.RunResult{Config: record.Config{Arch: "x86_64", OptLevel: "none", Executor: record.ExecNative}, Status: record.StatusStackOverflow, Signal: "SIGSEGV", Message: "stack overflow: SIGSEGV at f+0x4"}
	c := &record.Case{ID: "deep", CLIF: "function %f() {\nblock0:\n    return\n}\n", Results: []record.RunResult{ok, over}}
	v := judge.Case(c)
	if v.Verdict != record.OutcomeCrash {
		t.Fatalf("verdict %s, want crash", v.Verdict)
	}
	if c.Results[1].Status != record.StatusStackOverflow {
		t.Errorf("judging changed the case's own results: %s", c.Results[1].Status)
	}
	c.Results = []record.RunResult{over}
	if v := judge.Case(c); v.Verdict != record.OutcomeStackOverflow {
		t.Errorf("alone: verdict %s, want stack_overflow", v.Verdict)
	}
}
