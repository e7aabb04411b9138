package ir

// Opcode names an instruction. The constants (OpIadd, ...) and the table
// behind Info are generated from opcodes.txt.
type Opcode uint16

// Info returns the opcode's table row; OpInvalid and out-of-range opcodes
// give the zero row.
func (o Opcode) Info() *OpcodeInfo {
	if int(o) < len(opcodeTable) {
		return &opcodeTable[o]
	}
	return &opcodeTable[OpInvalid]
}

func (o Opcode) String() string {
	if n := o.Info().Name; n != "" {
		return n
	}
	return "<bad opcode>"
}

// Format returns the opcode's instruction format.
func (o Opcode) Format() *FormatInfo { return o.Info().Format.Info() }

// LookupOpcode finds an opcode by its CLIF name.
func LookupOpcode(name string) (Opcode, bool) {
	o, ok := opcodeByName[name]
	return o, ok
}

// Opcodes lists every opcode in table order (excluding OpInvalid).
func Opcodes() []Opcode {
	out := make([]Opcode, 0, len(opcodeTable)-1)
	for i := 1; i < len(opcodeTable); i++ {
		out = append(out, Opcode(i))
	}
	return out
}

// OpcodeInfo is one row of the opcode table.
type OpcodeInfo struct {
	Name   string
	Format Format
	// TypeVars are the opcode's type variables. When Polymorphic, TypeVars[0]
	// is the controlling type variable; the others are free variables checked
	// only against their own sets (e.g. the address type of a load).
	TypeVars    []TypeVar
	Polymorphic bool
	// CtrlOperand is the index of the value operand whose type gives the
	// controlling type (the `.type` suffix may then be left out), or -1 when
	// the suffix is required (or the opcode is monomorphic).
	CtrlOperand int
	// Ins are the value operands in order (immediates and entity references
	// are fixed by the Format); Outs the results.
	Ins   []Operand
	Outs  []Operand
	Flags OpFlags
	// Example is one line of CLIF using the opcode; Doc a one-line summary.
	Example string
	Doc     string
	// Sem names what the opcode computes as a shape many opcodes share
	// (int_binary, load, icmp, ...) and SemKernel the kernel filling it
	// (add, u8, ...; often empty). Interpreters (lib/refinterp) dispatch on
	// them. An empty Sem means no semantics is given: atomics,
	// ISA-specific and exception-handling opcodes.
	Sem       string
	SemKernel string
	// Family is the opcode family generators switch and weight together
	// (lib/gen's swarm: "arith", "shifts", ...; "" for none).
	Family string
	// AccessBytes is how many bytes a memory access touches when its
	// value type does not say (uload8: 1); 0 otherwise.
	AccessBytes int
	// Partial names the guard that makes a partial operation total
	// (lib/gen): "nonzero" (a zero divisor), "nonzero_nooverflow" (also
	// MIN / -1), "in_range" (a float converted to an integer it fits);
	// "" for a total operation.
	Partial string
	// NaNBits are the value operands whose NaN payload or sign shows in
	// the result or in memory (lib/ub): a float reaching one must be
	// canonical where targets differ.
	NaNBits []int
	// Roles are what cliff's tools take the opcode for beyond its flags
	// (RoleConstant, ...): the opcode lists the tools would otherwise
	// keep.
	Roles Role
	// FreeRule names what the type of a free type variable must be
	// beside the controlling type, beyond the variable's set (lib/gen):
	// "same_bits" (bitcast: as many bits, another type), "same_shape" (a
	// conversion: any scalar from a scalar, a vector from as many lanes
	// of the same width), "same_lanes", "vector"; "" for no rule.
	FreeRule string
}

// Role is a set of roles an opcode plays for cliff's tools: facts of
// cliff's, not of Cranelift's flags, kept in the opcode table's role
// lines so that no tool keeps an opcode list of its own.
type Role uint8

const (
	// RoleConstant: defines a constant from its immediate (iconst, the
	// float constants, vconst).
	RoleConstant Role = 1 << iota
	// RoleConversion: only changes how a value is held, its width, type
	// or lanes (lib/locate: a culprit's operand looks through it).
	RoleConversion
	// RoleComparison: compares (lib/locate: a crash at a comparison is
	// blamed on its user).
	RoleComparison
	// RoleKeepAlive: a call or plain store, which only passes a value on
	// or stores it, rather than lowering by its operands' shape
	// (lib/locate; terminators count too).
	RoleKeepAlive
	// RoleStructure: cliff-gen's control-flow, call and memory code emits
	// it itself; it is never drawn as a computation.
	RoleStructure
	// RoleOwnImm: its immediates mean something to this opcode only, so
	// no other opcode of its shape replaces it in place (lib/gen).
	RoleOwnImm
)

