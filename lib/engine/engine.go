package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"cliff/lib/driver"
	"cliff/lib/harness"
	"cliff/lib/record"
	"cliff/lib/scratch"
)

// The limits' defaults: cliff-run's flags, and what the other tools that
// run cases (cliff-locate, the findings' regression test) use.
const (
	DefaultTimeout        = 10 * time.Second
	DefaultCompileTimeout = 60 * time.Second
	DefaultFuel           = 100_000_000
)

// Options are what an Engine needs whatever it runs: the driver, the
// workers, the limits on every external step and the host.
type Options struct {
	// DriverPath is the cliff-driver binary (see driver.Find), when the
	// run tests one Cranelift and its results do not name it.
	DriverPath string
	// Cranelifts, when given, are the Cranelifts the run tests instead,
	// each with its own driver: every configuration but cliff's
	// reference runs once on each, and names it (Config.Cranelift).
	Cranelifts []Cranelift
	// Jobs is the number of workers, each with its own driver process;
	// less than 1 is 1.
	Jobs int
	// Timeout limits one input vector's execution.
	Timeout time.Duration
	// CompileTimeout limits one compile request (plus 2s per module).
	CompileTimeout time.Duration
	// Fuel limits the interpreter's instructions per call.
	Fuel uint64
	// Isolate runs every input vector in a fresh process; by default a
	// case's vectors share one until one of them fails.
	Isolate bool
	// CompileRefused compiles, and runs, what a configuration's ISA flags
	// lack a feature for (a vector type on riscv64 without V, x86_pshufb
	// without SSSE3), which runs otherwise refuse as unsupported: the
	// census asks whether Cranelift then fails cleanly or panics.
	CompileRefused bool
	// Host is where native code runs and what CPU features it may use;
	// the zero Host is this machine's (harness.ReadHost).
	Host harness.Host
	// Batch is the number of cases per compiled object and executable;
	// less than 1 is 100.
	Batch int
	// Log receives what a run reports as it goes: failed run lines,
	// skipped configurations, a case's failure once per kind. Nil
	// discards it.
	Log io.Writer
}

// A Cranelift is one version a run tests: the label its results carry
// (lib/cranelift's Build.Label) and its driver.
type Cranelift struct {
	Label  string
	Driver string
}

// cranelifts are the drivers of a run: Options.Cranelifts, or the one
// DriverPath with no label.
func (o *Options) cranelifts() []Cranelift {
	if len(o.Cranelifts) > 0 {
		return o.Cranelifts
	}
	return []Cranelift{{Driver: o.DriverPath}}
}

// limits bound every external step.
type limits struct {
	perInput    time.Duration // one input vector's execution
	compileBase time.Duration // a compile request, plus compilePer per module
	compilePer  time.Duration
	link        time.Duration
	fuel        uint64 // interpreter instructions per call
	// isolate runs every input vector in a fresh child process; by
	// default a case's vectors share one until one of them fails.
	isolate bool
	// compileRefused: Options.CompileRefused.
	compileRefused bool
}

// limits checks the options' limits: a zero limit would fail every case
// as a timeout, blamed on Cranelift.
func (o *Options) limits() (limits, error) {
	lim := limits{perInput: o.Timeout, compileBase: o.CompileTimeout, compilePer: 2 * time.Second, link: 2 * time.Minute, fuel: o.Fuel, isolate: o.Isolate, compileRefused: o.CompileRefused}
	switch {
	case lim.perInput <= 0:
		return lim, fmt.Errorf("--timeout %s: want a positive duration", lim.perInput)
	case lim.compileBase <= 0:
		return lim, fmt.Errorf("--compile-timeout %s: want a positive duration", lim.compileBase)
	case lim.fuel == 0:
		return lim, errors.New("--fuel 0: want a positive instruction count")
	}
	return lim, nil
}

// An Engine runs test cases with the real Cranelift: it owns the
// workers, each with a driver process kept across runs and a scratch
// directory. It runs case records given in memory (Run) or streams
// files of cases and .clif files to an output (Stream), one run at a
// time. Close ends the drivers and removes the scratch directories.
type Engine struct {
	drivers  []Cranelift
	lim      limits
	host     harness.Host
	batch    int
	log      io.Writer
	workers  []*worker
	tools    toolchains // shared by the workers: each arch checked once
	versions *versions  // stamps every result
	// checked are the targets and settings Cranelift was asked to
	// accept (checkTarget), with its answer.
	checked map[string]error
	mu      sync.Mutex // one run at a time
}

