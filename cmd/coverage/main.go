// Command cliff-coverage reports which ISLE rules of Cranelift an input
// reached, from the PC files that the instrumented cliff-driver of
// scripts/coverage.sh wrote (lib/coverage says how it measures).
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"cliff/lib/cliapp"
	"cliff/lib/coverage"
	"cliff/lib/weights"
)

// exits says what the exit statuses mean here: coverage is a measure, not
// a finding.
var exits = cliapp.Exits{
	OK:    "the coverage was reported",
	Error: "an INPUT=DIR whose steps.tsv or PC files are missing or bad (named as FILE:LINE), a driver that is not a coverage build, an unwritable --report DIR",
}

func main() {
	os.Exit(cliapp.Run(app(os.Stdout), exits, os.Args, os.Stderr))
}

func app(stdout io.Writer) *cli.App {
	var driver, reportDir, weightsPath string
	var groupArgs cli.StringSlice
	return &cli.App{
		Name: "cliff-coverage",
		// --group's value is a comma-separated list of its own.
		DisableSliceFlagSeparator: true,
		Usage:                     "report the ISLE line and rule coverage of inputs run by an instrumented cliff-driver",
		ArgsUsage:                 "INPUT=DIR...  (DIR holds steps.tsv and a directory of PC files per step)",
		Description: `Each INPUT=DIR is one input (the runtests, a campaign) that
scripts/coverage.sh ran in steps with the instrumented driver: DIR/steps.tsv
has a line "STEPDIR CASES CPU_SECONDS" per step, and each STEPDIR the PC
files its drivers wrote (CLIFF_COVERAGE_DIR). The coverage after each step
is cumulative; each --group is the union of its inputs, "union" that of
all inputs together.

Prints the Markdown tables (line coverage of each generated isle_<arch>.rs
and isle_opt.rs, lowering-rule coverage, all-rule coverage) on stdout. With
--report DIR, also writes there coverage.md, coverage.jsonl (a record per input,
step and target), coverage-cpu.svg and coverage-cases.svg (coverage
against CPU time and cases), uncovered-<target>.txt (the rules no input
covered: file:line, 1-based, and the rule's first line),
missed-<group>-<target>.txt (rules some input covered and the group did
not: where its profiles should grow) and only-<input>-<target>.txt (rules
only that input covered).

--weights FILE writes a cliff-gen --weights file (lib/weights) aimed at the
rules the campaigns missed: those no input reached and, with --group, those
other inputs reached and the first group did not, on the targets the
inputs reached at all. Each missed rule counts for the opcode families its
left-hand side matches (a helper rule: the rules that use it, when they
match few opcodes) and the types it names; each family and type gets
sqrt(n/median) of its n missed rules, from 0.25 to 4 (lib/coverage's
Weights): the draws move from what the campaigns reach to what they miss.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "driver", Destination: &driver, Usage: "the instrumented cliff-driver the inputs ran with (`PATH`)", Required: true},
			&cli.StringFlag{Name: "report", Destination: &reportDir, Usage: "write the report files into `DIR`"},
			&cli.StringSliceFlag{Name: "group", Destination: &groupArgs, Usage: "report the union of some inputs as one more row: `NAME=INPUT,INPUT...` (repeatable)"},
			&cli.StringFlag{Name: "weights", Destination: &weightsPath, Usage: "write cliff-gen --weights aimed at the rules the campaigns missed (the first --group's, else the union's) to `FILE`"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return cliapp.Usagef("want at least one INPUT=DIR")
			}
			var groups []coverage.Group
			for _, arg := range groupArgs.Value() {
				name, list, ok := strings.Cut(arg, "=")
				if !ok || name == "" || list == "" {
					return cliapp.Usagef("--group %q: want NAME=INPUT,INPUT...", arg)
				}
				groups = append(groups, coverage.Group{Name: name, Inputs: strings.Split(list, ",")})
			}
			var runs []coverage.Run
			for _, arg := range c.Args().Slice() {
				input, dir, ok := strings.Cut(arg, "=")
				if !ok || input == "" || dir == "" {
					return cliapp.Usagef("%q: want INPUT=DIR", arg)
				}
				run, err := coverage.ReadRun(input, dir)
				if err != nil {
					return err
				}
				runs = append(runs, run)
			}
			rep, err := coverage.Measure(driver, runs, groups)
			if err != nil {
				return err
			}
			if path := weightsPath; path != "" {
				group := ""
				if len(groups) > 0 {
					group = groups[0].Name
				}
				if err := writeWeights(path, rep, group, c.Args().Slice()); err != nil {
					return err
				}
			}
			if out := reportDir; out != "" {
				if err := write(out, rep); err != nil {
					return err
				}
			}
			_, err = io.WriteString(stdout, rep.Markdown())
			return err
		},
	}
}

func write(dir string, rep *coverage.Report) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files := map[string]func(io.Writer) error{
		"coverage.md":        func(w io.Writer) error { _, err := io.WriteString(w, rep.Markdown()); return err },
		"coverage.jsonl":     rep.WriteJSONL,
		"coverage-cpu.svg":   func(w io.Writer) error { _, err := io.WriteString(w, rep.SVG(coverage.AxisCPU)); return err },
		"coverage-cases.svg": func(w io.Writer) error { _, err := io.WriteString(w, rep.SVG(coverage.AxisCases)); return err },
	}
	for target, rules := range rep.Uncovered {
		files["uncovered-"+target+".txt"] = func(w io.Writer) error { return coverage.WriteRuleList(w, rules, rep.RuleText) }
	}
	for group, by := range rep.Missed {
		for target, rules := range by {
			files["missed-"+group+"-"+target+".txt"] = func(w io.Writer) error { return coverage.WriteRuleList(w, rules, rep.RuleText) }
		}
	}
	for target, by := range rep.Only {
		for input, rules := range by {
			files["only-"+input+"-"+target+".txt"] = func(w io.Writer) error { return coverage.WriteRuleList(w, rules, rep.RuleText) }
		}
	}
	for name, writeTo := range files {
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		err = writeTo(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

// writeWeights writes the weights aimed at what the campaigns missed to
// path, with a header that says where they come from, and prints what
// they rest on to stderr.
func writeWeights(path string, rep *coverage.Report, group string, inputs []string) error {
	missed := rep.CampaignMisses(group)
	w, aims, err := rep.Weights(missed)
	if err != nil {
		return fmt.Errorf("--weights: %w", err)
	}
	from := "the union"
	if group != "" {
		from = "group " + group
	}
	header := []string{
		"cliff-gen --weights, written by cliff-coverage --weights from the rules " + from + " missed",
		"inputs: " + strings.Join(inputs, " "),
		fmt.Sprintf("%d missed rules, %d of them name no family and no type", aims.Rules, aims.Silent),
	}
	for _, kind := range []struct {
		name   string
		counts map[string]int
	}{{"family", aims.Families}, {"type", aims.Types}} {
		names := make([]string, 0, len(kind.counts))
		for n := range kind.counts {
			names = append(names, n)
		}
		sort.Strings(names)
		var parts []string
		for _, n := range names {
			parts = append(parts, fmt.Sprintf("%s=%d", n, kind.counts[n]))
		}
		header = append(header, "missed rules per "+kind.name+": "+strings.Join(parts, " "))
	}
	var b strings.Builder
	if err := weights.Write(&b, w, header); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
