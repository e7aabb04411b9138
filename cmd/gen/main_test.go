package main

import (
	"cliff/lib/scripttest"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"cliff-gen": main})
}

// TestScripts runs the end-to-end scripts in testdata/script: cliff-gen
// as a real command, its records checked with cmp and grep.
func TestScripts(t *testing.T) {
	scripttest.Run(t, testscript.Params{})
}
