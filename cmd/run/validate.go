package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"cliff/lib/driver"
	"cliff/lib/record"
)

// validateSetup checks, before any case runs, what a typo or a broken
// set-up would otherwise turn into a failure on every case: the limits,
// the driver (it must start and answer), and the command line's ISA flags
// and settings (Cranelift must accept them on every architecture they
// apply to). A rejected flag would make every result a compile_error,
// blamed on Cranelift.
//
// It returns the driver's Cranelift version, for the results.
func validateSetup(ctx context.Context, driverPath string, set *configSet, lim limits) (cranelift string, err error) {
	if lim.perInput <= 0 {
		return "", fmt.Errorf("--timeout %s: want a positive duration", lim.perInput)
	}
	if lim.compileBase <= 0 {
		return "", fmt.Errorf("--compile-timeout %s: want a positive duration", lim.compileBase)
	}
	if lim.fuel == 0 {
		return "", errors.New("--fuel 0: want a positive instruction count")
	}
	client := driver.New(driverPath)
	defer client.Close()
	vctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	version, err := client.Version(vctx)
	if err != nil {
		return "", fmt.Errorf("--driver %s: %w", driverPath, err)
	}
	dir, err := os.MkdirTemp("", "cliff-run-validate-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	arches := set.arches
	if arches == nil {
		arches = compiledArches // .clif files may name any of them
	}
	for _, a := range arches {
		if a == archInterp {
			continue
		}
		req := &driver.CompileRequest{
			Target:  targetString(setConfig(set, a)),
			Flags:   sharedFlags(setConfig(set, a)),
			Output:  filepath.Join(dir, a+".o"),
			Modules: []string{"function %f() {\nblock0:\n    return\n}\n"},
		}
		cctx, cancel := context.WithTimeout(ctx, time.Minute)
		_, err := client.Compile(cctx, req)
		cancel()
		var f *driver.Failure
		switch {
		case errors.As(err, &f):
			return "", fmt.Errorf("%s: Cranelift refuses the command line's ISA flags or settings (--isa-flags, --set): %s", a, f.Message)
		case err != nil:
			return "", fmt.Errorf("--driver %s: %w", driverPath, err)
		}
	}
	return version.Cranelift, nil
}

// setConfig is the command line's configuration of cases for arch, at
// opt level none.
func setConfig(set *configSet, arch string) record.Config {
	return record.Config{Arch: arch, OptLevel: "none", Flags: set.flagsFor(arch), Settings: set.settings}
}
