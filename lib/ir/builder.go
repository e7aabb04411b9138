package ir

import (
	"fmt"
	"slices"
)

// NewFunction returns an empty function with the given name ("%name" or
// "u0:1") and signature.
func NewFunction(name string, sig Signature) *Function {
	return &Function{Name: name, Sig: sig, Preamble: Preamble{StackLimit: NoGlobalValue}}
}

// Builder appends blocks, values, instructions and preamble declarations to
// a Function, keeping its per-ID slices consistent: every value it creates
// has its Type, Kind, Block or Inst and Index set; every instruction is in
// the Insts of its block; blocks enter the Layout when first switched to.
//
// The Builder fills in what the opcode table determines (the controlling
// type when an operand carries it, the results and their types) and
// nothing else: it does not check operand types or counts. Misuse that
// leaves it unable to go on (no current block, a polymorphic opcode with no
// way to know its type) panics, as a bug in the calling generator.
type Builder struct {
	f        *Function
	cur      Block
	inLayout []bool // by Block
	srcLoc   SourceLoc
	lists    ValueArena // instructions' result lists, and operand lists (see list)
}

// NewBuilder returns a Builder appending to f, which may already hold code.
func NewBuilder(f *Function) *Builder {
	b := new(Builder)
	b.Reset(f)
	return b
}

// Reset makes b append to f as NewBuilder(f) would, in b's memory: a pass
// that builds into function after function need not allocate a Builder
// for each. The value lists b made before stay with their functions.
func (b *Builder) Reset(f *Function) {
	inLayout := b.inLayout[:0]
	if cap(inLayout) < len(f.Blocks) {
		inLayout = make([]bool, 0, len(f.Blocks))
	}
	inLayout = inLayout[:len(f.Blocks)]
	clear(inLayout)
	for _, blk := range f.Layout {
		if int(blk) < len(inLayout) {
			inLayout[blk] = true
		}
	}
	*b = Builder{f: f, cur: NoBlock, inLayout: inLayout, lists: b.lists}
}

// Recycle hands the memory of the value lists b made out again (see
// ValueArena.Recycle), for a caller done with every function b built into.
func (b *Builder) Recycle() { b.lists.Recycle() }

// list copies vs into b's lists. The helpers that take operands one by
// one (Ins, Icmp, Load, ...) make their operand list with it: a literal or
// variadic list that became part of the function would be allocated on
// the heap for every instruction, while vs stays on the caller's stack.
func (b *Builder) list(vs ...Value) []Value {
	if len(vs) == 0 {
		return nil // as the parser leaves an instruction without operands
	}
	return append(b.lists.Take(len(vs)), vs...)
}

// Func returns the function being built.
func (b *Builder) Func() *Function { return b.f }

// CurrentBlock returns the block instructions are appended to, or NoBlock.
func (b *Builder) CurrentBlock() Block { return b.cur }

// CreateBlock makes a new block with the next free number. It enters the
// layout when first switched to.
func (b *Builder) CreateBlock() Block {
	blk := Block(len(b.f.Blocks))
	b.f.Blocks = append(b.f.Blocks, BlockData{Used: true})
	b.inLayout = append(b.inLayout, false)
	return blk
}

// AppendBlockParam adds a param of type t to blk and returns it.
func (b *Builder) AppendBlockParam(blk Block, t Type) Value {
	bd := b.block(blk)
	v := b.newValue(ValueData{Type: t, Kind: DefParam, Block: blk, Index: len(bd.Params)})
	bd.Params = append(bd.Params, v)
	return v
}

// SwitchToBlock makes blk the current block, appending it to the layout if
// it is not there yet.
func (b *Builder) SwitchToBlock(blk Block) {
	b.block(blk)
	if !b.inLayout[blk] {
		b.inLayout[blk] = true
		b.f.Layout = append(b.f.Layout, blk)
	}
	b.cur = blk
}

// SetSrcLoc gives the instructions appended from now on the source location
// loc (unless they have their own), as Cranelift's FuncCursor::set_srcloc
// does; the zero SourceLoc stops it.
func (b *Builder) SetSrcLoc(loc SourceLoc) { b.srcLoc = loc }

// SetCold marks blk cold (`block3 cold:`).
func (b *Builder) SetCold(blk Block) { b.block(blk).Cold = true }

