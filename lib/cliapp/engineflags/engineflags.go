// Package engineflags defines, once, the flags of the tools that run
// cases through lib/engine (cliff-run, cliff-locate, and the run
// commands of cliff-cranelift): -j/--jobs, --timeout, --compile-timeout,
// --fuel, --driver and --cranelift. A tool reads them through the Flags
// value that declared them, never by name.
package engineflags

import (
	"context"
	"io"
	"runtime"
	"time"

	"github.com/urfave/cli/v2"

	"cliff/lib/cliapp"
	"cliff/lib/engine"
)

// Flags holds the engine flags' values, with engine's defaults.
type Flags struct {
	Jobs           int
	Timeout        time.Duration
	CompileTimeout time.Duration
	Fuel           uint64
	Driver         string
	Cranelift      cli.StringSlice
}

// New is the flags' values before parsing: engine's defaults, and one
// job per CPU.
func New() *Flags {
	return &Flags{Jobs: runtime.NumCPU(), Timeout: engine.DefaultTimeout,
		CompileTimeout: engine.DefaultCompileTimeout, Fuel: engine.DefaultFuel}
}

// JobsFlag is -j/--jobs N.
func (f *Flags) JobsFlag() cli.Flag {
	return &cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: f.Jobs, Destination: &f.Jobs, Usage: "parallel workers, each with its own driver"}
}

// TimeoutFlag is --timeout DURATION.
func (f *Flags) TimeoutFlag() cli.Flag {
	return &cli.DurationFlag{Name: "timeout", Value: f.Timeout, Destination: &f.Timeout, Usage: "limit per input vector's execution"}
}

// CompileTimeoutFlag is --compile-timeout DURATION.
func (f *Flags) CompileTimeoutFlag() cli.Flag {
	return &cli.DurationFlag{Name: "compile-timeout", Value: f.CompileTimeout, Destination: &f.CompileTimeout, Usage: "limit per compile request (plus 2s per module)"}
}

// FuelFlag is --fuel N.
func (f *Flags) FuelFlag() cli.Flag {
	return &cli.Uint64Flag{Name: "fuel", Value: f.Fuel, Destination: &f.Fuel, Usage: "interpreter instruction limit per call"}
}

// DriverFlag is --driver PATH (cliapp.DriverFlag).
func (f *Flags) DriverFlag() cli.Flag {
	return cliapp.DriverFlag(&f.Driver, "")
}

// CraneliftFlag is --cranelift SPEC,... (cliapp.CraneliftFlag).
func (f *Flags) CraneliftFlag() cli.Flag {
	return cliapp.CraneliftFlag(&f.Cranelift)
}

// List is every engine flag, in the order the tools' --help shows them.
func (f *Flags) List() []cli.Flag {
	return []cli.Flag{f.JobsFlag(), f.TimeoutFlag(), f.CompileTimeoutFlag(), f.FuelFlag(), f.DriverFlag(), f.CraneliftFlag()}
}

// Options are the engine options the flags give, with the driver not yet
// chosen (Choose).
func (f *Flags) Options() engine.Options {
	return engine.Options{Jobs: f.Jobs, Timeout: f.Timeout, CompileTimeout: f.CompileTimeout, Fuel: f.Fuel}
}

// Choose chooses the driver of o from --driver and --cranelift (engine's
// ChooseCranelift): the versions a run with several Cranelifts names,
// none for one.
func (f *Flags) Choose(ctx context.Context, o *engine.Options, log io.Writer) ([]string, error) {
	return o.ChooseCranelift(ctx, f.Driver, f.Cranelift.Value(), log)
}
