package parser

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"cliff/lib/ir"
)

// parseFunc parses src as a file and returns its only function, checked
// against the parser's invariants.
func parseFunc(t *testing.T, src string) *ir.Function {
	t.Helper()
	f, err := ParseFile("t.clif", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	if len(f.Funcs) != 1 {
		t.Fatalf("got %d functions, want 1", len(f.Funcs))
	}
	if err := checkFunction(f.Funcs[0]); err != nil {
		t.Fatal(err)
	}
	return f.Funcs[0]
}

// inst returns the n-th instruction of the function in layout order.
func inst(t *testing.T, f *ir.Function, n int) *ir.InstData {
	t.Helper()
	for _, b := range f.Layout {
		for _, i := range f.Blocks[b].Insts {
			if n == 0 {
				return &f.Insts[i]
			}
			n--
		}
	}
	t.Fatalf("no instruction %d", n)
	return nil
}

func typeOf(f *ir.Function, v ir.Value) ir.Type { return f.Values[v].Type }

func eq[T any](t *testing.T, what string, got, want T) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s = %+v, want %+v", what, got, want)
	}
}

func TestSignature(t *testing.T) {
	f := parseFunc(t, `function %f(i8 uext, i32 sext, i64 sret, i64 vmctx, i64 sarg(64), f32 normal) -> i32 sext, f64 system_v {
block0:
    return
}`)
	eq(t, "name", f.Name, "%f")
	eq(t, "params", f.Sig.Params, []ir.AbiParam{
		{Type: ir.I8, Ext: ir.ExtUext}, {Type: ir.I32, Ext: ir.ExtSext}, {Type: ir.I64, Purpose: "sret"},
		{Type: ir.I64, Purpose: "vmctx"}, {Type: ir.I64, Purpose: "sarg(64)"}, {Type: ir.F32},
	})
	eq(t, "returns", f.Sig.Returns, []ir.AbiParam{{Type: ir.I32, Ext: ir.ExtSext}, {Type: ir.F64}})
	eq(t, "callconv", f.Sig.CallConv, ir.CallConvSystemV)

	f = parseFunc(t, "function u0:12() {\nblock0:\n return\n}")
	eq(t, "user name", f.Name, "u0:12")
	eq(t, "default callconv", f.Sig.CallConv, ir.CallConvNone)
	eq(t, "no params", len(f.Sig.Params)+len(f.Sig.Returns), 0)
	eq(t, "stack limit", f.StackLimit, ir.NoGlobalValue)
}

func TestPreamble(t *testing.T) {
	f := parseFunc(t, `function %f(i64 vmctx) tail {
    ss3 = explicit_slot 13
    ss1 = explicit_slot 32, align = 16, key = 0xfedc_ba98_7654_3210
    dss0 = explicit_dynamic_slot dt0
    dt0 = i32x4*gv0
    region0 = 36 "heap"
    region1 = 7 "table"
    gv0 = vmctx
    gv1 = load.i64 notrap aligned readonly gv0+8
    gv2 = iadd_imm.i64 gv1, -16
    gv3 = symbol colocated tls %sym+4
    gv4 = symbol u1:2
    gv5 = dyn_scale_target_const.i32x4
    gv6 = load.i32 notrap aligned region1 gv0
    sig10 = ()
    sig11 = (i32, f64) -> i32, i8 system_v
    fn5 = colocated %foo sig11
    fn8 = patchable %bar(i32) -> i8 fast
    fn9 = u0:7 sig10
    const0 = 0x00110022
    const2 = i32x4 [1 2 -1 0x10]
    stack_limit = gv1
block0(v0: i64):
    return
}`)
	eq(t, "stack slots", f.StackSlots, []ir.StackSlotDecl{
		{Num: 3, Kind: "explicit_slot", Size: 13},
		{Num: 1, Kind: "explicit_slot", Size: 32, Align: 16, Key: 0xfedcba9876543210, HasKey: true},
	})
	eq(t, "dyn slots", f.DynStackSlots, []ir.DynStackSlotDecl{{Num: 0, Kind: "explicit_dynamic_slot", Type: 0}})
	eq(t, "dyn types", f.DynTypes, []ir.DynTypeDecl{{Num: 0, Base: ir.I32X4, Scale: 0}})
	eq(t, "regions", f.Regions, []ir.RegionDecl{{Num: 0, UserID: 36, Description: "heap"}, {Num: 1, UserID: 7, Description: "table"}})
	eq(t, "global values", f.GlobalValues, []ir.GlobalValueDecl{
		{Num: 0, Kind: ir.GVVMContext},
		{Num: 1, Kind: ir.GVLoad, Type: ir.I64, Base: 0, Offset: 8, Flags: ir.MemFlags{NoTrap: true, Aligned: true, Readonly: true}},
		{Num: 2, Kind: ir.GVIAddImm, Type: ir.I64, Base: 1, Offset: -16},
		{Num: 3, Kind: ir.GVSymbol, Name: "%sym", Offset: 4, Colocated: true, TLS: true},
		{Num: 4, Kind: ir.GVSymbol, Name: "u1:2"},
		{Num: 5, Kind: ir.GVDynScaleConst, Type: ir.I32X4},
		{Num: 6, Kind: ir.GVLoad, Type: ir.I32, Flags: ir.MemFlags{NoTrap: true, Aligned: true, Region: 1, HasRegion: true}},
	})
	// The inline signature of fn8 is declared as sig12, one past the largest.
	eq(t, "sigs", f.Sigs, []ir.SigDecl{
		{Num: 10},
		{Num: 11, Sig: ir.Signature{Params: []ir.AbiParam{{Type: ir.I32}, {Type: ir.F64}},
			Returns: []ir.AbiParam{{Type: ir.I32}, {Type: ir.I8}}, CallConv: ir.CallConvSystemV}},
		{Num: 12, Sig: ir.Signature{Params: []ir.AbiParam{{Type: ir.I32}}, Returns: []ir.AbiParam{{Type: ir.I8}}, CallConv: ir.CallConvFast}},
	})
	eq(t, "func refs", f.FuncRefs, []ir.FuncRefDecl{
		{Num: 5, Name: "%foo", Sig: 11, Colocated: true},
		{Num: 8, Name: "%bar", Sig: 12, Patchable: true},
		{Num: 9, Name: "u0:7", Sig: 10},
	})
	eq(t, "constants", f.Constants, []ir.ConstantDecl{
		{Num: 0, Bytes: []byte{0x22, 0, 0x11, 0}},
		{Num: 2, Bytes: []byte{1, 0, 0, 0, 2, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x10, 0, 0, 0}},
	})
	eq(t, "stack limit", f.StackLimit, ir.GlobalValue(1))
	eq(t, "declaration positions", f.Pos.Decls, map[string]ir.Pos{
		"ss3": {Line: 2, Col: 5}, "ss1": {Line: 3, Col: 5}, "dss0": {Line: 4, Col: 5}, "dt0": {Line: 5, Col: 5},
		"region0": {Line: 6, Col: 5}, "region1": {Line: 7, Col: 5},
		"gv0": {Line: 8, Col: 5}, "gv1": {Line: 9, Col: 5}, "gv2": {Line: 10, Col: 5}, "gv3": {Line: 11, Col: 5},
		"gv4": {Line: 12, Col: 5}, "gv5": {Line: 13, Col: 5}, "gv6": {Line: 14, Col: 5},
		"sig10": {Line: 15, Col: 5}, "sig11": {Line: 16, Col: 5},
		"fn5": {Line: 17, Col: 5}, "fn8": {Line: 18, Col: 5}, "sig12": {Line: 18, Col: 25}, "fn9": {Line: 19, Col: 5},
		"const0": {Line: 20, Col: 5}, "const2": {Line: 21, Col: 5}, "stack_limit": {Line: 22, Col: 5},
	})
}