func (b *Builder) block(blk Block) *BlockData {
	if int(blk) >= len(b.f.Blocks) || !b.f.Blocks[blk].Used {
		panic(fmt.Sprintf("ir.Builder: %s was not created", blk))
	}
	return &b.f.Blocks[blk]
}

func (b *Builder) newValue(vd ValueData) Value {
	v := Value(len(b.f.Values))
	b.f.Values = append(grow(b.f.Values), vd)
	return v
}

// Ins appends an instruction without immediates: op applied to args. ctrl
// is the controlling type, or Invalid to take it from the operand the table
// names. It returns the first result, or NoValue; Results gives them all.
func (b *Builder) Ins(op Opcode, ctrl Type, args ...Value) Value {
	i, d := b.place()
	d.Op, d.CtrlType, d.Args = op, ctrl, b.list(args...)
	return b.complete(i, d)
}

// Append appends d to the current block and returns its ID. The caller
// fills Op, Args, the immediates and the destinations; Append sets
// CtrlType when it is Invalid and the table names an operand that carries
// it (and clears it for monomorphic opcodes), and creates the results with
// the types the table derives from the controlling type (for calls: the
// returns of the callee's signature). d.Results must be empty. An
// instruction without a source location gets the one set by SetSrcLoc.
//
// Like the parser, Append sets the entity references the format does not
// use to their invalid sentinels (NoFuncRef, NoConstant, ...), and Const to
// NoConstant when a constant format carries inline Bytes, so that built
// and parsed IR compare equal.
func (b *Builder) Append(d InstData) Inst {
	if len(d.Results) != 0 {
		panic("ir.Builder: Append creates the results itself")
	}
	i, p := b.place()
	*p = d
	b.complete(i, p)
	return i
}

// place appends a zero instruction to f.Insts and returns its ID and its
// slot, which the caller fills as Append's d and then hands to complete.
// Building the instruction in its slot spares Ins and the typed helpers
// the two copies of the 256-byte InstData that Append(InstData{...})
// costs (onto the stack as an argument, then into f.Insts), which were a
// third of the time of building.
func (b *Builder) place() (Inst, *InstData) {
	if b.cur == NoBlock {
		panic("ir.Builder: no current block (call SwitchToBlock)")
	}
	i := Inst(len(b.f.Insts))
	b.f.Insts = grow(b.f.Insts)[:i+1]
	d := &b.f.Insts[i]
	*d = InstData{}
	return i, d
}

// complete does the rest of Append for instruction i, placed in d by
// place and filled by the caller: the controlling type, the unused
// references, the source location, the results, and the entry in the
// current block. It returns the first result, or NoValue.
func (b *Builder) complete(i Inst, d *InstData) Value {
	info := d.Op.Info()
	switch {
	case !info.Polymorphic:
		d.CtrlType = Invalid
	case d.CtrlType == Invalid && info.CtrlOperand >= 0 && info.CtrlOperand < len(d.Args):
		d.CtrlType = resolvedType(b.f, d.Args[info.CtrlOperand])
	}
	if info.Polymorphic && d.CtrlType == Invalid {
		b.f.Insts = b.f.Insts[:i] // leave f as it was
		panic(fmt.Sprintf("ir.Builder: %s needs an explicit controlling type", d.Op))
	}

	clearUnusedRefs(d, formatImms(info.Format))
	if !d.SrcLoc.IsSet() {
		d.SrcLoc = b.srcLoc
	}

	if n := len(info.Outs); n > 0 {
		d.Results = b.lists.Take(n)
	}
	for k := range info.Outs {
		out := &info.Outs[k] // rather than copy each Operand
		switch out.Kind {
		case OperandFixed:
			d.Results = append(d.Results, b.newResult(i, len(d.Results), out.Type))
		case OperandTypeVar:
			t := Invalid
			if out.TypeVar == 0 {
				t = out.Derive.Apply(d.CtrlType)
			}
			d.Results = append(d.Results, b.newResult(i, len(d.Results), t))
		case OperandVarargs:
			if sig := b.calleeSig(d); sig != nil {
				for _, r := range sig.Returns {
					d.Results = append(d.Results, b.newResult(i, len(d.Results), r.Type))
				}
			}
		}
	}
	bd := &b.f.Blocks[b.cur]
	bd.Insts = append(bd.Insts, i)
	if len(d.Results) > 0 {
		return d.Results[0]
	}
	return NoValue
}

