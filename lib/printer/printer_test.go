package printer

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cliff/lib/ir"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// checkGolden compares got with testdata/name, or rewrites it with -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run with -update to accept):\n--- got\n%s--- want\n%s", name, got, want)
	}
}

func sig(params, returns []ir.Type, cc ir.CallConv) ir.Signature {
	s := ir.Signature{CallConv: cc}
	for _, p := range params {
		s.Params = append(s.Params, ir.AbiParam{Type: p})
	}
	for _, r := range returns {
		s.Returns = append(s.Returns, ir.AbiParam{Type: r})
	}
	return s
}

// Cranelift's own expectations, from the tests in write.rs.
func TestCraneliftWriteTests(t *testing.T) {
	t.Run("basic", func(t *testing.T) {
		f := ir.NewFunction("u0:0", sig(nil, nil, ir.CallConvFast))
		check := func(want string) {
			t.Helper()
			if got := FunctionString(f); got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		}
		check("function u0:0() fast {\n}\n")
		f.Name = "%foo"
		check("function %foo() fast {\n}\n")
		b := ir.NewBuilder(f)
		b.DeclareStackSlot(4, 0)
		check("function %foo() fast {\n    ss0 = explicit_slot 4\n}\n")
		blk := b.CreateBlock()
		b.SwitchToBlock(blk)
		check("function %foo() fast {\n    ss0 = explicit_slot 4\n\nblock0:\n}\n")
		b.AppendBlockParam(blk, ir.I8)
		check("function %foo() fast {\n    ss0 = explicit_slot 4\n\nblock0(v0: i8):\n}\n")
		b.AppendBlockParam(blk, ir.F32X4)
		check("function %foo() fast {\n    ss0 = explicit_slot 4\n\nblock0(v0: i8, v1: f32x4):\n}\n")
		b.Return()
		check("function %foo() fast {\n    ss0 = explicit_slot 4\n\nblock0(v0: i8, v1: f32x4):\n    return\n}\n")
		f.StackSlots[0].Align = 4
		check("function %foo() fast {\n    ss0 = explicit_slot 4, align = 4\n\nblock0(v0: i8, v1: f32x4):\n    return\n}\n")
	})

	t.Run("aliases", func(t *testing.T) {
		f := ir.NewFunction("u0:0", sig(nil, nil, ir.CallConvFast))
		b := ir.NewBuilder(f)
		blk := b.CreateBlock()
		b.SwitchToBlock(blk)
		// v0..v2 become aliases: v0 -> v3 (a param), v2 -> v0, v1 -> v5.
		for range 3 {
			b.AppendBlockParam(blk, ir.I32)
		}
		f.Blocks[blk].Params = nil
		v3 := b.AppendBlockParam(blk, ir.I32)
		f.Values[0] = ir.ValueData{Type: ir.I32, Kind: ir.DefAlias, AliasOf: v3}
		f.Values[2] = ir.ValueData{Type: ir.I32, Kind: ir.DefAlias, AliasOf: 0}
		b.Iconst(ir.I32, 42)
		v5 := b.Ins(ir.OpIadd, ir.Invalid, 0, 0)
		f.Values[1] = ir.ValueData{Type: ir.I32, Kind: ir.DefAlias, AliasOf: v5}
		b.Iconst(ir.I32, 23)
		b.Ins(ir.OpIadd, ir.Invalid, 1, 1)
		want := "function u0:0() fast {\nblock0(v3: i32):\n    v0 -> v3\n    v2 -> v0\n    v4 = iconst.i32 42\n" +
			"    v5 = iadd v0, v0\n    v1 -> v5\n    v6 = iconst.i32 23\n    v7 = iadd v1, v1\n}\n"
		if got := FunctionString(f); got != want {
			t.Errorf("got\n%s\nwant\n%s", got, want)
		}
	})

	t.Run("cold_blocks", func(t *testing.T) {
		f := ir.NewFunction("u0:0", sig(nil, nil, ir.CallConvFast))
		b := ir.NewBuilder(f)
		b0 := b.CreateBlock()
		b.SwitchToBlock(b0)
		b.SetCold(b0)
		b1 := b.CreateBlock()
		b.SwitchToBlock(b1)
		b.AppendBlockParam(b1, ir.I32)
		b.SetCold(b1)
		want := "function u0:0() fast {\nblock0 cold:\n\nblock1(v0: i32) cold:\n}\n"
		if got := FunctionString(f); got != want {
			t.Errorf("got\n%s\nwant\n%s", got, want)
		}
	})
}

