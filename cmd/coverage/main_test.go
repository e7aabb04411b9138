package main

import (
	"os"
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
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		Cmds:          map[string]func(*testscript.TestScript, bool, []string){"status": scripttest.Status},
		UpdateScripts: os.Getenv("UPDATE_SCRIPTS") != "",
	})
}
