package profile

import (
	"os"
	"testing"

	"cliff/lib/ir"
)

// TestCtrlFilterHoldsWhatEntriesName: match passes over an instruction
// whose controlling type no entry of its opcode names, so the filter must
// hold exactly the types the entries name (every type for `*`), for every
// entry of the known mask; were it to miss one, a masked instruction would
// slip through refine's and gen's checks unnoticed.
func TestCtrlFilterHoldsWhatEntriesName(t *testing.T) {
	src, err := os.ReadFile("data/known.mask")
	if err != nil {
		t.Fatal(err)
	}
	entries, err := ParseMask("data/known.mask", src)
	if err != nil {
		t.Fatal(err)
	}
	var s *Patterns
	for _, e := range entries {
		s = s.with(e)
	}
	anyOps := 0
	for op, roots := range s.byOp {
		for ty := range ir.Type(ir.TypeSpace) {
			want := false
			for _, i := range roots {
				e := &s.entries[i]
				want = want || e.AnyType || e.Type == ty
			}
			if got := s.ctrls[op].mayHold(ty); got != want {
				t.Errorf("%s, type %#x (%s): filter says %v, the entries %v", ir.Opcode(op), uint16(ty), ty, got, want)
			}
		}
		if len(roots) > 0 && s.ctrls[op].any {
			anyOps++
		}
	}
	if anyOps == 0 || anyOps == len(entries) {
		t.Errorf("%d opcodes with a `*` entry: the mask should have some, and not only those", anyOps)
	}
	var c ctrlSet
	c.add(ir.I32, false)
	if !c.mayHold(ir.I32) || c.mayHold(ir.I64) || !c.mayHold(ir.Type(ir.TypeSpace)) {
		t.Error("ctrlSet{i32}: want i32 and types beyond the set's range, not i64")
	}
}
