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

// Exit statuses.
const (
	exitOK     = 0
	exitFailed = 1 // some file failed to parse (or, with --check, to pass)
	exitError  = 2 // bad usage, an unreadable path, an output that is also an input, an I/O error
)

func main() {
	os.Exit(cliapp.Run(app(), os.Args, os.Stderr, nil))
}

func app() *cli.App {
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

Exit status: 0 all files were read (or passed --check), 1 some file failed
(unless --keep-going), 2 an error (an unreadable path, an output that is
also an input, an I/O error), 130 or 143 stopped by SIGINT or SIGTERM
(between files; the records before are written).`,
		Flags: []cli.Flag{
			cliapp.OutputFlag("records"),
			&cli.BoolFlag{Name: "functions", Usage: "also emit one record per function, with its CLIF text"},
			&cli.BoolFlag{Name: "summary", Aliases: []string{"stats"}, Usage: "print counts per opcode and per type to stderr"},
			&cli.BoolFlag{Name: "keep-going", Usage: "exit 0 even if some files did not parse"},
			&cli.BoolFlag{Name: "check", Usage: "only parse the files and report the failing ones"},
			&cli.BoolFlag{Name: "verify", Usage: "also run the verifier (with --check, or to skip functions that do not verify)"},
		},
		Action: func(c *cli.Context) error {
			sources, err := extract.Expand(c.Args().Slice())
			if err != nil {
				return err
			}
			if c.Bool("check") {
				for _, name := range []string{"output", "functions", "stats", "keep-going"} {
					if c.IsSet(name) {
						return cliapp.Usagef("--check only reports the failing files: --%s does not apply", name)
					}
				}
				failed, err := extract.Check(os.Stdout, sources, extract.CheckOptions{Verify: c.Bool("verify")})
				if err != nil {
					return err
				}
				if failed > 0 {
					return cli.Exit(fmt.Sprintf("%d of %d files failed", failed, len(sources)), exitFailed)
				}
				return nil
			}
			summary, err := extract.Run(c.Context, extract.Options{
				Sources:   sources,
				Output:    c.String("output"),
				Functions: c.Bool("functions"),
				Verify:    c.Bool("verify"),
				Stats:     c.Bool("stats"),
				Log:       os.Stderr,
			})
			if err != nil {
				return err
			}
			if summary.FailedFiles > 0 && !c.Bool("keep-going") {
				return cli.Exit(fmt.Sprintf("%d of %d files failed to parse", summary.FailedFiles, len(sources)), exitFailed)
			}
			return nil
		},
	}
}
