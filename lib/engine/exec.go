package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"cliff/lib/arch"
	"cliff/lib/canon"
	"cliff/lib/driver"
	"cliff/lib/harness"
	"cliff/lib/ir"
	"cliff/lib/record"
	"cliff/lib/tramp"
)

// A task is a batch of units to run under one configuration: one compile
// request, one object, one executable.
type task struct {
	cfgIndex int
	cfg      record.Config
	units    []*unit
	chunk    *chunk
}

// A worker owns one driver process per Cranelift of the run and a
// scratch directory, and runs tasks one at a time.
type worker struct {
	drv map[string]*driver.Client // by Config.Cranelift
	// drvPath are the drivers' binaries, by Config.Cranelift: cliff-pulley
	// is beside each.
	drvPath map[string]string
	// crates are the Cranelift versions of the drivers, by
	// Config.Cranelift (versionRefusal).
	crates map[string]string
	dir    string
	lim    limits
	out    *reporter    // the current run's
	host   harness.Host // where native code runs, and what it may use
	tools  *toolchains  // shared by the workers: checked once per arch
	batch  int          // counter for scratch file names
}

func newWorker(cranelifts []Cranelift, lim limits, host harness.Host, tools *toolchains) (*worker, error) {
	dir, err := os.MkdirTemp("", "cliff-run-")
	if err != nil {
		return nil, err
	}
	drv := map[string]*driver.Client{}
	drvPath := map[string]string{}
	for _, c := range cranelifts {
		drv[c.Label] = driver.New(c.Driver)
		drvPath[c.Label] = c.Driver
	}
	return &worker{drv: drv, drvPath: drvPath, dir: dir, lim: lim, host: host, tools: tools}, nil
}

// pulleyRunner is the cliff-pulley built with the driver of cfg's
// Cranelift: the same pulley-interpreter release as its Cranelift.
func (w *worker) pulleyRunner(cfg record.Config) string {
	return filepath.Join(filepath.Dir(w.drvPath[cfg.Cranelift]), "cliff-pulley")
}

// driverFor is the driver of cfg's Cranelift.
func (w *worker) driverFor(cfg record.Config) *driver.Client { return w.drv[cfg.Cranelift] }

func (w *worker) close() {
	for _, d := range w.drv {
		d.Close()
	}
	os.RemoveAll(w.dir)
}

func (w *worker) run(ctx context.Context, t *task) {
	if t.units[0].compileOnly { // a task's units are all of a kind: see dispatch
		w.checkCompiles(ctx, t)
		return
	}
	switch t.cfg.Executor {
	case record.ExecInterp:
		w.interpret(ctx, t)
		return
	case record.ExecRef:
		w.reference(t)
		return
	}
	w.compiled(ctx, t)
}

// failUnit stores a result for every runnable-or-not entry of u that has none
// yet: the common way a whole unit fails.
func (w *worker) failUnit(t *task, u *unit, status record.Status, msg string, times record.Timings) {
	for _, e := range u.entries {
		if e.results[t.cfgIndex] == nil {
			e.results[t.cfgIndex] = &record.RunResult{Config: t.cfg, Status: status, Message: shorten(msg), Timings: times}
			if status == record.StatusHarnessError {
				w.out.harnessFailedCalls(u, e, t.cfg, firstLine(msg))
			} else {
				w.out.failedCalls(u, e, t.cfg, string(status)+": "+firstLine(msg))
			}
		}
	}
}

// failBroken reports the entries that cannot run under any configuration:
// the harness cannot call them (an sret parameter, say). That is a limit of
// cliff, neither a failure of Cranelift nor of this machine: their results
// are unsupported, and their run lines skipped with the reason.
func (w *worker) failBroken(t *task, u *unit) bool {
	runnable := false
	for _, e := range u.entries {
		if e.err != nil {
			e.results[t.cfgIndex] = &record.RunResult{Config: t.cfg, Status: record.StatusUnsupported, Message: shorten(e.err.Error())}
			w.out.skippedEntries([]*entry{e}, t.cfg.Arch, t.cfg.String(), e.err.Error())
		} else {
			runnable = true
		}
	}
	return runnable
}

