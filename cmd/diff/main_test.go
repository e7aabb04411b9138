package main

import (
	"cliff/lib/scripttest"
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
	scripttest.Run(t, testscript.Params{})
}