func TestBlocks(t *testing.T) {
	f := parseFunc(t, `function %f(i32) {
block4(v7: i32):
    jump block1(v7, v7)

block1(v2: i32, v3: i32) cold:
    return
}`)
	eq(t, "layout", f.Layout, []ir.Block{4, 1})
	eq(t, "blocks", len(f.Blocks), 5)
	for b, used := range []bool{false, true, false, false, true} {
		eq(t, ir.Block(b).String()+" used", f.Blocks[b].Used, used)
	}
	eq(t, "block1 cold", f.Blocks[1].Cold, true)
	eq(t, "block4 cold", f.Blocks[4].Cold, false)
	eq(t, "block1 params", f.Blocks[1].Params, []ir.Value{2, 3})
	eq(t, "v3", f.Values[3], ir.ValueData{Type: ir.I32, Kind: ir.DefParam, Block: 1, Index: 1})
	eq(t, "unused v5", f.Values[5], ir.ValueData{})
	eq(t, "jump", inst(t, f, 0).Dests, []ir.BlockCall{{Block: 1, Args: []ir.BlockArg{{Value: 7}, {Value: 7}}}})
	eq(t, "positions", f.Pos.Func, ir.Pos{Line: 1, Col: 1})
	eq(t, "block1 pos", f.Pos.BlockPos(1), ir.Pos{Line: 5, Col: 1})
	eq(t, "inst1 pos", f.Pos.InstPos(1), ir.Pos{Line: 6, Col: 5})
}

func TestIntegerConstants(t *testing.T) {
	f := parseFunc(t, `function %f() {
block0:
    v0 = iconst.i8 -1
    v1 = iconst.i16 0x8000
    v2 = iconst.i32 0xffff_ffff
    v3 = iconst.i32 -2147483648
    v4 = iconst.i64 -1
    v5 = iconst.i64 0x1f96_3ea8_4eb6_5f81
    v6 = iconst.i8 255
    v7 = iconst.i64 18_446_744_073_709_551_615
    return
}`)
	for i, want := range []int64{0xff, 0x8000, 0xffffffff, 0x80000000, -1, 0x1f963ea84eb65f81, 0xff, -1} {
		d := inst(t, f, i)
		eq(t, "imm of v"+itoa(i), d.Imm, want)
	}
	eq(t, "v0 type", typeOf(f, 0), ir.I8)
	eq(t, "ctrl", inst(t, f, 2).CtrlType, ir.I32)
}

func itoa(i int) string { return ir.Value(i).String()[1:] }

