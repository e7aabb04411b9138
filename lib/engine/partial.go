package engine

import (
	"fmt"

	"cliff/lib/driver"
	"cliff/lib/record"
	"cliff/lib/tramp"
)

// A module of which some functions failed to compile is not failed as a
// whole: the driver compiles every function, reports each failure as its
// own function's, and leaves out of the object only the failed functions
// and those whose code refers to one (each such function names the
// failed one it needs). An entry then fails with the failure that keeps
// its trampoline out of the object, and the other entries run.
//
// Two rules keep a failure from passing unseen. A case record is judged
// as a whole: when a function of its module failed that its entry does
// not need (a call the optimiser removed), the case still gets that
// failure, named after its function. In a .clif file, a failed function
// that no failed entry accounts for (it has no run lines) is reported on
// its own line and fails the run.

// failEntries gives a compile failure to each entry of u that cannot run
// (see above); such entries go into skip. It reports whether any entry is
// left to run.
func (w *worker) failEntries(t *task, u *unit, m driver.ModuleOutcome, skip map[*entry]bool) bool {
	byName := make(map[string]*driver.Function, len(m.Functions))
	for i := range m.Functions {
		byName[m.Functions[i].Name] = &m.Functions[i]
	}
	// A batch can be compiled again (after a link failure, say): what its
	// first attempt reported is not reported again.
	firstAttempt := true
	// covered are the failed functions that some failed entry names.
	covered := map[string]bool{}
	var runnable []*entry
	for _, e := range u.entries {
		if e.err != nil {
			continue
		}
		if e.results[t.cfgIndex] != nil {
			firstAttempt = false
		}
		f := byName[tramp.Name(e.fn.Name)]
		if f != nil && f.Placed() {
			runnable = append(runnable, e)
			continue
		}
		status, msg := compileFailure(m.Status, m.Message, m.Location)
		if f != nil {
			status, msg = compileFailure(f.Status, f.Message, f.Location)
			covered[f.Name] = true
			covered[f.Needs] = true
			if f.Needs != "" && f.Needs != e.fn.Name {
				msg = fmt.Sprintf("%s needs %s, which failed: %s", e.fn.Name, f.Needs, msg)
			}
		}
		w.failEntry(t, u, e, skip, status, msg, m.CompileMS)
	}
	for i := range m.Functions {
		f := &m.Functions[i]
		if f.Placed() || f.Needs != "" || covered[f.Name] {
			continue
		}
		status, msg := compileFailure(f.Status, f.Message, f.Location)
		if u.configs == nil {
			// A case record: its entry runs only if the whole case
			// compiled.
			for _, e := range runnable {
				w.failEntry(t, u, e, skip, status, msg, m.CompileMS)
			}
			return false
		}
		if firstAttempt {
			w.out.failedFunction(u, f.Name, t.cfg, string(status)+": "+firstLine(msg))
		}
	}
	return len(runnable) > 0
}

// failEntry records a compile failure for e, which must not run.
func (w *worker) failEntry(t *task, u *unit, e *entry, skip map[*entry]bool, status record.Status, msg string, compileMS float64) {
	skip[e] = true // its slot in cliff_entries is 0
	if e.results[t.cfgIndex] != nil {
		return // failed in an earlier attempt at the batch
	}
	e.results[t.cfgIndex] = &record.RunResult{Config: t.cfg, Status: status, Message: shorten(msg), Timings: record.Timings{CompileMS: compileMS}}
	w.out.failedCalls(u, e, t.cfg, string(status)+": "+firstLine(msg))
}
