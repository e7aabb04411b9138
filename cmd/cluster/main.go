// Command cliff-cluster groups cliff-diff's failing verdicts by root cause
// (lib/cluster's signature) and writes one cluster record per signature,
// each carrying its representative's verdict and case; --report writes the
// campaign report (lib/report).
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"cliff/lib/cliapp"
	"cliff/lib/cluster"
	"cliff/lib/history"
	"cliff/lib/record"
	"cliff/lib/report"
)

// exits says what the exit statuses mean here.
var exits = cliapp.Exits{
	OK:      "no new cluster (none, or only known findings; with --history, none that no earlier run had)",
	Finding: "some cluster is new",
	Error:   "unreadable or invalid input is named as FILE: record N",
}

// flags are cliff-cluster's flags' values.
type flags struct {
	cluster.Options
	summary   bool
	report    string
	history   string
	plan      float64
	cases     int
	seed      uint64
	cranelift string
	cpu       float64
}

func main() {
	os.Exit(cliapp.Run(app(os.Stderr), exits, os.Args, os.Stderr))
}

func app(stderr io.Writer) *cli.App {
	f := &flags{}
	plan := &cli.Float64Flag{Name: "plan", Category: "nightly history", Destination: &f.plan, Usage: "plan a run of `MINUTES` of CPU time (or resume the interrupted one) and print it as shell assignments"}
	cases := &cli.IntFlag{Name: "cases", Category: "nightly history", Destination: &f.cases, Usage: "plan a run of `N` cases instead of a CPU budget"}
	seed := &cli.Uint64Flag{Name: "seed", Category: "nightly history", Destination: &f.seed, Usage: "plan the run with seed `S` instead of a fresh one"}
	cpu := &cli.Float64Flag{Name: "cpu", Category: "nightly history", Destination: &f.cpu, Usage: "the CPU `SECONDS` the run's campaign took, for sizing later runs"}
	output := cliapp.OutputFlag(&f.Output, "cluster records")
	reportFlag := &cli.StringFlag{Name: "report", Destination: &f.report, Usage: "write the campaign report into `DIR`"}
	locations := &cli.StringFlag{Name: "locations", Destination: &f.Locations, Usage: "location records `FILE` (cliff-locate) for the report and the known-finding match"}
	return &cli.App{
		Name:      "cliff-cluster",
		Usage:     "group failing verdicts by root cause and write one cluster record per signature",
		ArgsUsage: "[FILE...]  (verdicts as JSON lines, plain or zstd; - or none is stdin)",
		Description: `Reads cliff-diff's verdicts and writes one cluster record per signature,
largest first, so that

    cliff-diff --failures RUNS | cliff-cluster | cliff-locate -d DIR

is a plain pipe.
` + cluster.ClusteredSentence() + `
The signature is CLIR's S = <R, K>, canonical. R: the verdict and the
failing configurations, abstracted: the architectures, "*" for the opt
levels when the failure shows without optimisation, "opt" when only the
optimising levels fail, ISA flags, settings or executor only where they
tell failing from passing runs, "*" for every architecture. K: the panic or
error message with value numbers, numbers, paths, crate versions and build
hashes erased, and the panic site (an ISLE panic's .isle rule line); a
missing lowering as opcode.type; for a divergence, per differing output its
type and kind of difference against the expected side (cliff's
reference's answer, else the interpreter's when a compiled configuration
shares it, else the largest side, as cliff-diff takes it): sign, nan, one
lane, every lane, some lanes, value, a trap and what the expected side
did. A record carries the signature, its parts (failing_configs,
diagnostic) and hash, the count, first and last seen (when cliff-cluster
read them), up to --max-members member IDs and the representative: the
member with the fewest instructions, then the simplest control flow, then
the smallest ID, with its whole verdict. "known" names the known finding
it matches (lib/profile's known.mask or findings/: the ISLE rule line,
panic site or opcode.type quoted there for the same architecture, or the
located instruction in known.mask); "possibly: ..." when only the
representative contains a masked combination.

--report DIR writes index.md (the campaign in numbers, the clusters, new
ones first), cluster-HASH.md per cluster in the shape of wasmtime's
Cranelift bug template with its test file cluster-HASH.clif, and the plots
failures.svg and targets.svg. --locations FILE (cliff-locate's location
records) puts each located cluster's reduced file and location in it, and
splits a signature by the culprits located for it (two root causes behind
one panic, as a campaign loop finds them): a member goes with the first
location whose mask entries match its case, and the signature gets " @ "
and those entries ("culprit"); members matching none stay in the plain
cluster, explained only by a location without mask entries.

Nightly history (lib/history; scripts/nightly.sh drives it). With
--history DIR, two steps make one run of a history:

    cliff-cluster --history DIR --plan MINUTES   (or --cases N)

plans a run and prints it as shell assignments (RUN, SEED, N, CRANELIFT,
CRANELIFT_VERSION, CAMPAIGN, RESUME, EXPECTED_CPU): a fresh seed (--seed
to fix it), N cases for a CPU budget of MINUTES at the cases per CPU
second the latest runs measured, the Cranelift (--cranelift SPEC) pinned
to a version. While DIR holds a run planned and not recorded (killed
halfway), it prints that run again with RESUME=1. Then, once its campaign
(scripts/campaign.sh with OUT=$CAMPAIGN) has finished,

    cliff-cluster --history DIR --cpu SECONDS [FILE...]

clusters its failing verdicts (none: $CAMPAIGN/failures.jsonl.zst),
writes the report (--report, default DIR/report) with the history page
history.md, records the run in DIR/runs (one file, written at once: a run
is never counted twice) and prints what no earlier run had found; exit
status 1 when there is such a cluster, whether a known finding or not.

Reading stops at the first bad record; the verdicts read before it are
still clustered and written. -o FILE is written to a temporary file
renamed over FILE at the end; an output that is also an input is
refused.`,
		Flags: []cli.Flag{
			output,
			cliapp.SummaryFlag(&f.summary, "print the verdict counts and one line per cluster to stderr at the end"),
			reportFlag,
			locations,
			&cli.IntFlag{Name: "max-members", Value: cluster.DefaultMaxMembers, Destination: &f.MaxMembers, Usage: "list at most `N` member IDs per cluster"},
			&cli.StringFlag{Name: "history", Category: "nightly history", Destination: &f.history, Usage: "the nightly history `DIR`: record the run pending there (or --plan one) and print what is new"},
			plan, cases, seed,
			&cli.StringFlag{Name: "cranelift", Category: "nightly history", Value: "default", EnvVars: []string{cliapp.CraneliftEnv}, Destination: &f.cranelift, Usage: "plan the run on Cranelift `SPEC` (latest: the newest release, pinned for the run)"},
			cpu,
		},
		Action: func(c *cli.Context) error {
			if f.MaxMembers < 1 {
				return cliapp.Usagef("--max-members %d: want at least 1", f.MaxMembers)
			}
			if f.history != "" {
				return nightly(c, f, nightlyFlags{plan: plan, cases: cases, seed: seed, cpu: cpu, output: output, report: reportFlag, locations: locations}, stderr)
			}
			// --cranelift is left out: $CLIFF_CRANELIFT sets it for every
			// tool, and means nothing here without --history.
			for _, flag := range []cli.Flag{plan, cases, seed, cpu} {
				if name := flag.Names()[0]; c.IsSet(name) {
					return cliapp.Usagef("--%s needs --history DIR", name)
				}
			}
			known, err := cluster.LoadKnown()
			if err != nil {
				return fmt.Errorf("the embedded known findings: %w", err)
			}
			f.Inputs, f.Known = c.Args().Slice(), known
			res, err := cluster.Run(c.Context, f.Options)
			if f.summary {
				writeSummary(stderr, res)
			}
			if dir := f.report; dir != "" && res != nil && res.Clusterer.Stats.Verdicts > 0 {
				if rerr := report.Write(dir, campaign(res)); rerr != nil {
					return errors.Join(err, fmt.Errorf("report: %w", rerr))
				}
			}
			if err != nil {
				return err
			}
			if n := res.NewClusters(); n > 0 {
				return cliapp.Findingf("%d of %d clusters are new", n, len(res.Records))
			}
			return nil
		},
	}
}

