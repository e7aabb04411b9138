package engine

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"cliff/lib/ir"
	"cliff/lib/record"
	"cliff/lib/refinterp"
)

// reference runs a task on cliff's own interpreter (lib/refinterp), in this
// process: no driver, no compile, the module as parsed. Its results read
// like every configuration's (outputs hashed by lib/canon, the run
// stopping at the first input that does not return), and its run lines
// count as the other architectures' do.
//
// What the reference cannot answer (an opcode or callee it lacks,
// behaviour CLIF leaves undefined, one of its limits) is unsupported,
// stack_overflow or timeout, and the run line is skipped: the
// reference's gap says nothing about Cranelift, so cliff-diff leaves such
// a result out of the comparison. Only a failure of the reference itself
// (a panic, a call it refuses) is cliff's harness_error.
func (w *worker) reference(t *task) {
	lim := refinterp.DefaultLimits
	lim.Fuel = w.lim.fuel
	for _, u := range t.units {
		if w.refused(t, u) || !w.failBroken(t, u) {
			continue
		}
		for _, e := range u.entries {
			if e.err != nil {
				continue
			}
			in := refinterp.New(u.module, lim)
			res := newResult(t.cfg, record.Timings{})
			start := time.Now()
			for _, c := range e.calls {
				vals, status, trap, msg := referenceCall(in, e.fn.Name, c.args)
				res.add(vals, status, trap, "", msg)
				switch status {
				case record.StatusOK:
					w.out.checkCall(u, e, c, t.cfg, vals, "")
				case record.StatusTrap:
					w.out.checkCall(u, e, c, t.cfg, nil, describeOutcome(status, trap, "", msg))
				case record.StatusHarnessError:
					w.out.harnessFailedCall(u, c, t.cfg, msg)
				default:
					w.out.skippedCall(u, c, t.cfg, describeOutcome(status, trap, "", msg))
				}
			}
			res.res.Timings.ExecMS = msSince(start)
			e.results[t.cfgIndex] = res.finish()
		}
	}
}

// referenceRefusal says why the reference cannot stand for a
// configuration with these Cranelift settings, or "": lib/refinterp runs the
// CLIF's documented semantics, and enable_nan_canonicalization makes
// Cranelift's code compute other NaN bits than those; comparing the two
// would blame Cranelift for cliff's choice of settings.
func referenceRefusal(settings []string) string {
	for _, s := range settings {
		if name, value, _ := strings.Cut(s, "="); strings.TrimSpace(name) == "enable_nan_canonicalization" && strings.TrimSpace(value) == "true" {
			return "the reference does not model enable_nan_canonicalization=true"
		}
	}
	return ""
}

// referenceCall runs one call on the reference and classifies how it
// ended. A panic is caught: it is a bug of the reference, reported as
// cliff's failure with the input, never a crash of cliff-run.
func referenceCall(in *refinterp.Interp, name string, args []ir.DataValue) (vals []ir.DataValue, status record.Status, trap, msg string) {
	defer func() {
		if p := recover(); p != nil {
			vals, status, trap, msg = nil, record.StatusHarnessError, "", fmt.Sprintf("reference panicked: %v", p)
		}
	}()
	o, err := in.Call(name, args)
	return referenceOutcome(o, err)
}

// referenceOutcome maps a reference run's outcome to a result status.
func referenceOutcome(o refinterp.Outcome, err error) ([]ir.DataValue, record.Status, string, string) {
	switch {
	case err == nil && o.Trapped():
		return nil, record.StatusTrap, o.Trap.String(), ""
	case err == nil:
		return o.Results, record.StatusOK, "", ""
	case errors.Is(err, refinterp.ErrUnsupported), errors.Is(err, refinterp.ErrUndefined):
		return nil, record.StatusUnsupported, "", "reference: " + err.Error()
	case errors.Is(err, refinterp.ErrDepth), errors.Is(err, refinterp.ErrMemory):
		return nil, record.StatusStackOverflow, "", "reference: " + err.Error()
	case errors.Is(err, refinterp.ErrFuel):
		return nil, record.StatusTimeout, "", "reference: " + err.Error()
	}
	return nil, record.StatusHarnessError, "", "reference: " + err.Error()
}