// buildBranches is a small loop: type suffixes, constant comments, block
// args, cold blocks.
func buildBranches() *ir.Function {
	f := ir.NewFunction("%branches", ir.Signature{
		Params:   []ir.AbiParam{{Type: ir.I32}, {Type: ir.I8, Ext: ir.ExtUext}, {Type: ir.I64, Purpose: "vmctx"}},
		Returns:  []ir.AbiParam{{Type: ir.I32, Ext: ir.ExtSext}},
		CallConv: ir.CallConvSystemV,
	})
	b := ir.NewBuilder(f)
	entry, loop, exit := b.CreateBlock(), b.CreateBlock(), b.CreateBlock()
	n := b.AppendBlockParam(entry, ir.I32)
	b.AppendBlockParam(entry, ir.I8)
	b.AppendBlockParam(entry, ir.I64)
	i := b.AppendBlockParam(loop, ir.I32)
	acc := b.AppendBlockParam(loop, ir.I32)
	r := b.AppendBlockParam(exit, ir.I32)

	b.SwitchToBlock(entry)
	zero := b.Iconst(ir.I32, 0)
	big := b.Iconst(ir.I64, 0x1234_5678_9abc)
	minus := b.Iconst(ir.I8, -1)
	b.Ins(ir.OpIadd, ir.Invalid, big, big)
	b.Ins(ir.OpIadd, ir.Invalid, minus, minus)
	b.Jump(loop, zero, zero)

	b.SwitchToBlock(loop)
	one := b.Iconst(ir.I32, 1)
	acc2 := b.Ins(ir.OpIadd, ir.Invalid, acc, i)
	i2 := b.Ins(ir.OpIadd, ir.Invalid, i, one)
	done := b.Icmp(ir.IntUge, i2, n)
	b.Brif(done, exit, []ir.Value{acc2}, loop, []ir.Value{i2, acc2})

	b.SwitchToBlock(exit)
	b.SetCold(exit)
	// n is defined in another block: iadd needs its suffix here.
	s := b.Ins(ir.OpIadd, ir.Invalid, n, r)
	b.Return(s)
	return f
}

func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		name  string
		build func() *ir.Function
	}{
		{"branches", buildBranches},
		{"preamble", buildPreamble},
		{"debug_tags", buildDebugTags},
		{"memory", buildMemory},
		{"calls", buildCalls},
		{"values", buildValues},
		{"annotations", buildAnnotations},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkGolden(t, tc.name+".clif", FunctionString(tc.build()))
		})
	}
}

// buildPreamble declares one of every preamble entity, out of order and
// with gaps, to check write.rs's order and sorting.
func buildPreamble() *ir.Function {
	f := ir.NewFunction("u0:7", sig([]ir.Type{ir.I64}, nil, ir.CallConvNone))
	f.StackSlots = []ir.StackSlotDecl{
		{Num: 2, Kind: "explicit_slot", Size: 8},
		{Num: 0, Kind: "explicit_slot", Size: 32, Align: 16, Key: 1311768467463790320, HasKey: true},
	}
	f.Regions = []ir.RegionDecl{{Num: 0, UserID: 0, Description: "heap"}, {Num: 1, UserID: 7, Description: "table"}}
	f.GlobalValues = []ir.GlobalValueDecl{
		{Num: 0, Kind: ir.GVVMContext},
		{Num: 1, Kind: ir.GVLoad, Type: ir.I64, Base: 0, Offset: 8, Flags: ir.MemFlags{NoTrap: true, Aligned: true, Readonly: true}},
		{Num: 2, Kind: ir.GVIAddImm, Type: ir.I64, Base: 1, Offset: 0x10000},
		{Num: 3, Kind: ir.GVSymbol, Name: "%sym", Colocated: true, Offset: -8},
		{Num: 4, Kind: ir.GVSymbol, Name: "u1:2", TLS: true, Offset: 16},
		{Num: 5, Kind: ir.GVDynScaleConst, Type: ir.I32X4},
		{Num: 6, Kind: ir.GVLoad, Type: ir.I32, Base: 0, Offset: -4, Flags: ir.MemFlags{NoTrap: true, Aligned: true, Endian: ir.EndianBig, HasRegion: true, Region: 1}},
	}
	f.DynTypes = []ir.DynTypeDecl{{Num: 0, Base: ir.I32X4, Scale: 5}}
	f.DynStackSlots = []ir.DynStackSlotDecl{{Num: 0, Kind: "explicit_dynamic_slot", Type: 0}}
	f.Sigs = []ir.SigDecl{
		{Num: 1, Sig: ir.Signature{Params: []ir.AbiParam{{Type: ir.I64, Purpose: "sret"}, {Type: ir.I32, Purpose: "sarg(16)"}}, CallConv: ir.CallConvTail}},
		{Num: 0, Sig: sig([]ir.Type{ir.F32, ir.I8X16}, []ir.Type{ir.I64, ir.F64}, ir.CallConvWindowsFastcall)},
	}
	f.FuncRefs = []ir.FuncRefDecl{
		{Num: 0, Name: "%callee", Sig: 0},
		{Num: 3, Name: "u0:12", Sig: 1, Colocated: true, Patchable: true},
	}
	f.Constants = []ir.ConstantDecl{{Num: 0, Bytes: []byte{0x88, 0x77, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x11}}}
	f.StackLimit = 1
	b := ir.NewBuilder(f)
	blk := b.CreateBlock()
	p := b.AppendBlockParam(blk, ir.I64)
	b.SwitchToBlock(blk)
	b.Ins(ir.OpIadd, ir.Invalid, p, p)
	b.Return()
	return f
}

