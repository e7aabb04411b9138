package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"cliff/lib/driver"
	"cliff/lib/ir"
	"cliff/lib/record"
)

// A `test compile` file is checked by compiling each of its functions on
// each configuration, as Cranelift's filetest runner does: every function
// must compile (with `expect-fail`, every function must be rejected), and
// a panic is a failure either way. Its functions are compiled one module
// each, because such files often define the same name several times.
// The expected machine code (`precise-output`) is not compared: it is
// Cranelift's own regression test, and what cliff looks for is panics and
// rejected functions.

// compileTest returns the `test compile` line of a file, if it has one.
func compileTest(f *ir.File) (ir.HeaderLine, bool) {
	i := slices.IndexFunc(f.Tests, func(t ir.HeaderLine) bool { return len(t.Words) > 0 && t.Words[0] == "compile" })
	if i < 0 {
		return ir.HeaderLine{}, false
	}
	return f.Tests[i], true
}

// compileUnit makes a unit of a `test compile` file: one entry per
// function, whose module is the function's own text, at its original line
// numbers so that Cranelift's messages point into the file. The
// interpreter configurations are left out: there is nothing to compile
// there.
func compileUnit(path string, src []byte, f *ir.File, test ir.HeaderLine, configs []record.Config, skips []skip) *unit {
	u := &unit{source: path, compileOnly: true, expectFail: slices.Contains(test.Words[1:], "expect-fail"), skips: skips}
	for _, c := range configs {
		if c.Executor != record.ExecInterp && c.Executor != record.ExecRef {
			u.configs = append(u.configs, c)
		}
	}
	if u.configs == nil {
		u.configs = []record.Config{} // non-nil: a file never takes the case configurations
	}
	lines := strings.SplitAfter(string(src), "\n")
	ids := map[string]bool{}
	for i, fn := range f.Funcs {
		first, end := fn.Pos.Func.Line-1, len(lines)
		if i+1 < len(f.Funcs) {
			end = f.Funcs[i+1].Pos.Func.Line - 1
		}
		text := strings.Repeat("\n", first) + strings.Join(lines[first:end], "")
		id := path + ":" + fn.Name
		if ids[id] {
			id = fmt.Sprintf("%s@%d", id, fn.Pos.Func.Line)
		}
		ids[id] = true
		rec := &record.Case{ID: id, CLIF: text, Entry: fn.Name}
		rec.Stamp()
		u.entries = append(u.entries, &entry{rec: rec, fn: fn, module: text})
	}
	return u
}

// checkCompiles compiles every function of the task's compile units, each
// as its own module, in one request per unit, and checks the outcomes.
func (w *worker) checkCompiles(ctx context.Context, t *task) {
	for _, u := range t.units {
		obj, _ := w.scratch()
		req := &driver.CompileRequest{Target: targetString(t.cfg), Flags: sharedFlags(t.cfg), Output: obj}
		for _, e := range u.entries {
			req.Modules = append(req.Modules, e.module)
		}
		cctx, cancel := context.WithTimeout(ctx, w.lim.compileBase+time.Duration(len(req.Modules))*w.lim.compilePer)
		ans, err := w.driverFor(t.cfg).Compile(cctx, req)
		cancel()
		os.Remove(obj)
		if err != nil && len(u.entries) > 1 {
			// The driver died or timed out on the whole request: compile
			// each function alone, so that only the culprit fails.
			for _, e := range u.entries {
				w.checkCompiles(ctx, &task{cfgIndex: t.cfgIndex, cfg: t.cfg, units: []*unit{{source: u.source, compileOnly: true, expectFail: u.expectFail, entries: []*entry{e}}}})
			}
			continue
		}
		for k, e := range u.entries {
			var m driver.ModuleOutcome
			if err == nil {
				m = ans.Modules[k]
			}
			w.checkCompile(u, e, t, m, err)
		}
	}
}

// checkCompile turns one function's compile outcome (or the request's
// error) into its result and its check.
func (w *worker) checkCompile(u *unit, e *entry, t *task, m driver.ModuleOutcome, err error) {
	cfg := t.cfg
	res := &record.RunResult{Config: cfg, Timings: record.Timings{CompileMS: m.CompileMS}}
	var f *driver.Failure
	var died *driver.DiedError
	switch {
	case errors.As(err, &f):
		// The request as a whole was refused: a target or setting this
		// Cranelift does not know.
		res.Status, res.Message = record.StatusCompileError, f.Message
	case errors.As(err, &died) && died.Signal == "":
		res.Status, res.Message = record.StatusTimeout, err.Error()
	case errors.As(err, &died):
		res.Status, res.Message, res.Signal = record.StatusCompileCrash, err.Error(), died.Signal
	case err != nil:
		res.Status, res.Message = record.StatusHarnessError, err.Error()
	case m.Status == driver.StatusOK:
		res.Status, res.Hash = record.StatusOK, record.HashString("")
	default:
		res.Status, res.Message = compileFailure(m.Status, m.Message, m.Location)
	}
	res.Message = shorten(res.Message)
	e.results[t.cfgIndex] = res
	failure := ""
	switch {
	case res.Status == record.StatusHarnessError:
		w.out.harnessFailedCompile(u, e, cfg, firstLine(res.Message))
		return
	case res.Status == record.StatusCompileCrash:
		failure = "compile_crash: " + firstLine(res.Message)
	case u.expectFail && res.Status == record.StatusOK:
		failure = "compiled, but the file expects it to fail (test compile expect-fail)"
	case !u.expectFail && res.Status != record.StatusOK:
		failure = string(res.Status) + ": " + firstLine(res.Message)
	}
	w.out.compileChecked(u, e, cfg, failure)
}
