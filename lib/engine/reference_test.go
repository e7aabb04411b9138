package engine

import (
	"errors"
	"fmt"
	"testing"

	"cliff/lib/interp"
	"cliff/lib/ir"
	"cliff/lib/record"
)

// TestReferenceOutcome checks how the reference's ends map to statuses:
// what it cannot answer is a gap or limit of the reference (unsupported,
// stack_overflow, timeout), never a Cranelift status; an error it does
// not name is cliff's own failure.
func TestReferenceOutcome(t *testing.T) {
	wrap := func(err error) error { return fmt.Errorf("%%f: block0: %w", err) }
	for _, tc := range []struct {
		name   string
		out    interp.Outcome
		err    error
		status record.Status
		trap   string
	}{
		{"values", interp.Outcome{Results: []ir.DataValue{}}, nil, record.StatusOK, ""},
		{"trap", interp.Outcome{Trap: ir.TrapIntegerDivisionByZero}, nil, record.StatusTrap, "int_divz"},
		{"user trap", interp.Outcome{Trap: ir.TrapUser + 3}, nil, record.StatusTrap, "user3"},
		{"unsupported", interp.Outcome{}, wrap(interp.ErrUnsupported), record.StatusUnsupported, ""},
		{"undefined behaviour", interp.Outcome{}, wrap(interp.ErrUndefined), record.StatusUnsupported, ""},
		{"call depth", interp.Outcome{}, wrap(interp.ErrDepth), record.StatusStackOverflow, ""},
		{"stack memory", interp.Outcome{}, wrap(interp.ErrMemory), record.StatusStackOverflow, ""},
		{"fuel", interp.Outcome{}, wrap(interp.ErrFuel), record.StatusTimeout, ""},
		{"anything else", interp.Outcome{}, errors.New("argument 0: type i32 but %f wants i64"), record.StatusHarnessError, ""},
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