// buildDebugTags has tags on one instruction, which indents every line of
// the body to Cranelift's column 36.
func buildDebugTags() *ir.Function {
	f := ir.NewFunction("%tags", sig([]ir.Type{ir.I32}, []ir.Type{ir.I32}, ir.CallConvFast))
	b := ir.NewBuilder(f)
	b0, b1 := b.CreateBlock(), b.CreateBlock()
	x := b.AppendBlockParam(b0, ir.I32)
	y := b.AppendBlockParam(b1, ir.I32)
	b.SwitchToBlock(b0)
	c := b.Iconst(ir.I32, 10)
	j := b.Jump(b1, c)
	f.Insts[j].DebugTags = []ir.DebugTag{ir.UserTag(2), ir.UserTag(2), ir.UserTag(1), ir.UserTag(0)}
	b.SwitchToBlock(b1)
	s := b.Ins(ir.OpIadd, ir.Invalid, y, x)
	r := b.Return(s)
	f.Insts[r].DebugTags = []ir.DebugTag{ir.UserTag(123456789), ir.UserTag(1), ir.UserTag(2), ir.UserTag(3),
		ir.UserTag(4), ir.UserTag(5), ir.UserTag(6), ir.UserTag(7), ir.UserTag(8)}
	f.Values = append(f.Values, ir.ValueData{Type: ir.I32, Kind: ir.DefAlias, AliasOf: y})
	return f
}

func TestInst(t *testing.T) {
	f := buildBranches()
	var lines []string
	for i := range f.Insts {
		lines = append(lines, Inst(f, ir.Inst(i)))
	}
	got := strings.Join(lines, "\n")
	// Every Inst line is the function's line without its indentation.
	text := FunctionString(f)
	for _, l := range lines {
		if !strings.Contains(text, "\n    "+l+"\n") {
			t.Errorf("Inst line %q is not a line of the function:\n%s", l, text)
		}
	}
	if want := "brif v14, block2(v12), block1(v13, v12)"; !strings.Contains(got, want) {
		t.Errorf("missing %q in\n%s", want, got)
	}
	if got := Inst(f, 999); got != "<bad inst inst999>" {
		t.Errorf("Inst out of range = %q", got)
	}
	g := buildDebugTags()
	if got, want := Inst(g, 1), "<2, 2, 1, 0> jump block1(v2)  ; v2 = 10"; got != want {
		t.Errorf("Inst with tags = %q, want %q", got, want)
	}
}

func TestNoConstComments(t *testing.T) {
	got := Options{NoConstComments: true}.FunctionString(buildBranches())
	if strings.Contains(got, ";") {
		t.Errorf("comments left in:\n%s", got)
	}
	if !strings.Contains(got, "jump block1(v6, v6)\n") {
		t.Errorf("jump line changed:\n%s", got)
	}
}

func TestModuleAndFile(t *testing.T) {
	f, g := buildBranches(), buildDebugTags()
	var m bytes.Buffer
	if err := Module(&m, &ir.Module{Funcs: []*ir.Function{f, g}}); err != nil {
		t.Fatal(err)
	}
	if want := FunctionString(f) + "\n" + FunctionString(g); m.String() != want {
		t.Errorf("Module:\n%s\nwant\n%s", m.String(), want)
	}

	i32 := func(x byte) ir.DataValue { return ir.DataValue{Type: ir.I32, Bytes: []byte{x, 0, 0, 0}} }
	file := &ir.File{
		Tests:  []ir.HeaderLine{{Kind: ir.HeaderTest, Words: []string{"interpret"}}, {Kind: ir.HeaderTest, Words: []string{"run"}}},
		Header: []ir.HeaderLine{{Kind: ir.HeaderSet, Words: []string{"opt_level=speed"}}, {Kind: ir.HeaderTarget, Words: []string{"x86_64", "has_avx"}}},
		Module: ir.Module{Funcs: []*ir.Function{f, g}},
		Commands: []ir.RunCommand{
			{Kind: ir.RunCheck, Func: "%tags", Args: []ir.DataValue{i32(1)}, Cmp: "==", Want: []ir.DataValue{i32(11)}},
			{Kind: ir.RunCheck, Func: "%branches", Args: []ir.DataValue{i32(3), {Type: ir.I8, Bytes: []byte{0xff}}, {Type: ir.I64, Bytes: make([]byte, 8)}}, Cmp: "!=", Want: []ir.DataValue{i32(0)}},
			{Kind: ir.RunPrint, Func: "%tags", Args: []ir.DataValue{i32(2)}},
			{Kind: ir.RunCheck, Func: "%nowhere", Cmp: "==", Want: nil},
			{Kind: ir.RunCheck, Func: "%branches"},
			{Kind: ir.RunCheck, Func: "%tags", Cmp: "==", Want: []ir.DataValue{i32(1), i32(2)}},
		},
	}
	var out bytes.Buffer
	if err := File(&out, file); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "file.clif", out.String())
}
