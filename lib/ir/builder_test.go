package ir_test

import (
	"reflect"
	"strings"
	"testing"

	"cliff/lib/ir"
	"cliff/lib/printer"
)

// checkConsistent asserts the invariants the Builder promises: every value
// in a block's params or an instruction's results points back at it, and
// every instruction of a block appears once.
func checkConsistent(t *testing.T, f *ir.Function) {
	t.Helper()
	for b := range f.Blocks {
		for k, v := range f.Blocks[b].Params {
			vd := f.Values[v]
			if vd.Kind != ir.DefParam || vd.Block != ir.Block(b) || vd.Index != k {
				t.Errorf("param %d of block%d: %s has %+v", k, b, v, vd)
			}
		}
	}
	seen := map[ir.Inst]bool{}
	for _, b := range f.Layout {
		for _, i := range f.Blocks[b].Insts {
			if seen[i] {
				t.Errorf("%s appears twice", i)
			}
			seen[i] = true
			for k, r := range f.Insts[i].Results {
				vd := f.Values[r]
				if vd.Kind != ir.DefResult || vd.Inst != i || vd.Index != k {
					t.Errorf("result %d of %s: %s has %+v", k, i, r, vd)
				}
				if !vd.Type.Valid() {
					t.Errorf("result %d of %s (%s) has no type", k, i, f.Insts[i].Op)
				}
			}
		}
	}
	if len(seen) != len(f.Insts) {
		t.Errorf("%d instructions in blocks, %d in Insts", len(seen), len(f.Insts))
	}
}

