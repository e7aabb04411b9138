// Command cliff-gen generates test cases for Cranelift: modules of CLIF
// functions, valid SSA and free of traps and target-dependent results, with
// run-time inputs, written as case records (JSON lines) for cliff-refine
// and cliff-run.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"cliff/lib/batchjob"
	"cliff/lib/cliapp"
	"cliff/lib/cranelift"
	"cliff/lib/gen"
	"cliff/lib/genrun"
)

// exits says what the exit statuses mean here: cliff-gen finds nothing.
var exits = cliapp.Exits{
	OK:     "the cases were written",
	Error:  "a bad option, an unreadable corpus or mask, an output that is also an input, or a generated case that fails cliff's verifier: a bug in cliff-gen",
	Signal: "the cases generated before it are written",
}

func main() {
	batchjob.Setup()
	os.Exit(cliapp.Run(app(os.Stderr), exits, os.Args, os.Stderr))
}

func app(stderr io.Writer) *cli.App {
	f := newFlags()
	return &cli.App{
		Name:      "cliff-gen",
		Usage:     "generate CLIF test cases for Cranelift as case records",
		ArgsUsage: " ",
		Description: `Writes -n case records (JSON lines) with the indices --start, --start+1, ...
The campaign seed and a case's index determine the case byte for byte: each
record carries both and every option, so

    cliff-gen --seed S --start I -n 1 [the record's options]

writes the same case again. Features (swarm testing) are chosen per case
from its own seed; --features overrides them for every case, e.g.
--features loops=off,ops:float=on (names: see --list-features).

A case is a module: %main (the entry, with one param per value type in use)
and up to --funcs-1 functions it calls, acyclic; control flow nested to
--depth from sequences, if-else, while loops with hidden trip counts and
br_table switches; blocks filled from --corpus snippets (cliff-extract
output; several corpora, comma-separated, are drawn from as one; their
loads and stores placed on the case's stack slots) with opcodes mutated
with probability --mutation, or from the profile. --crossover FILE
(cliff-extract --functions output) makes leaf regions cross two of its
functions (chain, graft or call: swarm features), each re-instantiated
through the generator so that the rules below hold; the record names both
parents. No case traps or depends on the target (guards, canonical NaNs,
little-endian memory, no addresses in outputs) unless --crash-only.

--profile compat (the default) gives cases every target accepts, for
cross-architecture comparison; x86_64, aarch64, riscv64 and s390x give a
target's full set. --mask FILE removes {opcode, type, arch} combinations
known to fail, or only the instructions whose operands come from given
producers (lib/profile/mask.go); --portable keeps to the CLIF that older Cranelift releases
parse. --weights FILE draws some opcode families and types more often (or
less): a family's weight multiplies its drawn weight and divides its
chance to be off, a type's divides the chance that the type features it
needs are off and weighs a family's opcodes by their controlling type;
every weighted switch is still off in some cases (lib/weights has the
format; scripts/coverage.sh --weights writes one from the rules a
coverage run missed). The record states the file's path and hash. --enumerate writes one minimal case per opcode and type the profile
allows instead (a backend that fails one has a finding). --enumerate --all
is the lowering census of a target profile: one minimal case per opcode,
controlling type, free type and condition code of the target's whole
universe (lib/profile/universe) that cliff's verifier accepts, regardless
of the profile's exclusions and --mask, with edge-value inputs (partial
operations' inputs kept in their domain); scripts/census.sh runs it.
--enumerate --constants (--all implied) is the census in constant form:
the same combinations with constant operands (iconst, f16const to
f128const, vconst) on the same edge-value tuples, one block per tuple
behind a br_table on %main's one i32 param, the tuple's index, so that the
mid-end folds each instruction at speed and speed_and_size while opt level
none and the interpreters compute it; memory accesses have no constant form.
Its case IDs are census-const:COMBINATION (scripts/census.sh --constants).

-o FILE is written to a temporary file renamed over FILE at the end: a run
that fails before its first case, or is killed, leaves FILE as it was.`,
		Flags: []cli.Flag{
			f.seed, f.start, f.count, f.profile, f.depth, f.funcs, f.mutation, f.inputs, f.corpus, f.weights,
			f.crossover, f.mask, f.portable, f.crashOnly, f.features, f.listFeatures, f.enumerate, f.all,
			f.constants, f.refine, f.verify, f.summary, f.survival, f.driver, f.cranelift, f.output,
		},
		Action: func(c *cli.Context) error {
			if f.opts.listFeatures {
				listFeatures(os.Stdout)
				return nil
			}
			if err := f.check(c); err != nil {
				return err
			}
			versions, err := craneliftVersions(c.Context, f.opts.cranelift.Value())
			if err != nil {
				return err
			}
			opts := f.opts.Options
			if !c.IsSet(f.seed.Names()[0]) {
				opts.Seed = uint64(time.Now().UnixNano())
			}
			opts.All = opts.All || opts.Constants
			opts.Cranelift, opts.Log = versions, stderr
			return genrun.Run(c.Context, opts)
		},
	}
}

