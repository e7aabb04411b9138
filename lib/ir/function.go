package ir

// Module is the CLIF of one test case or file: functions in order. Header
// lines (test, set, target) belong to a File, not to a Module: tools add
// them per configuration.
type Module struct {
	Funcs []*Function
}

// Func returns the function with the given name ("%main", "u0:1"), or nil.
func (m *Module) Func(name string) *Function {
	for _, f := range m.Funcs {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Function is one CLIF function: signature, preamble, blocks.
//
// Blocks, Insts and Values are indexed by their IDs. IDs keep the numbers of
// the source text (block400 stays block400), so a slot may be unused: see
// BlockData.Used and ValueData.Type == Invalid. Layout is the block order.
type Function struct {
	Name string // as written: "%name" (test-case name) or "u0:1" (user name)
	Sig  Signature

	Preamble

	Layout []Block
	Blocks []BlockData
	Insts  []InstData
	Values []ValueData

	// Pos records where things came from in the source text, for error
	// messages. It may be empty (built IR) or partial.
	Pos Positions
}

// Preamble is the function's entity declarations, in declaration order per
// kind. Each declaration carries its own number: source text may skip numbers.
type Preamble struct {
	StackSlots    []StackSlotDecl
	DynStackSlots []DynStackSlotDecl
	DynTypes      []DynTypeDecl
	Regions       []RegionDecl
	GlobalValues  []GlobalValueDecl
	Sigs          []SigDecl
	FuncRefs      []FuncRefDecl
	Constants     []ConstantDecl
	// StackLimit is the `stack_limit = gvN` attribute, or NoGlobalValue.
	StackLimit GlobalValue
}

// Positions maps entities to source positions (1-based line, column).
type Positions struct {
	Func   Pos   // the `function` keyword
	Blocks []Pos // by Block
	Insts  []Pos // by Inst
	// Decls holds the positions of preamble declarations by entity name
	// ("ss0", "gv2", "sig1", "fn0", "const0", "region1", "dt0", "dss0").
	Decls map[string]Pos
}

// DeclPos returns the source position of the declaration of the named
// preamble entity, or the zero Pos.
func (p *Positions) DeclPos(entity string) Pos { return p.Decls[entity] }

// Pos is a source position; Line 0 means unknown.
type Pos struct{ Line, Col int }

// BlockPos returns the source position of b, or the zero Pos.
func (p *Positions) BlockPos(b Block) Pos {
	if int(b) < len(p.Blocks) {
		return p.Blocks[b]
	}
	return Pos{}
}

// InstPos returns the source position of i, or the zero Pos.
func (p *Positions) InstPos(i Inst) Pos {
	if int(i) < len(p.Insts) {
		return p.Insts[i]
	}
	return Pos{}
}

// CallConv is a calling convention, spelled as in CLIF.
type CallConv string

// Calling conventions Cranelift 0.135 knows.
const (
	CallConvNone            CallConv = "" // not written; tools choose a default
	CallConvFast            CallConv = "fast"
	CallConvTail            CallConv = "tail"
	CallConvSystemV         CallConv = "system_v"
	CallConvWindowsFastcall CallConv = "windows_fastcall"
	CallConvAppleAarch64    CallConv = "apple_aarch64"
	CallConvProbestack      CallConv = "probestack"
	CallConvWinch           CallConv = "winch"
	CallConvPreserveAll     CallConv = "preserve_all"
)

// CallConvs lists the known calling conventions.
var CallConvs = []CallConv{CallConvFast, CallConvTail, CallConvSystemV, CallConvWindowsFastcall,
	CallConvAppleAarch64, CallConvProbestack, CallConvWinch, CallConvPreserveAll}

// Signature is a function type.
type Signature struct {
	Params   []AbiParam
	Returns  []AbiParam
	CallConv CallConv
}

// Extension says how a narrow integer param or return is extended by the ABI.
type Extension uint8

const (
	ExtNone Extension = iota
	ExtUext
	ExtSext
)

func (e Extension) String() string {
	switch e {
	case ExtUext:
		return "uext"
	case ExtSext:
		return "sext"
	}
	return ""
}

// Purpose is the special purpose of a param: "" (normal), "sret", "vmctx",
// or "sarg(N)".
type Purpose string

// PurposeVMContext marks the VM context pointer, which `vmctx` global
// values read.
const PurposeVMContext Purpose = "vmctx"

// AbiParam is one param or return of a signature.
type AbiParam struct {
	Type    Type
	Ext     Extension
	Purpose Purpose
}

// StackSlotDecl is `ssN = explicit_slot SIZE[, align = A][, key = K]`.
type StackSlotDecl struct {
	Num    StackSlot
	Kind   string // "explicit_slot"
	Size   uint32
	Align  uint32 // bytes; 0 when not written
	Key    uint64
	HasKey bool
}

// DynStackSlotDecl is `dssN = explicit_dynamic_slot dtM`.
type DynStackSlotDecl struct {
	Num  DynamicStackSlot
	Kind string // "explicit_dynamic_slot"
	Type DynamicType
}

// DynTypeDecl is `dtN = i32x4*gvM`.
type DynTypeDecl struct {
	Num   DynamicType
	Base  Type // the fixed vector type
	Scale GlobalValue
}

// RegionDecl is `regionN = USERID "description"`.
type RegionDecl struct {
	Num         AliasRegion
	UserID      uint32
	Description string
}

// GlobalValueKind tells the form of a global value declaration.
type GlobalValueKind uint8

const (
	GVVMContext     GlobalValueKind = iota // vmctx
	GVLoad                                 // load.T flags base+offset
	GVIAddImm                              // iadd_imm.T base, offset
	GVSymbol                               // symbol [colocated] [tls] name[+offset]
	GVDynScaleConst                        // dyn_scale_target_const.T
)

// GlobalValueDecl is one `gvN = ...` line.
type GlobalValueDecl struct {
	Num       GlobalValue
	Kind      GlobalValueKind
	Type      Type        // load, iadd_imm: the value type; dyn_scale: the vector type
	Base      GlobalValue // load, iadd_imm
	Offset    int64       // load (offset32), iadd_imm (imm64), symbol
	Flags     MemFlags    // load
	Name      string      // symbol: "%name", "u0:1", "%ElfTlsGetAddr", ...
	Colocated bool        // symbol
	TLS       bool        // symbol
}

// SigDecl is `sigN = (params) -> returns callconv`.
type SigDecl struct {
	Num SigRef
	Sig Signature
}

// FuncRefDecl is `fnN = [colocated] [patchable] NAME sigM`. When the source
// writes the signature inline, the parser declares it as a SigDecl too, as
// Cranelift does.
type FuncRefDecl struct {
	Num       FuncRef
	Name      string
	Sig       SigRef
	Colocated bool
	Patchable bool
}

// ConstantDecl is `constN = 0x...` (or `[a b c]`): the bytes, little-endian
// lane order as Cranelift stores them.
type ConstantDecl struct {
	Num   Constant
	Bytes []byte
}

// BlockData is a basic block: params, instructions in order, the cold mark.
type BlockData struct {
	Used   bool // false for numbers the source skipped
	Params []Value
	Cold   bool
	Insts  []Inst
}

// ValueDefKind says whether a value is a block param or an instruction result.
type ValueDefKind uint8

const (
	DefNone   ValueDefKind = iota // unused ID
	DefParam                      // Block, Index: the Index-th param of Block
	DefResult                     // Inst, Index: the Index-th result of Inst
	DefAlias                      // AliasOf: `vN -> vM` in the source
)

// ValueData is the per-value data.
type ValueData struct {
	Type    Type
	Kind    ValueDefKind
	Block   Block // DefParam
	Inst    Inst  // DefResult
	Index   int   // position among the block's params or the inst's results
	AliasOf Value // DefAlias
}

// InstData is one instruction. Which fields mean something is fixed by the
// opcode's Format (see FormatInfo): the table says which immediates and entity
// references a format carries, and the printer, parser and verifier read it.
type InstData struct {
	Op       Opcode
	CtrlType Type // the controlling type; Invalid for monomorphic opcodes
	Args     []Value
	Results  []Value

	// Immediates.
	Imm       int64       // imm64 (iconst), uimm8 lane (extractlane, insertlane), offset32 (load, store, stack_addr)
	FloatBits uint64      // ieee16/32/64 bits of f16const, f32const, f64const
	IntCC     IntCC       // icmp
	FloatCC   FloatCC     // fcmp
	Flags     MemFlags    // load, store, atomics
	Trap      TrapCode    // trap, trapz, trapnz, uadd_overflow_trap
	RmwOp     AtomicRmwOp // atomic_rmw
	Bytes     []byte      // 16-byte shuffle mask; inline constant data of vconst/f128const when Const is NoConstant
	Const     Constant    // vconst/f128const naming a preamble constant

	// Entity references.
	Func     FuncRef          // call, func_addr, try_call
	Sig      SigRef           // call_indirect, try_call_indirect, try_call (exception table signature)
	Slot     StackSlot        // stack_addr
	DynSlot  DynamicStackSlot // dynamic_stack_addr
	GV       GlobalValue      // symbol_value, tls_value
	RawBlock Block            // get_exception_handler_address

	// Control flow. Jump: [dest]. Brif: [then, else]. BranchTable: [default,
	// entries...]. TryCall(Indirect): [normal return]; handlers in Handlers.
	Dests    []BlockCall
	Handlers []ExceptionHandler

	// Annotations (annotations.go), none by default. Cranelift allows
	// debug tags only on calls and sequence_point, and a stack map only on
	// calls that return to their caller.
	SrcLoc    SourceLoc       // `@0019` in front of the instruction
	DebugTags []DebugTag      // `<ss0, 1, 2>` in front of the instruction
	StackMap  []StackMapEntry // `, stack_map=[i64 @ ss0+8]` after a call's operands
}

// BlockCall is a branch destination with its args.
type BlockCall struct {
	Block Block
	Args  []BlockArg
}

// BlockArgKind distinguishes ordinary values from try_call's ret and exn
// placeholders.
type BlockArgKind uint8

const (
	ArgValue BlockArgKind = iota // vN
	ArgRet                       // retN: the N-th return of the try_call callee
	ArgExn                       // exnN: the N-th exception payload
)

// BlockArg is one arg of a block call.
type BlockArg struct {
	Kind  BlockArgKind
	Value Value  // ArgValue
	Index uint32 // ArgRet, ArgExn
}

// HandlerKind tells the entries of a try_call exception table apart.
type HandlerKind uint8

const (
	HandlerTag     HandlerKind = iota // tagN: blockM(args)
	HandlerDefault                    // default: blockM(args)
	HandlerContext                    // context vN
)

// ExceptionHandler is one entry of a try_call's exception table, in order.
type ExceptionHandler struct {
	Kind    HandlerKind
	Tag     uint32    // HandlerTag
	Context Value     // HandlerContext
	Dest    BlockCall // HandlerTag, HandlerDefault
}

// ForEachUse calls fn with every value d uses, as written (aliases not
// resolved): its operands, the args of its block calls and of its
// exception handlers, and its exception table's contexts.
func (d *InstData) ForEachUse(fn func(Value)) {
	for _, a := range d.Args {
		fn(a)
	}
	for _, bc := range d.Dests {
		for _, a := range bc.Args {
			if a.Kind == ArgValue {
				fn(a.Value)
			}
		}
	}
	for _, h := range d.Handlers {
		if h.Kind == HandlerContext {
			fn(h.Context)
			continue
		}
		for _, a := range h.Dest.Args {
			if a.Kind == ArgValue {
				fn(a.Value)
			}
		}
	}
}