// refuseEntries gives the entries of u that t's configuration cannot run
// (unit.entryRefusal, pulley32.go) an unsupported result, counts their run
// lines as skipped and adds them to refused; it reports whether any entry
// is left to run.
func (w *worker) refuseEntries(t *task, u *unit, refused map[*entry]bool) bool {
	runnable := false
	for _, e := range u.entries {
		if e.err != nil {
			continue
		}
		why := u.entryRefusal(t.cfg, e)
		if why == "" {
			runnable = true
			continue
		}
		refused[e] = true
		e.results[t.cfgIndex] = &record.RunResult{Config: t.cfg, Status: record.StatusUnsupported, Message: shorten(why)}
		w.out.skippedEntries([]*entry{e}, t.cfg.Arch, t.cfg.String(), why)
	}
	return runnable
}

// built is the outcome of compiling and linking a batch.
type built struct {
	units   []*unit // the units in the executable, in module order
	answer  *driver.CompileAnswer
	exe     *harness.Executable
	linkMS  float64
	modules []driver.ModuleOutcome // by position in units
	// entryIndex is each entry's index in the object's cliff_entries,
	// which also counts the entries of modules that failed.
	entryIndex map[*entry]int
	// skip are entries not to run (counted as skipped or failed by
	// whoever set it).
	skip map[*entry]bool
}

// compiled runs a task on a compiled configuration.
func (w *worker) compiled(ctx context.Context, t *task) {
	var units []*unit
	refused := map[*entry]bool{}
	for _, u := range t.units {
		if w.refused(t, u) {
			continue
		}
		if w.failBroken(t, u) && w.refuseEntries(t, u, refused) {
			units = append(units, u)
		}
	}
	if len(units) == 0 {
		return
	}
	if arch.IsBytecode(t.cfg.Arch) {
		// No toolchain: cliff-pulley, built with the driver, runs it.
		if _, err := os.Stat(w.pulleyRunner(t.cfg)); err != nil {
			err = fmt.Errorf("%s: cannot run Pulley code: %w (cliff-pulley is built with the driver: make, or cliff-cranelift build)", t.cfg.Arch, err)
			for _, u := range units {
				w.failEnvironment(t, u, err)
			}
			return
		}
	} else if err := w.tools.check(ctx, t.cfg.Arch); err != nil {
		for _, u := range units {
			w.failEnvironment(t, u, err)
		}
		return
	}
	b := w.build(ctx, t, units)
	if b == nil || len(b.units) == 0 {
		return
	}
	for e := range refused {
		b.skip[e] = true
	}
	defer os.Remove(b.exe.Path)
	w.place(ctx, t, b)
}

// build compiles units into one object and links it. A driver that dies
// on the batch is restarted and each module is compiled alone to find the
// ones that kill it; a link that fails is retried per module to find the
// ones that break it. Either way the other units still run.
func (w *worker) build(ctx context.Context, t *task, units []*unit) *built {
	for attempt := 0; ; attempt++ {
		b, err := w.compileAndLink(ctx, t, units)
		if err == nil {
			return b
		}
		if len(units) == 1 || attempt > 0 {
			for _, u := range units {
				w.failBuild(t, u, err)
			}
			return nil
		}
		// Find the culprits one module at a time, then build the rest.
		var good []*unit
		for _, u := range units {
			if _, err := w.compileAndLink(ctx, t, []*unit{u}); err != nil {
				w.failBuild(t, u, err)
				continue
			}
			good = append(good, u)
		}
		if len(good) == 0 {
			return nil
		}
		units = good
	}
}