// craneliftVersions are the versions --cranelift names, none without
// it; only the default's --cranelift does not narrow anything.
func craneliftVersions(ctx context.Context, specs []string) ([]string, error) {
	parsed, err := cranelift.ParseSpecs(specs)
	if err != nil || len(parsed) == 0 {
		return nil, err
	}
	b, err := cranelift.NewBuilder(io.Discard)
	if err != nil {
		return nil, err
	}
	return b.VersionsOf(ctx, parsed)
}

// flags are cliff-gen's flags and the values they set.
type flags struct {
	opts struct {
		genrun.Options
		listFeatures bool
		cranelift    cli.StringSlice
	}
	seed, start, listFeatures, crashOnly, portable, enumerate, all, constants, refine, verify, summary cli.Flag
	count, depth, funcs, inputs, mutation, profile, corpus, weights, crossover, mask, features         cli.Flag
	survival, driver, cranelift, output                                                                cli.Flag
}

func newFlags() *flags {
	f := &flags{}
	o := &f.opts
	f.seed = &cli.Uint64Flag{Name: "seed", Destination: &o.Seed, Usage: "campaign `SEED`, stated in every record", DefaultText: "from the clock"}
	f.start = &cli.Uint64Flag{Name: "start", Destination: &o.Start, Usage: "index of the first case"}
	f.count = &cli.IntFlag{Name: "count", Aliases: []string{"n"}, Value: 100, Destination: &o.Count, Usage: "number of cases (0: no end)"}
	f.profile = &cli.StringFlag{Name: "profile", Value: "compat", Destination: &o.Profile, Usage: "`NAME`: compat, x86_64, aarch64, riscv64 or s390x"}
	f.depth = &cli.IntFlag{Name: "depth", Value: 5, Destination: &o.Depth, Usage: "nesting depth of control structures"}
	f.funcs = &cli.IntFlag{Name: "funcs", Value: 4, Destination: &o.Funcs, Usage: "functions per module, %main included (at most)"}
	f.mutation = &cli.Float64Flag{Name: "mutation", Value: 0.5, Destination: &o.Mutation, Usage: "probability that a corpus instruction's opcode is replaced by another of the same shape"}
	f.inputs = &cli.IntFlag{Name: "inputs", Value: 8, Destination: &o.Inputs, Usage: "input vectors per case"}
	f.corpus = &cli.StringFlag{Name: "corpus", Destination: &o.Corpus, Usage: "snippet corpus `FILE[,FILE...]` (cliff-extract output, plain or zstd; several are drawn from as one)"}
	f.weights = &cli.StringFlag{Name: "weights", Destination: &o.Weights, Usage: "`FILE` of 'family NAME WEIGHT' and 'type NAME WEIGHT' lines: families and types to draw more (or less) often (scripts/coverage.sh --weights writes one)"}
	f.crossover = &cli.StringFlag{Name: "crossover", Destination: &o.Crossover, Usage: "breed cases from pairs of the functions in `FILE` (cliff-extract --functions output): the swarm's crossover features"}
	f.mask = &cli.StringFlag{Name: "mask", Destination: &o.Mask, Usage: "`FILE` of 'OPCODE TYPE ARCH [OPERAND=PRODUCER...]' lines to leave out"}
	f.portable = &cli.BoolFlag{Name: "portable", Destination: &o.Portable, Usage: "only CLIF that older Cranelift releases parse too"}
	f.crashOnly = &cli.BoolFlag{Name: "crash-only", Destination: &o.CrashOnly, Usage: "let trapping instructions in unguarded (traps expected; only compiler crashes count)"}
	f.features = &cli.StringFlag{Name: "features", Destination: &o.Features, Usage: "override swarm features for every case: `name=on|off,...`"}
	f.listFeatures = &cli.BoolFlag{Name: "list-features", Destination: &o.listFeatures, Usage: "list the swarm features and exit"}
	f.enumerate = &cli.BoolFlag{Name: "enumerate", Destination: &o.Enumerate, Usage: "one minimal case per opcode and type of the profile"}
	f.all = &cli.BoolFlag{Name: "all", Destination: &o.All, Usage: "with --enumerate: the census, every combination of the target's universe whatever the profile excludes and --mask says (lowering census)"}
	f.constants = &cli.BoolFlag{Name: "constants", Destination: &o.Constants, Usage: "with --enumerate: the census (--all) in constant form, every operand a constant of the same edge values"}
	f.refine = &cli.BoolFlag{Name: "refine", Destination: &o.Refine, Usage: "apply every cliff-refine pass in this process (as | cliff-refine does, without printing and parsing the CLIF between)"}
	f.verify = &cli.BoolFlag{Name: "verify", Value: true, Destination: &o.Verify, Usage: "check every case with cliff's verifier (a failure is a cliff-gen bug)"}
	f.summary = cliapp.SummaryFlag(&o.Stats, "print metric medians and histograms to stderr at the end")
	f.survival = &cli.StringFlag{Name: "survival", Destination: &o.Survival, Usage: "measure each case's instruction survival at opt_level=speed on `TARGET` (x86_64, riscv64=has_v,has_zbb: as cliff-run's --isa-flags) through cliff-driver (about 1 ms per case)"}
	f.driver = cliapp.DriverFlag(&o.Driver, "for --survival")
	f.cranelift = &cli.StringSliceFlag{Name: "cranelift", EnvVars: []string{cliapp.CraneliftEnv}, Destination: &o.cranelift, Usage: "make cases for these Cranelifts, `SPEC`s as cliff-run takes them: only opcodes every one of them knows (lib/ir's release table); nothing is built"}
	f.output = cliapp.OutputFlag(&o.Output, "cases")
	return f
}

