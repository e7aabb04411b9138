package printer

import (
	"math"

	"cliff/lib/ir"
)

// Functions built with ir.Builder that together use every instruction
// format, for the golden and round-trip tests.

// buildMemory covers stack slots, loads and stores with flags and offsets,
// atomics, dynamic stack slots, global values and nullary instructions.
func buildMemory() *ir.Function {
	f := ir.NewFunction("%memory", sig([]ir.Type{ir.I64, ir.I32}, []ir.Type{ir.I32}, ir.CallConvSystemV))
	b := ir.NewBuilder(f)
	ss := b.DeclareStackSlot(64, 16)
	gv := b.DeclareGlobalValue(ir.GlobalValueDecl{Kind: ir.GVSymbol, Name: "%table", Colocated: true})
	scale := b.DeclareGlobalValue(ir.GlobalValueDecl{Kind: ir.GVDynScaleConst, Type: ir.I32X4})
	f.DynTypes = append(f.DynTypes, ir.DynTypeDecl{Num: 0, Base: ir.I32X4, Scale: scale})
	f.DynStackSlots = append(f.DynStackSlots, ir.DynStackSlotDecl{Num: 0, Kind: "explicit_dynamic_slot", Type: 0})
	f.Regions = append(f.Regions, ir.RegionDecl{Num: 0, UserID: 3, Description: "heap"})

	blk := b.CreateBlock()
	p := b.AppendBlockParam(blk, ir.I64)
	x := b.AppendBlockParam(blk, ir.I32)
	b.SwitchToBlock(blk)
	addr := b.StackAddr(ir.I64, ss, 8)
	b.StackAddr(ir.I64, ss, 0)
	trusted := ir.MemFlags{NoTrap: true, Aligned: true}
	b.Store(trusted, x, addr, 0)
	b.Store(ir.MemFlags{Endian: ir.EndianLittle, HasRegion: true}, x, addr, -12)
	y := b.Load(ir.I32, trusted, addr, 4)
	b.Load(ir.I64, ir.MemFlags{Readonly: true, CanMove: true, Trap: ir.TrapUser + 7}, p, 0x10000)
	b.Append(ir.InstData{Op: ir.OpAtomicRmw, CtrlType: ir.I32, RmwOp: ir.RmwXchg, Flags: ir.MemFlags{Endian: ir.EndianBig}, Args: []ir.Value{addr, y}})
	b.Append(ir.InstData{Op: ir.OpAtomicCas, Flags: trusted, Args: []ir.Value{addr, x, y}})
	b.Append(ir.InstData{Op: ir.OpAtomicLoad, CtrlType: ir.I32, Flags: trusted, Args: []ir.Value{addr}})
	b.Append(ir.InstData{Op: ir.OpAtomicStore, Args: []ir.Value{y, addr}})
	b.Append(ir.InstData{Op: ir.OpDynamicStackAddr, CtrlType: ir.I64, DynSlot: 0})
	b.Append(ir.InstData{Op: ir.OpSymbolValue, CtrlType: ir.I64, GV: gv})
	splat := b.Ins(ir.OpSplat, ir.DynamicOf(ir.I32X4), x)
	_ = splat
	b.Ins(ir.OpFence, ir.Invalid)
	b.Ins(ir.OpNop, ir.Invalid)
	b.Return(y)
	return f
}