// failBuild records a unit whose build failed as a whole: a driver that
// died on it is a compile crash with the signal, a link failure a compile
// error, unless the machine's tools are to blame or the harness refused
// a symbol (unsupported); anything else is cliff's own failure.
func (w *worker) failBuild(t *task, u *unit, err error) {
	var died *driver.DiedError
	var refused *harness.RefusedSymbolsError
	switch {
	case errors.As(err, &died):
		w.failUnit(t, u, record.StatusCompileCrash, err.Error(), record.Timings{})
		for _, e := range u.entries {
			if r := e.results[t.cfgIndex]; r != nil && r.Status == record.StatusCompileCrash {
				r.Signal = died.Signal
			}
		}
	case errors.As(err, new(*harness.ToolchainError)):
		w.failEnvironment(t, u, err)
	case errors.As(err, &refused):
		// The harness's refusal (externals.go), not Cranelift's failure.
		w.failUnit(t, u, record.StatusUnsupported, refused.Error(), record.Timings{})
	case errors.Is(err, errLink):
		w.failUnit(t, u, record.StatusCompileError, err.Error(), record.Timings{})
	default:
		w.failUnit(t, u, record.StatusHarnessError, err.Error(), record.Timings{})
	}
}

// compileRequest asks for units (with their trampolines) in one object,
// with a cliff_entries slot per runnable entry; it returns each entry's
// slot.
func compileRequest(target string, cfg record.Config, units []*unit, obj string) (*driver.CompileRequest, map[*entry]int) {
	req := &driver.CompileRequest{Target: target, Flags: sharedFlags(cfg), Output: obj}
	entryIndex := map[*entry]int{}
	a, _ := arch.Lookup(cfg.Arch)
	for k, u := range units {
		tramps := u.tramps
		if a.PointerBytes == 4 {
			tramps = u.tramps32
		}
		req.Modules = append(req.Modules, u.clif+tramps)
		for _, e := range u.entries {
			if e.err == nil {
				entryIndex[e] = len(req.Entries)
				req.Entries = append(req.Entries, driver.Entry{Module: k, Func: tramp.Name(e.fn.Name)})
			}
		}
	}
	return req, entryIndex
}

var errLink = errors.New("link failed")

// scratch names the object and executable files of a new batch.
func (w *worker) scratch() (obj, exe string) {
	w.batch++
	return filepath.Join(w.dir, fmt.Sprintf("b%d.o", w.batch)), filepath.Join(w.dir, fmt.Sprintf("b%d", w.batch))
}

// compile asks the driver for units (with their trampolines) in one
// object for target, within the compile time limit; it returns each
// entry's slot in the object's cliff_entries.
func (w *worker) compile(ctx context.Context, target string, cfg record.Config, units []*unit, obj string) (*driver.CompileAnswer, map[*entry]int, error) {
	req, entryIndex := compileRequest(target, cfg, units, obj)
	cctx, cancel := context.WithTimeout(ctx, w.lim.compileBase+time.Duration(len(units))*w.lim.compilePer)
	defer cancel()
	ans, err := w.driverFor(cfg).Compile(cctx, req)
	return ans, entryIndex, err
}