// grow returns s with room for one more element, doubling its capacity
// when full. Passes append a few instructions to functions of hundreds
// whose tables are full after parsing; append's own growth (1.25x for
// large slices) would copy each table every few instructions.
func grow[T any](s []T) []T {
	if len(s) < cap(s) {
		return s
	}
	return slices.Grow(s, len(s)+16)
}

// clearUnusedRefs sets the entity references d's format does not carry
// (used being the set of its Imms) to their invalid sentinels.
func clearUnusedRefs(d *InstData, used immSet) {
	if !used.has(ImmFuncRef) {
		d.Func = NoFuncRef
	}
	if !used.has(ImmSigRef) && !used.has(ImmExceptionTable) {
		d.Sig = NoSigRef
	}
	if !used.has(ImmStackSlot) {
		d.Slot = NoStackSlot
	}
	if !used.has(ImmDynStackSlot) {
		d.DynSlot = NoDynSlot
	}
	if !used.has(ImmGlobalValue) {
		d.GV = NoGlobalValue
	}
	if !used.has(ImmRawBlock) {
		d.RawBlock = NoBlock
	}
	if !used.has(ImmConstant) || len(d.Bytes) > 0 {
		d.Const = NoConstant
	}
}

// immSet is a set of ImmKinds.
type immSet uint32

func (s immSet) has(k ImmKind) bool { return s&(1<<k) != 0 }

// formatImmSets holds the set of each format's Imms, which every
// instruction built looks up (a loop over the format's Imms cost more).
var formatImmSets = func() (sets [len(formatTable)]immSet) {
	for f := range formatTable {
		for _, k := range formatTable[f].Imms {
			sets[f] |= 1 << k
		}
	}
	return sets
}()

// formatImms returns the set of f.Info().Imms.
func formatImms(f Format) immSet {
	if int(f) < len(formatImmSets) {
		return formatImmSets[f]
	}
	return formatImmSets[0] // as Format.Info falls back to formatTable[0]
}

func (b *Builder) newResult(i Inst, index int, t Type) Value {
	return b.newValue(ValueData{Type: t, Kind: DefResult, Inst: i, Index: index})
}

// resolvedType is the type of v after aliases, or Invalid.
func resolvedType(f *Function, v Value) Type {
	v = f.Resolve(v)
	if int(v) < len(f.Values) {
		return f.Values[v].Type
	}
	return Invalid
}

// calleeSig is the signature an instruction calls: its func_ref's, else
// its sig_ref's; nil when the format has neither or it is undeclared.
func (b *Builder) calleeSig(d *InstData) *Signature {
	fi := d.Op.Format()
	sig := NoSigRef
	for _, k := range fi.Imms {
		switch k {
		case ImmFuncRef:
			for _, fr := range b.f.FuncRefs {
				if fr.Num == d.Func {
					sig = fr.Sig
				}
			}
		case ImmSigRef:
			if sig == NoSigRef {
				sig = d.Sig
			}
		}
	}
	for k := range b.f.Sigs {
		if b.f.Sigs[k].Num == sig {
			return &b.f.Sigs[k].Sig
		}
	}
	return nil
}

// Results returns the results of i.
func (b *Builder) Results(i Inst) []Value { return b.f.Insts[i].Results }

// NewBlockCall is a branch destination: blk with value args.
func NewBlockCall(blk Block, args ...Value) BlockCall {
	c := BlockCall{Block: blk}
	for _, v := range args {
		c.Args = append(c.Args, ValueArg(v))
	}
	return c
}

// Block-call args, with the unused fields set as the parser sets them.

// ValueArg is the block-call arg v.
func ValueArg(v Value) BlockArg { return BlockArg{Kind: ArgValue, Value: v} }

// RetArg is `retN`: the n-th return of a try_call's callee.
func RetArg(n uint32) BlockArg { return BlockArg{Kind: ArgRet, Value: NoValue, Index: n} }

// ExnArg is `exnN`: the n-th exception payload.
func ExnArg(n uint32) BlockArg { return BlockArg{Kind: ArgExn, Value: NoValue, Index: n} }

// Exception-table entries of try_call, with the unused fields set as the
// parser sets them.

// TagHandler is `tagN: dest`.
func TagHandler(tag uint32, dest BlockCall) ExceptionHandler {
	return ExceptionHandler{Kind: HandlerTag, Tag: tag, Context: NoValue, Dest: dest}
}

// DefaultHandler is `default: dest`.
func DefaultHandler(dest BlockCall) ExceptionHandler {
	return ExceptionHandler{Kind: HandlerDefault, Context: NoValue, Dest: dest}
}

