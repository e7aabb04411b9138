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

// exits says what the exit statuses mean here.
var exits = cliapp.Exits{
	OK:      "no new failing combination",
	Finding: "some failing combination is new",
	Error:   "bad input named as FILE: record N, a verdict of a case that is not a census case, an I/O error",
}

func main() {
	os.Exit(cliapp.Run(app(os.Stderr), exits, os.Args, os.Stderr))
}

func app(stderr io.Writer) *cli.App {
	var opts census.Options
	var summary bool
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
the counts to stderr.`,
		Flags: []cli.Flag{
			cliapp.OutputFlag(&opts.Output, "census rows"),
			&cli.StringFlag{Name: "md", Destination: &opts.Report, Usage: "write the report to `FILE` (census.md)"},
			cliapp.SummaryFlag(&summary, "print the counts per target and class to stderr"),
		},
		Action: func(c *cli.Context) error {
			known, err := census.LoadKnowledge()
			if err != nil {
				return fmt.Errorf("the embedded facts and findings: %w", err)
			}
			opts.Inputs, opts.Known = c.Args().Slice(), known
			res, err := census.Run(c.Context, opts)
			if summary && res != nil {
				writeSummary(stderr, res)
			}
			if err != nil {
				return err
			}
			if n := res.NewFailures(); n > 0 {
				return cliapp.Findingf("%d failing combinations are new", n)
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
