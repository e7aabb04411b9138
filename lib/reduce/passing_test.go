package reduce_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"cliff/lib/ir"
	"cliff/lib/record"
	"cliff/lib/reduce"
	"cliff/lib/reduce/reducetest"
)

// issue27 is the shape of issue 27's riscv64 repro: riscv64 crashes in
// compilation on a bxor.i64 in a function with an i128 param, whatever
// the settings; x86_64 compiled the case only with
// enable_llvm_abi_extensions. The signature is of the configurations the
// candidate runs on.
func issue27(c *reduce.Candidate) string {
	var sigs []string
	for _, cfg := range c.Configs {
		switch cfg.Arch {
		case "x86_64":
			if s := reducetest.Crash(reducetest.Culprit{Op: ir.OpIconst, Type: ir.I8}, "never")(c); s != "" {
				sigs = append(sigs, s) // the ABI error: the i128 param without the setting
			}
		case "riscv64":
			f := reducetest.FuncWith(c.Module, reducetest.Culprit{Op: ir.OpBxor, Type: ir.I64})
			if f != nil && slices.ContainsFunc(f.Sig.Params, func(p ir.AbiParam) bool { return p.Type == ir.I128 }) {
				sigs = append(sigs, "compile_crash riscv64: bxor.i64")
			}
		}
	}
	return strings.Join(sigs, "; ")
}

const issue27CLIF = `function %f(i128, i64, i64) -> i64 {
block0(v0: i128, v1: i64, v2: i64):
    v3 = iadd v1, v2
    v4 = bxor v3, v1
    v5 = imul v4, v2
    return v5
}
`

// TestReducePassing: a compile failure reduced on its failing
// configuration alone drops the setting the passing one needs, and the
// reduced file would fail there for another reason; with Passing, the
// setting stays and the passing configuration still passes.
func TestReducePassing(t *testing.T) {
	riscv := record.Config{Arch: "riscv64", OptLevel: "none", Executor: record.ExecQemu}
	x86 := record.Config{Arch: "x86_64", OptLevel: "none", Executor: record.ExecNative}
	abi := "enable_llvm_abi_extensions=true"
	for _, guard := range []bool{false, true} {
		c := &record.Case{ID: "issue27", CLIF: issue27CLIF, Settings: []string{abi}}
		cand, err := reduce.NewCandidate(c, []record.Config{riscv})
		if err != nil {
			t.Fatal(err)
		}
		want := issue27(cand)
		if want != "compile_crash riscv64: bxor.i64" {
			t.Fatalf("the case shows %q", want)
		}
		oracle := &reducetest.Checked{Shape: issue27}
		tester := reduce.NewTester(oracle, want)
		if guard {
			tester.Passing = func(*reduce.Candidate) []record.Config { return []record.Config{x86} }
		}
		res, err := reduce.Reduce(context.Background(), tester, cand, reduce.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range oracle.Problems {
			t.Errorf("candidate sent to the oracle: %s", p)
		}
		r := res.Case
		onX86 := issue27(&reduce.Candidate{Module: r.Module, Settings: r.Settings, Configs: []record.Config{x86}})
		t.Logf("passing checked %v: %d -> %d instructions, settings %v, x86_64 shows %q, stats %+v\n%s",
			guard, res.Before, res.After, r.Settings, onX86, tester.Stats, r.CLIF)
		if got := issue27(r); got != want {
			t.Errorf("reduced case shows %q, want %q", got, want)
		}
		kept := slices.Contains(r.Settings, abi)
		i128 := strings.Contains(r.CLIF, "i128")
		switch {
		case guard && i128 && !kept:
			t.Errorf("the reduced case has an i128 param but lost %s", abi)
		case guard && onX86 != "":
			t.Errorf("x86_64 passed on the original case and fails on the reduced one: %q", onX86)
		case !guard && (!i128 || kept || onX86 == ""):
			// The bug the check is for: without it the setting goes, the
			// i128 param stays, and x86_64 fails for another reason.
			t.Errorf("without Passing: setting kept %v, i128 param kept %v, x86_64 shows %q: the test no longer shows the bug", kept, i128, onX86)
		}
	}
}
