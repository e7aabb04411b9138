package engine

import (
	"fmt"
	"strings"

	"cliff/lib/arch"
	"cliff/lib/ir"
	"cliff/lib/parser"
	"cliff/lib/printer"
	"cliff/lib/profile"
	"cliff/lib/record"
	"cliff/lib/tramp"
	"cliff/lib/verify"
)

// A unit is what cliff-run compiles as one module: a case record, or a
// .clif file with all its functions. Its entries are the functions that
// are called, each with its own output record.
type unit struct {
	source  string // "file.clif" or "stdin: record 3", for messages
	clif    string // the module as the driver compiles and interprets it
	entries []*entry
	// configs are the configurations of a .clif file; nil marks a case
	// record, which runs under the run's configurations for cases
	// (runner.caseConfigs).
	configs []record.Config
	// caseSettings are the Cranelift settings a case record needs
	// (record.Case.Settings), added to the run's.
	caseSettings []string
	skips        []skip
	// tramps is the CLIF of every runnable entry's trampoline, appended
	// to clif for compiled configurations; tramps32 the same with 32-bit
	// buffer pointers, for the 32-bit Pulley targets.
	tramps, tramps32 string
	// funcs are the module's functions by name, for following calls.
	funcs map[string]*ir.Function
	// module is the parsed module, which the reference (lib/refinterp)
	// runs as it is.
	module *ir.Module
	// verifyTarget is the target the interpreter verifies the module
	// against: a .clif file's first target line for an architecture
	// cliff compiles for (the interpreter runs with 64-bit pointers, so a
	// pulley32 target would reject it), or "" for none.
	verifyTarget string
	// fileVerify are the options under which Cranelift's filetest runner
	// verifies a .clif file (verify.OptionsFor); nil for a case record.
	// See pulley32.go.
	fileVerify *verify.Options
	// unrunnable says why compiled code of this unit cannot run in the
	// harness (it refers to an external name the harness does not
	// provide; see externals.go), or "".
	unrunnable string
	// compileOnly marks the functions of a `test compile` file: each is
	// compiled on its own and nothing runs (see compilecheck.go);
	// expectFail says each must be rejected.
	compileOnly, expectFail bool
}

// An entry is one called function of a unit and the calls made to it.
type entry struct {
	rec    *record.Case // written out with results appended
	fn     *ir.Function
	layout tramp.Layout
	calls  []call
	// err says why the entry cannot run at all (e.g. a vmctx parameter);
	// every configuration then reports it as a harness error.
	err error
	// results holds one result per configuration index, filled by the
	// workers, appended to rec.Results in configuration order.
	results []*record.RunResult
	// module is the text a compile check compiles: the function alone.
	module string
}

// A call is one input vector, with the run command it came from (nil for
// a case record's inputs).
type call struct {
	args []ir.DataValue
	cmd  *ir.RunCommand
}

// prepare builds the trampolines and result slots once the entries are
// known.
func (u *unit) prepare(nconfigs int) {
	var b, b32 strings.Builder
	for _, e := range u.entries {
		e.results = make([]*record.RunResult, nconfigs)
		if e.err != nil || u.compileOnly {
			continue
		}
		text, layout, err := tramp.Text(e.fn)
		if err != nil {
			e.err = err
			continue
		}
		text32, _, err := tramp.TextFor(e.fn, ir.I32)
		if err != nil {
			e.err = err
			continue
		}
		e.layout = layout
		b.WriteString("\n")
		b.WriteString(text)
		b32.WriteString("\n")
		b32.WriteString(text32)
	}
	u.tramps, u.tramps32 = b.String(), b32.String()
}

// caseUnit makes a unit of a case record: its first (or Entry) function
// called with each input vector. A record cliff cannot take as it is (its
// CLIF does not parse or verify, defines a function twice, lacks the entry
// function, or its inputs do not fit the entry's parameters) is bad input:
// the error is returned, for the caller to name the record, and nothing of
// it reaches Cranelift, which would otherwise be blamed for cliff's input.
func caseUnit(source string, c *record.Case) (*unit, error) {
	u := &unit{source: source, clif: c.CLIF, caseSettings: c.Settings, funcs: map[string]*ir.Function{}}
	e := &entry{rec: c}
	u.entries = []*entry{e}
	m, err := parser.ParseModuleString(c.ID, c.CLIF)
	if err != nil {
		return nil, fmt.Errorf("clif does not parse: %w", err)
	}
	vopts := verify.OptionsForSettings(c.Settings)
	if p, err := profile.Load(c.Options.Profile); err == nil {
		vopts.PointerType = p.Pointer // a case made for pulley32 has 32-bit addresses
	}
	if errs := verify.ModuleWith(m, vopts); len(errs) > 0 {
		return nil, fmt.Errorf("clif does not verify: %w", errs)
	}
	if err := checkNames(m.Funcs); err != nil {
		return nil, err
	}
	u.unrunnable = unrunnableReason(m.Funcs)
	u.module = m
	for _, f := range m.Funcs {
		u.funcs[f.Name] = f
	}
	if e.fn, err = findEntry(m.Funcs, c.Entry); err != nil {
		return nil, err
	}
	for i, vec := range c.Inputs {
		args, err := caseArgs(e.fn, vec)
		if err != nil {
			return nil, fmt.Errorf("inputs[%d]: %w", i, err)
		}
		e.calls = append(e.calls, call{args: args})
	}
	return u, nil
}

