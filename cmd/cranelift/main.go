// Command cliff-cranelift manages the Cranelifts cliff tests: it builds
// cliff-driver for a release, the newest release or a wasmtime checkout
// (lib/cranelift), and lists the releases with what builds them here.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"cliff/driver"
	"cliff/lib/cliapp"
	"cliff/lib/cranelift"
	drv "cliff/lib/driver"
)

func main() {
	os.Exit(cliapp.Run(app(os.Stdout, os.Stderr), os.Args, os.Stderr, nil))
}

func builder(stderr io.Writer, fromSource bool) (*cranelift.Builder, error) {
	cache, err := cranelift.DefaultCache()
	if err != nil {
		return nil, err
	}
	b := &cranelift.Builder{Cache: cache, Source: driver.Source, Log: stderr}
	if !fromSource {
		b.DefaultDriver = drv.Find
	}
	return b, nil
}

func app(stdout, stderr io.Writer) *cli.App {
	return &cli.App{
		Name:  "cliff-cranelift",
		Usage: "build cliff-driver for any Cranelift and list the releases",
		Description: `SPEC is a Cranelift release (0.137.1), latest (the newest release an
installed Rust toolchain builds; crates.io is asked at most once a day),
default (the driver make built, the release driver/Cargo.toml pins), or
the path of a wasmtime checkout, whose cranelift/ crates are used in
place of crates.io's. cliff-run and cliff-locate take the same SPECs
with --cranelift (or $CLIFF_CRANELIFT) and build what they need the
same way.

Builds go to ~/.cache/cliff/drivers (or $CLIFF_CACHE/drivers), one per
release (a checkout: per path, commit and uncommitted changes) and per
driver source; cargo's build directory, shared by all, is
~/.cache/cliff/cargo-target. A build in the cache is never repeated, nor
is one that failed (build.json keeps its reason).

Exit status: 0 done, 2 a Cranelift that cannot be built here (one line:
the toolchain it needs and those installed, or cargo's first error), bad
usage, or an error.`,
		Commands: []*cli.Command{
			{
				Name:      "build",
				Usage:     "build the driver for each SPEC (none: the default release) and print its path",
				ArgsUsage: "[SPEC...]",
				Description: `Prints one line per SPEC on stdout: the driver's path; on stderr cargo's
progress and how long each build took. --install copies the driver of the
one SPEC to PATH (make builds bin/cliff-driver so: --install
bin/cliff-driver, always from source).`,
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "install", Usage: "copy the driver to `PATH`"},
				},
				Action: func(c *cli.Context) error {
					args := c.Args().Slice()
					install := c.String("install")
					if install != "" && len(args) > 1 {
						return cliapp.Usagef("--install takes one SPEC, got %d", len(args))
					}
					if len(args) == 0 {
						args = []string{"default"}
					}
					specs, err := cranelift.ParseSpecs(args)
					if err != nil {
						return cliapp.Usagef("%v", err)
					}
					b, err := builder(stderr, install != "")
					if err != nil {
						return err
					}
					for _, spec := range specs {
						build, err := b.Ensure(c.Context, spec)
						if err != nil {
							return err
						}
						path := build.Driver
						if install != "" {
							if err := cranelift.Install(build.Driver, install); err != nil {
								return err
							}
							path = install
						}
						how := "cached"
						if !build.Cached {
							how = fmt.Sprintf("built in %.0f s", build.Seconds)
						}
						if build.Toolchain != "" {
							how += ", " + build.Toolchain
						}
						fmt.Fprintf(stderr, "cliff-cranelift: Cranelift %s: %s (%s)\n", build.Label, path, how)
						fmt.Fprintln(stdout, path)
					}
					return nil
				},
			},
			{
				Name:  "releases",
				Usage: "list Cranelift's releases, the rust-version of each and the installed toolchain that builds it",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "from", Value: "0.120.0", Usage: "list releases from `VERSION` on"},
					&cli.BoolFlag{Name: "minors", Usage: "only the newest patch release of each minor version"},
				},
				Action: func(c *cli.Context) error {
					b, err := builder(stderr, false)
					if err != nil {
						return err
					}
					return cranelift.PrintReleases(c.Context, stdout, b, c.String("from"), c.Bool("minors"))
				},
			},
		},
	}
}
