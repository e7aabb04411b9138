// Command cliff-locate narrows each failure down to the function, block
// and instruction it comes from, reduces it to a minimal reproducer with
// the real Cranelift as the judge, and writes the reproducer as a
// Cranelift filetest, a location record and, on request, mask entries.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"cliff/lib/cliapp"
	"cliff/lib/cliapp/engineflags"
	"cliff/lib/engine"
	"cliff/lib/locaterun"
)

// exits says what the exit statuses mean here: the failures are its
// input, not its findings.
var exits = cliapp.Exits{
	OK:     "every failure was located (or shown not to reproduce)",
	Error:  "bad input named as FILE: record N, a driver or harness failure",
	Signal: "the location records finished before are written",
}

func main() {
	os.Exit(cliapp.Run(app(os.Stderr), exits, os.Args, os.Stderr))
}

func app(stderr io.Writer) *cli.App {
	var opts locaterun.Options
	var summary bool
	eflags := engineflags.New()
	return &cli.App{
		Name:      "cliff-locate",
		Usage:     "localise and reduce failures to ready-to-file Cranelift filetests",
		ArgsUsage: "[FILE...]  (cluster or verdict records as JSON lines, plain or zstd; .clif files; - or none is stdin)",
		Description: `For each failure it reads (the representative of each cluster record from
cliff-cluster, each failing verdict from cliff-diff, or each failing
function of a .clif file with target and "; run:" lines), cliff-locate

  1. picks the configurations at stake: the cheapest failing one and a
     passing one from the expected side (the side the cluster signature
     is measured against), and re-runs the case on them to fix the
     signature to keep;
  2. localises the failure as the CLIR paper does: execution barriers
     after call sites (function), at block ends (block), then semantic
     substitution of each result of the suspect block (instruction),
     falling back to the coarser level when the finer does not isolate;
  3. reduces the case to a fixed point by delta debugging over functions,
     calls, blocks, loops, instructions, parameters, stack slots,
     immediates, input vectors, settings and ISA flags;
  4. writes a location record (function, block, instruction, the level
     reached, the signature, the reduced file) and, with -d DIR, the
     reduced file as DIR/SIGNATUREHASH.clif: "test compile" for a compile
     failure, else "test run" with "; run:" lines holding the expected
     side's answers, the failing targets and one that passes, header comments
     with the symptom. --mask-out FILE appends the located opcode, type and
     architecture in known.mask's format, for the next campaign's cliff-gen
     --mask.

Every variant is verified by cliff's verifier and keeps lib/ub's rules
before Cranelift sees it, and counts only if it shows the same signature
(lib/cluster's) on the same configurations: a reduction never slides to
another bug. --budget bounds each failure; the smallest case found by then
is written with a note.

    cliff-diff --failures RUNS | cliff-cluster | cliff-locate -d repro`,
		Flags: []cli.Flag{
			cliapp.OutputFlag(&opts.Output, "location records"),
			&cli.StringFlag{Name: "dir", Aliases: []string{"d"}, Destination: &opts.Dir, Usage: "write each reduced filetest into `DIR`"},
			&cli.StringFlag{Name: "mask-out", Destination: &opts.MaskOut, Usage: "append the located combinations to the mask `FILE`"},
			&cli.DurationFlag{Name: "budget", Value: 5 * time.Minute, Destination: &opts.Budget, Usage: "time limit per failure"},
			eflags.JobsFlag(),
			eflags.TimeoutFlag(),
			eflags.CompileTimeoutFlag(),
			eflags.FuelFlag(),
			eflags.DriverFlag(),
			eflags.CraneliftFlag(),
			&cli.StringFlag{Name: "bisect", Destination: &opts.Bisect, Usage: "bisect each reduced file between two Cranelift releases, `V1..V2` (0.130.2..0.137.1): the release where the failure appears or goes away, in the location record (bisect) and cliff-cluster's report"},
			cliapp.SummaryFlag(&summary, "print one line per failure and the totals to stderr at the end"),
		},
		Action: func(c *cli.Context) error {
			// One scratch directory for the run's drivers, compilers and
			// harnesses, removed at the end (or by the next run after a kill).
			release, err := engine.UseScratchDir("cliff-locate")
			if err != nil {
				return err
			}
			defer release()
			if b := opts.Bisect; b != "" {
				if from, to, ok := strings.Cut(b, ".."); !ok || from == "" || to == "" {
					return cliapp.Usagef("--bisect %q: want V1..V2 (0.130.2..0.137.1)", b)
				}
			}
			opts.Engine = eflags.Options()
			opts.Engine.Log = io.Discard
			if _, err := eflags.Choose(c.Context, &opts.Engine, stderr); err != nil {
				return err
			}
			opts.Inputs, opts.Log = c.Args().Slice(), stderr
			if len(opts.Inputs) == 0 {
				opts.Inputs = []string{"-"}
			}
			sum, err := locaterun.Run(c.Context, opts)
			if summary && sum != nil {
				sum.Write(stderr)
			}
			if err != nil {
				return err
			}
			if sum.Located == 0 && sum.NoRepro == 0 {
				fmt.Fprintln(stderr, "cliff-locate: no failure in the input")
			}
			return nil
		},
	}
}