// ContextHandler is `context v`.
func ContextHandler(v Value) ExceptionHandler {
	return ExceptionHandler{Kind: HandlerContext, Context: v, Dest: BlockCall{Block: NoBlock}}
}

// Typed helpers for the instructions whose immediates Ins cannot set. The
// usual ones build their instruction in place, as Ins does.

// Iconst appends `iconst.t x`. The immediate is stored zero-extended from
// t's width, as Cranelift stores it (iconst.i8 -1 holds 255).
func (b *Builder) Iconst(t Type, x int64) Value {
	if bits := t.Bits(); bits > 0 && bits < 64 {
		x &= 1<<bits - 1
	}
	i, d := b.place()
	d.Op, d.CtrlType, d.Imm = OpIconst, t, x
	return b.complete(i, d)
}

// F16const appends `f16const` of the given bits.
func (b *Builder) F16const(bits uint16) Value {
	i, d := b.place()
	d.Op, d.FloatBits = OpF16const, uint64(bits)
	return b.complete(i, d)
}

// F32const appends `f32const` of the given bits (math.Float32bits).
func (b *Builder) F32const(bits uint32) Value {
	i, d := b.place()
	d.Op, d.FloatBits = OpF32const, uint64(bits)
	return b.complete(i, d)
}

// F64const appends `f64const` of the given bits (math.Float64bits).
func (b *Builder) F64const(bits uint64) Value {
	i, d := b.place()
	d.Op, d.FloatBits = OpF64const, bits
	return b.complete(i, d)
}

// F128const appends `f128const` of 16 little-endian bytes, written inline.
func (b *Builder) F128const(le []byte) Value {
	i, d := b.place()
	d.Op, d.Bytes = OpF128const, le
	return b.complete(i, d)
}

// Vconst appends `vconst.t` of t.Bytes() little-endian bytes, written
// inline.
func (b *Builder) Vconst(t Type, le []byte) Value {
	i, d := b.place()
	d.Op, d.CtrlType, d.Bytes = OpVconst, t, le
	return b.complete(i, d)
}

// VconstOf appends `vconst.t constN`, naming a declared constant.
func (b *Builder) VconstOf(t Type, c Constant) Value {
	i, d := b.place()
	d.Op, d.CtrlType, d.Const = OpVconst, t, c
	return b.complete(i, d)
}

// Icmp appends `icmp cc x, y`.
func (b *Builder) Icmp(cc IntCC, x, y Value) Value {
	i, d := b.place()
	d.Op, d.IntCC, d.Args = OpIcmp, cc, b.list(x, y)
	return b.complete(i, d)
}

// Fcmp appends `fcmp cc x, y`.
func (b *Builder) Fcmp(cc FloatCC, x, y Value) Value {
	i, d := b.place()
	d.Op, d.FloatCC, d.Args = OpFcmp, cc, b.list(x, y)
	return b.complete(i, d)
}

// Load appends `load.t flags addr+offset`.
func (b *Builder) Load(t Type, flags MemFlags, addr Value, offset int32) Value {
	i, d := b.place()
	d.Op, d.CtrlType, d.Flags, d.Args, d.Imm = OpLoad, t, flags, b.list(addr), int64(offset)
	return b.complete(i, d)
}

// Store appends `store flags x, addr+offset`.
func (b *Builder) Store(flags MemFlags, x, addr Value, offset int32) Inst {
	i, d := b.place()
	d.Op, d.Flags, d.Args, d.Imm = OpStore, flags, b.list(x, addr), int64(offset)
	b.complete(i, d)
	return i
}

// StackAddr appends `stack_addr.addrType ss+offset`.
func (b *Builder) StackAddr(addrType Type, ss StackSlot, offset int32) Value {
	i, d := b.place()
	d.Op, d.CtrlType, d.Slot, d.Imm = OpStackAddr, addrType, ss, int64(offset)
	return b.complete(i, d)
}

// FuncAddr appends `func_addr.addrType fn`.
func (b *Builder) FuncAddr(addrType Type, fn FuncRef) Value {
	i, d := b.place()
	d.Op, d.CtrlType, d.Func = OpFuncAddr, addrType, fn
	return b.complete(i, d)
}

// Shuffle appends `shuffle x, y, mask` (16 lane indices).
func (b *Builder) Shuffle(x, y Value, mask []byte) Value {
	i, d := b.place()
	d.Op, d.Args, d.Bytes = OpShuffle, b.list(x, y), mask
	return b.complete(i, d)
}