func findEntry(funcs []*ir.Function, name string) (*ir.Function, error) {
	if len(funcs) == 0 {
		return nil, fmt.Errorf("module has no function")
	}
	if name == "" {
		return funcs[0], nil
	}
	for _, f := range funcs {
		if f.Name == name {
			return f, nil
		}
	}
	return nil, fmt.Errorf("entry function %s is not in the module", name)
}

// checkNames rejects functions whose names clash with cliff's trampolines.
func checkNames(funcs []*ir.Function) error {
	for _, f := range funcs {
		if strings.HasPrefix(f.Name, tramp.Prefix) {
			return fmt.Errorf("function %s: names starting with %s are reserved for cliff", f.Name, tramp.Prefix)
		}
	}
	return nil
}

// caseArgs parses an input vector against fn's parameters.
func caseArgs(fn *ir.Function, vec record.InputVector) ([]ir.DataValue, error) {
	if len(vec) != len(fn.Sig.Params) {
		return nil, fmt.Errorf("%d values for %s, which takes %d", len(vec), fn.Name, len(fn.Sig.Params))
	}
	args := make([]ir.DataValue, len(vec))
	for i, v := range vec {
		t, ok := ir.ParseType(v.Type)
		if !ok {
			return nil, fmt.Errorf("value %d: unknown type %q", i, v.Type)
		}
		if want := fn.Sig.Params[i].Type; t != want {
			return nil, fmt.Errorf("value %d is %s, %s takes %s", i, t, fn.Name, want)
		}
		dv, err := parser.ParseDataValue(t, v.Value)
		if err != nil {
			return nil, fmt.Errorf("value %d: %w", i, err)
		}
		args[i] = dv
	}
	return args, nil
}

// fileUnit makes a unit of a parsed .clif file: one entry per function
// that run or print commands call, in file order.
func fileUnit(path string, src []byte, f *ir.File, configs []record.Config, skips []skip) (*unit, error) {
	u := &unit{source: path, clif: moduleText(src, f), configs: configs, skips: skips, unrunnable: unrunnableReason(f.Funcs), funcs: map[string]*ir.Function{}}
	u.module = &f.Module
	opts := verify.OptionsFor(f)
	u.fileVerify = &opts
	for _, fn := range f.Funcs {
		u.funcs[fn.Name] = fn
	}
	for _, h := range f.Header {
		if h.Kind == ir.HeaderTarget && u.verifyTarget == "" && len(h.Words) > 0 && arch.Known(h.Words[0]) && !arch.IsBytecode(h.Words[0]) {
			u.verifyTarget = strings.Join(h.Words, " ")
		}
	}
	if err := checkNames(f.Funcs); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	byName := map[string]*entry{}
	for i := range f.Commands {
		cmd := &f.Commands[i]
		e := byName[cmd.Func]
		if e == nil {
			fn, err := findEntry(f.Funcs, cmd.Func)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", path, cmd.Line, err)
			}
			e = &entry{fn: fn, rec: &record.Case{ID: path + ":" + cmd.Func, CLIF: u.clif, Entry: cmd.Func}}
			e.rec.Stamp()
			byName[cmd.Func] = e
			u.entries = append(u.entries, e)
		}
		e.calls = append(e.calls, call{args: cmd.Args, cmd: cmd})
		vec := make(record.InputVector, len(cmd.Args))
		for j, a := range cmd.Args {
			vec[j] = record.Value{Type: a.Type.String(), Value: printer.DataValue(a)}
		}
		e.rec.Inputs = append(e.rec.Inputs, vec)
	}
	return u, nil
}

// moduleText is the file with its test, set and target lines turned into
// comments: the functions as written (no reprinting can change what
// Cranelift sees), at their original line numbers, so that Cranelift's
// messages point into the file.
func moduleText(src []byte, f *ir.File) string {
	lines := strings.SplitAfter(string(src), "\n")
	for _, h := range append(append([]ir.HeaderLine(nil), f.Tests...), f.Header...) {
		if i := h.Line - 1; i >= 0 && i < len(lines) {
			lines[i] = "; " + lines[i]
		}
	}
	return strings.Join(lines, "")
}

// reachable lists the names of the functions a call of e can execute: its
// trampoline, its function and every function of the module these
// reference, transitively.
func (u *unit) reachable(e *entry) []string {
	names := []string{tramp.Name(e.fn.Name)}
	seen := map[string]bool{}
	var walk func(name string)
	walk = func(name string) {
		f := u.funcs[name]
		if f == nil || seen[name] {
			return
		}
		seen[name] = true
		names = append(names, name)
		for _, fr := range f.Preamble.FuncRefs {
			walk(fr.Name)
		}
	}
	walk(e.fn.Name)
	return names
}
