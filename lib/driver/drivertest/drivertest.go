// Package drivertest finds the cliff-driver that `make driver` builds, for
// the tests and benchmarks of other packages that talk to the real
// Cranelift: one rule for where it is, instead of one per package.
//
// One policy too: a test that needs the driver fails when it is missing
// (Require, Client), naming how to build it, so that CI never passes by
// skipping what it did not run. $CLIFF_DRIVER, when set, is the driver.
package drivertest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"cliff/lib/cliapp"
	"cliff/lib/cranelift"
	"cliff/lib/driver"
)

// Path returns the driver to test with: $CLIFF_DRIVER when set, else
// the driver of $CLIFF_CRANELIFT (one SPEC, built into the cache when
// missing: CLIFF_CRANELIFT=0.135.8 scripts/test.sh tests that release),
// else bin/cliff-driver of this checkout. The error says it is missing
// and how to build it.
func Path() (string, error) {
	p := os.Getenv("CLIFF_DRIVER")
	if p == "" && os.Getenv(cliapp.CraneliftEnv) != "" {
		return craneliftDriver()
	}
	if p == "" {
		_, self, _, ok := runtime.Caller(0)
		if !ok {
			return "", fmt.Errorf("cliff-driver: cannot place the checkout")
		}
		// self is lib/driver/drivertest/drivertest.go of the checkout.
		p = filepath.Join(filepath.Dir(self), "..", "..", "..", "bin", "cliff-driver")
	}
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("cliff-driver not built (%v): run `make driver` or scripts/setup.sh", err)
	}
	return p, nil
}

// craneliftDriver builds (or finds) the driver of $CLIFF_CRANELIFT, once
// per test binary.
var craneliftDriver = sync.OnceValues(func() (string, error) {
	env := os.Getenv(cliapp.CraneliftEnv)
	specs, err := cranelift.ParseSpecs([]string{env})
	if err != nil {
		return "", fmt.Errorf("$%s: %w", cliapp.CraneliftEnv, err)
	}
	if len(specs) != 1 {
		return "", fmt.Errorf("$%s=%s: the tests run one Cranelift, not %d", cliapp.CraneliftEnv, env, len(specs))
	}
	b, err := cranelift.NewBuilder(os.Stderr)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), cranelift.BuildTimeout)
	defer cancel()
	build, err := b.Ensure(ctx, specs[0])
	if err != nil {
		return "", err
	}
	return build.Driver, nil
})

// Version is the Cranelift version of the driver Path gives (asked of
// it once), for tests whose expectations depend on the release.
var Version = sync.OnceValues(func() (string, error) {
	p, err := Path()
	if err != nil {
		return "", err
	}
	c := driver.New(p)
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	a, err := c.Version(ctx)
	if err != nil {
		return "", err
	}
	return a.Cranelift, nil
})

// Require returns Path's driver, or fails tb when there is none.
func Require(tb testing.TB) string {
	tb.Helper()
	p, err := Path()
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// Client returns a client of the driver, closed when tb ends; tb fails
// when the driver is not built.
func Client(tb testing.TB) *driver.Client {
	tb.Helper()
	c := driver.New(Require(tb))
	tb.Cleanup(func() { c.Close() })
	return c
}

// A Read is what Cranelift's reader made of one test file: its answer,
// or the reader's complaint.
type Read struct {
	*driver.ParseTestAnswer
	Err error
}

// ReadByCranelift reads each text (by name) with Cranelift's own reader
// through the real driver's parse_test, as its filetest runner does, so
// that a test can check that a file cliff writes for upstream is one
// Cranelift reads. A missing driver fails tb: what cliff writes must be
// checked, not skipped.
func ReadByCranelift(tb testing.TB, texts map[string]string) map[string]Read {
	tb.Helper()
	c := driver.New(Require(tb))
	defer c.Close()
	out := map[string]Read{}
	for name, text := range texts {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		a, err := c.ParseTest(ctx, text)
		cancel()
		out[name] = Read{a, err}
	}
	return out
}
