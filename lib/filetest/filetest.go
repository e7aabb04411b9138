// Package filetest renders a reduced case as a Cranelift filetest, the
// form a fix adds upstream: header comments with the symptom and the
// configurations, `test run` (or `test compile` for a compiler crash),
// the `set` lines it needs, the `target` lines that fail and one that
// passes, the functions, and `; run: %f(args) == expected`. Only syntax
// Cranelift's own reader accepts: no cliff source locations, no
// cliff-only header.
//
// It also converts cliff's value texts back to typed values: a case's
// input vectors (record.Value) and a run's canonical outputs
// (record.RunResult.Outputs, lib/canon's text), so that the expected
// values of a run line come from the agreeing configurations or the
// interpreter.
package filetest

import (
	"fmt"
	"slices"
	"strings"

	"cliff/lib/ir"
	"cliff/lib/iredit"
	"cliff/lib/parser"
	"cliff/lib/printer"
	"cliff/lib/record"
)

// Spec is what a filetest says.
type Spec struct {
	Module *ir.Module
	Entry  string // the function the run line calls; "" for the first
	// Settings are the Cranelift settings every target needs (the case's),
	// written as `set` lines before the targets.
	Settings []string
	Failing  []record.Config // the configurations that show the failure
	Passing  []record.Config // the ones of the expected side, which do not
	// Compile makes it a `test compile` file: a compiler crash, no run
	// line.
	Compile bool
	// Runs are the run lines: the entry called with Args expects Want.
	// None for a compile file; an expected trap, which a run line cannot
	// state, goes in Notes instead.
	Runs    []Run
	Symptom string   // one line: the signature, the panic, the outputs
	Notes   []string // more header comment lines
}

// A Run is one run line: `; run: %entry(Args) == Want`.
type Run struct {
	Args []ir.DataValue
	Want []ir.DataValue
}

// Render writes the filetest.
func Render(s Spec) (string, error) {
	if s.Module == nil || len(s.Module.Funcs) == 0 {
		return "", fmt.Errorf("filetest: no function")
	}
	mod, err := iredit.Clone(s.Module)
	if err != nil {
		return "", err
	}
	for _, f := range mod.Funcs {
		for k := range f.Insts {
			f.Insts[k].SrcLoc = ir.SourceLoc{} // cliff's scaffold mark means nothing upstream
		}
	}
	entry := iredit.EntryFunc(mod, s.Entry)
	file := &ir.File{Module: *mod}
	if s.Compile {
		file.Tests = append(file.Tests, ir.HeaderLine{Kind: ir.HeaderTest, Words: []string{"compile"}})
	} else {
		if slices.ContainsFunc(s.Passing, isInterp) || slices.ContainsFunc(s.Failing, isInterp) {
			file.Tests = append(file.Tests, ir.HeaderLine{Kind: ir.HeaderTest, Words: []string{"interpret"}})
		}
		file.Tests = append(file.Tests, ir.HeaderLine{Kind: ir.HeaderTest, Words: []string{"run"}})
	}
	file.Header = header(s)
	for _, r := range s.Runs {
		if s.Compile {
			break
		}
		if len(r.Args) != len(entry.Sig.Params) || len(r.Want) != len(entry.Sig.Returns) {
			return "", fmt.Errorf("filetest: %s takes %d params and returns %d values; a run line has %d args and %d results",
				entry.Name, len(entry.Sig.Params), len(entry.Sig.Returns), len(r.Args), len(r.Want))
		}
		file.Commands = append(file.Commands, ir.RunCommand{Kind: ir.RunCheck, Func: entry.Name, Args: r.Args, Cmp: "==", Want: r.Want})
	}
	var b strings.Builder
	comment(&b, s.Symptom)
	for _, c := range s.Failing {
		comment(&b, "fails:  "+c.String())
	}
	for _, c := range s.Passing {
		comment(&b, "passes: "+c.String())
	}
	for _, n := range s.Notes {
		comment(&b, n)
	}
	if err := printer.File(&b, file); err != nil {
		return "", err
	}
	return b.String(), nil
}

func isInterp(c record.Config) bool { return c.Executor == record.ExecInterp }

// compiled reports whether c is a target Cranelift compiles for: not its
// interpreter (a `test interpret` line) nor cliff's reference, which has
// no line in a filetest (its answer is the run lines' expectation).
func compiled(c record.Config) bool { return !isInterp(c) && c.Executor != record.ExecRef }

// comment writes text as `; ` lines.
func comment(b *strings.Builder, text string) {
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if line == "" {
			continue
		}
		b.WriteString("; " + line + "\n")
	}
}

