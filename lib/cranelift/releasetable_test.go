package cranelift_test

import (
	"context"
	"strings"
	"testing"

	"cliff/lib/cranelift"
	"cliff/lib/driver/drivertest"
	"cliff/lib/ir"
)

// TestReleaseTableCurrent asks the driver the tests run (the default
// release, or $CLIFF_CRANELIFT's) what it knows and compares it with
// lib/ir's release table: a release the table lacks, or a column that
// disagrees with the release itself, fails. Remake the table with
// cliff-cranelift features --write lib/ir/releases.txt.
func TestReleaseTableCurrent(t *testing.T) {
	drv := drivertest.Require(t)
	a, err := cranelift.Features(context.Background(), drv)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Opcodes) < 100 || len(a.SharedSettings) < 10 || len(a.ISAFlags) < 4 {
		t.Fatalf("the features answer is too thin to check: %d opcodes, %d settings, %d targets", len(a.Opcodes), len(a.SharedSettings), len(a.ISAFlags))
	}
	if stale := cranelift.Stale(ir.Releases(), a, 20); len(stale) > 0 {
		t.Errorf("lib/ir/releases.txt is stale for Cranelift %s (cliff-cranelift features --write lib/ir/releases.txt):\n%s", a.Cranelift, strings.Join(stale, "\n"))
	}
	// Every opcode of cliff's own table is one the release knows: cliff
	// generates nothing Cranelift cannot parse.
	known := map[string]bool{}
	for _, op := range a.Opcodes {
		known[op] = true
	}
	for _, op := range ir.Opcodes() {
		if name := op.String(); !known[name] && ir.Releases().Knows(ir.KindOpcode, name, a.Cranelift) {
			t.Errorf("opcode %s: cliff's table has it, Cranelift %s does not, and releases.txt says it does", name, a.Cranelift)
		}
	}
}
