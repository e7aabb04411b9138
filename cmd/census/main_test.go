package main

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"cliff/lib/scripttest"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"cliff-census": main})
}

// TestScripts runs the end-to-end scripts in testdata/script: cliff-census
// as a real command on real verdicts of scripts/census.sh, checking its
// rows, report, messages and exit status.
func TestScripts(t *testing.T) {
	scripttest.Run(t, testscript.Params{})
}