// compileAndLink makes one executable of units. Modules that Cranelift
// rejects or crashes on get their results here and are left out; the error
// is for the batch as a whole (driver death, link failure, harness).
func (w *worker) compileAndLink(ctx context.Context, t *task, units []*unit) (*built, error) {
	obj, exe := w.scratch()
	defer os.Remove(obj)
	ans, entryIndex, err := w.compile(ctx, targetString(t.cfg), t.cfg, units, obj)
	if err != nil {
		var f *driver.Failure
		if errors.As(err, &f) {
			// The request as a whole was refused: a target or setting
			// this Cranelift does not know. Every unit shares the fate.
			for _, u := range units {
				w.failUnit(t, u, record.StatusCompileError, f.Message, record.Timings{})
			}
			return &built{}, nil
		}
		return nil, err
	}
	b := &built{answer: ans, entryIndex: entryIndex, skip: map[*entry]bool{}}
	for k, u := range units {
		m := ans.Modules[k]
		times := record.Timings{CompileMS: m.CompileMS}
		switch {
		case m.Status == driver.StatusOK:
			b.units = append(b.units, u)
			b.modules = append(b.modules, m)
		case len(m.Functions) > 0:
			// Some functions failed, each on its own: the entries that
			// need none of them run.
			if w.failEntries(t, u, m, b.skip) {
				b.units = append(b.units, u)
				b.modules = append(b.modules, m)
			}
		default:
			status, msg := compileFailure(m.Status, m.Message, m.Location)
			w.failUnit(t, u, status, msg, times)
		}
	}
	if len(b.units) == 0 {
		return b, nil
	}
	lctx, cancel2 := context.WithTimeout(ctx, w.lim.link)
	defer cancel2()
	start := time.Now()
	if arch.IsBytecode(t.cfg.Arch) {
		b.exe, err = harness.LinkPulley(t.cfg.Arch, obj, w.pulleyRunner(t.cfg))
		if err == nil {
			b.exe.Path = exe // the batch file is removed; nothing is written at exe
		}
	} else {
		b.exe, err = harness.Link(lctx, t.cfg.Arch, obj, exe)
	}
	b.linkMS = msSince(start)
	if errors.As(err, new(*harness.ToolchainError)) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errLink, err)
	}
	return b, nil
}

// compileFailure is the result status and message of a driver's compile
// failure: a panic is a compile crash, with where it happened.
func compileFailure(status, message, location string) (record.Status, string) {
	if status != driver.StatusCrash {
		return record.StatusCompileError, message
	}
	if location != "" {
		message += " (at " + location + ")"
	}
	return record.StatusCompileCrash, message
}

// execute runs every call of every entry of a built batch that b.skip
// does not exclude, where it says, and turns the outcomes into results.
// The results name the executor that really ran the code.
func (w *worker) execute(ctx context.Context, t *task, b *built, where harness.Placement) {
	cfg := t.cfg
	cfg.Executor = record.ExecNative
	switch {
	case arch.IsBytecode(cfg.Arch):
		cfg.Executor = record.ExecPulley
	case where.Emulated:
		cfg.Executor = record.ExecQemu
	}
	type slot struct {
		e     *entry
		u     *unit
		first int // index of its first job
		mod   int
	}
	var jobs []harness.Job
	var slots []slot
	var traps []harness.TrapSite
	for k, u := range b.units {
		for _, fn := range b.modules[k].Functions {
			for _, tr := range fn.Traps {
				traps = append(traps, harness.TrapSite{Symbol: fn.Symbol, Offset: tr.Offset, Code: tr.Code})
			}
		}
		for _, e := range u.entries {
			if e.err != nil || b.skip[e] {
				continue
			}
			slots = append(slots, slot{e: e, u: u, first: len(jobs), mod: k})
			for _, c := range e.calls {
				args, err := e.layout.PackArgs(c.args)
				if err != nil {
					// Run commands are typed by the parser; a mismatch
					// here is cliff's bug.
					args = make([]byte, e.layout.ArgsSize)
				}
				jobs = append(jobs, harness.Job{Entry: b.entryIndex[e], Args: args, ResultSize: e.layout.ResultsSize})
			}
		}
	}
	start := time.Now()
	rctx, cancel := context.WithTimeout(ctx, time.Duration(len(jobs)+2)*w.lim.perInput+30*time.Second)
	defer cancel()
	b.exe.IsolateJobs = w.lim.isolate
	outcomes, err := b.exe.Run(rctx, where, jobs, w.lim.perInput, traps)
	execMS := msSince(start)
	for _, s := range slots {
		times := record.Timings{
			CompileMS: b.modules[s.mod].CompileMS,
			LinkMS:    b.linkMS / float64(len(b.units)),
		}
		if len(jobs) > 0 {
			times.ExecMS = execMS * float64(len(s.e.calls)) / float64(len(jobs))
		}
		if err != nil {
			s.e.results[t.cfgIndex] = &record.RunResult{Config: cfg, Status: record.StatusHarnessError, Message: shorten(err.Error()), Timings: times}
			w.out.harnessFailedCalls(s.u, s.e, cfg, err.Error())
			continue
		}
		res := newResult(cfg, times)
		for i, c := range s.e.calls {
			o := outcomes[s.first+i]
			if o.Status == record.StatusHarnessError {
				res.add(nil, o.Status, "", "", o.Message)
				w.out.harnessFailedCall(s.u, c, cfg, o.Message)
				continue
			}
			if o.Status != record.StatusOK {
				res.add(nil, o.Status, o.Trap, o.Signal, o.Message)
				w.out.checkCall(s.u, s.e, c, cfg, nil, describeOutcome(o.Status, o.Trap, o.Signal, o.Message))
				continue
			}
			vals, uerr := s.e.layout.UnpackResults(o.Results)
			if uerr != nil {
				res.add(nil, record.StatusHarnessError, "", "", uerr.Error())
				w.out.harnessFailedCall(s.u, c, cfg, uerr.Error())
				continue
			}
			res.add(vals, record.StatusOK, "", "", "")
			w.out.checkCall(s.u, s.e, c, cfg, vals, "")
		}
		s.e.results[t.cfgIndex] = res.finish()
	}
}