func TestBuilderSmallFunction(t *testing.T) {
	f := ir.NewFunction("%add1", ir.Signature{
		Params:   []ir.AbiParam{{Type: ir.I64}},
		Returns:  []ir.AbiParam{{Type: ir.I64}},
		CallConv: ir.CallConvFast,
	})
	b := ir.NewBuilder(f)
	blk := b.CreateBlock()
	x := b.AppendBlockParam(blk, ir.I64)
	b.SwitchToBlock(blk)
	one := b.Iconst(ir.I64, 1)
	sum := b.Ins(ir.OpIadd, ir.Invalid, x, one)
	b.Return(sum)
	checkConsistent(t, f)
	want := `function %add1(i64) -> i64 fast {
block0(v0: i64):
    v1 = iconst.i64 1
    v2 = iadd v0, v1  ; v1 = 1
    return v2
}
`
	if got := printer.FunctionString(f); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestBuilderBlocksAndLayout(t *testing.T) {
	f := ir.NewFunction("%f", ir.Signature{})
	b := ir.NewBuilder(f)
	b0, b1, b2 := b.CreateBlock(), b.CreateBlock(), b.CreateBlock()
	if b0 != 0 || b1 != 1 || b2 != 2 {
		t.Fatalf("blocks numbered %s %s %s", b0, b1, b2)
	}
	if len(f.Layout) != 0 {
		t.Errorf("created blocks entered the layout: %v", f.Layout)
	}
	b.SwitchToBlock(b2)
	b.SwitchToBlock(b0)
	b.SwitchToBlock(b2)
	if got := f.Layout; len(got) != 2 || got[0] != b2 || got[1] != b0 {
		t.Errorf("layout %v, want [block2 block0]", got)
	}
	if b.CurrentBlock() != b2 {
		t.Errorf("current block %s", b.CurrentBlock())
	}
	p := b.AppendBlockParam(b1, ir.F32)
	if vd := f.Values[p]; vd.Type != ir.F32 || vd.Kind != ir.DefParam || vd.Block != b1 || vd.Index != 0 {
		t.Errorf("param data %+v", vd)
	}

	// A builder on existing code continues its numbering and layout.
	b.Jump(b1, p)
	again := ir.NewBuilder(f)
	if nb := again.CreateBlock(); nb != 3 {
		t.Errorf("next block on existing function is %s", nb)
	}
	again.SwitchToBlock(b0)
	if len(f.Layout) != 2 {
		t.Errorf("switching to a laid-out block changed the layout: %v", f.Layout)
	}
}

func TestBuilderTypes(t *testing.T) {
	f := ir.NewFunction("%types", ir.Signature{})
	b := ir.NewBuilder(f)
	blk := b.CreateBlock()
	b.SwitchToBlock(blk)
	vec := b.AppendBlockParam(blk, ir.I32X4)
	fl := b.AppendBlockParam(blk, ir.F64X2)

	for _, tc := range []struct {
		name string
		v    ir.Value
		want ir.Type
	}{
		{"iadd of vectors", b.Ins(ir.OpIadd, ir.Invalid, vec, vec), ir.I32X4},
		{"icmp of vectors is as_truthy", b.Icmp(ir.IntEq, vec, vec), ir.I32X4},
		{"fcmp of f64x2 is i64x2", b.Fcmp(ir.FloatLt, fl, fl), ir.I64X2},
		{"scalar icmp is i8", b.Icmp(ir.IntEq, b.Iconst(ir.I16, 1), b.Iconst(ir.I16, 2)), ir.I8},
		{"extractlane is lane_of", b.Ins(ir.OpExtractlane, ir.Invalid, vec), ir.I32},
		{"explicit ctrl type", b.Ins(ir.OpSplat, ir.I8X16, b.Iconst(ir.I8, 3)), ir.I8X16},
		{"fixed result type", b.F32const(0), ir.F32},
		{"load of the ctrl type", b.Load(ir.F64, ir.MemFlags{}, b.Iconst(ir.I64, 0), 0), ir.F64},
	} {
		if got := f.Values[tc.v].Type; got != tc.want {
			t.Errorf("%s: %s has type %s, want %s", tc.name, tc.v, got, tc.want)
		}
	}
	checkConsistent(t, f)

	// Monomorphic opcodes carry no controlling type, whatever is passed.
	i := b.Append(ir.InstData{Op: ir.OpF64const, CtrlType: ir.I32})
	if ct := f.Insts[i].CtrlType; ct != ir.Invalid {
		t.Errorf("f64const got controlling type %s", ct)
	}
	// Inferred from the operand the table names: store's stored value.
	addr := b.Iconst(ir.I64, 64)
	st := b.Store(ir.MemFlags{}, fl, addr, 0)
	if ct := f.Insts[st].CtrlType; ct != ir.F64X2 {
		t.Errorf("store controlling type %s, want f64x2", ct)
	}
}

func TestBuilderIconstIsZeroExtended(t *testing.T) {
	f := ir.NewFunction("%c", ir.Signature{})
	b := ir.NewBuilder(f)
	b.SwitchToBlock(b.CreateBlock())
	for _, tc := range []struct {
		t    ir.Type
		x    int64
		want int64
	}{{ir.I8, -1, 0xff}, {ir.I16, -2, 0xfffe}, {ir.I32, -1, 0xffff_ffff}, {ir.I64, -1, -1}, {ir.I8, 0x17f, 0x7f}} {
		v := b.Iconst(tc.t, tc.x)
		if got := f.Insts[f.Values[v].Inst].Imm; got != tc.want {
			t.Errorf("Iconst(%s, %d) holds %#x, want %#x", tc.t, tc.x, got, tc.want)
		}
	}
}

func TestBuilderCallsAndDeclarations(t *testing.T) {
	f := ir.NewFunction("%caller", ir.Signature{CallConv: ir.CallConvSystemV})
	b := ir.NewBuilder(f)
	ss0, ss1 := b.DeclareStackSlot(8, 0), b.DeclareStackSlot(16, 16)
	sig := b.DeclareSig(ir.Signature{
		Params:   []ir.AbiParam{{Type: ir.I32}},
		Returns:  []ir.AbiParam{{Type: ir.I64}, {Type: ir.F32}},
		CallConv: ir.CallConvSystemV,
	})
	fn := b.DeclareFuncRef("%callee", sig)
	c := b.DeclareConstant([]byte{1, 2})
	gv := b.DeclareGlobalValue(ir.GlobalValueDecl{Kind: ir.GVVMContext})
	if ss0 != 0 || ss1 != 1 || sig != 0 || fn != 0 || c != 0 || gv != 0 {
		t.Errorf("declaration numbers %s %s %s %s %s %s", ss0, ss1, sig, fn, c, gv)
	}
	// Numbers continue after the largest declared, even out of order.
	f.StackSlots = append(f.StackSlots, ir.StackSlotDecl{Num: 7})
	if ss := b.DeclareStackSlot(4, 0); ss != 8 {
		t.Errorf("next stack slot after ss7 is %s", ss)
	}

	blk := b.CreateBlock()
	b.SwitchToBlock(blk)
	arg := b.Iconst(ir.I32, 5)
	rs := b.Call(fn, arg)
	if len(rs) != 2 || f.Values[rs[0]].Type != ir.I64 || f.Values[rs[1]].Type != ir.F32 {
		t.Fatalf("call results %v", rs)
	}
	addr := b.FuncAddr(ir.I64, fn)
	rs2 := b.CallIndirect(sig, addr, arg)
	if len(rs2) != 2 || f.Values[rs2[1]].Type != ir.F32 {
		t.Fatalf("call_indirect results %v", rs2)
	}
	b.Return()
	checkConsistent(t, f)

	call := f.Insts[f.Values[rs[0]].Inst]
	if call.Sig != ir.NoSigRef || call.Slot != ir.NoStackSlot || call.Const != ir.NoConstant || call.RawBlock != ir.NoBlock {
		t.Errorf("unused references of call not cleared: %+v", call)
	}
	text := printer.FunctionString(f)
	for _, want := range []string{
		"    v1, v2 = call fn0(v0)  ; v0 = 5\n",
		"    v4, v5 = call_indirect sig0, v3(v0)  ; v0 = 5\n",
		"    ss1 = explicit_slot 16, align = 16\n",
		"    fn0 = %callee sig0\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
}

func TestBuilderBranches(t *testing.T) {
	f := ir.NewFunction("%br", ir.Signature{Params: []ir.AbiParam{{Type: ir.I32}}})
	b := ir.NewBuilder(f)
	b0, b1, b2 := b.CreateBlock(), b.CreateBlock(), b.CreateBlock()
	x := b.AppendBlockParam(b0, ir.I32)
	y := b.AppendBlockParam(b1, ir.I32)
	b.SwitchToBlock(b0)
	b.BrTable(x, ir.NewBlockCall(b2), []ir.BlockCall{ir.NewBlockCall(b1, x), ir.NewBlockCall(b2)})
	b.SwitchToBlock(b1)
	b.Brif(y, b2, nil, b1, []ir.Value{y})
	b.SwitchToBlock(b2)
	b.Trap(ir.TrapUser + 2)
	checkConsistent(t, f)
	want := `function %br(i32) {
block0(v0: i32):
    br_table v0, block2, [block1(v0), block2]

block1(v1: i32):
    brif v1, block2, block1(v1)

block2:
    trap user2
}
`
	if got := printer.FunctionString(f); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestBuilderMisusePanics(t *testing.T) {
	for name, misuse := range map[string]func(b *ir.Builder){
		"no current block":    func(b *ir.Builder) { b.Iconst(ir.I32, 1) },
		"unknown block":       func(b *ir.Builder) { b.SwitchToBlock(5) },
		"no way to type iadd": func(b *ir.Builder) { b.SwitchToBlock(b.CreateBlock()); b.Ins(ir.OpIadd, ir.Invalid) },
		"results given": func(b *ir.Builder) {
			b.SwitchToBlock(b.CreateBlock())
			b.Append(ir.InstData{Op: ir.OpNop, Results: []ir.Value{0}})
		},
		"param of unknown block": func(b *ir.Builder) { b.AppendBlockParam(3, ir.I8) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if r := recover(); r == nil {
					t.Error("no panic")
				} else if !strings.HasPrefix(r.(string), "ir.Builder: ") {
					t.Errorf("panic message %q does not say where it comes from", r)
				}
			}()
			misuse(ir.NewBuilder(ir.NewFunction("%m", ir.Signature{})))
		})
	}
}

// TestBuilderInPlaceMatchesAppend checks the helpers that build their
// instruction in its slot (Ins, Iconst, Icmp, ...) against Append of the
// same InstData, the general path: both must leave the same instructions
// and values, whatever stale data the reused slots of f.Insts held.
func TestBuilderInPlaceMatchesAppend(t *testing.T) {
	mask := make([]byte, 16)
	for _, tc := range []struct {
		name    string
		inPlace func(b *ir.Builder, x, y ir.Value)
		general ir.InstData
	}{
		{"ins typed by operand", func(b *ir.Builder, x, y ir.Value) { b.Ins(ir.OpIadd, ir.Invalid, x, y) },
			ir.InstData{Op: ir.OpIadd, Args: []ir.Value{0, 1}}},
		{"ins with type", func(b *ir.Builder, x, y ir.Value) { b.Ins(ir.OpUextend, ir.I64, x) },
			ir.InstData{Op: ir.OpUextend, CtrlType: ir.I64, Args: []ir.Value{0}}},
		{"ins without operands", func(b *ir.Builder, x, y ir.Value) { b.Ins(ir.OpNop, ir.Invalid) },
			ir.InstData{Op: ir.OpNop}},
		{"iconst", func(b *ir.Builder, x, y ir.Value) { b.Iconst(ir.I8, -1) },
			ir.InstData{Op: ir.OpIconst, CtrlType: ir.I8, Imm: 255}},
		{"f16const", func(b *ir.Builder, x, y ir.Value) { b.F16const(0x3c00) },
			ir.InstData{Op: ir.OpF16const, FloatBits: 0x3c00}},
		{"f32const", func(b *ir.Builder, x, y ir.Value) { b.F32const(0x3f800000) },
			ir.InstData{Op: ir.OpF32const, FloatBits: 0x3f800000}},
		{"f64const", func(b *ir.Builder, x, y ir.Value) { b.F64const(1) },
			ir.InstData{Op: ir.OpF64const, FloatBits: 1}},
		{"f128const", func(b *ir.Builder, x, y ir.Value) { b.F128const(mask) },
			ir.InstData{Op: ir.OpF128const, Bytes: mask}},
		{"vconst inline", func(b *ir.Builder, x, y ir.Value) { b.Vconst(ir.I8X16, mask) },
			ir.InstData{Op: ir.OpVconst, CtrlType: ir.I8X16, Bytes: mask}},
		{"vconst of a constant", func(b *ir.Builder, x, y ir.Value) { b.VconstOf(ir.I8X16, 0) },
			ir.InstData{Op: ir.OpVconst, CtrlType: ir.I8X16, Const: 0}},
		{"icmp", func(b *ir.Builder, x, y ir.Value) { b.Icmp(ir.IntUlt, x, y) },
			ir.InstData{Op: ir.OpIcmp, IntCC: ir.IntUlt, Args: []ir.Value{0, 1}}},
		{"fcmp", func(b *ir.Builder, x, y ir.Value) { b.Fcmp(ir.FloatGt, x, y) },
			ir.InstData{Op: ir.OpFcmp, FloatCC: ir.FloatGt, Args: []ir.Value{0, 1}}},
		{"load", func(b *ir.Builder, x, y ir.Value) { b.Load(ir.I32, ir.MemFlags{}, x, 8) },
			ir.InstData{Op: ir.OpLoad, CtrlType: ir.I32, Args: []ir.Value{0}, Imm: 8}},
		{"store", func(b *ir.Builder, x, y ir.Value) { b.Store(ir.MemFlags{}, y, x, -4) },
			ir.InstData{Op: ir.OpStore, Args: []ir.Value{1, 0}, Imm: -4}},
		{"stack_addr", func(b *ir.Builder, x, y ir.Value) { b.StackAddr(ir.I64, 0, 4) },
			ir.InstData{Op: ir.OpStackAddr, CtrlType: ir.I64, Slot: 0, Imm: 4}},
		{"func_addr", func(b *ir.Builder, x, y ir.Value) { b.FuncAddr(ir.I64, 0) },
			ir.InstData{Op: ir.OpFuncAddr, CtrlType: ir.I64, Func: 0}},
		{"shuffle", func(b *ir.Builder, x, y ir.Value) { b.Shuffle(x, y, mask) },
			ir.InstData{Op: ir.OpShuffle, Args: []ir.Value{0, 1}, Bytes: mask}},
		{"trap", func(b *ir.Builder, x, y ir.Value) { b.Trap(ir.TrapCode(3)) },
			ir.InstData{Op: ir.OpTrap, Trap: ir.TrapCode(3)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			build := func(add func(b *ir.Builder, x, y ir.Value)) *ir.Function {
				f := ir.NewFunction("%f", ir.Signature{})
				// Stale instructions beyond len, as a pass reusing
				// the function's memory may leave them.
				f.Insts = make([]ir.InstData, 3, 8)
				for k := range f.Insts {
					f.Insts[k] = ir.InstData{Op: ir.OpCall, Func: 7, Sig: 7, Slot: 7, GV: 7, Imm: 9, Args: []ir.Value{5}, SrcLoc: ir.SrcLoc(3)}
				}
				f.Insts = f.Insts[:0]
				b := ir.NewBuilder(f)
				b.DeclareSig(ir.Signature{})
				b.DeclareFuncRef("%g", 0)
				b.DeclareStackSlot(8, 0)
				b.DeclareConstant(mask)
				blk := b.CreateBlock()
				x := b.AppendBlockParam(blk, ir.I64)
				y := b.AppendBlockParam(blk, ir.I64)
				b.SwitchToBlock(blk)
				b.SetSrcLoc(ir.SrcLoc(0x19))
				add(b, x, y)
				return f
			}
			got := build(tc.inPlace)
			want := build(func(b *ir.Builder, x, y ir.Value) { b.Append(tc.general) })
			if !reflect.DeepEqual(got.Insts, want.Insts) || !reflect.DeepEqual(got.Values, want.Values) ||
				!reflect.DeepEqual(got.Blocks, want.Blocks) {
				t.Errorf("built in place:\n%+v\n%+v\nby Append:\n%+v\n%+v", got.Insts, got.Values, want.Insts, want.Values)
			}
		})
	}
}

// TestBuilderPanicLeavesFunction checks that an instruction the Builder
// refuses is not left in f.
func TestBuilderPanicLeavesFunction(t *testing.T) {
	f := ir.NewFunction("%f", ir.Signature{})
	b := ir.NewBuilder(f)
	b.SwitchToBlock(b.CreateBlock())
	func() {
		defer func() { recover() }()
		b.Ins(ir.OpIadd, ir.Invalid)
	}()
	if len(f.Insts) != 0 || len(f.Blocks[0].Insts) != 0 {
		t.Errorf("a refused instruction was kept: %d instructions", len(f.Insts))
	}
}