// Trap appends `trap code`.
func (b *Builder) Trap(code TrapCode) Inst {
	i, d := b.place()
	d.Op, d.Trap = OpTrap, code
	b.complete(i, d)
	return i
}

// Call appends `call fn(args)` and returns the results, typed by the
// returns of fn's signature.
func (b *Builder) Call(fn FuncRef, args ...Value) []Value {
	return b.Results(b.Append(InstData{Op: OpCall, Func: fn, Args: args}))
}

// CallIndirect appends `call_indirect sig, callee(args)` and returns the
// results, typed by sig's returns.
func (b *Builder) CallIndirect(sig SigRef, callee Value, args ...Value) []Value {
	return b.Results(b.Append(InstData{Op: OpCallIndirect, Sig: sig, Args: append([]Value{callee}, args...)}))
}

// Jump appends `jump dest(args)`.
func (b *Builder) Jump(dest Block, args ...Value) Inst {
	return b.Append(InstData{Op: OpJump, Dests: []BlockCall{NewBlockCall(dest, args...)}})
}

// Brif appends `brif c, then(thenArgs), els(elsArgs)`.
func (b *Builder) Brif(c Value, then Block, thenArgs []Value, els Block, elsArgs []Value) Inst {
	return b.Append(InstData{Op: OpBrif, Args: []Value{c},
		Dests: []BlockCall{NewBlockCall(then, thenArgs...), NewBlockCall(els, elsArgs...)}})
}

// BrTable appends `br_table idx, def, [targets]`.
func (b *Builder) BrTable(idx Value, def BlockCall, targets []BlockCall) Inst {
	return b.Append(InstData{Op: OpBrTable, Args: []Value{idx}, Dests: append([]BlockCall{def}, targets...)})
}

// Return appends `return vals`.
func (b *Builder) Return(vals ...Value) Inst {
	return b.Append(InstData{Op: OpReturn, Args: vals})
}

// Preamble declarations. Each takes the next number of its kind (one more
// than the largest declared).

// DeclareStackSlot declares `ssN = explicit_slot size[, align = align]`
// (align 0: not written).
func (b *Builder) DeclareStackSlot(size, align uint32) StackSlot {
	n := StackSlot(nextNum(b.f.StackSlots, func(d *StackSlotDecl) uint32 { return uint32(d.Num) }))
	b.f.StackSlots = append(b.f.StackSlots, StackSlotDecl{Num: n, Kind: "explicit_slot", Size: size, Align: align})
	return n
}

// DeclareSig declares `sigN = sig`.
func (b *Builder) DeclareSig(sig Signature) SigRef {
	n := SigRef(nextNum(b.f.Sigs, func(d *SigDecl) uint32 { return uint32(d.Num) }))
	b.f.Sigs = append(b.f.Sigs, SigDecl{Num: n, Sig: sig})
	return n
}

// DeclareFuncRef declares `fnN = name sig`.
func (b *Builder) DeclareFuncRef(name string, sig SigRef) FuncRef {
	n := FuncRef(nextNum(b.f.FuncRefs, func(d *FuncRefDecl) uint32 { return uint32(d.Num) }))
	b.f.FuncRefs = append(b.f.FuncRefs, FuncRefDecl{Num: n, Name: name, Sig: sig})
	return n
}

// DeclareConstant declares `constN = 0x...` holding data (little-endian).
func (b *Builder) DeclareConstant(data []byte) Constant {
	n := Constant(nextNum(b.f.Constants, func(d *ConstantDecl) uint32 { return uint32(d.Num) }))
	b.f.Constants = append(b.f.Constants, ConstantDecl{Num: n, Bytes: data})
	return n
}

// DeclareGlobalValue declares `gvN = ...` as described by d (its Num is
// set here).
func (b *Builder) DeclareGlobalValue(d GlobalValueDecl) GlobalValue {
	d.Num = GlobalValue(nextNum(b.f.GlobalValues, func(d *GlobalValueDecl) uint32 { return uint32(d.Num) }))
	b.f.GlobalValues = append(b.f.GlobalValues, d)
	return d.Num
}

func nextNum[T any](decls []T, num func(*T) uint32) uint32 {
	var n uint32
	for k := range decls {
		if m := num(&decls[k]); m >= n && m != ^uint32(0) {
			n = m + 1
		}
	}
	return n
}
