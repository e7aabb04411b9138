package engine

import (
	"errors"
	"testing"

	"cliff/lib/driver"
	"cliff/lib/record"
)

// TestInterpretOutcome pins how every way an interpret request can end
// becomes a status: the interpreter's gaps and limits are not Cranelift
// crashes, and a driver the client killed at the deadline is a timeout,
// while one that died on its own is a crash.
func TestInterpretOutcome(t *testing.T) {
	tests := []struct {
		name   string
		ans    *driver.InterpretAnswer
		err    error
		status record.Status
		trap   string
		msg    string
	}{
		{"results", &driver.InterpretAnswer{Results: []driver.Value{{Type: "i8", Hex: "07"}}}, nil, record.StatusOK, "", ""},
		{"trap", &driver.InterpretAnswer{Trap: "int_divz"}, nil, record.StatusTrap, "int_divz", ""},
		{"fuel", &driver.InterpretAnswer{Timeout: true, Message: "fuel exhausted after 10 instructions"}, nil, record.StatusTimeout, "", "interpreter: fuel exhausted after 10 instructions"},
		{"deadline", &driver.InterpretAnswer{Timeout: true, Message: "deadline passed after 5 instructions"}, nil, record.StatusTimeout, "", "interpreter: deadline passed after 5 instructions"},
		{"stack overflow", &driver.InterpretAnswer{StackOverflow: true, Message: "more than 100000 frames deep"}, nil, record.StatusStackOverflow, "", "interpreter: more than 100000 frames deep"},
		{"unsupported panic", &driver.InterpretAnswer{Unsupported: "not implemented: SequencePoint", Location: "cranelift-interpreter-0.135.8/src/step.rs:1312:34"}, nil, record.StatusUnsupported, "", "not implemented: SequencePoint (at cranelift-interpreter-0.135.8/src/step.rs:1312:34)"},
		{"unsupported call", &driver.InterpretAnswer{Unsupported: "%f calls %g, which is not a function of the module"}, nil, record.StatusUnsupported, "", "%f calls %g, which is not a function of the module"},
		{"interpreter bug", nil, &driver.Failure{Status: driver.StatusCrash, Message: "index out of bounds", Location: "step.rs:1:1"}, record.StatusCompileCrash, "", "index out of bounds (at step.rs:1:1)"},
		{"verifier", nil, &driver.Failure{Status: driver.StatusError, Message: "function %f: bad"}, record.StatusCompileError, "", "function %f: bad"},
		{"killed at the deadline", nil, &driver.DiedError{How: "timed out (deadline 10:00:00)"}, record.StatusTimeout, "", "cliff-driver died: timed out (deadline 10:00:00)"},
		{"died on a signal", nil, &driver.DiedError{How: "killed by SIGABRT", Signal: "SIGABRT"}, record.StatusCompileCrash, "", "cliff-driver died: killed by SIGABRT"},
		{"transport", nil, errors.New("broken pipe"), record.StatusHarnessError, "", "broken pipe"},
	}
	for _, tt := range tests {
		_, status, trap, msg := interpretOutcome(tt.ans, tt.err)
		if status != tt.status || trap != tt.trap || msg != tt.msg {
			t.Errorf("%s: got %s %q %q, want %s %q %q", tt.name, status, trap, msg, tt.status, tt.trap, tt.msg)
		}
	}
}
