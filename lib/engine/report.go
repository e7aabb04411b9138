package engine

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"

	"cliff/lib/canon"
	"cliff/lib/ir"
	"cliff/lib/record"
)

// A reporter checks run commands against results and keeps the counts for
// --summary. Failures go to the log (stderr) as they happen, one line
// each, with the file position of the run command.
type reporter struct {
	mu      sync.Mutex
	log     io.Writer
	counts  map[string]*runlineCounts // by arch ("interp" included)
	reasons map[string]int            // skip reason → run-line checks skipped
	warned  map[string]bool
	// broken says, per architecture, why this machine cannot build or
	// run its code (a missing cross compiler or C library, say).
	broken map[string]error
	// harnessErrors counts the run lines cliff itself failed to run (not
	// the machine's tools: cliff's own machinery); any makes the exit
	// status 2, as they say nothing about Cranelift.
	harnessErrors int
	// compiles are the compile checks of `test compile` files, by arch.
	compiles map[string]*runlineCounts
	// filesSkipped counts the files found in directories that have
	// nothing to check, by reason.
	filesSkipped map[string]int
	// stopped: the run was cancelled (a signal, a failed output); what
	// fails from then on fails because of it, and is neither printed nor
	// counted.
	stopped bool
}

// stop makes the reporter ignore every later report.
func (r *reporter) stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopped = true
}

// runlineCounts are the run lines of one architecture. notRun are those
// that never ran because the machine's tools are broken: a fault of the
// environment, neither a pass nor a failure of Cranelift. functions are
// the functions without run lines of their own that failed to compile
// (see partial.go): failures too, though not of a run line.
type runlineCounts struct{ passed, failed, skipped, notRun, functions int }

func newReporter(log io.Writer) *reporter {
	return &reporter{log: log, counts: map[string]*runlineCounts{}, reasons: map[string]int{}, warned: map[string]bool{}, broken: map[string]error{}, compiles: map[string]*runlineCounts{}, filesSkipped: map[string]int{}}
}

func (r *reporter) countsFor(arch string) *runlineCounts { return countsIn(r.counts, arch) }

// countKey is what the summary counts a configuration's run lines
// under: its architecture, and its Cranelift when a run tests several
// (x86_64@0.135.8).
func countKey(cfg record.Config) string {
	if cfg.Cranelift != "" {
		return cfg.Arch + "@" + cfg.Cranelift
	}
	return cfg.Arch
}

func (r *reporter) compileCounts(arch string) *runlineCounts { return countsIn(r.compiles, arch) }

// countsIn returns arch's counts in m, made on first use.
func countsIn(m map[string]*runlineCounts, arch string) *runlineCounts {
	c := m[arch]
	if c == nil {
		c = &runlineCounts{}
		m[arch] = c
	}
	return c
}

// checkCall checks one call's outcome against its run command: vals are
// the results when the call returned, failure describes how it did not.
func (r *reporter) checkCall(u *unit, e *entry, c call, cfg record.Config, vals []ir.DataValue, failure string) {
	r.check(u, c, cfg, vals, failure, "")
}

// harnessFailedCall counts a call cliff's machinery failed to run.
func (r *reporter) harnessFailedCall(u *unit, c call, cfg record.Config, msg string) {
	r.check(u, c, cfg, nil, "", msg)
}

func (r *reporter) check(u *unit, c call, cfg record.Config, vals []ir.DataValue, failure, harnessFailure string) {
	if !isRunCheck(c) {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return
	}
	counts := r.countsFor(countKey(cfg))
	if harnessFailure != "" {
		counts.notRun++
		r.harnessErrors++
		fmt.Fprintf(r.log, "%s:%d: NOT RUN %s: %s: harness error: %s\n", u.source, c.cmd.Line, cfg, c.cmd.Text, harnessFailure)
		return
	}
	if failure == "" {
		if c.cmd.Holds(vals) {
			counts.passed++
			return
		}
		failure = "got " + valuesText(vals)
	}
	counts.failed++
	fmt.Fprintf(r.log, "%s:%d: FAIL %s: %s: %s\n", u.source, c.cmd.Line, cfg, c.cmd.Text, failure)
}

// failedCalls counts every run command of an entry as failed for cfg, with
// one line for the lot (a compile failure fails them all).
func (r *reporter) failedCalls(u *unit, e *entry, cfg record.Config, msg string) {
	r.endedCalls(u, e, cfg, msg, false)
}

// harnessFailedCalls counts every run command of an entry as not run for
// cfg because cliff's own machinery failed: neither a pass nor a failure
// of Cranelift, and an error of the run (exit status 2).
func (r *reporter) harnessFailedCalls(u *unit, e *entry, cfg record.Config, msg string) {
	r.endedCalls(u, e, cfg, msg, true)
}