// interpret runs a task in Cranelift's interpreter, one call per request.
func (w *worker) interpret(ctx context.Context, t *task) {
	for _, u := range t.units {
		if w.refused(t, u) {
			continue
		}
		if !w.failBroken(t, u) {
			continue
		}
		for _, e := range u.entries {
			if e.err != nil {
				continue
			}
			res := newResult(t.cfg, record.Timings{})
			start := time.Now()
			for _, c := range e.calls {
				// The driver stops the run at the deadline itself (and
				// answers timeout); the context only bounds a driver that
				// hangs anyway, killing it (also a timeout).
				req := &driver.InterpretRequest{CLIF: u.clif, Func: e.fn.Name, Fuel: w.lim.fuel, TimeoutMS: ceilMS(w.lim.perInput), Target: u.verifyTarget, Flags: t.cfg.Settings}
				for _, a := range c.args {
					req.Args = append(req.Args, driver.ValueOf(a))
				}
				ictx, cancel := context.WithTimeout(ctx, w.lim.compileBase+w.lim.perInput)
				ans, err := w.driverFor(t.cfg).Interpret(ictx, req)
				cancel()
				vals, status, trap, msg := interpretOutcome(ans, err)
				if status == record.StatusCompileError || status == record.StatusCompileCrash {
					// The interpreter refused the module: no later call
					// can do better.
					e.results[t.cfgIndex] = &record.RunResult{Config: t.cfg, Status: status, Message: shorten(msg)}
					w.out.failedCalls(u, e, t.cfg, string(status)+": "+firstLine(msg))
					break
				}
				res.add(vals, status, trap, "", msg)
				switch status {
				case record.StatusOK:
					w.out.checkCall(u, e, c, t.cfg, vals, "")
				case record.StatusUnsupported, record.StatusStackOverflow:
					// The interpreter cannot say whether the run line
					// holds: neither a pass nor a failure of Cranelift.
					w.out.skippedCall(u, c, t.cfg, describeOutcome(status, trap, "", msg))
				default:
					w.out.checkCall(u, e, c, t.cfg, vals, describeOutcome(status, trap, "", msg))
				}
			}
			if e.results[t.cfgIndex] == nil {
				res.res.Timings.ExecMS = msSince(start)
				e.results[t.cfgIndex] = res.finish()
			}
		}
	}
}