func TestFloatConstants(t *testing.T) {
	f := parseFunc(t, `function %f() {
block0:
    v0 = f32const 0x1.5p3
    v1 = f64const -0x1.0p0
    v2 = f32const -0.0
    v3 = f64const +NaN
    v4 = f32const NaN:0x42
    v5 = f64const -sNaN:0x1
    v6 = f16const Inf
    v7 = f32const -Inf
    v8 = f128const 0x1.0p1
    return
}`)
	want := []uint64{0x41280000, 0xbff0000000000000, 0x80000000, 0x7ff8000000000000, 0x7fc00042, 0xfff0000000000001, 0x7c00, 0xff800000}
	for i, w := range want {
		eq(t, "bits of v"+itoa(i), inst(t, f, i).FloatBits, w)
	}
	eq(t, "v6 type", typeOf(f, 6), ir.F16)
	d := inst(t, f, 8)
	eq(t, "f128const bytes", d.Bytes, append(make([]byte, 14), 0x00, 0x40))
	eq(t, "f128const const", d.Const, ir.NoConstant)
	eq(t, "v8 type", typeOf(f, 8), ir.F128)
}

func TestVectorConstants(t *testing.T) {
	f := parseFunc(t, `function %f() {
    const0 = 0x01
block0:
    v0 = vconst.i8x16 0x0102
    v1 = vconst.i32x4 [0 4294967295 -1 2]
    v2 = vconst.f32x4 [0x1.0p0 0.0 -Inf NaN]
    v3 = vconst.i16x8 const0
    v4 = vconst.i64x2 [1 -2]
    v5 = shuffle v0, v0, [3 0 31 16 0 0 0 0 0 0 0 0 0 0 0 0x1f]
    v6 = shuffle v0, v0, 0x0f
    return
}`)
	eq(t, "hex", inst(t, f, 0).Bytes, append([]byte{2, 1}, make([]byte, 14)...))
	eq(t, "i32 list", inst(t, f, 1).Bytes, []byte{0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0})
	eq(t, "f32 list", inst(t, f, 2).Bytes, []byte{0, 0, 0x80, 0x3f, 0, 0, 0, 0, 0, 0, 0x80, 0xff, 0, 0, 0xc0, 0x7f})
	eq(t, "const ref", inst(t, f, 3).Const, ir.Constant(0))
	eq(t, "const ref bytes", inst(t, f, 3).Bytes, []byte(nil))
	eq(t, "i64 list", inst(t, f, 4).Bytes, []byte{1, 0, 0, 0, 0, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	eq(t, "shuffle list", inst(t, f, 5).Bytes, []byte{3, 0, 31, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 31})
	eq(t, "shuffle hex", inst(t, f, 6).Bytes, append([]byte{15}, make([]byte, 15)...))
	eq(t, "v1 type", typeOf(f, 1), ir.I32X4)
	eq(t, "v5 type", typeOf(f, 5), ir.I8X16)
}

func TestMemory(t *testing.T) {
	f := parseFunc(t, `function %f(i64) {
    ss0 = explicit_slot 16
block0(v0: i64):
    v1 = load.i32 notrap aligned readonly can_move little region0 v0+8
    store big user1 v1, v0-4
    v2 = load.i64 heap_oob v0
    v3 = uload8.i32 int_divz notrap v0
    v4 = stack_addr.i64 ss0+12
    v5 = atomic_rmw.i64 little xchg v0, v4
    v6 = atomic_cas.i32 v0, v1, v1
    v7 = atomic_load.i32 notrap v0
    atomic_store v7, v0
    return
}`)
	d := inst(t, f, 0)
	eq(t, "load flags", d.Flags, ir.MemFlags{NoTrap: true, Aligned: true, Readonly: true, CanMove: true,
		Endian: ir.EndianLittle, Region: 0, HasRegion: true})
	eq(t, "load offset", d.Imm, int64(8))
	eq(t, "load args", d.Args, []ir.Value{0})
	d = inst(t, f, 1)
	eq(t, "store flags", d.Flags, ir.MemFlags{Endian: ir.EndianBig, Trap: ir.TrapUser + 1})
	eq(t, "store offset", d.Imm, int64(-4))
	eq(t, "store args", d.Args, []ir.Value{1, 0})
	eq(t, "store ctrl type", d.CtrlType, ir.I32)
	eq(t, "heap_oob is the default", inst(t, f, 2).Flags, ir.MemFlags{})
	eq(t, "notrap after a trap code", inst(t, f, 3).Flags, ir.MemFlags{NoTrap: true})
	d = inst(t, f, 4)
	eq(t, "stack_addr slot", d.Slot, ir.StackSlot(0))
	eq(t, "stack_addr offset", d.Imm, int64(12))
	d = inst(t, f, 5)
	eq(t, "rmw op", d.RmwOp, ir.RmwXchg)
	eq(t, "rmw args", d.Args, []ir.Value{0, 4})
	eq(t, "cas args", inst(t, f, 6).Args, []ir.Value{0, 1, 1})
	eq(t, "atomic_store inferred type", inst(t, f, 8).CtrlType, ir.I32)
}

func TestComparisonsAndDerivedTypes(t *testing.T) {
	f := parseFunc(t, `function %f(i32, f32x4, i64) {
block0(v0: i32, v1: f32x4, v2: i64):
    v3 = icmp ugt v0, v0
    v4 = fcmp uno v1, v1
    v5 = extractlane v1, 3
    v6 = insertlane v1, v5, 0x2
    v7, v8 = isplit v2
    v9 = iconcat v7, v8
    v10 = select v3, v0, v0
    v11 = uextend.i64 v0
    return
}`)
	eq(t, "intcc", inst(t, f, 0).IntCC, ir.IntUgt)
	eq(t, "icmp result", typeOf(f, 3), ir.I8)
	eq(t, "floatcc", inst(t, f, 1).FloatCC, ir.FloatUno)
	eq(t, "fcmp result", typeOf(f, 4), ir.Vector(ir.I32, 4))
	eq(t, "lane", inst(t, f, 2).Imm, int64(3))
	eq(t, "extractlane result", typeOf(f, 5), ir.F32)
	eq(t, "insertlane lane", inst(t, f, 3).Imm, int64(2))
	eq(t, "isplit results", []ir.Type{typeOf(f, 7), typeOf(f, 8)}, []ir.Type{ir.I32, ir.I32})
	eq(t, "iconcat result", typeOf(f, 9), ir.I64)
	eq(t, "select ctrl (from the second operand)", inst(t, f, 6).CtrlType, ir.I32)
	eq(t, "uextend result", typeOf(f, 11), ir.I64)
}

func TestCalls(t *testing.T) {
	f := parseFunc(t, `function %f(i64) -> i32 tail {
    sig0 = (i32) -> f32, i8 tail
    fn0 = %g(i32) -> f32 tail
    fn1 = colocated %h sig0
block0(v0: i64):
    v1 = iconst.i32 1
    v2 = call fn0(v1)
<0, 1> v3, v4 = call fn1(v1)
    v5, v8 = call_indirect sig0, v0(v1)
    v6 = func_addr.i64 fn0
<ss0, 7> sequence_point
    v10 = call fn0(v1), stack_map=[i32 @ ss0+0, i64 @ ss0+8]
    return_call fn1(v1)
}`)
	eq(t, "inline sig", f.FuncRefs[0].Sig, ir.SigRef(1))
	d := inst(t, f, 1)
	eq(t, "call func", d.Func, ir.FuncRef(0))
	eq(t, "call args", d.Args, []ir.Value{1})
	eq(t, "call result", typeOf(f, 2), ir.F32)
	eq(t, "debug tags", inst(t, f, 2).DebugTags, []ir.DebugTag{ir.UserTag(0), ir.UserTag(1)})
	eq(t, "two results", []ir.Type{typeOf(f, 3), typeOf(f, 4)}, []ir.Type{ir.F32, ir.I8})
	d = inst(t, f, 3)
	eq(t, "call_indirect sig", d.Sig, ir.SigRef(0))
	eq(t, "call_indirect args", d.Args, []ir.Value{0, 1})
	eq(t, "call_indirect results", d.Results, []ir.Value{5, 8})
	eq(t, "func_addr", inst(t, f, 4).Func, ir.FuncRef(0))
	eq(t, "stack slot tags", inst(t, f, 5).DebugTags, []ir.DebugTag{ir.SlotTag(0), ir.UserTag(7)})
	eq(t, "stack map", inst(t, f, 6).StackMap, []ir.StackMapEntry{{Type: ir.I32, Slot: 0, Offset: 0}, {Type: ir.I64, Slot: 0, Offset: 8}})
	eq(t, "return_call", inst(t, f, 7).Op.String(), "return_call")
}

// TestAnnotations reads the source locations, debug tags and stack maps of
// instruction lines into the instruction's SrcLoc, DebugTags and StackMap.
func TestAnnotations(t *testing.T) {
	none := ir.SourceLoc{}
	for _, tc := range []struct {
		name, line string
		loc        ir.SourceLoc
		tags       []ir.DebugTag
		stackMap   []ir.StackMapEntry
	}{
		{"none", "v2 = call fn0(v0)", none, nil, nil},
		{"srcloc", "@0019 v2 = call fn0(v0)", ir.SrcLoc(0x19), nil, nil},
		{"srcloc zero", "@0000 v2 = call fn0(v0)", ir.SrcLoc(0), nil, nil},
		{"srcloc short", "@7 v2 = call fn0(v0)", ir.SrcLoc(7), nil, nil},
		{"srcloc eight digits", "@fffffffe v2 = call fn0(v0)", ir.SrcLoc(0xfffffffe), nil, nil},
		{"srcloc leading zeros", "@0000000000abcdef v2 = call fn0(v0)", ir.SrcLoc(0xabcdef), nil, nil},
		// Cranelift's "no location".
		{"srcloc all ones", "@ffffffff v2 = call fn0(v0)", none, nil, nil},
		{"srcloc upper case", "@00AB v2 = call fn0(v0)", ir.SrcLoc(0xab), nil, nil},
		{"user tags", "<0, 1> v2 = call fn0(v0)", none, []ir.DebugTag{ir.UserTag(0), ir.UserTag(1)}, nil},
		{"hex user tag", "<0x10> v2 = call fn0(v0)", none, []ir.DebugTag{ir.UserTag(16)}, nil},
		{"slot tags", "<ss0, 1, 0, ss1, 4294967295> sequence_point",
			none, []ir.DebugTag{ir.SlotTag(0), ir.UserTag(1), ir.UserTag(0), ir.SlotTag(1), ir.UserTag(0xffffffff)}, nil},
		// The parser does not require the slot to be declared.
		{"undeclared slot tag", "<ss9> sequence_point", none, []ir.DebugTag{ir.SlotTag(9)}, nil},
		{"trailing comma in tags", "<1,> sequence_point", none, []ir.DebugTag{ir.UserTag(1)}, nil},
		{"empty tags", "<> sequence_point", none, nil, nil},
		{"tags then srcloc", "<ss1, 2> @002a v2 = call fn0(v0)", ir.SrcLoc(0x2a), []ir.DebugTag{ir.SlotTag(1), ir.UserTag(2)}, nil},
		{"stack map", "v2 = call fn0(v0), stack_map=[i64 @ ss0+8]", none, nil, []ir.StackMapEntry{{Type: ir.I64, Slot: 0, Offset: 8}}},
		{"stack map spaced", "v2 = call fn0(v0) , stack_map = [ i32 @ ss1 + 0x10 , f64 @ ss0+0 ]", none, nil,
			[]ir.StackMapEntry{{Type: ir.I32, Slot: 1, Offset: 16}, {Type: ir.F64, Slot: 0, Offset: 0}}},
		{"stack map trailing comma", "v2 = call fn0(v0), stack_map=[i8x16 @ ss1+4294967295,]", none, nil,
			[]ir.StackMapEntry{{Type: ir.I8X16, Slot: 1, Offset: 0xffffffff}}},
		{"empty stack map", "v2 = call fn0(v0), stack_map=[]", none, nil, nil},
		{"stack map on call_indirect", "v2 = call_indirect sig0, v1(v0), stack_map=[i64 @ ss7+8]", none, nil,
			[]ir.StackMapEntry{{Type: ir.I64, Slot: 7, Offset: 8}}},
		{"stack map on try_call", "try_call fn0(v0), sig0, block1(ret0), [ default: block1(v0) ], stack_map=[i64 @ ss0+0]", none, nil,
			[]ir.StackMapEntry{{Type: ir.I64, Slot: 0, Offset: 0}}},
		{"all three", "<ss0, 1> @0019 v2 = call fn0(v0), stack_map=[i64 @ ss0+8]  ; comment",
			ir.SrcLoc(0x19), []ir.DebugTag{ir.SlotTag(0), ir.UserTag(1)}, []ir.StackMapEntry{{Type: ir.I64, Slot: 0, Offset: 8}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := parseFunc(t, `function %f(i32, i64) -> i32 {
    ss0 = explicit_slot 16
    ss1 = explicit_slot 8
    sig0 = (i32) -> i32
    fn0 = %g(i32) -> i32
block0(v0: i32, v1: i64):
    `+tc.line+`
    jump block1(v0)
block1(v3: i32):
    return v3
}`)
			d := inst(t, f, 0)
			eq(t, "SrcLoc", d.SrcLoc, tc.loc)
			eq(t, "DebugTags", d.DebugTags, tc.tags)
			eq(t, "StackMap", d.StackMap, tc.stackMap)
			eq(t, "next instruction has none", [3]any{inst(t, f, 1).SrcLoc, inst(t, f, 1).DebugTags, inst(t, f, 1).StackMap},
				[3]any{none, []ir.DebugTag(nil), []ir.StackMapEntry(nil)})
		})
	}
}

// An alias line takes no annotations: whatever is in front of it is read
// and dropped, as in Cranelift.
func TestAnnotationsOnAlias(t *testing.T) {
	f := parseFunc(t, `function %f(i32) -> i32 {
block0(v0: i32):
<1> @0019 v1 -> v0
    return v1
}`)
	d := inst(t, f, 0)
	eq(t, "return has no srcloc", d.SrcLoc, ir.SourceLoc{})
	eq(t, "return has no tags", d.DebugTags, []ir.DebugTag(nil))
	eq(t, "alias", f.Values[1].AliasOf, ir.Value(0))
}

func TestBranches(t *testing.T) {
	f := parseFunc(t, `function %f(i32) {
block0(v0: i32):
    brif v0, block1(v0), block2
block1(v1: i32):
    br_table v1, block2, [block1(v1), block2, block3(v1, v1)]
block2:
    br_table v0, block2, []
block3(v2: i32, v3: i32):
    v4 = get_exception_handler_address.i64 block1, -1
    return
}`)
	eq(t, "brif", inst(t, f, 0).Dests, []ir.BlockCall{{Block: 1, Args: []ir.BlockArg{{Value: 0}}}, {Block: 2}})
	eq(t, "brif ctrl", inst(t, f, 0).CtrlType, ir.I32)
	eq(t, "br_table", inst(t, f, 1).Dests, []ir.BlockCall{
		{Block: 2}, {Block: 1, Args: []ir.BlockArg{{Value: 1}}}, {Block: 2}, {Block: 3, Args: []ir.BlockArg{{Value: 1}, {Value: 1}}}})
	eq(t, "empty br_table", inst(t, f, 2).Dests, []ir.BlockCall{{Block: 2}})
	d := inst(t, f, 3)
	eq(t, "raw block", d.RawBlock, ir.Block(1))
	eq(t, "handler index", d.Imm, int64(-1))
	eq(t, "handler address type", typeOf(f, 4), ir.I64)
}

func TestTryCall(t *testing.T) {
	f := parseFunc(t, `function %f(i32, i64) tail {
    sig0 = (i32) -> f32 tail
    fn0 = %g sig0
block0(v1: i32, v5: i64):
    try_call fn0(v1), sig0, block1(ret0, v1), [ tag1: block2(exn0), default: block3(v1, exn1), context v5 ]
block1(v2: f32, v3: i32):
    try_call_indirect v5(v1), sig0, block2(), [ ]
block2(v4: i64):
    return
block3(v6: i32, v7: i64):
    return
}`)
	d := inst(t, f, 0)
	eq(t, "args", d.Args, []ir.Value{1})
	eq(t, "func", d.Func, ir.FuncRef(0))
	eq(t, "exception sig", d.Sig, ir.SigRef(0))
	eq(t, "normal return", d.Dests, []ir.BlockCall{{Block: 1, Args: []ir.BlockArg{
		{Kind: ir.ArgRet, Value: ir.NoValue, Index: 0}, {Kind: ir.ArgValue, Value: 1}}}})
	eq(t, "handlers", d.Handlers, []ir.ExceptionHandler{
		{Kind: ir.HandlerTag, Tag: 1, Context: ir.NoValue, Dest: ir.BlockCall{Block: 2, Args: []ir.BlockArg{{Kind: ir.ArgExn, Value: ir.NoValue}}}},
		{Kind: ir.HandlerDefault, Context: ir.NoValue, Dest: ir.BlockCall{Block: 3, Args: []ir.BlockArg{{Value: 1}, {Kind: ir.ArgExn, Value: ir.NoValue, Index: 1}}}},
		{Kind: ir.HandlerContext, Context: 5, Dest: ir.BlockCall{Block: ir.NoBlock}},
	})
	eq(t, "no results", len(d.Results), 0)
	d = inst(t, f, 1)
	eq(t, "indirect args", d.Args, []ir.Value{5, 1})
	eq(t, "indirect ctrl", d.CtrlType, ir.I64)
	eq(t, "indirect handlers", len(d.Handlers), 0)
	eq(t, "indirect dests", d.Dests, []ir.BlockCall{{Block: 2}})
}

func TestTrapsAndEntities(t *testing.T) {
	f := parseFunc(t, `function %f(i32, i64 vmctx) {
    gv0 = vmctx
    gv1 = symbol %sym
    dt0 = i32x4*gv0
    dss0 = explicit_dynamic_slot dt0
block0(v0: i32, v9: i64):
    trapz v0, user7
    trapnz v0, int_divz
    v1 = uadd_overflow_trap v0, v0, heap_oob
    v2 = symbol_value.i64 gv1
    v3 = dynamic_stack_addr.i64 dss0
    v4 = splat.dt0 v0
    v5 = get_pinned_reg.i64
    trap stk_ovf
}`)
	eq(t, "trapz code", inst(t, f, 0).Trap, ir.TrapUser+7)
	eq(t, "trapnz code", inst(t, f, 1).Trap, ir.TrapIntegerDivisionByZero)
	eq(t, "uadd_overflow_trap", inst(t, f, 2).Trap, ir.TrapHeapOutOfBounds)
	eq(t, "symbol_value", inst(t, f, 3).GV, ir.GlobalValue(1))
	eq(t, "dynamic_stack_addr", inst(t, f, 4).DynSlot, ir.DynamicStackSlot(0))
	eq(t, "dynamic type", typeOf(f, 4), ir.DynamicOf(ir.I32X4))
	eq(t, "nullary ctrl", typeOf(f, 5), ir.I64)
	eq(t, "trap", inst(t, f, 7).Trap, ir.TrapStackOverflow)
}

func TestAliasesAndForwardUses(t *testing.T) {
	f := parseFunc(t, `function %f(i32) -> i32 {
block0(v0: i32):
    v1 = iconst.i32 1
    v2 -> v1
    v2 -> v1
    v9 -> v2
    jump block2(v0)

block1:
    ; v5 is typed from v6, which is defined below.
    v5 = iadd v6, v9
    v7 = imul v5, v5
    return v7

block2(v3: i32):
    v6 = iadd v3, v2
    jump block1
}`)
	eq(t, "alias", f.Values[2], ir.ValueData{Type: ir.I32, Kind: ir.DefAlias, AliasOf: 1})
	eq(t, "alias of alias", f.Resolve(9), ir.Value(1))
	eq(t, "alias type", typeOf(f, 9), ir.I32)
	eq(t, "forward use", typeOf(f, 5), ir.I32)
	eq(t, "chained forward use", typeOf(f, 7), ir.I32)
	eq(t, "uses keep the alias", inst(t, f, 5).Args, []ir.Value{3, 2})
}

func TestHeader(t *testing.T) {
	f, err := ParseFile("h.clif", []byte(`; leading comment
test run
test interpret ; why
set opt_level=speed
set enable_verifier
target x86_64 has_avx ; comment
set preserve_frame_pointers=true
target aarch64

function %f() {
block0:
    return
}
`))
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "tests", f.Tests, []ir.HeaderLine{
		{Kind: ir.HeaderTest, Words: []string{"run"}, Line: 2},
		{Kind: ir.HeaderTest, Words: []string{"interpret"}, Line: 3},
	})
	eq(t, "header", f.Header, []ir.HeaderLine{
		{Kind: ir.HeaderSet, Words: []string{"opt_level=speed"}, Line: 4},
		{Kind: ir.HeaderSet, Words: []string{"enable_verifier"}, Line: 5},
		{Kind: ir.HeaderTarget, Words: []string{"x86_64", "has_avx"}, Line: 6},
		{Kind: ir.HeaderSet, Words: []string{"preserve_frame_pointers=true"}, Line: 7},
		{Kind: ir.HeaderTarget, Words: []string{"aarch64"}, Line: 8},
	})
	eq(t, "name", f.Name, "h.clif")

	// ParseModule takes no header.
	if _, err := ParseModule("m", []byte("test run\n")); err == nil {
		t.Errorf("ParseModule accepted a test line")
	}
	m, err := ParseModule("m", []byte("function %a() {\nblock0:\n return\n}\n; run: %a() == 1\nfunction %b() {\nblock0:\n return\n}"))
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "module funcs", len(m.Funcs), 2)
	eq(t, "module lookup", m.Func("%b"), m.Funcs[1])
}

