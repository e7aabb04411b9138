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
	"cliff/lib/record"
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
		if interpreted(a) || arch.IsBytecode(a) {
			continue // Pulley: Engine.CheckPulley
		}
		if err := harness.CheckToolchain(ctx, a); err != nil {
			fmt.Fprintln(out, err)
			errs = append(errs, err)
			continue
		}
		var how string
		if harness.Native(a) {
			how = "natively"
			if level := host.Level(); level != "" {
				how += " (an " + level + " CPU" + lacking(host) + ")"
			}
		} else {
			emu, err := harness.ProbeEmulator(ctx, a)
			if err != nil {
				fmt.Fprintf(out, "%s: probing the emulator: %v\n", a, err)
				errs = append(errs, err)
				continue
			}
			how = "under " + emu.String() + emulatorLacks(emu)
		}
		fmt.Fprintf(out, "%s: ok: built with %s, runs %s\n", a, harness.Compiler(a), how)
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

// CheckPulley proves, for each Pulley target of arches, that this
// engine's driver compiles for it and cliff-pulley (built beside the
// driver) runs the code: one small case, an add and a division that
// traps, must give its answers. It prints one line per target, as
// CheckTools does for the machine targets.
func (e *Engine) CheckPulley(ctx context.Context, out io.Writer, arches []string) error {
	var errs []error
	for _, a := range arches {
		if !arch.IsBytecode(a) {
			continue
		}
		c := &record.Case{ID: "check-" + a, CLIF: "function %main(i32, i32) -> i32 {\nblock0(v0: i32, v1: i32):\n    v2 = udiv v0, v1\n    v3 = iadd v2, v0\n    return v3\n}\n",
			Inputs: []record.InputVector{{{Type: "i32", Value: "40"}, {Type: "i32", Value: "2"}}, {{Type: "i32", Value: "1"}, {Type: "i32", Value: "0"}}}}
		c.Stamp()
		cfg := record.Config{Arch: a, OptLevel: "speed", Executor: record.ExecPulley}
		err := e.Run(ctx, []*record.Case{c}, []record.Config{cfg})
		if err == nil {
			switch {
			case len(c.Results) != 1:
				err = fmt.Errorf("%d results, want 1", len(c.Results))
			case c.Results[0].Status != record.StatusTrap || len(c.Results[0].Outputs) != 2 || c.Results[0].Outputs[0] != "i32 60":
				err = fmt.Errorf("%s %v %s, want i32 60 then an int_divz trap", c.Results[0].Status, c.Results[0].Outputs, c.Results[0].Message)
			}
		}
		if err != nil {
			err = fmt.Errorf("%s: cliff-pulley: %w", a, err)
			fmt.Fprintln(out, err)
			errs = append(errs, err)
			continue
		}
		fmt.Fprintf(out, "%s: ok: compiled by cliff-driver, runs in cliff-pulley (pulley-interpreter)\n", a)
	}
	return errors.Join(errs...)
}