// header returns the set and target lines: the case's settings, then per
// opt level `set opt_level=L` and the targets compiled at it, failing
// ones first. A configuration's own settings are written before its
// target; sets are cumulative in a filetest, so they stay for the targets
// after it.
func header(s Spec) []ir.HeaderLine {
	var out []ir.HeaderLine
	set := func(w string) {
		out = append(out, ir.HeaderLine{Kind: ir.HeaderSet, Words: []string{w}})
	}
	for _, w := range s.Settings {
		set(w)
	}
	configs := append(slices.Clone(s.Failing), s.Passing...)
	var levels []string
	for _, c := range configs {
		if compiled(c) && !slices.Contains(levels, c.OptLevel) {
			levels = append(levels, c.OptLevel)
		}
	}
	done := map[string]bool{}
	for _, level := range levels {
		set("opt_level=" + level)
		for _, c := range configs {
			if !compiled(c) || c.OptLevel != level {
				continue
			}
			for _, w := range c.Settings {
				if !done["set "+w] {
					done["set "+w] = true
					set(w)
				}
			}
			words := append([]string{c.Arch}, c.Flags...)
			key := level + " " + strings.Join(words, " ")
			if done[key] {
				continue
			}
			done[key] = true
			out = append(out, ir.HeaderLine{Kind: ir.HeaderTarget, Words: words})
		}
	}
	return out
}

// Inputs converts an input vector of a case record to typed values.
func Inputs(in record.InputVector) ([]ir.DataValue, error) {
	out := make([]ir.DataValue, len(in))
	for k, v := range in {
		dv, err := value(v.Type, v.Value)
		if err != nil {
			return nil, fmt.Errorf("input %d: %w", k, err)
		}
		out[k] = dv
	}
	return out, nil
}

// Outputs converts one input vector's canonical output text (an entry of
// record.RunResult.Outputs: "i32 42, f32 +NaN") to typed values; for a
// vector that trapped ("trap int_divz") it returns the trap code instead.
func Outputs(text string) (vals []ir.DataValue, trap string, err error) {
	if code, ok := strings.CutPrefix(text, "trap "); ok {
		return nil, code, nil
	}
	if strings.TrimSpace(text) == "" {
		return []ir.DataValue{}, "", nil
	}
	for k, part := range strings.Split(text, ", ") {
		t, v, ok := strings.Cut(part, " ")
		if !ok {
			return nil, "", fmt.Errorf("output %d: %q is not TYPE VALUE", k, part)
		}
		dv, err := value(t, v)
		if err != nil {
			return nil, "", fmt.Errorf("output %d: %w", k, err)
		}
		vals = append(vals, dv)
	}
	return vals, "", nil
}

func value(typ, text string) (ir.DataValue, error) {
	t, ok := ir.ParseType(typ)
	if !ok {
		return ir.DataValue{}, fmt.Errorf("unknown type %q", typ)
	}
	dv, err := parser.ParseDataValue(t, text)
	if err != nil {
		return ir.DataValue{}, fmt.Errorf("%s %s: %w", typ, text, err)
	}
	return dv, nil
}

// RunOf makes the run line of input vector input of a case: its values
// as args, and as expected results the expected side's answer (Expected:
// cliff's reference's, else Cranelift's interpreter's, else the
// majority's outside failing). When there is no run line to write, run
// is nil and note says why, for the file's header: no expected answer,
// or an expected answer that is a trap.
func RunOf(c *record.Case, failing []record.Config, input int) (run *Run, note string, err error) {
	if input < 0 || input >= len(c.Inputs) {
		return nil, "", fmt.Errorf("filetest: input %d of %d", input, len(c.Inputs))
	}
	text, ok := Expected(c.Results, failing, input)
	if !ok {
		return nil, fmt.Sprintf("input %d: no run line, no reference answer (the passing configurations disagree or did not run it)", input), nil
	}
	return RunWith(c.Inputs[input], text)
}

// RunWith makes the run line of an input vector expecting the canonical
// output text want (a verdict side's Output, say); see RunOf.
func RunWith(in record.InputVector, want string) (run *Run, note string, err error) {
	args, err := Inputs(in)
	if err != nil {
		return nil, "", err
	}
	vals, trap, err := Outputs(want)
	if err != nil {
		return nil, "", err
	}
	if trap != "" {
		texts := make([]string, len(args))
		for i, a := range args {
			texts[i] = printer.DataValue(a)
		}
		return nil, fmt.Sprintf("the reference traps with %s on (%s): a run line cannot say so", trap, strings.Join(texts, ", ")), nil
	}
	return &Run{Args: args, Want: vals}, "", nil
}

// Expected picks the expected output text of input vector input from a
// case's results that answered (ok or trap: an unsupported run's outputs
// hold its reason): cliff's reference's (lib/refinterp) when it ran it, else
// Cranelift's interpreter's, else the output most of the configurations
// outside failing agree on. ok is false when none exists or the others
// disagree evenly.
func Expected(results []record.RunResult, failing []record.Config, input int) (text string, ok bool) {
	for _, r := range results {
		if r.Config.Executor == record.ExecRef && (r.Status == record.StatusOK || r.Status == record.StatusTrap) && input < len(r.Outputs) {
			return r.Outputs[input], true
		}
	}
	count := map[string]int{}
	for _, r := range results {
		answered := r.Status == record.StatusOK || r.Status == record.StatusTrap
		if !answered || input >= len(r.Outputs) || slices.ContainsFunc(failing, func(c record.Config) bool { return c.String() == r.Config.String() }) {
			continue
		}
		if r.Config.Executor == record.ExecInterp {
			return r.Outputs[input], true
		}
		count[r.Outputs[input]]++
	}
	best, n, tie := "", 0, false
	for out, c := range count {
		switch {
		case c > n:
			best, n, tie = out, c, false
		case c == n:
			tie = true
		}
	}
	return best, n > 0 && !tie
}