func TestRunCommands(t *testing.T) {
	src := `test interpret
; run: %ignored() == 1 (before the first function: not a command)
function %f(i8, i16, i32, i64, i128) -> i8 {
block0(v0: i8, v1: i16, v2: i32, v3: i64, v4: i128):
    return v0
}
; run: %f(-1, 0xffff, -2147483648, 1_000, 0x1_0000000000000000) == 255
; run: %f(+5, 0, 0, -1, -1) != -128
;; run: %some_other_name(0, 0, 0, 0, 0) == 0 ; trailing comment

function %g(f32, f64, i32x4, f32x4) -> i8x16, f16 {
block0(v0: f32, v1: f64, v2: i32x4, v3: f32x4):
    ; run: %g(0x1.0p0, -0.0, [1 -1 0x10 0], [NaN -Inf 0.0 +sNaN:0x1]) == [0x0102, NaN:0x1]
    ; print: %g(Inf, 0x1.8p1, 0x01, [0.0 0.0 0.0 0.0])
    v4 = vconst.i8x16 0x00
    v5 = f16const 0.0
    return v4, v5
}

function %h() -> i32 {
block0:
    v0 = iconst.i32 1
    return v0
}
; run
; print
; run: %h() == 1
; running is not a command, nor is "; print make_returner(results)"
`
	f, err := ParseFile("r.clif", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := checkCommands(f); err != nil {
		t.Fatal(err)
	}
	dv := func(ty ir.Type, b ...byte) ir.DataValue { return ir.DataValue{Type: ty, Bytes: b} }
	ones := func(n int) []byte { return bytes.Repeat([]byte{0xff}, n) }
	want := []ir.RunCommand{
		{Kind: ir.RunCheck, Func: "%f", Cmp: "==", Line: 7,
			Text: "run: %f(-1, 0xffff, -2147483648, 1_000, 0x1_0000000000000000) == 255",
			Args: []ir.DataValue{dv(ir.I8, 0xff), dv(ir.I16, 0xff, 0xff), dv(ir.I32, 0, 0, 0, 0x80),
				dv(ir.I64, 0xe8, 3, 0, 0, 0, 0, 0, 0), dv(ir.I128, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0)},
			Want: []ir.DataValue{dv(ir.I8, 0xff)}},
		{Kind: ir.RunCheck, Func: "%f", Cmp: "!=", Line: 8,
			Text: "run: %f(+5, 0, 0, -1, -1) != -128",
			Args: []ir.DataValue{dv(ir.I8, 5), dv(ir.I16, 0, 0), dv(ir.I32, 0, 0, 0, 0), dv(ir.I64, ones(8)...), dv(ir.I128, ones(16)...)},
			Want: []ir.DataValue{dv(ir.I8, 0x80)}},
		{Kind: ir.RunCheck, Func: "%f", Cmp: "==", Line: 9,
			Text: "run: %some_other_name(0, 0, 0, 0, 0) == 0 ; trailing comment",
			Args: []ir.DataValue{dv(ir.I8, 0), dv(ir.I16, 0, 0), dv(ir.I32, 0, 0, 0, 0), dv(ir.I64, make([]byte, 8)...), dv(ir.I128, make([]byte, 16)...)},
			Want: []ir.DataValue{dv(ir.I8, 0)}},
		{Kind: ir.RunCheck, Func: "%g", Cmp: "==", Line: 13,
			Text: "run: %g(0x1.0p0, -0.0, [1 -1 0x10 0], [NaN -Inf 0.0 +sNaN:0x1]) == [0x0102, NaN:0x1]",
			Args: []ir.DataValue{dv(ir.F32, 0, 0, 0x80, 0x3f), dv(ir.F64, 0, 0, 0, 0, 0, 0, 0, 0x80),
				dv(ir.I32X4, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x10, 0, 0, 0, 0, 0, 0, 0),
				dv(ir.F32X4, 0, 0, 0xc0, 0x7f, 0, 0, 0x80, 0xff, 0, 0, 0, 0, 1, 0, 0x80, 0x7f)},
			Want: []ir.DataValue{dv(ir.I8X16, append([]byte{2, 1}, make([]byte, 14)...)...), dv(ir.F16, 1, 0x7e)}},
		{Kind: ir.RunPrint, Func: "%g", Line: 14,
			Text: "print: %g(Inf, 0x1.8p1, 0x01, [0.0 0.0 0.0 0.0])",
			Args: []ir.DataValue{dv(ir.F32, 0, 0, 0x80, 0x7f), dv(ir.F64, 0, 0, 0, 0, 0, 0, 8, 0x40),
				dv(ir.I32X4, append([]byte{1}, make([]byte, 15)...)...), dv(ir.F32X4, make([]byte, 16)...)}},
		{Kind: ir.RunCheck, Func: "%h", Line: 25, Text: "run"},
		{Kind: ir.RunPrint, Func: "%h", Line: 26, Text: "print"},
		{Kind: ir.RunCheck, Func: "%h", Cmp: "==", Line: 27, Text: "run: %h() == 1",
			Args: []ir.DataValue{}, Want: []ir.DataValue{dv(ir.I32, 1, 0, 0, 0)}},
	}
	if len(f.Commands) != len(want) {
		t.Fatalf("got %d commands, want %d: %+v", len(f.Commands), len(want), f.Commands)
	}
	for i := range want {
		g, w := f.Commands[i], want[i]
		if len(g.Args) == 0 && len(w.Args) == 0 {
			g.Args, w.Args = nil, nil
		}
		eq(t, "command "+itoa(i), g, w)
	}

	// Other tests ignore run commands, as Cranelift does.
	f, err = ParseFile("c.clif", []byte("test compile\nfunction %f() {\nblock0:\n return\n}\n; run: %f(\n"))
	if err != nil || len(f.Commands) != 0 {
		t.Errorf("test compile file: %v, %d commands", err, len(f.Commands))
	}
}

// TestCRLF checks that CRLF line ends read like LF ones.
func TestCRLF(t *testing.T) {
	src := "test run\nset opt_level=speed\ntarget x86_64\nfunction %f(i32) -> i32 {\nblock0(v0: i32):\n    v1 = iadd v0, v0 ; double\n    return v1\n}\n; run: %f(2) == 4\n"
	lf, err := ParseFile("lf", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	crlf, err := ParseFile("lf", bytes.ReplaceAll([]byte(src), []byte("\n"), []byte("\r\n")))
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "CRLF file", crlf, lf)
}

// TestDeferredChain types a chain of instructions written so that each one
// uses the result of the next: every type comes from the last line.
func TestDeferredChain(t *testing.T) {
	const n = 2000
	var b strings.Builder
	b.WriteString("function %f(i16) {\nblock1:\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "    v%d = iadd v%d, v%d\n", i, i+1, i+1)
	}
	b.WriteString("    return\nblock0(v0: i16):\n")
	fmt.Fprintf(&b, "    v%d = bnot v0\n    jump block1\n}\n", n)
	f := parseFunc(t, b.String())
	for v := 1; v <= n; v++ {
		if got := typeOf(f, ir.Value(v)); got != ir.I16 {
			t.Fatalf("v%d has type %s, want i16", v, got)
		}
	}
}

// TestOpcodeExamples reads the operands of every opcode's example line from
// the opcode table, so that every instruction format in the table is one
// the parser reads, and the examples agree with the grammar.
func TestOpcodeExamples(t *testing.T) {
	const preamble = `ss0 = explicit_slot 16
    gv0 = vmctx
    dt0 = i32x4*gv0
    dss0 = explicit_dynamic_slot dt0
    sig0 = (i64, i64) -> i64, i64
    fn0 = %g(i64, i64) -> i64, i64
    const0 = 0x00
`
	formats := map[ir.Format]bool{}
	for _, op := range ir.Opcodes() {
		info := op.Info()
		ex := info.Example
		if _, rest, ok := strings.Cut(ex, " = "); ok {
			ex = rest
		}
		p := newParser("example", preamble+ex)
		fp := &funcParser{parser: p, f: &ir.Function{}}
		if err := fp.parsePreamble(); err != nil {
			t.Fatal(err)
		}
		var d ir.InstData
		if _, err := fp.parseOpcodeAndOperands(&d); err != nil {
			t.Errorf("%s: example %q: %v", op, info.Example, err)
			continue
		}
		if !fp.is(tokEOF) {
			t.Errorf("%s: example %q: %s left over", op, info.Example, fp.describe(fp.tok))
		}
		format := op.Format()
		if d.Op != op || len(d.Args) < format.Values {
			t.Errorf("%s: example %q read as %s with %d args", op, info.Example, d.Op, len(d.Args))
		}
		formats[info.Format] = true
	}
	for f := ir.Format(1); ir.Format(f).Info().Name != ""; f++ {
		if !formats[f] {
			t.Errorf("format %s has no opcode example", f)
		}
	}
}

func TestBodyEnd(t *testing.T) {
	for _, body := range []string{
		"", "}", "x}", "\n}", "block0:\n    return\n}\n", "{}\n}", "a}b}\n}x\n}", "\"}\" ; }\n}", "\n\n}}",
	} {
		if got, want := bodyEnd(body), strings.Index(body, "\n}"); got != want {
			t.Errorf("bodyEnd(%q) = %d, want %d", body, got, want)
		}
	}
}

// TestInstructionsPastReserve parses more instructions than the body has
// lines (the grammar lets a line hold several), so that the instruction
// table grows past what reserve made for it: the instructions must read as
// they do one per line.
func TestInstructionsPastReserve(t *testing.T) {
	var insts []string
	for i := 2; i < 40; i++ {
		insts = append(insts, fmt.Sprintf("v%d = iadd v%d, v0", i, i-1))
	}
	insts = append(insts, "call fn0(v39)", "brif v39, block1(v1), block1(v0)")
	head := "function %f(i32) {\n    fn0 = %g(i32)\nblock0(v0: i32):\n    v1 = iconst.i32 1\n"
	tail := "\nblock1(v40: i32):\n    return\n}\n"
	oneLineSrc := head + "    " + strings.Join(insts, " ") + tail
	oneLine := parseFunc(t, oneLineSrc)
	lines := parseFunc(t, head+"    "+strings.Join(insts, "\n    ")+tail)
	if n := len(oneLine.Insts); n != len(lines.Insts) || n < 2*strings.Count(oneLineSrc, "\n") {
		t.Fatalf("got %d instructions on %d lines, want %d, more than twice the lines",
			n, strings.Count(oneLineSrc, "\n"), len(lines.Insts))
	}
	for i := range lines.Insts {
		eq(t, fmt.Sprintf("instruction %d", i), oneLine.Insts[i], lines.Insts[i])
	}
}
