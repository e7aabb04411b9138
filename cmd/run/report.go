package main

import (
	"bytes"
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
// environment, neither a pass nor a failure of Cranelift.
type runlineCounts struct{ passed, failed, skipped, notRun int }

func newReporter(log io.Writer) *reporter {
	return &reporter{log: log, counts: map[string]*runlineCounts{}, reasons: map[string]int{}, warned: map[string]bool{}, broken: map[string]error{}}
}

func (r *reporter) countsFor(arch string) *runlineCounts {
	c := r.counts[arch]
	if c == nil {
		c = &runlineCounts{}
		r.counts[arch] = c
	}
	return c
}

// checkCall checks one call's outcome against its run command: vals are
// the results when the call returned, failure describes how it did not.
func (r *reporter) checkCall(u *unit, e *entry, c call, cfg record.Config, vals []ir.DataValue, failure string) {
	if !isRunCheck(c) {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return
	}
	counts := r.countsFor(cfg.Arch)
	if failure == "" {
		if runCommandHolds(c.cmd, vals) {
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
	n, line := runChecks([]*entry{e}), 0
	if i := slices.IndexFunc(e.calls, isRunCheck); i >= 0 {
		line = e.calls[i].cmd.Line
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return
	}
	if n > 0 {
		r.countsFor(cfg.Arch).failed += n
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

// unusable counts a unit's run commands as not run under cfg, because
// this machine cannot build or run the architecture's code; the reason is
// printed once per architecture.
func (r *reporter) unusable(u *unit, cfg record.Config, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return
	}
	r.countsFor(cfg.Arch).notRun += runChecks(u.entries)
	if _, seen := r.broken[cfg.Arch]; !seen {
		r.broken[cfg.Arch] = err
		fmt.Fprintf(r.log, "cliff-run: not running any %s code: %v\n", cfg.Arch, err)
	}
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
	r.skippedEntries(u.entries, arch, label, reason)
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
	key := arch + ": " + reason
	r.reasons[key] += n
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

// runCommandHolds compares results bit for bit, as Cranelift's run tests
// do (DataValue::bitwise_eq): NaN payloads count.
func runCommandHolds(cmd *ir.RunCommand, vals []ir.DataValue) bool {
	if cmd.Cmp == "" {
		// A bare `; run`: the single integer result must be non-zero.
		return len(vals) == 1 && slices.ContainsFunc(vals[0].Bytes, func(b byte) bool { return b != 0 })
	}
	equal := len(vals) == len(cmd.Want)
	for i := 0; equal && i < len(vals); i++ {
		equal = vals[i].Type == cmd.Want[i].Type && bytes.Equal(vals[i].Bytes, cmd.Want[i].Bytes)
	}
	if cmd.Cmp == "!=" {
		return !equal
	}
	return equal
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
	for _, a := range arches {
		c := r.counts[a]
		fmt.Fprintf(w, "runlines %s: %s\n", a, c)
		total.passed += c.passed
		total.failed += c.failed
		total.skipped += c.skipped
		total.notRun += c.notRun
	}
	fmt.Fprintf(w, "runlines: %s\n", &total)
}

// String is "N passed, M failed, K skipped", with ", J not run (harness
// error)" when the machine's tools kept some from running.
func (c *runlineCounts) String() string {
	s := fmt.Sprintf("%d passed, %d failed, %d skipped", c.passed, c.failed, c.skipped)
	if c.notRun > 0 {
		s += fmt.Sprintf(", %d not run (harness error)", c.notRun)
	}
	return s
}

func (r *reporter) anyFailed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.counts {
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
