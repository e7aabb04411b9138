package main

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"cliff/lib/scripttest"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"cliff-coverage": main})
}

// TestScripts runs the end-to-end scripts in testdata/script: usage and bad
// input (a real measurement needs the instrumented driver, which
// scripts/coverage.sh builds).
func TestScripts(t *testing.T) {
	scripttest.Run(t, testscript.Params{})
}