func (r *reporter) endedCalls(u *unit, e *entry, cfg record.Config, msg string, harness bool) {
	n, line := runChecks([]*entry{e}), 0
	if i := slices.IndexFunc(e.calls, isRunCheck); i >= 0 {
		line = e.calls[i].cmd.Line
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return
	}
	if n > 0 && harness {
		r.countsFor(countKey(cfg)).notRun += n
		r.harnessErrors += n
		fmt.Fprintf(r.log, "%s:%d: NOT RUN %s: %s: %d run lines: %s\n", u.source, line, cfg, e.fn.Name, n, msg)
		return
	}
	if n > 0 {
		r.countsFor(countKey(cfg)).failed += n
		fmt.Fprintf(r.log, "%s:%d: FAIL %s: %s: %d run lines: %s\n", u.source, line, cfg, e.fn.Name, n, msg)
		return
	}
	if u.configs == nil {
		// A case record: its failure is in its results; say it once per
		// kind of message so a campaign's log stays readable.
		key := cfg.Arch + ": " + msg
		if !r.warned[key] {
			r.warned[key] = true
			fmt.Fprintf(r.log, "cliff-run: %s: %s %s\n", u.source, cfg, msg)
		}
	}
}

// skippedCall counts one run command as skipped under cfg, because the
// configuration cannot tell whether it holds (the interpreter lacks an
// instruction, say): a line on the log says why, as failures do, since
// the reason is the call's own; the summary counts it by reason.
func (r *reporter) skippedCall(u *unit, c call, cfg record.Config, why string) {
	if !isRunCheck(c) {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.countsFor(countKey(cfg)).skipped++
	status, _, _ := strings.Cut(why, ":")
	r.reasons[cfg.Arch+": "+status]++
	fmt.Fprintf(r.log, "%s:%d: SKIP %s: %s: %s\n", u.source, c.cmd.Line, cfg, c.cmd.Text, why)
}

// failedFunction reports a function of a .clif file that failed to
// compile and that no failed run line accounts for: a line on the log
// (at the function), and the run fails.
func (r *reporter) failedFunction(u *unit, name string, cfg record.Config, msg string) {
	line := 0
	if f := u.funcs[name]; f != nil {
		line = f.Pos.Func.Line
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.countsFor(countKey(cfg)).functions++
	fmt.Fprintf(r.log, "%s:%d: FAIL %s: %s: %s\n", u.source, line, cfg, name, msg)
}

// unusable counts a unit's run commands as not run under cfg, because
// this machine cannot build or run the architecture's code; the reason is
// printed once per architecture.
func (r *reporter) unusable(u *unit, cfg record.Config, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return
	}
	r.countsFor(countKey(cfg)).notRun += runChecks(u.entries)
	if _, seen := r.broken[cfg.Arch]; !seen {
		r.broken[cfg.Arch] = err
		fmt.Fprintf(r.log, "cliff-run: not running any %s code: %v\n", cfg.Arch, err)
	}
}

// harnessFailed is an error when cliff's own machinery kept run lines from
// running (each was reported where it happened), or nil.
func (r *reporter) harnessFailed() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.harnessErrors == 0 {
		return nil
	}
	return fmt.Errorf("%d run lines or compile checks not run because of cliff's own errors (see above); they say nothing about Cranelift", r.harnessErrors)
}

// skippedFile counts a file found in a directory that has nothing
// cliff-run checks.
func (r *reporter) skippedFile(path, kind string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.filesSkipped[kind]++
	if r.filesSkipped[kind] == 1 {
		fmt.Fprintf(r.log, "cliff-run: skipping %s and any other file found with %s: nothing to check (%s)\n", path, kind, checkedTests)
	}
}

// harnessFailedCompile counts a compile check cliff failed to make.
func (r *reporter) harnessFailedCompile(u *unit, e *entry, cfg record.Config, msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return
	}
	r.harnessErrors++
	fmt.Fprintf(r.log, "%s:%d: NOT RUN %s: compile %s: harness error: %s\n", u.source, e.fn.Pos.Func.Line, cfg, e.fn.Name, msg)
}

// compileChecked counts one function's compile check of a `test compile`
// file: a failure is printed with the function's line.
func (r *reporter) compileChecked(u *unit, e *entry, cfg record.Config, failure string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return
	}
	c := r.compileCounts(countKey(cfg))
	if failure == "" {
		c.passed++
		return
	}
	c.failed++
	fmt.Fprintf(r.log, "%s:%d: FAIL %s: compile %s: %s\n", u.source, e.fn.Pos.Func.Line, cfg, e.fn.Name, failure)
}

// brokenArches is an error naming every architecture whose code could
// not be built or run here (each was reported when it was found), or nil.
func (r *reporter) brokenArches() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.broken) == 0 {
		return nil
	}
	arches := slices.Sorted(maps.Keys(r.broken))
	return fmt.Errorf("this machine cannot build or run %s code (see above): its results are harness errors, its run lines were not run", strings.Join(arches, ", "))
}

