// Command cliff-cranelift manages the Cranelifts cliff tests: it builds
// cliff-driver for a release, the newest release or a wasmtime checkout
// (lib/cranelift), and lists the releases with what builds them here.
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"cliff/lib/bisect"
	"cliff/lib/cliapp"
	"cliff/lib/cliapp/engineflags"
	"cliff/lib/cranelift"
	"cliff/lib/engine"
)

// exits says what the exit statuses mean here: cliff-cranelift finds
// nothing (bisect-step, hidden, answers git bisect run in its codes).
var exits = cliapp.Exits{
	OK:    "done",
	Error: "a Cranelift that cannot be built here (one line: the toolchain it needs and those installed, or cargo's first error)",
}

func main() {
	os.Exit(cliapp.Run(app(os.Stdout, os.Stderr), exits, os.Args, os.Stderr))
}

// builder is the tools' driver builder; fromSource leaves out make's
// driver, so that the default release is built like any other (make
// itself, and bisect, whose probes must be of one build kind).
func builder(stderr io.Writer, fromSource bool) (*cranelift.Builder, error) {
	b, err := cranelift.NewBuilder(stderr)
	if err != nil {
		return nil, err
	}
	if fromSource {
		b.DefaultDriver = nil
	}
	return b, nil
}

// A runSetup is what the commands that run test files share: the
// architectures of --arch, a scratch directory (release removes it), the
// builder (every release from source) and the engine's limits (--jobs and
// --timeout where the command has them, else engineflags' defaults).
type runSetup struct {
	arches  []string
	builder *cranelift.Builder
	engine  engine.Options
	release func()
}

func newRunSetup(archNames []string, eflags *engineflags.Flags, stderr io.Writer) (*runSetup, error) {
	arches, err := engine.ParseArches(archNames)
	if err != nil {
		return nil, cliapp.Usagef("%v", err)
	}
	b, err := builder(stderr, true)
	if err != nil {
		return nil, err
	}
	release, err := engine.UseScratchDir("cliff-cranelift")
	if err != nil {
		return nil, err
	}
	return &runSetup{arches: arches, builder: b, release: release, engine: eflags.Options()}, nil
}

