package main

import (
	"errors"
	"fmt"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"cliff/lib/driver/drivertest"
	"cliff/lib/refine"
	"cliff/lib/scripttest"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"cliff-refine": main})
}

// TestScripts runs the end-to-end scripts in testdata/script: each runs
// cliff-refine as a real command on hand-written case records and checks
// stdout, stderr and the exit status.
// --survival needs the real driver (drivertest's).
func TestScripts(t *testing.T) {
	drv := drivertest.Require(t)
	scripttest.Run(t, testscript.Params{
		Setup: func(env *testscript.Env) error {
			env.Setenv("CLIFF_DRIVER", drv)
			return nil
		},
	})
}

// TestExitStatus: a pass that breaks a case (found by --verify-each) is
// exit status 1, told apart from bad input (2), however deeply wrapped.
func TestExitStatus(t *testing.T) {
	broken := fmt.Errorf("cases.jsonl: record 3 (c): %w", &refine.PassError{Pass: "sink"})
	for _, tt := range []struct {
		err  error
		want int
	}{
		{nil, exitOK},
		{broken, exitInvalid},
		{&refine.InputError{Err: errors.New("clif:1:1: no")}, exitError},
		{errors.New("open x: no such file"), exitError},
	} {
		if got := exitStatus(tt.err); got != tt.want {
			t.Errorf("exitStatus(%v) = %d, want %d", tt.err, got, tt.want)
		}
	}
}
