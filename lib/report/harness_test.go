package report

import (
	"strings"
	"testing"

	"cliff/lib/cluster"
	"cliff/lib/record"
)

// TestHarnessErrors: cases lost to QEMU's own aborts (issue 27: 2 of 49
// failing cases) are in no cluster, yet the index says what they are:
// the emulator, its version, how many cases, one example.
func TestHarnessErrors(t *testing.T) {
	c := cluster.NewClusterer()
	abort := "qemu-riscv64-static: ../../accel/tcg/translate-all.c:370: page_get_flags: assertion failed: (addr & ~TARGET_PAGE_MASK) == 0"
	for _, id := range []string{"g1-7", "g1-9"} {
		rv := record.Config{Arch: "riscv64", OptLevel: "none", Executor: record.ExecQemu}
		x86 := record.Config{Arch: "x86_64", OptLevel: "none", Executor: record.ExecNative}
		cs := &record.Case{ID: id, CLIF: "function %f() {\nblock0:\n    return\n}\n", Results: []record.RunResult{
			{Config: x86, Status: record.StatusOK, Hash: "a", Versions: &record.Versions{Cranelift: "0.137.1"}},
			{Config: rv, Status: record.StatusHarnessError, Message: abort, Versions: &record.Versions{Cranelift: "0.137.1", QEMU: "10.0.2"}},
		}}
		v := &record.Verdict{CaseID: id, Verdict: record.OutcomeHarnessError, Case: cs, Sides: []record.Side{
			{Configs: []record.Config{x86}, Status: record.StatusOK, Hash: "a"},
			{Configs: []record.Config{rv}, Status: record.StatusHarnessError},
		}}
		if err := c.Add(v); err != nil {
			t.Fatal(err)
		}
	}
	if len(c.Groups()) != 0 {
		t.Errorf("harness errors were clustered: %d clusters", len(c.Groups()))
	}
	index := Index(c.Stats, nil)
	for _, want := range []string{"## Harness errors", "| qemu-riscv64 | 10.0.2 | 2 | g1-7 on riscv64/none/qemu: `" + abort + "` |"} {
		if !strings.Contains(index, want) {
			t.Errorf("the index lacks %q:\n%s", want, index)
		}
	}
	if strings.Contains(Index(cluster.NewClusterer().Stats, nil), "Harness errors") {
		t.Error("a campaign without harness errors has the section")
	}
}