func app(stdout, stderr io.Writer) *cli.App {
	var install, from, output, checkout, old, expectPath string
	var minors bool
	var archs, releases cli.StringSlice
	var write string
	eflags := engineflags.New() // bisect's, matrix's and bisect-step's (the defaults)
	return &cli.App{
		Name:  "cliff-cranelift",
		Usage: "the Cranelifts cliff tests: drivers built per release or checkout, the release list, bisection, the findings matrix",
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
is one that failed (build.json keeps its reason).`,
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
					&cli.StringFlag{Name: "install", Destination: &install, Usage: "copy the driver to `PATH`"},
				},
				Action: func(c *cli.Context) error {
					args := c.Args().Slice()
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
				Name:      "features",
				Usage:     "make lib/ir's release table: what each release knows (opcodes, settings, ISA flags), asked of its driver",
				ArgsUsage: "[SPEC...]  (default: the newest patch release of every minor release from --from on)",
				Description: `Builds (or finds in the cache) each release's driver and asks it the
features op; writes the table (lib/ir/releases.go says its format) to
--write FILE, or stdout. A release that cannot be built is left out and
named in the table's header. Checkouts are not listed: the table is of
releases.`,
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "write", Value: "-", Destination: &write, Usage: "write the table to `FILE` (- is stdout)"},
					&cli.StringFlag{Name: "from", Value: "0.120.0", Destination: &from, Usage: "the first release, without SPECs"},
				},
				Action: func(c *cli.Context) error {
					b, err := builder(stderr, false)
					if err != nil {
						return err
					}
					return cranelift.MakeReleaseTable(c.Context, b, c.Args().Slice(), from, write)
				},
			},
			{
				Name:      "bisect",
				Usage:     "find the release where a test file's failure appears or goes away",
				ArgsUsage: "V1..V2 FILE...  (.clif test files with run lines: findings, cliff-locate's repros; with --checkout, V1 and V2 are commits)",
				Description: `For each FILE, runs its run lines (cliff-run's way, on its targets or
--arch) on releases V1 and V2, then binary-searches the releases crates.io
serves between them for the change: "fixed in R (last failing: Q)" or
"broken in R (last passing: Q)". Only the drivers probed are built
(cached as cliff-cranelift build caches them). A release that does not
build, or on which every run line is skipped (an opcode it does not know),
is stepped over. One line per file on stdout, each probe on stderr.

With --checkout DIR (a wasmtime work tree, clean), V1 and V2 are commits
(any git revision) and git bisect run searches the commits between them,
each step building that commit's driver (cached by commit; cargo rebuilds
only the crates that changed) and running the file; the answer names the
first commit that behaves as V2 does. The work tree is put back as it was.`,
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "checkout", Destination: &checkout, Usage: "bisect the commits of the wasmtime checkout `DIR` instead of releases"},
					&cli.StringSliceFlag{Name: "arch", Destination: &archs, Usage: "run the files on these architectures only (as cliff-run's --arch)"},
					eflags.JobsFlag(),
					eflags.TimeoutFlag(),
				},
				Action: func(c *cli.Context) error {
					args := c.Args().Slice()
					if len(args) < 2 {
						return cliapp.Usagef("want V1..V2 and at least one FILE")
					}
					from, to, ok := strings.Cut(args[0], "..")
					if !ok || from == "" || to == "" {
						return cliapp.Usagef("%q: want V1..V2 (0.135.8..0.137.1)", args[0])
					}
					run, err := newRunSetup(archs.Value(), eflags, stderr)
					if err != nil {
						return err
					}
					defer run.release()
					arches, b, eopts := run.arches, run.builder, run.engine
					for _, file := range args[1:] {
						var res *bisect.Result
						var err error
						if dir := checkout; dir != "" {
							self, serr := os.Executable()
							if serr != nil {
								return serr
							}
							abs, _ := filepath.Abs(file)
							res, err = bisect.Commits(c.Context, bisect.CommitOptions{
								Checkout: dir, From: from, To: to, File: abs, Arches: arches, Engine: eopts,
								Builder: b, Log: stderr, Step: []string{self, "bisect-step"},
							})
						} else {
							res, err = bisect.Run(c.Context, bisect.Options{
								From: from, To: to, File: file, Arches: arches, Builder: b, Log: stderr, Engine: eopts,
							})
						}
						if err != nil {
							return err
						}
						fmt.Fprintln(stdout, res)
					}
					return nil
				},
			},
			{
				Name:      "bisect-step",
				Hidden:    true,
				Usage:     "one step of git bisect run (bisect --checkout calls it): exit 0 the file behaves as --old, 1 it does not, 125 cannot tell",
				ArgsUsage: "CHECKOUT FILE",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "old", Required: true, Destination: &old, Usage: "the state at the older end: fails or passes"},
					&cli.StringSliceFlag{Name: "arch", Destination: &archs},
				},
				Action: func(c *cli.Context) error {
					if c.NArg() != 2 {
						return cliapp.Usagef("want CHECKOUT FILE")
					}
					run, err := newRunSetup(archs.Value(), eflags, stderr)
					if err != nil {
						return err
					}
					defer run.release()
					code := bisect.Step(c.Context, run.builder, c.Args().Get(0), c.Args().Get(1), run.arches, run.engine, bisect.State(old), stderr)
					if code != 0 {
						return cli.Exit("", code) // git bisect run's protocol, not cliff's exit statuses
					}
					return nil
				},
			},
			{
				Name:      "matrix",
				Usage:     "run test files (the findings) on several releases and write the matrix",
				ArgsUsage: "FILE...",
				Description: `Runs every FILE's run lines on every release of --cranelift (default: the
newest patch of each minor release from --from on) and writes a Markdown
table, one row per file and one column per release: reproduces, fixed,
cannot build, cannot run (with the reasons below it), and the first and
last release that reproduce each file. scripts/findings.sh runs it on
lib/profile/data/findings.`,
				Flags: []cli.Flag{
					cliapp.OutputFlag(&output, "the Markdown matrix"),
					&cli.StringSliceFlag{Name: "cranelift", Destination: &releases, Usage: "the releases, `SPEC`s (comma-separated or repeated)"},
					&cli.StringFlag{Name: "from", Value: "0.120.0", Destination: &from, Usage: "without --cranelift, the first release"},
					&cli.StringFlag{Name: "expect", Destination: &expectPath, Usage: "how each file fails where it shows its finding, from `FILE` (findings/expected/VERSION.txt): a file failing only otherwise on a release does not reproduce there"},
					&cli.StringSliceFlag{Name: "arch", Destination: &archs, Usage: "run the files on these architectures only"},
					eflags.JobsFlag(),
					eflags.TimeoutFlag(),
				},
				Action: func(c *cli.Context) error {
					files := c.Args().Slice()
					if len(files) == 0 {
						return cliapp.Usagef("want at least one FILE")
					}
					run, err := newRunSetup(archs.Value(), eflags, stderr)
					if err != nil {
						return err
					}
					defer run.release()
					versions, err := cranelift.ReleaseList(c.Context, run.builder, releases.Value(), from)
					if err != nil {
						return err
					}
					var expect map[string][]string
					if path := expectPath; path != "" {
						if expect, err = bisect.ExpectedKinds(path); err != nil {
							return err
						}
					}
					m, err := bisect.RunMatrix(c.Context, bisect.MatrixOptions{
						Versions: versions, Files: files, Arches: run.arches, Builder: run.builder, Log: stderr, Engine: run.engine, Expect: expect,
					})
					if err != nil {
						return err
					}
					w, err := os.Create(output)
					if output == "-" {
						w, err = os.Stdout, nil
					}
					if err != nil {
						return err
					}
					if err := m.WriteMarkdown(w); err != nil {
						return err
					}
					return w.Close()
				},
			},
			{
				Name:      "toolchain",
				Usage:     "print the installed Rust toolchain that builds a release (none: the default), as rustup names it (for cargo +TOOLCHAIN)",
				ArgsUsage: "[VERSION]",
				Action: func(c *cli.Context) error {
					b, err := builder(stderr, false)
					if err != nil {
						return err
					}
					tc, err := cranelift.ToolchainFor(c.Context, b, c.Args().First())
					if err != nil {
						return err
					}
					fmt.Fprintln(stdout, tc.Name)
					return nil
				},
			},
			{
				Name:  "releases",
				Usage: "list Cranelift's releases, the rust-version of each and the installed toolchain that builds it",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "from", Value: "0.120.0", Destination: &from, Usage: "list releases from `VERSION` on"},
					&cli.BoolFlag{Name: "minors", Destination: &minors, Usage: "only the newest patch release of each minor version"},
				},
				Action: func(c *cli.Context) error {
					b, err := builder(stderr, false)
					if err != nil {
						return err
					}
					return cranelift.PrintReleases(c.Context, stdout, b, from, minors)
				},
			},
		},
	}
}
