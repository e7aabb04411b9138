// Command cliff-extract turns CLIF files into cliff's corpus of basic blocks
// (JSON lines of snippet records), or with --check lints them.
package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"cliff/lib/cliapp"
	"cliff/lib/extract"
)

// exits says what the exit statuses mean here.
var exits = cliapp.Exits{
	OK:      "every file was read (or, with --check, passed)",
	Finding: "with --check, some file failed",
	Error:   "a file that does not parse (unless --keep-going), an unreadable path, an output that is also an input",
	Signal:  "between files; the records before are written",
}

func main() {
	os.Exit(cliapp.Run(app(), exits, os.Args, os.Stderr))
}

func app() *cli.App {
	var opts extract.Options
	var keepGoing, check bool
	output := cliapp.OutputFlag(&opts.Output, "records")
	functions := &cli.BoolFlag{Name: "functions", Destination: &opts.Functions, Usage: "also emit one record per function, with its CLIF text"}
	summary := cliapp.SummaryFlag(&opts.Stats, "print counts per opcode and per type to stderr")
	keepGoingFlag := &cli.BoolFlag{Name: "keep-going", Destination: &keepGoing, Usage: "exit 0 even if some files did not parse"}
	return &cli.App{
		Name:      "cliff-extract",
		Usage:     "extract a corpus of basic blocks from CLIF files, or check CLIF files",
		ArgsUsage: "[PATH...]  (files, directories searched for *.clif, or - for stdin; none means stdin)",
		Description: `Writes one snippet record per basic block (and with --functions one per
function) as JSON lines. Files that do not parse are reported on stderr as
file:line:col: message and skipped.

With --check, only parses (and with --verify verifies) the files and prints
one line per failing file.

-o FILE is written to a temporary file renamed over FILE at the end: a run
that fails before its first record, or is killed, leaves FILE as it was;
an output that is also an input is refused.

A file that does not parse is bad input (exit status 2, after the other
files), unless --keep-going; with --check, failing files are what it looks
for (exit status 1).`,
		Flags: []cli.Flag{
			output,
			functions,
			summary,
			keepGoingFlag,
			&cli.BoolFlag{Name: "check", Destination: &check, Usage: "only parse the files and report the failing ones"},
			&cli.BoolFlag{Name: "verify", Destination: &opts.Verify, Usage: "also run the verifier (with --check, or to skip functions that do not verify)"},
		},
		Action: func(c *cli.Context) error {
			sources, err := extract.Expand(c.Args().Slice())
			if err != nil {
				return err
			}
			if check {
				for _, flag := range []cli.Flag{output, functions, summary, keepGoingFlag} {
					if name := flag.Names()[0]; c.IsSet(name) {
						return cliapp.Usagef("--check only reports the failing files: --%s does not apply", name)
					}
				}
				failed, err := extract.Check(os.Stdout, sources, extract.CheckOptions{Verify: opts.Verify})
				if err != nil {
					return err
				}
				if failed > 0 {
					return cliapp.Findingf("%d of %d files failed", failed, len(sources))
				}
				return nil
			}
			opts.Sources, opts.Log = sources, os.Stderr
			sum, err := extract.Run(c.Context, opts)
			if err != nil {
				return err
			}
			if sum.FailedFiles > 0 && !keepGoing {
				return fmt.Errorf("%d of %d files failed to parse", sum.FailedFiles, len(sources))
			}
			return nil
		},
	}
}
