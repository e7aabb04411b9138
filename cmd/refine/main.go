// Command cliff-refine rewrites generated test cases with a table of
// refinement passes (lib/refine) that make more of each case's code
// matter to its results: decoy blocks, liveness-aware merge params,
// priority operand selection and sink anchoring, then drops the guards
// that never fire on a case's inputs (lib/prune). Each pass keeps the case
// valid and free of undefined behaviour (prune: on its inputs).
package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"cliff/lib/batchjob"
	"cliff/lib/cliapp"
	"cliff/lib/refine"
)

// exits says what the exit statuses mean here: cliff-refine finds nothing.
var exits = cliapp.Exits{
	OK:     "the cases were refined",
	Error:  "unreadable or invalid input, named as FILE: record N (ID); with --verify-each, a pass that produced invalid CLIF (a bug in cliff-refine)",
	Signal: "between records; one waiting for its input stops when the next record or the end comes; records refined before are written",
}

func main() {
	batchjob.Setup()
	os.Exit(cliapp.Run(app(os.Stderr), exits, os.Args, os.Stderr))
}

func app(stderr io.Writer) *cli.App {
	var opts refine.RunOptions
	var passNames string
	skip := make([]bool, len(refine.Passes())) // --no-NAME, in table order
	passesFlag := &cli.StringFlag{Name: "passes", Destination: &passNames, Usage: "run only these passes (`NAME,NAME`; they still run in table order)"}
	flags := []cli.Flag{cliapp.OutputFlag(&opts.Output, "cases"), passesFlag}
	for i, p := range refine.Passes() {
		flags = append(flags, &cli.BoolFlag{Name: "no-" + p.Name, Destination: &skip[i], Usage: "skip " + p.Name})
	}
	flags = append(flags,
		&cli.BoolFlag{Name: "verify-each", Destination: &opts.VerifyEach, Usage: "verify each case before the passes and after every pass; stop at the first problem"},
		cliapp.SummaryFlag(&opts.Stats, "print a summary of the refined cases' metrics to stderr at the end"),
		&cli.StringFlag{Name: "survival", Destination: &opts.Survival, Usage: "measure each refined case's instruction survival at opt_level=speed on `TARGET` (x86_64, riscv64=has_v,has_zbb: as cliff-run's --isa-flags) through the driver"},
		cliapp.DriverFlag(&opts.Driver, "for --survival"),
		&cli.DurationFlag{Name: "survival-timeout", Value: time.Minute, Destination: &opts.Timeout, Usage: "`DURATION` limit per case for --survival"},
	)
	return &cli.App{
		Name:      "cliff-refine",
		Usage:     "rewrite test cases so that more of their code reaches their results",
		ArgsUsage: "[FILE...]  (case records as JSON lines, plain or zstd; - or none is stdin)",
		Description: `Reads case records (cliff-gen's output) and writes each one back with its
CLIF rewritten by the refinement passes, "refined" extended by the names
of the passes applied and "metrics" recomputed:

    cliff-gen | cliff-refine | cliff-run --arch riscv64 | cliff-diff

Passes, in the order they run:
` + passTable() + `
Every pass keeps the case valid and free of traps, undefined behaviour and
target-dependent results (the rules of lib/ub), and out of the operand-
producer patterns of the mask the case names (options.mask, read once). decoy and merge keep what
the case computes; operands and sink change it (the inputs stay valid).
--passes selects passes and --no-NAME drops one (it wins over --passes);
the order is always the table's, so ablations compare like with like. The
same input and passes give the same output, byte for byte: each pass draws
from its own random stream, seeded by the case's seed and index.

prune, last, runs only on cases whose swarm has the feature prune on
(cliff-gen --features prune=on|off): each case runs on cliff's reference
on every input vector, and the guards that never chose their substitute
(a divisor's zero and overflow guards, a conversion's range guard, a NaN
made canonical) are dropped; their operations carry @c1fe. The pruned
case runs on the reference again, and unless every input answers as
before every guard is put back. A pruned case is refused as input (its
operations are safe only for its inputs). --summary ends with the
guards seen, run, pruned and restored per kind.

--verify-each runs cliff's verifier on each case before the first pass
(an invalid input is bad input) and after every pass (an invalid result
names the pass, the case and the verifier's errors: a cliff-refine bug).
--survival asks Cranelift's mid-end (opt_level=speed) what fraction of
each refined case's instructions it keeps, into metrics.survival; a case
the driver cannot optimise is reported on stderr and keeps no survival.

-o FILE is written to a temporary file renamed over FILE at the end: a run
that fails before its first record, or is killed, leaves FILE as it was;
an output that is also an input is refused. Records refined before an
error or a signal are written.`,
		Flags: flags,
		Action: func(c *cli.Context) error {
			var names []string
			if c.IsSet(passesFlag.Name) {
				names = passList(passNames)
			}
			passes, err := choosePasses(names, skip)
			if err != nil {
				return err
			}
			opts.Passes, opts.Inputs, opts.Log = passes, c.Args().Slice(), stderr
			return refine.Run(c.Context, opts)
		},
	}
}

// passTable is the pass table as --help shows it.
func passTable() string {
	var b strings.Builder
	for _, p := range refine.Passes() {
		fmt.Fprintf(&b, "  %-9s %s\n", p.Name, p.Doc)
	}
	return b.String()
}

// passList is the names of --passes NAME,NAME.
func passList(arg string) []string {
	names := []string{}
	for _, n := range strings.Split(arg, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	return names
}

// choosePasses applies --passes (names; nil: not given) and the --no-NAME
// flags (skip, in table order) to the table.
func choosePasses(names []string, skip []bool) ([]refine.Pass, error) {
	passes := refine.Passes()
	if names != nil {
		var err error
		if passes, err = refine.Select(names); err != nil {
			return nil, fmt.Errorf("--passes: %w", err)
		}
	}
	skipped := map[string]bool{}
	for i, p := range refine.Passes() {
		skipped[p.Name] = skip[i]
	}
	var out []refine.Pass
	for _, p := range passes {
		if !skipped[p.Name] {
			out = append(out, p)
		}
	}
	return out, nil
}
