// Command cliff-run compiles test cases with the real Cranelift for each
// configuration (architecture, opt level, ISA flags, or the interpreter),
// runs them natively or under qemu-user, and appends one result per
// configuration to each case record. Given .clif files, it checks their
// `; run:` lines instead.
package main

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"cliff/lib/arch"
	"cliff/lib/cliapp"
	"cliff/lib/engine"
	"cliff/lib/extract"
	"cliff/lib/harness"
)

// Exit statuses.
const (
	exitOK       = 0
	exitRunlines = 1 // some `; run:` line failed
	exitError    = 2
)

func main() {
	cli.VersionPrinter = func(c *cli.Context) { engine.PrintVersions(c.App.Writer, c.String("driver")) }
	os.Exit(cliapp.Run(app(), os.Args, os.Stderr, nil))
}

func app() *cli.App {
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
finished; a second signal kills at once.

Exit status: 0 done (and every run line passed), 1 some run line failed,
2 error (bad input, missing tools, a failed output); records finished
before an error are still written. 130 (SIGINT) or 143 (SIGTERM): stopped
by the signal, records finished before it written.`,
		Flags: []cli.Flag{
			cliapp.OutputFlag("records"),
			&cli.BoolFlag{Name: "resume", Usage: "go on with an interrupted run: keep -o FILE's records, skip the cases it holds, append the others (see Output)"},
			&cli.StringSliceFlag{Name: "arch", Usage: "architectures: " + strings.Join(arch.Names(), ", ") + ", " + arch.Interp + " (Cranelift's interpreter), " + arch.Ref + " (cliff's reference, lib/interp), all (the architectures and interp; comma-separated or repeated; default for cases: this host; for .clif files: their targets)"},
			&cli.StringSliceFlag{Name: "opt", Usage: "opt levels: none, speed, speed_and_size (default: all three)"},
			&cli.StringSliceFlag{Name: "isa-flags", Usage: "ISA flags for cases on one arch, `ARCH=FLAGS[+SETTINGS]`: FLAGS comma-separated flags or flag-set names (riscv64=base; none for ARCH=), SETTINGS name=value for this variant only; repeat an ARCH for several variants (see Configurations); default: the richest set the host or QEMU runs"},
			&cli.StringSliceFlag{Name: "set", Usage: "extra shared Cranelift `SETTING=VALUE` for every configuration"},
			&cli.StringFlag{Name: "swarm", Usage: "draw each --arch's variants from its flag sets and the swarm's settings, deterministically from `SEED:CHUNK` (a campaign's seed and chunk; see Configurations)"},
			&cli.IntFlag{Name: "swarm-sets", Value: 1, Usage: "with --swarm: flag sets drawn per architecture"},
			&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: runtime.NumCPU(), Usage: "parallel workers, each with its own driver"},
			&cli.IntFlag{Name: "batch", Value: 100, Usage: "cases per compiled object and executable"},
			&cli.DurationFlag{Name: "timeout", Value: engine.DefaultTimeout, Usage: "limit per input vector's execution"},
			&cli.DurationFlag{Name: "compile-timeout", Value: engine.DefaultCompileTimeout, Usage: "limit per compile request (plus 2s per module)"},
			&cli.BoolFlag{Name: "compile-refused", Usage: "compile and run what a configuration's ISA flags lack a feature for (vector types on riscv64 without has_v), instead of answering unsupported: does Cranelift fail cleanly or panic? (scripts/census.sh)"},
			&cli.BoolFlag{Name: "isolate", Usage: "run every input vector in a fresh process (default: a case's vectors share one until one fails, ~4x cheaper under qemu)"},
			&cli.Uint64Flag{Name: "fuel", Value: engine.DefaultFuel, Usage: "interpreter instruction limit per call"},
			&cli.StringFlag{Name: "host-features", EnvVars: []string{harness.HostFeaturesEnv}, Usage: "x86_64 CPU features native code may use, fewer than this host has: `SPEC` is a level (x86-64-v2, x86-64-v3), features (avx2,bmi2) and -feature or -prefix* to take away (-avx512*); the rest runs under qemu-x86_64 or is skipped"},
			cliapp.DriverFlag(""),
			cliapp.CraneliftFlag(),
			&cli.BoolFlag{Name: "flag-sets", Usage: "only list the named flag sets of each --arch (default: all four), one \"ARCH SET\" line each, in table order, for scripts (scripts/census.sh)"},
			&cli.BoolFlag{Name: "check-tools", Usage: "only check that this machine can build and run code for each --arch (default: all four) the way runs do, one line each; exit 2 names what is missing"},
			&cli.BoolFlag{Name: "summary", Usage: "print run-line counts (per architecture, then the total) to stderr at the end"},
		},
		Action: run,
	}
}

func run(c *cli.Context) error {
	release, err := engine.UseScratchDir("cliff-run")
	if err != nil {
		return cli.Exit(err, exitError)
	}
	defer release()
	arches, err := engine.ParseArches(c.StringSlice("arch"))
	if err != nil {
		return cli.Exit(err, exitError)
	}
	if c.Bool("flag-sets") {
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
	opts, err := engine.ParseOpts(c.StringSlice("opt"))
	if err != nil {
		return cli.Exit(err, exitError)
	}
	isa, err := engine.ParseISAFlags(c.StringSlice("isa-flags"))
	if err != nil {
		return cli.Exit(err, exitError)
	}
	if c.IsSet("swarm") {
		if c.IsSet("isa-flags") {
			return cliapp.Usagef("--swarm draws the ISA flags: give it or --isa-flags, not both")
		}
		if len(arches) == 0 {
			return cliapp.Usagef("--swarm needs --arch: the architectures to draw for")
		}
		if c.Int("swarm-sets") < 1 {
			return cliapp.Usagef("--swarm-sets %d: want at least 1", c.Int("swarm-sets"))
		}
		key, err := engine.ParseSwarmKey(c.String("swarm"))
		if err != nil {
			return cliapp.Usagef("%v", err)
		}
		isa = engine.DrawSwarm(key, arches, c.Int("swarm-sets"))
	}
	host, err := harness.ReadHost()
	if err != nil {
		return cli.Exit(err, exitError)
	}
	if host, err = host.Restrict(c.String("host-features")); err != nil {
		return cli.Exit(fmt.Errorf("--host-features (or $%s): %w", harness.HostFeaturesEnv, err), exitError)
	}
	checkTools := c.Bool("check-tools")
	if checkTools {
		if err := engine.CheckTools(c.Context, os.Stdout, host, arches); err != nil {
			return cli.Exit("", exitError)
		}
		if !slices.ContainsFunc(arches, arch.IsBytecode) {
			return nil
		}
	}
	sources, err := extract.Expand(c.Args().Slice())
	if err != nil {
		return cli.Exit(err, exitError)
	}
	for _, s := range c.StringSlice("set") {
		if strings.HasPrefix(strings.TrimSpace(s), "opt_level") {
			return cliapp.Usagef("--set %s: the opt level is --opt's (results are labelled with it)", s)
		}
	}
	eopts := engine.Options{
		Jobs:           c.Int("jobs"),
		Batch:          max(1, c.Int("batch")),
		Timeout:        c.Duration("timeout"),
		CompileTimeout: c.Duration("compile-timeout"),
		Fuel:           c.Uint64("fuel"),
		Isolate:        c.Bool("isolate"),
		CompileRefused: c.Bool("compile-refused"),
		Host:           host,
		Log:            os.Stderr,
	}
	versions, err := eopts.ChooseCranelift(c.Context, c.String("driver"), c.StringSlice("cranelift"), os.Stderr)
	if err != nil {
		return cli.Exit(err, exitError)
	}
	e, err := engine.New(c.Context, eopts)
	if err != nil {
		return cli.Exit(err, exitError)
	}
	defer e.Close()
	if checkTools {
		if err := e.CheckPulley(c.Context, os.Stdout, arches); err != nil {
			return cli.Exit("", exitError)
		}
		return nil
	}
	if c.IsSet("swarm") {
		isa = engine.ForReleases(isa, e.CraneliftVersions())
	}
	report, err := e.Stream(c.Context, engine.StreamOptions{
		Configs:  engine.ConfigSpec{Arches: arches, Opts: opts, Variants: isa, Settings: c.StringSlice("set"), Cranelifts: versions},
		Sources:  sources,
		Output:   c.String("output"),
		Resume:   c.Bool("resume"),
		Progress: isTerminal(os.Stderr),
	})
	if report == nil {
		return cli.Exit(err, exitError)
	}
	if c.Bool("summary") {
		report.WriteSummary(os.Stderr)
	}
	switch {
	case err != nil:
		return cli.Exit(err, exitError)
	case report.Err() != nil:
		return cli.Exit(report.Err(), exitError)
	case report.Failed():
		return cli.Exit("", exitRunlines)
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
