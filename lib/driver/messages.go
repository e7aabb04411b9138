package driver

import (
	"encoding/hex"
	"fmt"

	"cliff/lib/ir"
)

// Answer statuses (PROTOCOL.md).
const (
	StatusOK    = "ok"
	StatusError = "error" // Cranelift or the driver rejected the input
	StatusCrash = "crash" // Cranelift panicked
)

// header is the part every answer has.
type header struct {
	ID       int64  `json:"id"`
	Status   string `json:"status"`
	Message  string `json:"message,omitempty"`
	Location string `json:"location,omitempty"`
}

// A Failure is a request's error or crash answer as a Go error, so that
// callers can tell Cranelift's verdicts from transport failures.
type Failure struct {
	Status   string // StatusError or StatusCrash
	Message  string
	Location string // panic location, for a crash
}

func (f *Failure) Error() string {
	if f.Location != "" {
		return fmt.Sprintf("%s: %s (at %s)", f.Status, f.Message, f.Location)
	}
	return f.Status + ": " + f.Message
}

// Value is a typed value on the wire: little-endian bytes, lane 0 first.
type Value struct {
	Type string `json:"type"`
	Hex  string `json:"hex"`
}

// ValueOf converts an IR data value to its wire form.
func ValueOf(v ir.DataValue) Value {
	return Value{Type: v.Type.String(), Hex: hex.EncodeToString(v.Bytes)}
}

// DataValue converts a wire value back, checking its size against its type.
func (v Value) DataValue() (ir.DataValue, error) {
	t, ok := ir.ParseType(v.Type)
	if !ok {
		return ir.DataValue{}, fmt.Errorf("value of unknown type %q", v.Type)
	}
	b, err := hex.DecodeString(v.Hex)
	if err != nil {
		return ir.DataValue{}, fmt.Errorf("%s value: %w", v.Type, err)
	}
	if len(b) != t.Bytes() {
		return ir.DataValue{}, fmt.Errorf("%s value has %d bytes, want %d", v.Type, len(b), t.Bytes())
	}
	return ir.DataValue{Type: t, Bytes: b}, nil
}

// VersionAnswer is the answer to Version.
type VersionAnswer struct {
	Cranelift string   `json:"cranelift"`
	Targets   []string `json:"targets"`
}

// FeaturesAnswer is the answer to Features: every list sorted by name.
type FeaturesAnswer struct {
	Cranelift      string               `json:"cranelift"`
	Opcodes        []string             `json:"opcodes"`
	SharedSettings []Setting            `json:"shared_settings"`
	ISAFlags       map[string][]Setting `json:"isa_flags"` // by target
}

// A Setting is one of Cranelift's settings or ISA flags.
type Setting struct {
	Name   string   `json:"name"`
	Kind   string   `json:"kind"` // bool, enum, num, preset
	Values []string `json:"values,omitempty"`
}

// ParseTestAnswer counts what Cranelift's reader found in a test file.
type ParseTestAnswer struct {
	Functions   int `json:"functions"`
	RunCommands int `json:"run_commands"`
}

// CompileRequest compiles a batch of independent modules into one object.
type CompileRequest struct {
	Target  string   `json:"target"` // "riscv64 has_v", as on a CLIF target line
	Flags   []string `json:"flags"`  // shared settings: "opt_level=speed"
	Output  string   `json:"output"` // object file path
	Modules []string `json:"modules"`
	Entries []Entry  `json:"entries"`
}

// An Entry names one function of one module for the object's cliff_entries
// table.
type Entry struct {
	Module int    `json:"module"`
	Func   string `json:"func"`
}

// CompileAnswer reports the object and each module's fate.
type CompileAnswer struct {
	ObjectMS float64         `json:"object_ms"`
	ISAFlags []string        `json:"isa_flags"` // every ISA setting, "has_v=true"
	Modules  []ModuleOutcome `json:"modules"`
}

// ModuleOutcome is one module of a compile batch.
type ModuleOutcome struct {
	Status    string     `json:"status"`
	Message   string     `json:"message,omitempty"`
	Location  string     `json:"location,omitempty"`
	CompileMS float64    `json:"compile_ms"`
	Functions []Function `json:"functions,omitempty"`
}

// Function is one function of a compiled module: in the object (Status
// ok, with its symbol and code), or left out with its own failure, or
// with the failure of the function it Needs (one it refers to).
type Function struct {
	Name     string `json:"name"`
	Status   string `json:"status"`
	Message  string `json:"message,omitempty"`
	Location string `json:"location,omitempty"`
	Needs    string `json:"needs,omitempty"`
	Symbol   string `json:"symbol"`
	Size     uint64 `json:"size"`
	// CodeHash identifies the machine code and relocations: equal hashes,
	// equal code.
	CodeHash string     `json:"code_hash"`
	Traps    []TrapSite `json:"traps,omitempty"`
}

// Placed reports whether the function is in the object.
func (f *Function) Placed() bool { return f.Status == StatusOK }

// TrapSite is a trapping instruction at Offset from its function's start.
type TrapSite struct {
	Offset uint64 `json:"offset"`
	Code   string `json:"code"`
}

// InterpretRequest runs one function in Cranelift's interpreter.
type InterpretRequest struct {
	CLIF string  `json:"clif"`
	Func string  `json:"func"`
	Args []Value `json:"args"`
	Fuel uint64  `json:"fuel,omitempty"`
	// TimeoutMS bounds the run in wall-clock milliseconds (0: only the
	// fuel does); the driver answers Timeout when it passes.
	TimeoutMS int64 `json:"timeout_ms,omitempty"`
	// MaxDepth bounds the interpreted call depth (0: the driver's
	// default); the driver answers StackOverflow past it.
	MaxDepth int `json:"max_depth,omitempty"`
	// Target and Flags, when given, are what the module is verified
	// against before it runs.
	Target string   `json:"target,omitempty"`
	Flags  []string `json:"flags,omitempty"`
}

// InterpretAnswer holds exactly one of: results, a trap code, Timeout
// (the fuel or the time ran out), StackOverflow (the depth or frame
// limit), Unsupported (what the interpreter cannot do). Message says more
// about the limits, Location where an unsupported panic was.
type InterpretAnswer struct {
	Results       []Value `json:"results,omitempty"`
	Trap          string  `json:"trap,omitempty"`
	Timeout       bool    `json:"timeout,omitempty"`
	StackOverflow bool    `json:"stack_overflow,omitempty"`
	Unsupported   string  `json:"unsupported,omitempty"`
	Location      string  `json:"location,omitempty"`
	Message       string  `json:"message,omitempty"`
}

// OptimizeRequest runs the mid-end on every function of a module.
type OptimizeRequest struct {
	CLIF   string   `json:"clif"`
	Target string   `json:"target"`
	Flags  []string `json:"flags"`
}

// OptimizeAnswer has one entry per function.
type OptimizeAnswer struct {
	Functions []OptimizedFunction `json:"functions"`
}

// OptimizedFunction is a function after the mid-end.
type OptimizedFunction struct {
	Name        string `json:"name"`
	InstsBefore int    `json:"insts_before"`
	InstsAfter  int    `json:"insts_after"`
	CLIF        string `json:"clif"`
}
