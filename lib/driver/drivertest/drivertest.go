// Package drivertest finds the cliff-driver that `make driver` builds, for
// the tests and benchmarks of other packages that talk to the real
// Cranelift: one rule for where it is, instead of one per package.
package drivertest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"cliff/lib/driver"
)

// Path returns the driver to test with: $CLIFF_DRIVER when set, else
// bin/cliff-driver of this checkout. The error says it is missing and
// how to build it.
func Path() (string, error) {
	p := os.Getenv("CLIFF_DRIVER")
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

// Client returns a client of the driver, closed when tb ends; tb is
// skipped when the driver is not built.
func Client(tb testing.TB) *driver.Client {
	tb.Helper()
	p, err := Path()
	if err != nil {
		tb.Skip(err)
	}
	c := driver.New(p)
	tb.Cleanup(func() { c.Close() })
	return c
}
