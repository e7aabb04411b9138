// Command cliff-run compiles test cases with the real Cranelift for each
// configuration (architecture, opt level, ISA flags, or the interpreter),
// runs them natively or under qemu-user, and appends one result per
// configuration to each case record. Given .clif files, it checks their
// `; run:` lines instead.
package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"cliff/lib/arch"
	"cliff/lib/cliapp"
	"cliff/lib/cliapp/engineflags"
	"cliff/lib/engine"
	"cliff/lib/extract"
	"cliff/lib/harness"
)

// exits says what the exit statuses mean here.
var exits = cliapp.Exits{
	OK:      "done, and every run line passed",
	Finding: "some run line failed",
	Error:   "bad input, missing tools, a failed output, a run line cliff failed to run (NOT RUN); records finished before an error are still written",
	Signal:  "the records finished before it are written",
}

func main() {
	os.Exit(cliapp.Run(app(), exits, os.Args, os.Stderr))
}

// flags are cliff-run's flags' values.
type flags struct {
	engine                          *engineflags.Flags
	output                          string
	resume, compileRefused, isolate bool
	arch, opt, isaFlags, set        cli.StringSlice
	swarm, hostFeatures             string
	swarmSets, batch                int
	flagSets, checkTools, summary   bool
	// The flags whose presence counts (IsSet), not only their value.
	swarmFlag     *cli.StringFlag
	isaFlagsSlice *cli.StringSliceFlag
}

