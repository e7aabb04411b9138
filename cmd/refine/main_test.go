package main

import (
	"errors"
	"fmt"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"cliff/lib/cliapp"
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
// a bug in cliff, exit status 2 as in every tool (it was 1 before issue
// 27), however deeply wrapped; bad input is 2 too.
func TestExitStatus(t *testing.T) {
	broken := fmt.Errorf("cases.jsonl: record 3 (c): %w", &refine.PassError{Pass: "sink"})
	for _, tt := range []struct {
		err  error
		want int
	}{
		{broken, cliapp.ExitError},
		{&refine.InputError{Err: errors.New("clif:1:1: no")}, cliapp.ExitError},
		{errors.New("open x: no such file"), cliapp.ExitError},
	} {
		if got := cliapp.Status(tt.err); got != tt.want {
			t.Errorf("cliapp.Status(%v) = %d, want %d", tt.err, got, tt.want)
		}
	}
}
