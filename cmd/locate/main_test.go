package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"cliff/lib/driver/drivertest"
	"cliff/lib/scripttest"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"cliff-locate": main})
}

// TestScripts runs the end-to-end scripts in testdata/script: cliff-locate
// on real Cranelift bugs (the findings under lib/profile/data/findings,
// as $FINDINGS) with the real driver, the cross toolchains and qemu.
func TestScripts(t *testing.T) {
	drv := drivertest.Require(t)
	findings, _ := filepath.Abs("../../lib/profile/data/findings")
	scripttest.Run(t, testscript.Params{
		Setup: func(env *testscript.Env) error {
			env.Setenv("CLIFF_DRIVER", drv)
			env.Setenv("FINDINGS", findings)
			if cache, err := os.UserCacheDir(); err == nil {
				env.Setenv("XDG_CACHE_HOME", cache)
			}
			return nil
		},
	})
}
