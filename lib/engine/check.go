package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"cliff/lib/arch"
	"cliff/lib/harness"
)

// CheckTools proves, for each architecture, that this machine can build
// and run its code the way runs do (harness.CheckToolchain), and prints
// one line per architecture: how its code runs, or what is missing and
// which Debian package provides it. scripts/setup.sh calls it after
// installing the packages.
func CheckTools(ctx context.Context, out io.Writer, host harness.Host, arches []string) error {
	if len(arches) == 0 {
		arches = arch.Names()
	}
	var errs []error
	for _, a := range arches {
		if interpreted(a) {
			continue
		}
		target := harness.Arch(a)
		if err := harness.CheckToolchain(ctx, target); err != nil {
			fmt.Fprintln(out, err)
			errs = append(errs, err)
			continue
		}
		var how string
		if target.Native() {
			how = "natively"
			if level := host.Level(); level != "" {
				how += " (an " + level + " CPU" + lacking(host) + ")"
			}
		} else {
			emu, err := harness.ProbeEmulator(ctx, target)
			if err != nil {
				fmt.Fprintf(out, "%s: probing the emulator: %v\n", a, err)
				errs = append(errs, err)
				continue
			}
			how = "under " + emu.String() + emulatorLacks(emu)
		}
		fmt.Fprintf(out, "%s: ok: built with %s, runs %s\n", a, target.Compiler(), how)
	}
	return errors.Join(errs...)
}

// emulatorLacks names the ISA flags an emulator cannot run, whose code
// is skipped.
func emulatorLacks(emu *harness.Emulator) string {
	if len(emu.Lacks) == 0 {
		return ""
	}
	return "; it cannot run " + strings.Join(slices.Sorted(maps.Keys(emu.Lacks)), ", ")
}

// lacking says what happens to x86_64 code this host cannot run.
func lacking(host harness.Host) string {
	var lacks []string
	for _, f := range []string{"avx", "avx2", "bmi2", "fma", "avx512f"} {
		if !host.Has(f) {
			lacks = append(lacks, f)
		}
	}
	if len(lacks) == 0 {
		return ""
	}
	return "; code that needs " + strings.Join(lacks, ", ") + " runs under qemu-x86_64 where QEMU emulates it, or is skipped"
}