func app() *cli.App {
	f := &flags{engine: engineflags.New()}
	f.swarmFlag = &cli.StringFlag{Name: "swarm", Destination: &f.swarm, Usage: "draw each --arch's variants from its flag sets and the swarm's settings, deterministically from `SEED:CHUNK` (a campaign's seed and chunk; see Configurations)"}
	f.isaFlagsSlice = &cli.StringSliceFlag{Name: "isa-flags", Destination: &f.isaFlags, Usage: "ISA flags for cases on one arch, `ARCH=FLAGS[+SETTINGS]`: FLAGS comma-separated flags or flag-set names (riscv64=base; none for ARCH=), SETTINGS name=value for this variant only; repeat an ARCH for several variants (see Configurations); default: the richest set the host or QEMU runs"}
	cli.VersionPrinter = func(c *cli.Context) { engine.PrintVersions(c.App.Writer, f.engine.Driver) }
	return &cli.App{
		Name:      "cliff-run",
		Usage:     "compile and run test cases with Cranelift on several architectures",
		ArgsUsage: "[PATH...]  (case files as JSON lines, plain or zstd; .clif files; directories of .clif files; - for stdin)",
		Description: `Reads test-case records and writes each one back with one result per
configuration appended (status, hash of the canonical outputs, outputs,
trap code or signal, timings), so that runs accumulate:

    cliff-gen | cliff-run --arch x86_64 | cliff-run --arch riscv64,s390x | cliff-diff

A configuration is an architecture (x86_64, aarch64, riscv64, s390x, or
interp for Cranelift's interpreter), an opt level and ISA flags. Code for
this host's architecture runs natively when its CPU has every feature the
ISA flags need (/proc/cpuinfo; --host-features takes features away, to
test as on an older CPU); the rest runs under qemu-<arch>-static with a
-cpu that emulates the flags. Code QEMU cannot run either (AVX-512, say)
runs only if compiling it without those flags gives identical machine
code, and is skipped with the reason otherwise. Each result names the
executor that really ran it. Before its first batch for an architecture,
cliff-run checks that this machine can build and run its code; if not,
that architecture's results are harness errors, reported once with the
missing package, and the exit status is 2. Cases are compiled in
batches (one object and one executable per batch and configuration); each
case runs in its own forked process with a CPU-time limit per input vector,
so one crash, trap or endless loop costs only its own case (its input
vectors share the process until one fails; --isolate gives each its own).

Configurations. For case records, each --arch runs at each --opt level
with its variants: ISA flags and settings of its own. --isa-flags
ARCH=FLAGS gives ARCH one variant; given again for the same ARCH it adds
another, so "--isa-flags riscv64=default --isa-flags riscv64=base" runs
riscv64 with and without V side by side, and their results must agree.
FLAGS may name the flag sets of cliff's architecture table:

` + flagSetTable() + `
A variant may carry its own settings after a "+":
"--isa-flags riscv64=v+regalloc_algorithm=single_pass". --set adds a
setting to every configuration. A variant whose flags lack what a case
needs reports the case as unsupported: riscv64 without has_v compiles
no vector type, x86_64 lowers x86_pshufb, x86_pmaddubsw and
x86_pmulhrsw only with has_ssse3 and blendv only with has_sse41. --swarm SEED:CHUNK
draws the variants instead: --swarm-sets flag sets per --arch, each with
settings that change the machine code but not its meaning (regalloc
single_pass, no alias analysis, no spectre guards, inline stack probes,
block padding, function alignment), the same for the same SEED:CHUNK;
every result names its flags and settings.

A .clif file (as in Cranelift's filetests) runs on each of its target
lines, at every --opt level (a file's own opt_level is overridden), and in
the interpreter if it says "test interpret". --arch overrides the file's
targets: it runs on exactly those, with the file's target line for an
arch it has and the default (or --isa-flags) flags otherwise, so
"cliff-run --arch all repro.clif" checks a repro everywhere. Every
"; run:" line is checked, failures are printed to stderr as
file:line: FAIL config: command: what happened, and --summary ends with
"runlines: N passed, M failed, K skipped". Targets cliff-run cannot run
and ISA flags QEMU cannot emulate are skipped, with the reason; Pulley
targets run (in cliff-pulley) only when --arch names them. On this 64-bit
host, pulley32 and pulley32be skip an entry whose functions take stack
arguments (upstream runs them only on 32-bit hosts, whose frame layout
their code assumes), and a file that only interprets skips an entry
that is not valid for the target's pointer width.
A "test compile" file is compiled function by function on each target:
a panic or a rejected function fails (with expect-fail: one that
compiles), counted as "compiles: N passed, M failed". A named file with
nothing to check is an error; in a directory it is counted as skipped. A
run line cliff itself failed to run is "NOT RUN" and the exit status 2.

Output. Records are written in input order, a chunk of --batch cases at
a time, as soon as all its configurations are done. -o FILE is written to
a temporary file (.FILE.cliff-tmp-PID) renamed over FILE at the end, so a
run that fails at once or is killed leaves FILE as it was. With --resume,
FILE is a journal instead: each finished chunk is appended and flushed at
once (for .zst, as a complete zstd block), so a kill loses only the chunks
not yet written (at most -j + 2 chunks of --batch cases, usually one or
two). Run the same command again and it keeps every complete record of
FILE (a damaged tail is dropped), skips the cases FILE holds with a result
for every configuration asked, and appends the others: the uninterrupted
run's output, record for record (timings aside). A case is recognised by
its id and a hash of its CLIF, entry, settings and inputs; one whose
record lacks configurations is run again and its old record dropped.
An output that fails (a full disk) stops the run at the first failed
write. SIGINT or SIGTERM stop the run cleanly: drivers, compilers and
harnesses killed, the run's scratch directory ($TMPDIR/cliff-run.PID.*,
which the next run removes if a kill -9 left it) removed, the chunks
finished before the signal written, FILE renamed and its zstd frame
finished; a second signal kills at once.`,
		Flags: []cli.Flag{
			cliapp.OutputFlag(&f.output, "records"),
			&cli.BoolFlag{Name: "resume", Destination: &f.resume, Usage: "go on with an interrupted run: keep -o FILE's records, skip the cases it holds, append the others (see Output)"},
			&cli.StringSliceFlag{Name: "arch", Destination: &f.arch, Usage: "architectures: " + strings.Join(arch.Names(), ", ") + ", " + arch.Interp + " (Cranelift's interpreter), " + arch.Ref + " (cliff's reference, lib/refinterp), all (the architectures and interp; comma-separated or repeated; default for cases: this host; for .clif files: their targets)"},
			&cli.StringSliceFlag{Name: "opt", Destination: &f.opt, Usage: "opt levels: none, speed, speed_and_size (default: all three)"},
			f.isaFlagsSlice,
			&cli.StringSliceFlag{Name: "set", Destination: &f.set, Usage: "extra shared Cranelift `SETTING=VALUE` for every configuration"},
			f.swarmFlag,
			&cli.IntFlag{Name: "swarm-sets", Value: 1, Destination: &f.swarmSets, Usage: "with --swarm: flag sets drawn per architecture"},
			f.engine.JobsFlag(),
			&cli.IntFlag{Name: "batch", Value: 100, Destination: &f.batch, Usage: "cases per compiled object and executable"},
			f.engine.TimeoutFlag(),
			f.engine.CompileTimeoutFlag(),
			&cli.BoolFlag{Name: "compile-refused", Destination: &f.compileRefused, Usage: "compile and run what a configuration's ISA flags lack a feature for (vector types on riscv64 without has_v), instead of answering unsupported: does Cranelift fail cleanly or panic? (scripts/census.sh)"},
			&cli.BoolFlag{Name: "isolate", Destination: &f.isolate, Usage: "run every input vector in a fresh process (default: a case's vectors share one until one fails, ~4x cheaper under qemu)"},
			f.engine.FuelFlag(),
			&cli.StringFlag{Name: "host-features", EnvVars: []string{harness.HostFeaturesEnv}, Destination: &f.hostFeatures, Usage: "x86_64 CPU features native code may use, fewer than this host has: `SPEC` is a level (x86-64-v2, x86-64-v3), features (avx2,bmi2) and -feature or -prefix* to take away (-avx512*); the rest runs under qemu-x86_64 or is skipped"},
			f.engine.DriverFlag(),
			f.engine.CraneliftFlag(),
			&cli.BoolFlag{Name: "flag-sets", Destination: &f.flagSets, Usage: "only list the named flag sets of each --arch (default: all four), one \"ARCH SET\" line each, in table order, for scripts (scripts/census.sh)"},
			&cli.BoolFlag{Name: "check-tools", Destination: &f.checkTools, Usage: "only check that this machine can build and run code for each --arch (default: all four) the way runs do, one line each; exit 2 names what is missing"},
			cliapp.SummaryFlag(&f.summary, "print run-line counts (per architecture, then the total) to stderr at the end"),
		},
		Action: func(c *cli.Context) error { return run(c, f) },
	}
}

