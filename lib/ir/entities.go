package ir

import "strconv"

// Entity IDs are small integers that index per-function slices. Each kind
// has its own type so that a block can never be passed where a value is
// expected, a String method that spells it as CLIF text does, and an
// explicit invalid sentinel (the all-ones value).

// Value is an SSA value: v0, v1, ...
type Value uint32

// Block is a basic block: block0, block1, ...
type Block uint32

// Inst is an instruction ID (not printed in CLIF text).
type Inst uint32

// Preamble entities, each numbered within its kind.
type (
	StackSlot        uint32 // ss0
	DynamicStackSlot uint32 // dss0
	DynamicType      uint32 // dt0
	GlobalValue      uint32 // gv0
	SigRef           uint32 // sig0
	FuncRef          uint32 // fn0
	Constant         uint32 // const0
	AliasRegion      uint32 // region0
)

// Invalid sentinels.
const (
	NoValue       Value            = ^Value(0)
	NoBlock       Block            = ^Block(0)
	NoInst        Inst             = ^Inst(0)
	NoStackSlot   StackSlot        = ^StackSlot(0)
	NoDynSlot     DynamicStackSlot = ^DynamicStackSlot(0)
	NoDynType     DynamicType      = ^DynamicType(0)
	NoGlobalValue GlobalValue      = ^GlobalValue(0)
	NoSigRef      SigRef           = ^SigRef(0)
	NoFuncRef     FuncRef          = ^FuncRef(0)
	NoConstant    Constant         = ^Constant(0)
	NoRegion      AliasRegion      = ^AliasRegion(0)
)

func entityString(prefix string, n uint32) string {
	if n == ^uint32(0) {
		return prefix + "?"
	}
	return prefix + strconv.FormatUint(uint64(n), 10)
}

func (v Value) String() string            { return entityString("v", uint32(v)) }
func (b Block) String() string            { return entityString("block", uint32(b)) }
func (i Inst) String() string             { return entityString("inst", uint32(i)) }
func (s StackSlot) String() string        { return entityString("ss", uint32(s)) }
func (s DynamicStackSlot) String() string { return entityString("dss", uint32(s)) }
func (t DynamicType) String() string      { return entityString("dt", uint32(t)) }
func (g GlobalValue) String() string      { return entityString("gv", uint32(g)) }
func (s SigRef) String() string           { return entityString("sig", uint32(s)) }
func (f FuncRef) String() string          { return entityString("fn", uint32(f)) }
func (c Constant) String() string         { return entityString("const", uint32(c)) }
func (r AliasRegion) String() string      { return entityString("region", uint32(r)) }
