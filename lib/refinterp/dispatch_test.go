package refinterp

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"cliff/lib/ir"
)

// TestDispatchCoversTable: every opcode the table gives a sem has an
// implementation, and testdata/unsupported.golden lists those without
// (all of them for want of a sem line), with counts.
func TestDispatchCoversTable(t *testing.T) {
	unsupported := Unsupported()
	var b strings.Builder
	var reasons []string
	total := 0
	for r, ops := range unsupported {
		reasons = append(reasons, r)
		total += len(ops)
		if r != "no sem" {
			t.Errorf("the table names semantics lib/refinterp does not implement: %s (%v)", r, ops)
		}
	}
	sort.Strings(reasons)
	fmt.Fprintf(&b, "# Opcodes lib/refinterp cannot run: %d of %d\n", total, len(ir.Opcodes()))
	for _, r := range reasons {
		var names []string
		for _, op := range unsupported[r] {
			names = append(names, op.String())
		}
		fmt.Fprintf(&b, "%s (%d): %s\n", r, len(names), strings.Join(names, " "))
	}
	checkGolden(t, "testdata/unsupported.golden", b.String())
}

// TestBuildRefusesUnknownKernels: a sem line naming a kernel of a known
// shape that the shape does not have, or an unknown shape, builds nothing
// (so the opcode is reported, not run wrongly).
func TestBuildRefusesUnknownKernels(t *testing.T) {
	buildDispatch()
	for _, tc := range []struct {
		sem, kernel string
		ok          bool
	}{
		{"int_binary", "add", true},
		{"int_binary", "frobnicate", false},
		{"int_binary", "", false},
		{"jump", "", true},
		{"jump", "far", false},
		{"load", "u8", true},
		{"load", "x8", false},
		{"store", "12", false},
		{"no_such_shape", "", false},
	} {
		got := build(&ir.OpcodeInfo{Sem: tc.sem, SemKernel: tc.kernel}) != nil
		if got != tc.ok {
			t.Errorf("build(sem %s %s) = %v, want %v", tc.sem, tc.kernel, got, tc.ok)
		}
	}
}