func run(c *cli.Context, f *flags) error {
	release, err := engine.UseScratchDir("cliff-run")
	if err != nil {
		return err
	}
	defer release()
	arches, err := engine.ParseArches(f.arch.Value())
	if err != nil {
		return err
	}
	if f.flagSets {
		for _, a := range arch.Backends() {
			if len(arches) > 0 && !slices.Contains(arches, a.Name) {
				continue
			}
			for _, name := range a.SetNames() {
				fmt.Printf("%s %s\n", a.Name, name)
			}
		}
		return nil
	}
	opts, err := engine.ParseOpts(f.opt.Value())
	if err != nil {
		return err
	}
	isa, err := engine.ParseISAFlags(f.isaFlags.Value())
	if err != nil {
		return err
	}
	if c.IsSet(f.swarmFlag.Name) {
		if c.IsSet(f.isaFlagsSlice.Name) {
			return cliapp.Usagef("--swarm draws the ISA flags: give it or --isa-flags, not both")
		}
		if len(arches) == 0 {
			return cliapp.Usagef("--swarm needs --arch: the architectures to draw for")
		}
		if f.swarmSets < 1 {
			return cliapp.Usagef("--swarm-sets %d: want at least 1", f.swarmSets)
		}
		key, err := engine.ParseSwarmKey(f.swarm)
		if err != nil {
			return cliapp.Usagef("%v", err)
		}
		isa = engine.DrawSwarm(key, arches, f.swarmSets)
	}
	host, err := harness.ReadHost()
	if err != nil {
		return err
	}
	if host, err = host.Restrict(f.hostFeatures); err != nil {
		return fmt.Errorf("--host-features (or $%s): %w", harness.HostFeaturesEnv, err)
	}
	if f.checkTools {
		if err := engine.CheckTools(c.Context, os.Stdout, host, arches); err != nil {
			return cliapp.ErrReported
		}
		if !slices.ContainsFunc(arches, arch.IsBytecode) {
			return nil
		}
	}
	sources, err := extract.Expand(c.Args().Slice())
	if err != nil {
		return err
	}
	for _, s := range f.set.Value() {
		if strings.HasPrefix(strings.TrimSpace(s), "opt_level") {
			return cliapp.Usagef("--set %s: the opt level is --opt's (results are labelled with it)", s)
		}
	}
	eopts := f.engine.Options()
	eopts.Batch = max(1, f.batch)
	eopts.Isolate = f.isolate
	eopts.CompileRefused = f.compileRefused
	eopts.Host = host
	eopts.Log = os.Stderr
	versions, err := f.engine.Choose(c.Context, &eopts, os.Stderr)
	if err != nil {
		return err
	}
	e, err := engine.New(c.Context, eopts)
	if err != nil {
		return err
	}
	defer e.Close()
	if f.checkTools {
		if err := e.CheckPulley(c.Context, os.Stdout, arches); err != nil {
			return cliapp.ErrReported
		}
		return nil
	}
	if c.IsSet(f.swarmFlag.Name) {
		isa = engine.ForReleases(isa, e.CraneliftVersions())
	}
	report, err := e.Stream(c.Context, engine.StreamOptions{
		Configs:  engine.ConfigSpec{Arches: arches, Opts: opts, Variants: isa, Settings: f.set.Value(), Cranelifts: versions},
		Sources:  sources,
		Output:   f.output,
		Resume:   f.resume,
		Progress: isTerminal(os.Stderr),
	})
	if report == nil {
		return err
	}
	if f.summary {
		report.WriteSummary(os.Stderr)
	}
	switch {
	case err != nil:
		return err
	case report.Err() != nil:
		return report.Err()
	case report.Failed():
		return cliapp.Finding("") // the failed run lines are on stderr
	}
	return nil
}

// flagSetTable lists every architecture's flag sets for the help text.
func flagSetTable() string {
	var b strings.Builder
	for _, a := range arch.All() {
		for _, s := range a.FlagSets {
			fmt.Fprintf(&b, "    %-8s %-9s %s\n", a.Name, s.Name, s.Why)
		}
	}
	return b.String()
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
