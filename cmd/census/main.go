// Command cliff-census classifies the lowering census (scripts/census.sh):
// it reads cliff-diff's verdicts of the cases cliff-gen --enumerate --all
// wrote, run on each target and the interpreter, and writes per target each
// failing combination, classified and marked known or new (lib/census), as
// JSON lines, and the report census.md.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"cliff/lib/census"
	"cliff/lib/cliapp"
)

// Exit statuses.
const (
	exitOK    = 0                // no new failing combination
	exitNew   = 1                // some failing combination is new
	exitError = cliapp.ExitUsage // bad input, I/O error, bad usage
)

func main() {
	os.Exit(run(os.Args, os.Stderr))
}

func run(args []string, stderr io.Writer) int {
	return cliapp.Run(app(stderr), args, stderr, nil)
}

func app(stderr io.Writer) *cli.App {
	return &cli.App{
		Name:      "cliff-census",
		Usage:     "classify the lowering census: per target, each failing combination as unlowered, panic, wrong or qemu, known or new",
		ArgsUsage: "[FILE...]  (every verdict of cliff-diff, as JSON lines, plain or zstd; - or none is stdin)",
		Description: `Reads cliff-diff's verdicts (all of them, not only --failures: a
consistent one says its combination is fine everywhere) of census cases
(cliff-gen --enumerate --all, ids census-<combination>; --constants,
census-const:<combination>, their constant forms) and classifies each
combination on each target it ran on, as the worst of its configurations:
` + census.ClassList() + `A failure is known when facts.txt excludes it from the profile (its line,
with upstream's issue), known.mask lists it, or a known.mask paragraph or
finding quotes its diagnostic; else new.

-o FILE writes one "census" row per failing combination and target, and per
fine combination a profile excludes (a candidate to re-enable); --md FILE
writes the report: counts per target and class, known vs new, the
combinations, the verifier discrepancies, the candidates to re-enable.
The constant forms are a section of their own in both, each row with its
parameter form's class on the same target (param_class). --summary prints
the counts to stderr.

Exit status: 0 no new failure, 1 a new failure, 2 error (bad input named as
FILE: record N, a verdict of a case that is not a census case, I/O error).`,
		Flags: []cli.Flag{
			cliapp.OutputFlag("census rows"),
			&cli.StringFlag{Name: "md", Usage: "write the report to `FILE` (census.md)"},
			&cli.BoolFlag{Name: "summary", Usage: "print the counts per target and class to stderr"},
		},
		Action: func(c *cli.Context) error {
			known, err := census.LoadKnowledge()
			if err != nil {
				return fmt.Errorf("the embedded facts and findings: %w", err)
			}
			res, err := census.Run(c.Context, census.Options{
				Inputs: c.Args().Slice(), Output: c.String("output"), Report: c.String("md"), Known: known,
			})
			if c.Bool("summary") && res != nil {
				writeSummary(stderr, res)
			}
			if err != nil {
				return err
			}
			if n := res.NewFailures(); n > 0 {
				return cli.Exit(fmt.Sprintf("%d failing combinations are new", n), exitNew)
			}
			return nil
		},
	}
}

// writeSummary prints one line per target and form: its counts by class.
func writeSummary(w io.Writer, res *census.Result) {
	writeTallies(w, res.Targets(), res.Tallies, "")
	writeTallies(w, res.ConstTargets(), res.ConstTallies, " in constant form")
}

func writeTallies(w io.Writer, targets []census.Target, tallies map[census.Target]*census.Tally, form string) {
	for _, target := range targets {
		t := tallies[target]
		fmt.Fprintf(w, "%s: %d combinations%s:", target, t.Judged, form)
		for _, c := range census.Classes() {
			if n := t.ByClass[c]; n > 0 {
				fmt.Fprintf(w, " %s %d", c, n)
				if t.New[c] > 0 {
					fmt.Fprintf(w, " (new %d)", t.New[c])
				}
			}
		}
		fmt.Fprintln(w)
	}
}
