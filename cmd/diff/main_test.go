package main

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"cliff-diff": main})
}

// TestScripts runs the end-to-end scripts in testdata/script: each runs
// cliff-diff as a real command on hand-written records and checks stdout,
// stderr and the exit status.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		Cmds:          map[string]func(*testscript.TestScript, bool, []string){"status": cmdStatus},
		UpdateScripts: os.Getenv("UPDATE_SCRIPTS") != "",
	})
}

// cmdStatus is the script command "status N PROGRAM [ARGS...]": it runs
// PROGRAM as exec does and checks that it exits with status N, which
// "! exec" cannot tell (cliff-diff's 1 and 2 mean different things).
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