// buildCalls covers signatures, direct and indirect calls, tail calls,
// try_call with exception tables and the exception-handler address.
func buildCalls() *ir.Function {
	f := ir.NewFunction("%calls", sig([]ir.Type{ir.I64, ir.I32}, []ir.Type{ir.I32}, ir.CallConvTail))
	b := ir.NewBuilder(f)
	s0 := b.DeclareSig(sig([]ir.Type{ir.I32}, []ir.Type{ir.I32, ir.F64}, ir.CallConvTail))
	s1 := b.DeclareSig(sig([]ir.Type{ir.I64, ir.I32}, []ir.Type{ir.I32}, ir.CallConvTail))
	fn0 := b.DeclareFuncRef("%callee", s0)
	fn1 := b.DeclareFuncRef("u0:3", s1)
	f.FuncRefs[1].Colocated = true

	entry, normal, catch, other := b.CreateBlock(), b.CreateBlock(), b.CreateBlock(), b.CreateBlock()
	p := b.AppendBlockParam(entry, ir.I64)
	x := b.AppendBlockParam(entry, ir.I32)
	r := b.AppendBlockParam(normal, ir.I32)
	b.AppendBlockParam(normal, ir.I32)
	e := b.AppendBlockParam(catch, ir.I64)

	b.SwitchToBlock(entry)
	rs := b.Call(fn0, x)
	fa := b.FuncAddr(ir.I64, fn0)
	b.CallIndirect(s0, fa, rs[0])
	b.Append(ir.InstData{Op: ir.OpGetExceptionHandlerAddress, CtrlType: ir.I64, RawBlock: catch, Imm: 1})
	c := b.Iconst(ir.I32, 7)
	b.Append(ir.InstData{Op: ir.OpTryCall, Func: fn1, Sig: s1, Args: []ir.Value{p, c},
		Dests: []ir.BlockCall{{Block: normal, Args: []ir.BlockArg{ir.RetArg(0), ir.ValueArg(c)}}},
		Handlers: []ir.ExceptionHandler{
			ir.ContextHandler(p),
			ir.TagHandler(2, ir.BlockCall{Block: catch, Args: []ir.BlockArg{ir.ExnArg(0)}}),
			ir.DefaultHandler(ir.NewBlockCall(other)),
		}})

	b.SwitchToBlock(normal)
	b.Append(ir.InstData{Op: ir.OpTryCallIndirect, Sig: s1, Args: []ir.Value{p, p, r},
		Dests: []ir.BlockCall{{Block: other}}})

	b.SwitchToBlock(catch)
	b.SetCold(catch)
	b.Append(ir.InstData{Op: ir.OpReturnCallIndirect, Sig: s1, Args: []ir.Value{e, e, x}})

	b.SwitchToBlock(other)
	b.Append(ir.InstData{Op: ir.OpReturnCall, Func: fn1, Args: []ir.Value{p, x}})
	return f
}

// buildValues covers every kind of constant, lanes, comparisons, selects,
// traps, jump tables and debug tags.
func buildValues() *ir.Function {
	f := ir.NewFunction("%values", sig([]ir.Type{ir.I32, ir.F32}, []ir.Type{ir.I8X16}, ir.CallConvNone))
	b := ir.NewBuilder(f)
	pool := b.DeclareConstant([]byte{1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0})
	f128 := make([]byte, 16)
	f128[15], f128[14] = 0x3f, 0xff // 1.0
	pool2 := b.DeclareConstant(f128)

	entry, lanes, trapBlk, tbl := b.CreateBlock(), b.CreateBlock(), b.CreateBlock(), b.CreateBlock()
	x := b.AppendBlockParam(entry, ir.I32)
	fl := b.AppendBlockParam(entry, ir.F32)
	v := b.AppendBlockParam(lanes, ir.I8X16)

	b.SwitchToBlock(entry)
	for _, c := range []struct {
		t ir.Type
		x int64
	}{{ir.I8, -1}, {ir.I16, 0x8000}, {ir.I32, 9999}, {ir.I32, 10000}, {ir.I64, math.MinInt64}, {ir.I64, -10000}} {
		b.Iconst(c.t, c.x)
	}
	b.F16const(0x3c00)
	h := b.F32const(math.Float32bits(-1.5))
	b.F64const(math.Float64bits(math.Inf(-1)))
	b.F64const(0x7ff8000000000001)
	b.F128const(f128)
	b.Append(ir.InstData{Op: ir.OpF128const, Const: pool2})
	vc := b.VconstOf(ir.I32X4, pool)
	bytes16 := make([]byte, 16)
	for k := range bytes16 {
		bytes16[k] = byte(k * 17)
	}
	vi := b.Vconst(ir.I8X16, bytes16)
	lt := b.Fcmp(ir.FloatUlt, fl, h)
	sel := b.Ins(ir.OpSelect, ir.Invalid, lt, x, x)
	sum := b.Append(ir.InstData{Op: ir.OpUaddOverflowTrap, Args: []ir.Value{sel, x}, Trap: ir.TrapIntegerOverflow})
	b.Append(ir.InstData{Op: ir.OpTrapz, Args: []ir.Value{b.Results(sum)[0]}, Trap: ir.TrapUser + 1})
	b.Append(ir.InstData{Op: ir.OpExtractlane, Args: []ir.Value{vc}, Imm: 3})
	seq := b.Ins(ir.OpSequencePoint, ir.Invalid)
	_ = seq
	f.Insts[len(f.Insts)-1].DebugTags = []ir.DebugTag{ir.UserTag(1), ir.UserTag(0)}
	b.BrTable(x, ir.NewBlockCall(tbl), []ir.BlockCall{ir.NewBlockCall(lanes, vi), ir.NewBlockCall(trapBlk), ir.NewBlockCall(lanes, vi)})

	b.SwitchToBlock(lanes)
	sh := b.Shuffle(v, v, []byte{31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16})
	l := b.Append(ir.InstData{Op: ir.OpExtractlane, Args: []ir.Value{sh}, Imm: 15})
	ins := b.Append(ir.InstData{Op: ir.OpInsertlane, Args: []ir.Value{sh, b.Results(l)[0]}, Imm: 0})
	b.Return(b.Results(ins)[0])

	b.SwitchToBlock(trapBlk)
	b.SetCold(trapBlk)
	b.Trap(ir.TrapHeapOutOfBounds)

	b.SwitchToBlock(tbl)
	b.Return(vi)
	return f
}