// check refuses options that would otherwise be ignored in silence: a
// negative count, and what --enumerate does not use.
func (f *flags) check(c *cli.Context) error {
	o := &f.opts
	if o.Count < 0 {
		return cliapp.Usagef("-n %d: want a number of cases, or 0 for no end", o.Count)
	}
	if o.All && !o.Enumerate {
		return cliapp.Usagef("--all is a mode of --enumerate: give both")
	}
	if o.Constants && !o.Enumerate {
		return cliapp.Usagef("--constants is a mode of the census: give --enumerate --constants")
	}
	set := func(flags ...cli.Flag) string {
		for _, flag := range flags {
			if name := flag.Names()[0]; c.IsSet(name) {
				return name
			}
		}
		return ""
	}
	if o.All || o.Constants {
		if name := set(f.mask, f.portable, f.crashOnly, f.features, f.inputs, f.refine); name != "" {
			return cliapp.Usagef("--enumerate --all writes the whole universe with its own inputs: --%s does not apply", name)
		}
	}
	if o.Enumerate {
		if name := set(f.count, f.corpus, f.crossover, f.start, f.mutation, f.depth, f.funcs, f.weights); name != "" {
			return cliapp.Usagef("--enumerate writes one minimal case per opcode and type: --%s does not apply", name)
		}
	}
	return nil
}

func listFeatures(w io.Writer) {
	names := gen.FeatureNames()
	sort.Strings(names)
	fmt.Fprintln(w, strings.Join(names, "\n"))
}