// nightlyFlags are the flags whose presence nightly checks.
type nightlyFlags struct {
	plan, cases, seed, cpu, output, report, locations cli.Flag
}

// isSet reports whether the command line gave flag.
func isSet(c *cli.Context, flag cli.Flag) bool { return c.IsSet(flag.Names()[0]) }

// nightly is --history: --plan plans a run; otherwise the pending run is
// recorded, its report written and what is new printed.
func nightly(c *cli.Context, f *flags, given nightlyFlags, stderr io.Writer) error {
	h, err := history.Open(f.history)
	if err != nil {
		return err
	}
	if isSet(c, given.plan) || isSet(c, given.cases) {
		for _, flag := range []cli.Flag{given.output, given.report, given.locations, given.cpu} {
			if isSet(c, flag) {
				return cliapp.Usagef("--%s does not go with --plan: planning reads and writes no records", flag.Names()[0])
			}
		}
		if c.NArg() > 0 {
			return cliapp.Usagef("--plan reads no verdicts (%s given)", c.Args().First())
		}
		opts := history.PlanOptions{BudgetMinutes: f.plan, Cases: f.cases,
			Cranelift: func() (string, string, error) { return history.PinCranelift(c.Context, f.cranelift, stderr) }}
		if isSet(c, given.seed) {
			seed := f.seed
			opts.Seed = &seed
		}
		plan, err := h.Plan(opts)
		if err != nil {
			return err
		}
		for _, n := range plan.Notes {
			fmt.Fprintf(stderr, "cliff-cluster: %s\n", n)
		}
		return plan.WriteShell(c.App.Writer)
	}
	for _, flag := range []cli.Flag{given.output, given.locations, given.seed} {
		if isSet(c, flag) {
			return cliapp.Usagef("--%s does not go with --history: the history keeps the clusters in DIR/runs", flag.Names()[0])
		}
	}
	known, err := cluster.LoadKnown()
	if err != nil {
		return fmt.Errorf("the embedded known findings: %w", err)
	}
	res, err := h.Record(c.Context, history.RecordOptions{Inputs: c.Args().Slice(), CPUSeconds: f.cpu,
		Cliff: cliapp.Version(), Known: known, MaxMembers: f.MaxMembers})
	if err != nil {
		return err
	}
	if f.summary {
		writeSummary(stderr, res.Cluster)
	}
	dir := f.report
	if dir == "" {
		dir = h.ReportPath()
	}
	camp := campaign(res.Cluster)
	camp.History = res.Comparison
	if err := report.Replace(dir, camp); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := h.Commit(res.Run); err != nil {
		return err
	}
	if err := history.WriteNews(c.App.Writer, res.Comparison, dir); err != nil {
		return err
	}
	if len(res.Comparison.WithStatus(history.New)) > 0 {
		return cliapp.Finding("") // the news said which
	}
	return nil
}

