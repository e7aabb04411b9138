// Command cliff-diff judges test cases run by cliff-run: it compares each
// case's results across configurations (architecture, optimisation level,
// flags, executor, the interpreter among them) and writes one verdict record
// per case, joining the results of a case from several files.
package main

import (
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"cliff/lib/cliapp"
	"cliff/lib/judge"
)

// exits says what the exit statuses mean here.
var exits = cliapp.Exits{
	OK:      "no Cranelift failure (consistent, harness_error, stack_overflow and unsupported verdicts only)",
	Finding: "some case failed",
	Error:   "unreadable or invalid input is named as FILE: record N",
	Signal:  "the cases read before it are judged and written",
}

func main() {
	os.Exit(cliapp.Run(app(os.Stderr), exits, os.Args, os.Stderr))
}

func app(stderr io.Writer) *cli.App {
	var opts judge.Options
	var summary bool
	return &cli.App{
		Name:      "cliff-diff",
		Usage:     "compare test-case results across configurations and write a verdict per case",
		ArgsUsage: "[FILE...]  (JSON lines, plain or zstd; - or none is stdin)",
		Description: `Reads case records (with the results cliff-run appended) and lone result
records, and writes one verdict record per case.

Verdicts. Results that ended ok or in a trap are answers, compared across
configurations: values by their output hash, traps by trap code, trapping
input and the outputs before it (a trap is an outcome like a value). All
answers alike: consistent. Otherwise the verdict is the first of these that
the case shows, the others being named in the summary:
` + judge.VerdictList() + `Results with status stack_overflow or unsupported are limits and gaps of a
configuration, not Cranelift failures: they are left out and the case is
judged on the others (its summary names them after "not compared:").
Several releases (cliff-run --cranelift A,B: each configuration names
its release) refine a failure into
` + judge.ReleaseVerdictList() + `with the failure itself as the verdict's "symptom"; a release's
configurations count with their backend's as one voice.
A case with fewer than two answers is consistent when nothing failed; its
summary says "only one configuration ran". Verdicts other than consistent
carry the case.

The reference. When cliff's reference (executor ref, cliff's own CLIF
interpreter, which shares no code with Cranelift) answered, its side is the
right one, written first and marked "(expected)" in the summary: a side
that disagrees with it is the failing one, however many configurations it
has. Without it, the answer Cranelift's interpreter shares with compiled
code is right, else the one of most architectures. A reference that did
not answer (unsupported, or out of fuel, call depth or stack memory) is
not compared, never a failure of Cranelift: it counts as unsupported, or
as stack_overflow for its limits.

Joining. With several files, the records of a case from all of them are
joined by case ID: the same case run on different machines, lone result
records, case records repeating earlier results. The same configuration
with the same outcome twice counts once; with different outcomes, both are
kept (the summary says the configuration disagrees with itself). Files are
read in turn, a record from each; within one file the records of a case
must be adjacent (as cliff-run writes them), and a case is judged once every
file has moved past it or ended, so files holding the same cases in about
the same order are joined in little memory. A case missing from a file is
judged, with the results it has, when that file ends. A record for a case
already judged is an error; --hold holds every case until all files end
instead. A result whose case is in no file is reported and not judged
(exit status 2). One stream is judged as it comes.

Reading stops at the first bad record or signal; the cases read before it
are still judged and written. -o FILE is written to a temporary file
renamed over FILE at the end: a run that fails before its first verdict,
or is killed, leaves FILE as it was; an output that is also an input is
refused.`,
		Flags: []cli.Flag{
			cliapp.OutputFlag(&opts.Output, "verdicts"),
			&cli.BoolFlag{Name: "failures", Destination: &opts.Failures, Usage: "write only verdicts other than consistent"},
			cliapp.SummaryFlag(&summary, "print the number of cases per verdict to stderr at the end"),
			&cli.BoolFlag{Name: "hold", Destination: &opts.Hold, Usage: "judge no case before every file has ended (for files whose records of a case are not adjacent; holds every case in memory)"},
		},
		Action: func(c *cli.Context) error {
			opts.Inputs, opts.Log = c.Args().Slice(), stderr
			t, err := judge.Diff(c.Context, opts)
			if summary {
				t.Write(stderr)
			}
			if err != nil {
				return err
			}
			if n := t.Failures(); n > 0 {
				return cliapp.Findingf("%d of %d cases failed", n, t.Cases)
			}
			return nil
		},
	}
}