// New starts an engine: it checks the limits, makes the workers and asks
// the driver which Cranelift it runs (for the results' versions), so that
// a wrong driver fails here rather than on every case.
func New(ctx context.Context, opts Options) (*Engine, error) {
	lim, err := opts.limits()
	if err != nil {
		return nil, err
	}
	e := &Engine{drivers: opts.cranelifts(), lim: lim, host: opts.Host, batch: opts.Batch, log: opts.Log, checked: map[string]error{}}
	if e.host.Arch == "" {
		if e.host, err = harness.ReadHost(); err != nil {
			return nil, err
		}
	}
	if e.batch < 1 {
		e.batch = 100
	}
	if e.log == nil {
		e.log = io.Discard
	}
	for range max(1, opts.Jobs) {
		w, err := newWorker(e.drivers, e.lim, e.host, &e.tools)
		if err != nil {
			e.Close()
			return nil, err
		}
		e.workers = append(e.workers, w)
	}
	vctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	crates := map[string]string{}
	for _, c := range e.drivers {
		version, err := e.workers[0].drv[c.Label].Version(vctx)
		if err != nil {
			e.Close()
			return nil, fmt.Errorf("--driver %s: %w", c.Driver, err)
		}
		crates[c.Label] = version.Cranelift
	}
	e.versions = newVersions(crates)
	for _, w := range e.workers {
		w.crates = crates
	}
	return e, nil
}

// Close ends the workers' drivers and removes their scratch directories.
func (e *Engine) Close() {
	for _, w := range e.workers {
		w.close()
	}
	e.workers = nil
}

// ParseTest reads a test file with Cranelift's own reader through the
// first worker's driver (see driver.Client.ParseTest), within the
// compile time limit: what cliff writes for upstream must be a file
// Cranelift reads, with every run line.
func (e *Engine) ParseTest(ctx context.Context, clif string) (*driver.ParseTestAnswer, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.workers) == 0 {
		return nil, errors.New("the engine is closed")
	}
	ctx, cancel := context.WithTimeout(ctx, e.lim.compileBase)
	defer cancel()
	return e.workers[0].drv[e.drivers[0].Label].ParseTest(ctx, clif)
}

// Run runs every case under every configuration (see Configs) and
// appends one result per configuration to each case's Results, in
// configuration order, as cliff-run writes them: each configuration gets
// the settings its case needs (Case.Settings) added. The cases must be
// valid records (record.Case.Validate; Stamp a new one). A case cliff
// cannot take as it is (it does not validate, parse or verify, or its
// inputs do not fit) is an error naming it, and nothing runs; a configuration
// Cranelift refuses is an error too. A run cancelled through ctx appends
// nothing and returns the cancellation's cause. What a run reports as it
// goes goes to Options.Log.
func (e *Engine) Run(ctx context.Context, cases []*record.Case, configs []record.Config) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, cfg := range configs {
		if err := e.checkTarget(ctx, cfg); err != nil {
			return err
		}
	}
	ch := &chunk{}
	for i, c := range cases {
		if err := c.Validate(); err != nil {
			return fmt.Errorf("cases[%d]: %w", i, err)
		}
		u, err := caseUnit(fmt.Sprintf("cases[%d] (%s)", i, c.ID), c)
		if err != nil {
			return fmt.Errorf("cases[%d]: case %q: %w", i, c.ID, err)
		}
		ch.units = append(ch.units, u)
	}
	r := e.newRunner(newReporter(e.log), func(needs []string) []record.Config { return forConfigs(configs, needs) })
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	context.AfterFunc(ctx, r.rep.stop)
	tasks := make(chan *task)
	wait := r.startWorkers(ctx, tasks)
	for _, t := range r.dispatch(ch) {
		tasks <- t
	}
	close(tasks)
	wait()
	if ch.spoiled.Load() {
		return context.Cause(ctx)
	}
	appendResults(ch, e.versions)
	return nil
}

// newRunner makes a runner on e's workers that reports to rep; cases run
// under caseConfigs(the settings they need).
func (e *Engine) newRunner(rep *reporter, caseConfigs func(needs []string) []record.Config) *runner {
	for _, w := range e.workers {
		w.out = rep
	}
	return &runner{e: e, rep: rep, batch: e.batch, caseConfigs: caseConfigs}
}

// UseScratchDir makes one scratch directory for the whole process
// (locked while it lives, see lib/scratch) its $TMPDIR and its
// children's: the workers' and harnesses' directories, the driver's and
// gcc's temporary files all go there, and release removes it. What a
// killed command leaves is one directory, which the next run removes.
func UseScratchDir(name string) (release func(), err error) {
	dir, remove, err := scratch.Dir(name)
	if err != nil {
		return nil, err
	}
	old, had := os.LookupEnv("TMPDIR")
	os.Setenv("TMPDIR", dir)
	return func() {
		if had {
			os.Setenv("TMPDIR", old)
		} else {
			os.Unsetenv("TMPDIR")
		}
		remove()
	}, nil
}
