// Package cliapp gives every cliff command the same command-line manners,
// those of a Unix tool in a pipe: an error is one line on stderr, prefixed
// with the tool's name, printed once; a misused flag is such an error with
// exit status 2, never the help text on stdout, where the next tool of the
// pipe would try to parse it; the exit status means the same in every tool
// (ExitOK, ExitFinding, ExitError, 128 + a signal), and every tool's --help
// says so in a paragraph made from one table (Exits); and every tool has
// --version.
package cliapp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"

	"cliff/lib/interrupt"
)

// Run runs app on args with cliff's manners and returns the exit status:
// ExitOK on success; for an error, after printing "NAME: error" to stderr
// unless the error's text is empty (the tool has said it already),
// ExitFinding for a Finding, the code of a cli.ExitCoder (a protocol of
// another program's, as git bisect run's), else ExitError. The action's
// context is cancelled by SIGINT or SIGTERM (lib/interrupt); a run so
// stopped exits 128 + the signal, whatever failed after it. exits, the
// tool's details of the statuses, ends its --help (Prepare). Nothing
// below Run calls os.Exit, so every deferred Close of the action (which
// finishes a zstd output) has run: each tool's main is
//
//	os.Exit(cliapp.Run(app(...), exits, os.Args, os.Stderr))
//
// With CLIFF_CPUPROFILE=FILE in the environment the run writes a Go CPU
// profile to FILE (`go tool pprof`), for profiling a tool on real input
// before choosing what to make faster.
func Run(app *cli.App, exits Exits, args []string, stderr io.Writer) int {
	Prepare(app, exits)
	ctx, stop := interrupt.Context(context.Background())
	defer stop()
	if path := os.Getenv("CLIFF_CPUPROFILE"); path != "" {
		if f, err := os.Create(path); err != nil {
			fmt.Fprintf(stderr, "%s: CLIFF_CPUPROFILE: %v\n", app.Name, err)
		} else if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "%s: CLIFF_CPUPROFILE: %v\n", app.Name, err)
			f.Close()
		} else {
			defer f.Close()
			defer pprof.StopCPUProfile()
		}
	}
	err := app.RunContext(ctx, args)
	if in := interrupt.Cause(ctx); in != nil {
		fmt.Fprintf(stderr, "%s: %s\n", app.Name, in)
		return in.ExitStatus()
	}
	if err == nil {
		return 0
	}
	if msg := err.Error(); msg != "" {
		fmt.Fprintf(stderr, "%s: %s\n", app.Name, strings.TrimRight(msg, "\n"))
	}
	return Status(err)
}

// Status is the exit status of a run that failed with err (Run).
func Status(err error) int {
	var usage usageError
	var ec cli.ExitCoder
	switch {
	case errors.As(err, &usage):
		return ExitError
	case IsFinding(err):
		return ExitFinding
	case errors.As(err, &ec):
		return ec.ExitCode()
	}
	return ExitError
}

// Prepare sets the shared behaviour on app: its version, errors returned
// to Run instead of printed by the library and followed by os.Exit, usage
// errors as one line, and its description ended by the exit statuses'
// paragraph (exits.Help).
func Prepare(app *cli.App, exits Exits) *cli.App {
	if app.Description != "" {
		app.Description = strings.TrimRight(app.Description, "\n") + "\n\n"
	}
	app.Description += exits.Help()
	app.Version = Version()
	app.HideHelpCommand = true
	app.ExitErrHandler = func(*cli.Context, error) {}
	app.OnUsageError = func(_ *cli.Context, err error, _ bool) error {
		return usageError{fmt.Errorf("%w (see --help)", err)}
	}
	return app
}

// Usagef is a usage error of the tool's own checks (flags that do not go
// together, a value out of range): ExitError, like a flag the library
// does not know.
func Usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// stamp is the version the Makefile gives the linker (-X
// cliff/lib/cliapp.stamp=...): `git describe`, which works whatever
// GOFLAGS says about -buildvcs.
var stamp string

var version = sync.OnceValue(func() string {
	if stamp != "" {
		return stamp
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		// Built outside the repository (go run, go test): no VCS stamp.
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return rev
})

// Version is cliff's version: the git commit the tools were built from
// (with -dirty for uncommitted changes), or "devel" for a build without
// one (go test, go run). Output records carry it, so that a finding says which cliff
// produced it.
func Version() string { return version() }