// skipped counts a unit's run commands as skipped under cfg, for reason.
func (r *reporter) skipped(u *unit, cfg record.Config, reason string) {
	r.skippedAs(u, cfg.Arch, cfg.String(), reason)
}

// skippedAs counts a unit's run commands as skipped on arch; label names
// the configuration in the one-time warning.
func (r *reporter) skippedAs(u *unit, arch, label, reason string) {
	if !u.compileOnly {
		r.skippedEntries(u.entries, arch, label, reason)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.compileCounts(arch).skipped += len(u.entries)
	r.warnSkip(arch, label, reason)
}

// skippedEntries counts the run commands of some entries as skipped.
func (r *reporter) skippedEntries(entries []*entry, arch, label, reason string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return
	}
	n := runChecks(entries)
	r.countsFor(arch).skipped += n
	r.reasons[arch+": "+reason] += n
	r.warnSkip(arch, label, reason)
}

// warnSkip prints a reason for skipping once per architecture.
func (r *reporter) warnSkip(arch, label, reason string) {
	key := arch + ": " + reason
	if !r.warned[key] {
		r.warned[key] = true
		fmt.Fprintf(r.log, "cliff-run: skipping %s: %s\n", label, reason)
	}
}

// skippedTargets counts the run commands of a file's unrunnable targets
// (pulley, say) once per opt level, as if they had been configurations.
func (r *reporter) skippedTargets(u *unit, opts int) {
	for _, s := range u.skips {
		arch, _, _ := strings.Cut(s.target, " ")
		for range opts {
			r.skippedAs(u, arch, "target "+s.target, s.reason)
		}
	}
}

func valuesText(vals []ir.DataValue) string {
	if len(vals) == 1 {
		return canon.Text(vals)
	}
	return "[" + canon.Text(vals) + "]"
}

// summary writes the run-line counts per architecture, then the totals as
// the last line.
func (r *reporter) summary(w io.Writer) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var total runlineCounts
	arches := make([]string, 0, len(r.counts))
	for a := range r.counts {
		arches = append(arches, a)
	}
	slices.Sort(arches)
	reasons := make([]string, 0, len(r.reasons))
	for k := range r.reasons {
		reasons = append(reasons, k)
	}
	slices.Sort(reasons)
	for _, k := range reasons {
		fmt.Fprintf(w, "skipped %d: %s\n", r.reasons[k], k)
	}
	for _, k := range slices.Sorted(maps.Keys(r.filesSkipped)) {
		fmt.Fprintf(w, "files skipped %d: %s, nothing to check\n", r.filesSkipped[k], k)
	}
	for _, a := range arches {
		c := r.counts[a]
		fmt.Fprintf(w, "runlines %s: %s\n", a, c)
		total.passed += c.passed
		total.failed += c.failed
		total.skipped += c.skipped
		total.notRun += c.notRun
		total.functions += c.functions
	}
	fmt.Fprintf(w, "runlines: %s\n", &total)
	if len(r.compiles) == 0 {
		return
	}
	var compiles runlineCounts
	for _, a := range slices.Sorted(maps.Keys(r.compiles)) {
		c := r.compiles[a]
		fmt.Fprintf(w, "compiles %s: %s\n", a, c)
		compiles.passed += c.passed
		compiles.failed += c.failed
		compiles.skipped += c.skipped
	}
	fmt.Fprintf(w, "compiles: %s\n", &compiles)
}

// String is "N passed, M failed, K skipped", with ", J not run (harness
// error)" when the machine's tools kept some from running and ", F
// functions without run lines failed to compile" when some did.
func (c *runlineCounts) String() string {
	s := fmt.Sprintf("%d passed, %d failed, %d skipped", c.passed, c.failed, c.skipped)
	if c.notRun > 0 {
		s += fmt.Sprintf(", %d not run (harness error)", c.notRun)
	}
	if c.functions > 0 {
		s += fmt.Sprintf(", %d functions without run lines failed to compile", c.functions)
	}
	return s
}

// totals are the run lines and compile checks of every architecture.
func (r *reporter) totals() (passed, failed, skipped int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, m := range []map[string]*runlineCounts{r.counts, r.compiles} {
		for _, c := range m {
			passed += c.passed
			failed += c.failed + c.functions
			skipped += c.skipped + c.notRun
		}
	}
	return passed, failed, skipped
}

func (r *reporter) anyFailed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.counts {
		if c.failed > 0 || c.functions > 0 {
			return true
		}
	}
	for _, c := range r.compiles {
		if c.failed > 0 {
			return true
		}
	}
	return false
}

// isRunCheck reports whether a call is a `; run:` line, the calls the
// counts are about (a case record's inputs and `; print:` lines are not).
func isRunCheck(c call) bool { return c.cmd != nil && c.cmd.Kind == ir.RunCheck }

// runChecks counts the run lines of some entries.
func runChecks(entries []*entry) int {
	n := 0
	for _, e := range entries {
		for _, c := range e.calls {
			if isRunCheck(c) {
				n++
			}
		}
	}
	return n
}
