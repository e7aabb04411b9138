// Package scripttest holds the testscript commands the end-to-end tests of
// cliff's commands share.
package scripttest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"cliff/lib/cranelift"
	"cliff/lib/driver/drivertest"
)

// Status is the script command "status N PROGRAM [ARGS...]": it runs
// PROGRAM as exec does and checks that it exits with status N, which
// "! exec" cannot tell (cliff's tools give 1 and 2 different meanings).
func Status(ts *testscript.TestScript, neg bool, args []string) {
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

// Run runs the end-to-end scripts of a command's tests with what they all
// share: testdata/script when p names no Dir, the status command beside
// p's own commands, and UPDATE_SCRIPTS=1 to rewrite the scripts' golden
// sections. p's Setup and Condition are the command's own, besides the
// shared condition [cranelift:V] (CraneliftCondition).
func Run(t *testing.T, p testscript.Params) {
	if p.Dir == "" {
		p.Dir = "testdata/script"
	}
	cmds := map[string]func(*testscript.TestScript, bool, []string){"status": Status}
	for name, cmd := range p.Cmds {
		cmds[name] = cmd
	}
	p.Cmds = cmds
	setup := p.Setup
	p.Setup = func(env *testscript.Env) error {
		// A tool that builds a driver asks crates.io: the machine's TLS
		// roots and proxies are its own (a sandbox's egress CA, say).
		for _, v := range []string{"SSL_CERT_FILE", "SSL_CERT_DIR", "HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "https_proxy", "http_proxy", "no_proxy"} {
			if val, ok := os.LookupEnv(v); ok {
				env.Setenv(v, val)
			}
		}
		// A tool that builds a driver runs rustup and cargo, which find
		// their toolchains and registry under the user's home, not the
		// script's.
		if home, err := os.UserHomeDir(); err == nil {
			for v, dir := range map[string]string{"RUSTUP_HOME": ".rustup", "CARGO_HOME": ".cargo"} {
				val, ok := os.LookupEnv(v)
				if !ok {
					val = filepath.Join(home, dir)
				}
				env.Setenv(v, val)
			}
		}
		if setup != nil {
			return setup(env)
		}
		return nil
	}
	own := p.Condition
	p.Condition = func(cond string) (bool, error) {
		if rest, ok := strings.CutPrefix(cond, "cranelift:"); ok {
			return CraneliftCondition(rest)
		}
		if own == nil {
			return false, fmt.Errorf("unknown condition %q", cond)
		}
		return own(cond)
	}
	p.UpdateScripts = os.Getenv("UPDATE_SCRIPTS") != ""
	testscript.Run(t, p)
}

// CraneliftCondition is the scripts' condition [cranelift:V], for
// expectations that hold for some releases only: true when the driver
// under test (drivertest.Version) is release V's minor (0.135), at least
// V (>=0.137) or older than V (<0.137).
func CraneliftCondition(arg string) (bool, error) {
	have, err := drivertest.Version()
	if err != nil {
		return false, err
	}
	minor := func(v string) string {
		p := strings.SplitN(v, ".", 3)
		if len(p) < 2 {
			return v
		}
		return p[0] + "." + p[1]
	}
	switch {
	case strings.HasPrefix(arg, ">="):
		return cranelift.CompareVersions(minor(have)+".0", minor(arg[2:])+".0") >= 0, nil
	case strings.HasPrefix(arg, "<"):
		return cranelift.CompareVersions(minor(have)+".0", minor(arg[1:])+".0") < 0, nil
	}
	return minor(have) == minor(arg), nil
}