// buildAnnotations covers source locations, debug tags naming stack slots
// and user stack maps, and how they shape the line: the tags eat into the
// 36-column indentation, the source location is padded to what is left,
// and the aliases of a tagged instruction's results keep the shortened
// indentation (write.rs does all three).
func buildAnnotations() *ir.Function {
	f := ir.NewFunction("%annotations", sig([]ir.Type{ir.I64}, []ir.Type{ir.I64}, ir.CallConvSystemV))
	b := ir.NewBuilder(f)
	ss0, ss1 := b.DeclareStackSlot(16, 8), b.DeclareStackSlot(8, 0)
	s0 := b.DeclareSig(sig([]ir.Type{ir.I64}, []ir.Type{ir.I64}, ir.CallConvSystemV))
	fn0 := b.DeclareFuncRef("%gc", s0)

	entry, exit := b.CreateBlock(), b.CreateBlock()
	x := b.AppendBlockParam(entry, ir.I64)
	r := b.AppendBlockParam(exit, ir.I64)

	b.SwitchToBlock(entry)
	b.SetSrcLoc(ir.SrcLoc(0x19))
	addr := b.StackAddr(ir.I64, ss0, 8)
	b.Store(ir.MemFlags{NoTrap: true}, x, addr, 0)
	b.SetSrcLoc(ir.SrcLoc(0))
	zero := b.Iconst(ir.I64, 0)
	b.SetSrcLoc(ir.SrcLoc(0xabcdef))
	rs := b.Call(fn0, zero)
	call := ir.Inst(len(f.Insts) - 1)
	f.Insts[call].DebugTags = []ir.DebugTag{ir.SlotTag(ss0), ir.UserTag(1), ir.UserTag(0)}
	f.Insts[call].StackMap = []ir.StackMapEntry{{Type: ir.I64, Slot: ss0, Offset: 8}, {Type: ir.I32, Slot: ss1, Offset: 0}}
	// An alias of the call's result.
	f.Values = append(f.Values, ir.ValueData{Type: ir.I64, Kind: ir.DefAlias, AliasOf: rs[0]})
	alias := ir.Value(len(f.Values) - 1)
	b.SetSrcLoc(ir.SourceLoc{})
	fa := b.FuncAddr(ir.I64, fn0)
	b.CallIndirect(s0, fa, alias)
	f.Insts[len(f.Insts)-1].StackMap = []ir.StackMapEntry{{Type: ir.I64, Slot: ss1, Offset: 4294967295}}
	b.SetSrcLoc(ir.SrcLoc(0xfffffffe))
	// Tags longer than the indentation: the location follows them unpadded.
	b.Ins(ir.OpSequencePoint, ir.Invalid)
	f.Insts[len(f.Insts)-1].DebugTags = []ir.DebugTag{ir.SlotTag(ss1), ir.UserTag(4294967295), ir.UserTag(4294967295), ir.UserTag(7)}
	b.SetSrcLoc(ir.SourceLoc{})
	b.Jump(exit, alias)

	b.SwitchToBlock(exit)
	b.Return(r)
	return f
}
