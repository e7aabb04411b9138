package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"cliff/lib/driver/drivertest"
	"cliff/lib/scripttest"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"cliff-cranelift": main,
	})
}

// TestScripts runs testdata/script against the real registry cache,
// toolchains and driver cache of this user: the builds the scripts ask
// for are the default release's and 0.135.8's, which scripts/test.sh
// builds before the tests.
func TestScripts(t *testing.T) {
	drv := drivertest.Require(t)
	scripttest.Run(t, testscript.Params{
		Setup: func(env *testscript.Env) error {
			env.Setenv("CLIFF_DRIVER", drv)
			if cache, err := os.UserCacheDir(); err == nil {
				env.Setenv("XDG_CACHE_HOME", cache)
			}
			return nil
		},
	})
}