// Has reports whether all of the given roles are set.
func (r Role) Has(s Role) bool { return r&s == s }

// Is reports whether the opcode plays all of the given roles.
func (o Opcode) Is(r Role) bool { return o.Info().Roles.Has(r) }

// TypeVar is a named type variable with the set of types it may take.
type TypeVar struct {
	Name string
	Set  TypeSet
}

// OperandKind says how an operand's type is constrained.
type OperandKind uint8

const (
	// OperandTypeVar: the type of TypeVars[TypeVar], derived by Derive.
	OperandTypeVar OperandKind = iota
	// OperandFixed: exactly Type.
	OperandFixed
	// OperandVarargs: any number of values typed by a signature (call
	// arguments and results, return values).
	OperandVarargs
)

// Derive is a function from the controlling type to an operand type, as in
// Cranelift's derived type variables.
type Derive uint8

const (
	DeriveNone Derive = iota
	DeriveLaneOf
	DeriveAsTruthy
	DeriveHalfWidth
	DeriveDoubleWidth
	DeriveSplitLanes
	DeriveMergeLanes
	DeriveDynamicToVector
	// DeriveNarrower and DeriveWider do not give one type: the operand may be
	// any type of the same lane count with narrower (wider) lanes.
	DeriveNarrower
	DeriveWider
)

var deriveNames = [...]string{"", "lane_of", "as_truthy", "half_width", "double_width",
	"split_lanes", "merge_lanes", "dynamic_to_vector", "narrower", "wider"}

func (d Derive) String() string { return deriveNames[d] }

// Apply computes the derived type of t; for Narrower and Wider it returns
// Invalid (use Admits).
func (d Derive) Apply(t Type) Type {
	switch d {
	case DeriveNone:
		return t
	case DeriveLaneOf:
		return t.LaneType()
	case DeriveAsTruthy:
		return t.AsTruthy()
	case DeriveHalfWidth:
		return t.HalfWidth()
	case DeriveDoubleWidth:
		return t.DoubleWidth()
	case DeriveSplitLanes:
		return t.SplitLanes()
	case DeriveMergeLanes:
		return t.MergeLanes()
	case DeriveDynamicToVector:
		return t.DynamicToVector()
	}
	return Invalid
}

// Admits reports whether an operand of type got satisfies the derivation
// from controlling type ctrl.
func (d Derive) Admits(ctrl, got Type) bool {
	switch d {
	case DeriveNarrower, DeriveWider:
		if got.Lanes() != ctrl.Lanes() || got.IsDynamic() != ctrl.IsDynamic() || got.IsInt() != ctrl.IsInt() {
			return false
		}
		if d == DeriveNarrower {
			return got.LaneBits() < ctrl.LaneBits()
		}
		return got.LaneBits() > ctrl.LaneBits()
	}
	want := d.Apply(ctrl)
	return want != Invalid && want == got
}

// Operand is one value operand or result of an opcode.
type Operand struct {
	Name    string
	Kind    OperandKind
	TypeVar int    // OperandTypeVar: index into OpcodeInfo.TypeVars
	Derive  Derive // OperandTypeVar
	Type    Type   // OperandFixed
}

// OpFlags are an opcode's properties.
type OpFlags uint16

const (
	FlagTerminator  OpFlags = 1 << iota // ends a block
	FlagBranch                          // transfers control to blocks of this function
	FlagCall                            // calls a function
	FlagReturn                          // returns from the function (incl. return_call)
	FlagCanTrap                         // may trap
	FlagCanLoad                         // reads memory
	FlagCanStore                        // writes memory
	FlagSideEffects                     // other side effects
	FlagIdempotent                      // side effects are idempotent
)

var flagNames = []struct {
	f    OpFlags
	name string
}{
	{FlagTerminator, "terminator"}, {FlagBranch, "branch"}, {FlagCall, "call"},
	{FlagReturn, "return"}, {FlagCanTrap, "can_trap"}, {FlagCanLoad, "can_load"},
	{FlagCanStore, "can_store"}, {FlagSideEffects, "side_effects"}, {FlagIdempotent, "idempotent"},
}

