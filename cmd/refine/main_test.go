package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"cliff/lib/refine"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"cliff-refine": main})
}

// TestScripts runs the end-to-end scripts in testdata/script: each runs
// cliff-refine as a real command on hand-written case records and checks
// stdout, stderr and the exit status.
//
// The condition [driver] holds when the real cliff-driver is built
// (../../bin/cliff-driver, or $CLIFF_DRIVER): --survival needs it.
func TestScripts(t *testing.T) {
	drv, _ := filepath.Abs("../../bin/cliff-driver")
	if env := os.Getenv("CLIFF_DRIVER"); env != "" {
		drv = env
	}
	_, err := os.Stat(drv)
	haveDriver := err == nil
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			if haveDriver {
				env.Setenv("CLIFF_DRIVER", drv)
			}
			return nil
		},
		Condition: func(cond string) (bool, error) {
			if cond == "driver" {
				return haveDriver, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds:          map[string]func(*testscript.TestScript, bool, []string){"status": cmdStatus},
		UpdateScripts: os.Getenv("UPDATE_SCRIPTS") != "",
	})
}

// cmdStatus is the script command "status N PROGRAM [ARGS...]": it runs
// PROGRAM as exec does and checks that it exits with status N, which
// "! exec" cannot tell (cliff-refine's 1 and 2 mean different things).
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: status N program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("status: bad exit status %q", args[0])
	}
	got := 0
	var exit *exec.ExitError
	switch err := ts.Exec(args[1], args[2:]...); {
	case errors.As(err, &exit):
		got = exit.ExitCode()
	case err != nil:
		ts.Fatalf("status: %v", err)
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
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