// campaign is what the report is made of.
func campaign(res *cluster.Result) report.Campaign {
	c := report.Campaign{Stats: res.Clusterer.Stats, Timeline: res.Clusterer.Timeline()}
	first := map[string]int{}
	for _, g := range res.Clusterer.Groups() {
		first[g.Signature.Hash()] = g.FirstCase
	}
	for _, rec := range res.Records {
		c.Clusters = append(c.Clusters, report.Entry{Cluster: rec, FirstCase: first[rec.SignatureHash], Location: res.LocationOf(rec)})
	}
	return c
}

// writeSummary prints the verdict counts and one line per cluster.
func writeSummary(w io.Writer, res *cluster.Result) {
	if res == nil {
		return
	}
	s := res.Clusterer.Stats
	var counts []string
	for _, o := range record.Outcomes() {
		if n := s.Outcomes[o]; n > 0 {
			counts = append(counts, fmt.Sprintf("%s %d", o, n))
		}
	}
	fmt.Fprintf(w, "verdicts %d: %s; clusters %d (%d new)\n", s.Verdicts, strings.Join(counts, ", "), len(res.Records), res.NewClusters())
	for _, r := range res.Records {
		status := "new"
		switch {
		case cluster.IsKnown(r):
			status = "known"
		case r.Known != "":
			status = "new?" // possibly known: see the record's "known"
		}
		fmt.Fprintf(w, "%6d  %-5s  %s  %s\n", r.Count, status, r.SignatureHash, r.Signature)
	}
}