// interpretOutcome classifies an interpreter answer.
func interpretOutcome(ans *driver.InterpretAnswer, err error) ([]ir.DataValue, record.Status, string, string) {
	var f *driver.Failure
	var died *driver.DiedError
	switch {
	case errors.As(err, &f) && f.Status == driver.StatusCrash:
		msg := f.Message
		if f.Location != "" {
			msg += " (at " + f.Location + ")"
		}
		return nil, record.StatusCompileCrash, "", msg
	case errors.As(err, &f):
		return nil, record.StatusCompileError, "", f.Message
	case errors.As(err, &died) && died.Signal == "":
		return nil, record.StatusTimeout, "", err.Error()
	case errors.As(err, &died):
		return nil, record.StatusCompileCrash, "", err.Error()
	case err != nil:
		return nil, record.StatusHarnessError, "", err.Error()
	case ans.Unsupported != "":
		msg := ans.Unsupported
		if ans.Location != "" {
			msg += " (at " + ans.Location + ")"
		}
		return nil, record.StatusUnsupported, "", msg
	case ans.StackOverflow:
		return nil, record.StatusStackOverflow, "", "interpreter: " + ans.Message
	case ans.Timeout:
		return nil, record.StatusTimeout, "", "interpreter: " + cmp.Or(ans.Message, "fuel exhausted")
	case ans.Trap != "":
		return nil, record.StatusTrap, ans.Trap, ""
	}
	vals := make([]ir.DataValue, len(ans.Results))
	for i, v := range ans.Results {
		dv, err := v.DataValue()
		if err != nil {
			return nil, record.StatusHarnessError, "", "interpreter result: " + err.Error()
		}
		vals[i] = dv
	}
	return vals, record.StatusOK, "", ""
}

// resultBuilder accumulates a run's input vectors in order; the run's
// status is that of the first vector that did not return normally, and
// outputs stop there (its own output included).
type resultBuilder struct {
	res     *record.RunResult
	h       *canon.Hasher
	stopped bool
}

func newResult(cfg record.Config, times record.Timings) *resultBuilder {
	return &resultBuilder{res: &record.RunResult{Config: cfg, Status: record.StatusOK, Timings: times}, h: canon.NewHasher()}
}

func (r *resultBuilder) add(vals []ir.DataValue, status record.Status, trap, signal, msg string) {
	if r.stopped {
		return
	}
	switch status {
	case record.StatusOK:
		r.h.Results(vals)
		r.res.Outputs = append(r.res.Outputs, canon.Text(vals))
		return
	case record.StatusTrap:
		r.h.Trap(trap)
		r.res.Outputs = append(r.res.Outputs, canon.TrapText(trap))
		r.res.Trap = trap
	default:
		r.res.Outputs = append(r.res.Outputs, describeOutcome(status, trap, signal, msg))
		r.res.Signal = signal
		r.res.Message = shorten(msg)
	}
	r.res.Status = status
	r.stopped = true
}

func (r *resultBuilder) finish() *record.RunResult {
	if r.res.Status == record.StatusOK || r.res.Status == record.StatusTrap {
		r.res.Hash = r.h.Sum()
	}
	return r.res
}

func describeOutcome(status record.Status, trap, signal, msg string) string {
	switch status {
	case record.StatusTrap:
		return canon.TrapText(trap)
	case record.StatusCrash:
		if signal != "" {
			return "crash " + signal
		}
	}
	s := string(status)
	if msg != "" {
		s += ": " + firstLine(msg)
	}
	return s
}

// ceilMS is d in whole milliseconds, rounded up: a deadline is never
// shorter than asked.
func ceilMS(d time.Duration) int64 { return int64((d + time.Millisecond - 1) / time.Millisecond) }

func msSince(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }

// shorten keeps messages in records to a readable size.
func shorten(s string) string {
	const max = 2000
	if len(s) > max {
		return s[:max] + "..."
	}
	return s
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