// Has reports whether all of the given flags are set.
func (f OpFlags) Has(g OpFlags) bool { return f&g == g }

// Convenience accessors on opcodes.
func (o Opcode) IsTerminator() bool { return o.Info().Flags.Has(FlagTerminator) }
func (o Opcode) IsBranch() bool     { return o.Info().Flags.Has(FlagBranch) }
func (o Opcode) IsCall() bool       { return o.Info().Flags.Has(FlagCall) }
func (o Opcode) IsReturn() bool     { return o.Info().Flags.Has(FlagReturn) }
func (o Opcode) CanTrap() bool      { return o.Info().Flags.Has(FlagCanTrap) }
func (o Opcode) CanLoad() bool      { return o.Info().Flags.Has(FlagCanLoad) }
func (o Opcode) CanStore() bool     { return o.Info().Flags.Has(FlagCanStore) }

// HasSideEffects reports anything beyond computing results: memory writes,
// traps, calls, control flow or other effects. Such instructions are never
// dead code.
func (o Opcode) HasSideEffects() bool {
	return o.Info().Flags&(FlagTerminator|FlagBranch|FlagCall|FlagReturn|FlagCanTrap|FlagCanStore|FlagSideEffects) != 0
}

// Format is an instruction format: the shape of an instruction's operands
// and immediates, shared by many opcodes.
type Format uint8

// FormatInfo describes a format.
type FormatInfo struct {
	Name string
	// Values is the number of fixed value operands; Varargs says more follow.
	Values  int
	Varargs bool
	// TypevarOperand is the fixed value operand that may carry the
	// controlling type (-1: none).
	TypevarOperand int
	// Imms are the immediates and entity references, in text order.
	Imms []ImmKind
}

// Info returns the format's description.
func (f Format) Info() *FormatInfo {
	if int(f) < len(formatTable) {
		return &formatTable[f]
	}
	return &formatTable[0]
}

func (f Format) String() string { return f.Info().Name }

// ImmKind is a kind of immediate or entity-reference field of a format.
type ImmKind uint8

const (
	ImmNone           ImmKind = iota
	ImmInt64                  // imm64 (InstData.Imm)
	ImmUint8                  // uimm8 lane index (InstData.Imm)
	ImmIeee16                 // f16 bits (InstData.FloatBits)
	ImmIeee32                 // f32 bits (InstData.FloatBits)
	ImmIeee64                 // f64 bits (InstData.FloatBits)
	ImmIntCC                  // InstData.IntCC
	ImmFloatCC                // InstData.FloatCC
	ImmMemFlags               // InstData.Flags
	ImmOffset32               // InstData.Imm
	ImmTrapCode               // InstData.Trap
	ImmAtomicRmwOp            // InstData.RmwOp
	ImmFuncRef                // InstData.Func
	ImmSigRef                 // InstData.Sig
	ImmStackSlot              // InstData.Slot
	ImmDynStackSlot           // InstData.DynSlot
	ImmGlobalValue            // InstData.GV
	ImmConstant               // InstData.Const or InstData.Bytes
	ImmShuffleMask            // InstData.Bytes (16 bytes)
	ImmBlockCall              // InstData.Dests (one per occurrence)
	ImmJumpTable              // InstData.Dests: default then entries
	ImmExceptionTable         // InstData.Sig, Dests[0], Handlers
	ImmRawBlock               // InstData.RawBlock
	numImmKinds
)

var immKindNames = [numImmKinds]string{"", "imm64", "uimm8", "ieee16", "ieee32", "ieee64",
	"intcc", "floatcc", "memflags", "offset32", "trapcode", "atomic_rmw_op", "func_ref",
	"sig_ref", "stack_slot", "dyn_stack_slot", "global_value", "constant", "shuffle_mask",
	"block_call", "jump_table", "exception_table", "raw_block"}

func (k ImmKind) String() string {
	if k < numImmKinds {
		return immKindNames[k]
	}
	return "<bad imm kind>"
}

// ParseFlag reads an opcode flag name of opcodes.txt.
func ParseFlag(s string) (OpFlags, bool) {
	for _, f := range flagNames {
		if f.name == s {
			return f.f, true
		}
	}
	return 0, false
}

// ParseDerive reads a derivation name of opcodes.txt.
func ParseDerive(s string) (Derive, bool) {
	for i, n := range deriveNames {
		if n == s && i != 0 {
			return Derive(i), true
		}
	}
	return 0, false
}
