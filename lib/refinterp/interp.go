package refinterp

import (
	"errors"
	"fmt"

	"cliff/lib/ir"
)

// Errors for what ends a run without a result. Each is wrapped with
// context; test with errors.Is.
var (
	// ErrFuel: the run executed Limits.Fuel instructions without ending.
	ErrFuel = errors.New("out of fuel")
	// ErrDepth: a call went deeper than Limits.MaxDepth frames.
	ErrDepth = errors.New("call depth limit")
	// ErrMemory: the live frames' stack slots need more than
	// Limits.MaxStackBytes.
	ErrMemory = errors.New("stack memory limit")
	// ErrUnsupported: the program needs something the interpreter does not
	// do (an opcode without semantics here, an external function, a type
	// wider than 128 bits).
	ErrUnsupported = errors.New("unsupported")
	// ErrUndefined: the program did something whose behaviour CLIF leaves
	// undefined (an access outside every stack slot, a call through an
	// address that is no function): no result is a claim about Cranelift.
	ErrUndefined = errors.New("undefined behaviour")
)

// Limits bound one run.
type Limits struct {
	Fuel          uint64 // instructions executed, over all frames
	MaxDepth      int    // live frames
	MaxStackBytes int    // bytes of stack slots over the live frames
}

// DefaultLimits are those of cliff's driver for Cranelift's interpreter
// (driver/src/interpret.rs), except the depth, which Go's stack would
// hold but a reference run does not need.
var DefaultLimits = Limits{Fuel: 10_000_000, MaxDepth: 10_000, MaxStackBytes: 64 << 20}

// Outcome is how a run ended: Trap is ir.TrapNone and Results the
// returned values, or Trap is the trap code.
type Outcome struct {
	Results []ir.DataValue
	Trap    ir.TrapCode
}

// Trapped reports whether the run ended with a trap.
func (o Outcome) Trapped() bool { return o.Trap != ir.TrapNone }

// Interp runs the functions of one module. It is not safe for concurrent
// use; make one per goroutine (New is cheap).
type Interp struct {
	mod    *ir.Module
	limits Limits
	funcs  map[string]*function
	byIdx  []*function // by position in mod.Funcs, for function addresses
	thread thread      // reused by each Call: its frames and memory stay allocated
}

// New prepares m for running under the given limits. MaxStackBytes is
// capped at what fits below the function addresses (about 1 GiB).
func New(m *ir.Module, limits Limits) *Interp {
	buildDispatch()
	limits.MaxStackBytes = min(limits.MaxStackBytes, funcBase-memBase)
	in := &Interp{mod: m, limits: limits, funcs: make(map[string]*function, len(m.Funcs))}
	for i, f := range m.Funcs {
		fn := &function{f: f, index: i}
		in.byIdx = append(in.byIdx, fn)
		if _, dup := in.funcs[f.Name]; !dup {
			in.funcs[f.Name] = fn
		}
	}
	return in
}

// Call runs the function named name ("%f", "u0:1") on args. A trap is an
// Outcome, not an error.
func (in *Interp) Call(name string, args []ir.DataValue) (Outcome, error) {
	fn := in.funcs[name]
	if fn == nil {
		return Outcome{}, fmt.Errorf("no function %s in the module", name)
	}
	sig := &fn.f.Sig
	if len(args) != len(sig.Params) {
		return Outcome{}, fmt.Errorf("%s takes %d arguments, got %d", name, len(sig.Params), len(args))
	}
	t := &in.thread
	vals := t.entryArgs[:0]
	for i, a := range args {
		if a.Type != sig.Params[i].Type {
			return Outcome{}, fmt.Errorf("argument %d: type %s but %s wants %s", i, a.Type, name, sig.Params[i].Type)
		}
		v, err := FromDataValue(a)
		if err != nil {
			return Outcome{}, fmt.Errorf("argument %d: %w", i, err)
		}
		vals = append(vals, v)
	}
	t.entryArgs = vals
	t.in, t.fuel, t.pinned = in, in.limits.Fuel, Value{}
	t.mem.pop(memMark{})
	rets, err := t.call(fn, vals, 1)
	if err != nil {
		var tr *trapError // only here: errors.As moves it to the heap
		if errors.As(err, &tr) {
			return Outcome{Trap: tr.code}, nil
		}
		return Outcome{}, err
	}
	out := Outcome{Results: make([]ir.DataValue, len(rets))}
	for i, r := range sig.Returns {
		out.Results[i] = ToDataValue(r.Type, rets[i])
	}
	return out, nil
}

// trapError carries a trap up the Go stack of nested calls.
type trapError struct{ code ir.TrapCode }

func (e *trapError) Error() string { return "trap " + e.code.String() }

func trap(code ir.TrapCode) error { return &trapError{code} }
