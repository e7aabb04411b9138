package main

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"cliff/lib/scripttest"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"cliff-cluster": main})
}

// TestScripts runs the end-to-end scripts in testdata/script: each runs
// cliff-cluster as a real command on real verdicts (trimmed) and checks
// stdout, stderr, the report and the exit status.
func TestScripts(t *testing.T) {
	scripttest.Run(t, testscript.Params{})
}
