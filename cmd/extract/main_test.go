package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"cliff/lib/scripttest"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"cliff-extract": main})
}

// TestScripts runs the end-to-end scripts in testdata/script: each runs
// cliff-extract as a real command on files it writes, and checks stdout,
// stderr and the exit status. FILETESTS points at Cranelift's filetests when
// they are beside the clone.
func TestScripts(t *testing.T) {
	filetests, _ := filepath.Abs("../../../shared/cranelift-filetests")
	scripttest.Run(t, testscript.Params{
		Setup: func(env *testscript.Env) error {
			env.Setenv("FILETESTS", filetests)
			return nil
		},
		Condition: func(cond string) (bool, error) {
			if cond == "filetests" {
				_, err := os.Stat(filetests)
				return err == nil, nil
			}
			return false, nil
		},
	})
}
