package engine

import (
	"errors"
	"fmt"
	"testing"

	"cliff/lib/ir"
	"cliff/lib/record"
	"cliff/lib/refinterp"
)

// TestReferenceOutcome checks how the reference's ends map to statuses:
// what it cannot answer is a gap or limit of the reference (unsupported,
// stack_overflow, timeout), never a Cranelift status; an error it does
// not name is cliff's own failure.
func TestReferenceOutcome(t *testing.T) {
	wrap := func(err error) error { return fmt.Errorf("%%f: block0: %w", err) }
	for _, tc := range []struct {
		name   string
		out    refinterp.Outcome
		err    error
		status record.Status
		trap   string
	}{
		{"values", refinterp.Outcome{Results: []ir.DataValue{}}, nil, record.StatusOK, ""},
		{"trap", refinterp.Outcome{Trap: ir.TrapIntegerDivisionByZero}, nil, record.StatusTrap, "int_divz"},
		{"user trap", refinterp.Outcome{Trap: ir.TrapUser + 3}, nil, record.StatusTrap, "user3"},
		{"unsupported", refinterp.Outcome{}, wrap(refinterp.ErrUnsupported), record.StatusUnsupported, ""},
		{"undefined behaviour", refinterp.Outcome{}, wrap(refinterp.ErrUndefined), record.StatusUnsupported, ""},
		{"call depth", refinterp.Outcome{}, wrap(refinterp.ErrDepth), record.StatusStackOverflow, ""},
		{"stack memory", refinterp.Outcome{}, wrap(refinterp.ErrMemory), record.StatusStackOverflow, ""},
		{"fuel", refinterp.Outcome{}, wrap(refinterp.ErrFuel), record.StatusTimeout, ""},
		{"anything else", refinterp.Outcome{}, errors.New("argument 0: type i32 but %f wants i64"), record.StatusHarnessError, ""},
	} {
		_, status, trap, msg := referenceOutcome(tc.out, tc.err)
		if status != tc.status || trap != tc.trap {
			t.Errorf("%s: %s %q, want %s %q", tc.name, status, trap, tc.status, tc.trap)
		}
		if tc.err != nil && msg != "reference: "+tc.err.Error() {
			t.Errorf("%s: message %q does not say it is the reference's and why", tc.name, msg)
		}
	}
}

// TestReferenceRefusal: only a setting that changes what the code
// computes keeps the reference out.
func TestReferenceRefusal(t *testing.T) {
	for settings, refused := range map[string]bool{
		"enable_nan_canonicalization=true":  true,
		"enable_nan_canonicalization=false": false,
		"preserve_frame_pointers=true":      false,
	} {
		if got := referenceRefusal([]string{settings}) != ""; got != refused {
			t.Errorf("%s: refused %v, want %v", settings, got, refused)
		}
	}
}
