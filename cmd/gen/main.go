// Command cliff-gen generates test cases for Cranelift: modules of CLIF
// functions, valid SSA and free of traps and target-dependent results, with
// run-time inputs, written as case records (JSON lines) for cliff-refine
// and cliff-run.
package main

import (
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

// Exit statuses.
const (
	exitOK    = 0
	exitError = 2 // bad usage, bad input, I/O error, a generator bug
)

func main() {
	batchjob.Setup()
	os.Exit(run(os.Args, os.Stderr))
}

// run runs the command; errors come back here as values, so that every
// deferred Close (which finishes a zstd output) has run. SIGINT and
// SIGTERM stop it after the case at hand, with the cases before written.
func run(args []string, stderr io.Writer) int {
	return cliapp.Run(app(stderr), args, stderr, func(error) int { return exitError })
}

func app(stderr io.Writer) *cli.App {
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
none and the reference compute it; memory accesses have no constant form.
Its case IDs are census-const:COMBINATION (scripts/census.sh --constants).

-o FILE is written to a temporary file renamed over FILE at the end: a run
that fails before its first case, or is killed, leaves FILE as it was.

Exit status: 0 ok, 2 error (bad option, unreadable corpus or mask, an
output that is also an input, or a generated case that fails cliff's
verifier: a bug in cliff-gen), 130 or 143 stopped by SIGINT or SIGTERM
(the cases generated before it are written).`,
		Flags: []cli.Flag{
			&cli.Uint64Flag{Name: "seed", Usage: "campaign `SEED`, stated in every record", DefaultText: "from the clock"},
			&cli.Uint64Flag{Name: "start", Usage: "index of the first case"},
			&cli.IntFlag{Name: "count", Aliases: []string{"n"}, Value: 100, Usage: "number of cases (0: no end)"},
			&cli.StringFlag{Name: "profile", Value: "compat", Usage: "`NAME`: compat, x86_64, aarch64, riscv64 or s390x"},
			&cli.IntFlag{Name: "depth", Value: 5, Usage: "nesting depth of control structures"},
			&cli.IntFlag{Name: "funcs", Value: 4, Usage: "functions per module, %main included (at most)"},
			&cli.Float64Flag{Name: "mutation", Value: 0.5, Usage: "probability that a corpus instruction's opcode is replaced by another of the same shape"},
			&cli.IntFlag{Name: "inputs", Value: 8, Usage: "input vectors per case"},
			&cli.StringFlag{Name: "corpus", Usage: "snippet corpus `FILE[,FILE...]` (cliff-extract output, plain or zstd; several are drawn from as one)"},
			&cli.StringFlag{Name: "weights", Usage: "`FILE` of 'family NAME WEIGHT' and 'type NAME WEIGHT' lines: families and types to draw more (or less) often (scripts/coverage.sh --weights writes one)"},
			&cli.StringFlag{Name: "crossover", Usage: "breed cases from pairs of the functions in `FILE` (cliff-extract --functions output): the swarm's crossover features"},
			&cli.StringFlag{Name: "mask", Usage: "`FILE` of 'OPCODE TYPE ARCH [OPERAND=PRODUCER...]' lines to leave out"},
			&cli.BoolFlag{Name: "portable", Usage: "only CLIF that older Cranelift releases parse too"},
			&cli.BoolFlag{Name: "crash-only", Usage: "let trapping instructions in unguarded (traps expected; only compiler crashes count)"},
			&cli.StringFlag{Name: "features", Usage: "override swarm features for every case: `name=on|off,...`"},
			&cli.BoolFlag{Name: "list-features", Usage: "list the swarm features and exit"},
			&cli.BoolFlag{Name: "enumerate", Usage: "one minimal case per opcode and type of the profile"},
			&cli.BoolFlag{Name: "all", Usage: "with --enumerate: the census, every combination of the target's universe whatever the profile excludes and --mask says (lowering census)"},
			&cli.BoolFlag{Name: "constants", Usage: "with --enumerate: the census (--all) in constant form, every operand a constant of the same edge values"},
			&cli.BoolFlag{Name: "refine", Usage: "apply every cliff-refine pass in this process (as | cliff-refine does, without printing and parsing the CLIF between)"},
			&cli.BoolFlag{Name: "verify", Value: true, Usage: "check every case with cliff's verifier (a failure is a cliff-gen bug)"},
			&cli.BoolFlag{Name: "summary", Aliases: []string{"stats"}, Usage: "print metric medians and histograms to stderr at the end"},
			&cli.StringFlag{Name: "survival", Usage: "measure each case's instruction survival at opt_level=speed on `TARGET` (x86_64, riscv64=has_v,has_zbb: as cliff-run's --isa-flags) through cliff-driver (about 1 ms per case)"},
			cliapp.DriverFlag("for --survival"),
			&cli.StringSliceFlag{Name: "cranelift", EnvVars: []string{cliapp.CraneliftEnv}, Usage: "make cases for these Cranelifts, `SPEC`s as cliff-run takes them: only opcodes every one of them knows (lib/ir's release table); nothing is built"},
			cliapp.OutputFlag("cases"),
		},
		Action: func(c *cli.Context) error {
			if c.Bool("list-features") {
				listFeatures(os.Stdout)
				return nil
			}
			if err := checkCombinations(c); err != nil {
				return err
			}
			versions, err := craneliftVersions(c)
			if err != nil {
				return err
			}
			seed := c.Uint64("seed")
			if !c.IsSet("seed") {
				seed = uint64(time.Now().UnixNano())
			}
			return genrun.Run(c.Context, genrun.Options{
				Seed: seed, Start: c.Uint64("start"), Count: c.Int("count"),
				Profile: c.String("profile"), Depth: c.Int("depth"), Funcs: c.Int("funcs"),
				Mutation: c.Float64("mutation"), Inputs: c.Int("inputs"),
				Corpus: c.String("corpus"), Crossover: c.String("crossover"), Mask: c.String("mask"), Weights: c.String("weights"), Portable: c.Bool("portable"),
				CrashOnly: c.Bool("crash-only"), Features: c.String("features"),
				Enumerate: c.Bool("enumerate"), All: c.Bool("all") || c.Bool("constants"), Constants: c.Bool("constants"), Verify: c.Bool("verify"), Stats: c.Bool("stats"), Refine: c.Bool("refine"),
				Survival: c.String("survival"), Driver: c.String("driver"), Cranelift: versions,
				Output: c.String("output"), Log: stderr,
			})
		},
	}
}

// craneliftVersions are the versions --cranelift names, none without
// it; only the default's --cranelift does not narrow anything.
func craneliftVersions(c *cli.Context) ([]string, error) {
	specs, err := cranelift.ParseSpecs(c.StringSlice("cranelift"))
	if err != nil || len(specs) == 0 {
		return nil, err
	}
	b, err := cranelift.NewBuilder(io.Discard)
	if err != nil {
		return nil, err
	}
	return b.VersionsOf(c.Context, specs)
}

// checkCombinations refuses options that would otherwise be ignored in
// silence: a negative count, and what --enumerate does not use.
func checkCombinations(c *cli.Context) error {
	if n := c.Int("count"); n < 0 {
		return cliapp.Usagef("-n %d: want a number of cases, or 0 for no end", n)
	}
	if c.Bool("all") && !c.Bool("enumerate") {
		return cliapp.Usagef("--all is a mode of --enumerate: give both")
	}
	if c.Bool("constants") && !c.Bool("enumerate") {
		return cliapp.Usagef("--constants is a mode of the census: give --enumerate --constants")
	}
	if c.Bool("all") || c.Bool("constants") {
		for _, name := range []string{"mask", "portable", "crash-only", "features", "inputs", "refine"} {
			if c.IsSet(name) {
				return cliapp.Usagef("--enumerate --all writes the whole universe with its own inputs: --%s does not apply", name)
			}
		}
	}
	if c.Bool("enumerate") {
		for _, name := range []string{"count", "corpus", "crossover", "start", "mutation", "depth", "funcs", "weights"} {
			if c.IsSet(name) {
				return cliapp.Usagef("--enumerate writes one minimal case per opcode and type: --%s does not apply", name)
			}
		}
	}
	return nil
}

func listFeatures(w io.Writer) {
	names := gen.FeatureNames()
	sort.Strings(names)
	fmt.Fprintln(w, strings.Join(names, "\n"))
}
