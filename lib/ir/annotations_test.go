package ir_test

import (
	"testing"

	"cliff/lib/ir"
)

// The annotations spell themselves as CLIF does; SourceLoc follows
// Cranelift's Display: at least four hex digits, `@-` for none.
func TestAnnotationStrings(t *testing.T) {
	for _, tc := range []struct {
		got  interface{ String() string }
		want string
	}{
		{ir.SourceLoc{}, "@-"},
		{ir.SrcLoc(0xffffffff), "@-"},
		{ir.SrcLoc(0), "@0000"},
		{ir.SrcLoc(16), "@0010"},
		{ir.SrcLoc(0xfff), "@0fff"},
		{ir.SrcLoc(0xabcdef), "@abcdef"},
		{ir.SrcLoc(0xfffffffe), "@fffffffe"},
		{ir.UserTag(0), "0"},
		{ir.UserTag(4294967295), "4294967295"},
		{ir.SlotTag(3), "ss3"},
		{ir.DebugTag{Kind: 9}, "<bad debug tag>"},
		{ir.StackMapEntry{Type: ir.I64, Slot: 0, Offset: 8}, "i64 @ ss0+8"},
		{ir.StackMapEntry{Type: ir.F32X4, Slot: 2, Offset: 0}, "f32x4 @ ss2+0"},
	} {
		if s := tc.got.String(); s != tc.want {
			t.Errorf("%#v.String() = %q, want %q", tc.got, s, tc.want)
		}
	}
}

func TestSourceLoc(t *testing.T) {
	var none ir.SourceLoc
	if none.IsSet() || none.Bits() != 0xffffffff {
		t.Errorf("zero SourceLoc: IsSet %v, Bits %#x; want none with Cranelift's bits 0xffffffff", none.IsSet(), none.Bits())
	}
	for _, bits := range []uint32{0, 1, 0x19, 0xfffffffe} {
		loc := ir.SrcLoc(bits)
		if !loc.IsSet() || loc.Bits() != bits {
			t.Errorf("SrcLoc(%#x): IsSet %v, Bits %#x", bits, loc.IsSet(), loc.Bits())
		}
	}
	if ir.SrcLoc(0xffffffff) != none {
		t.Error("SrcLoc(0xffffffff) is not none")
	}
}

// SetSrcLoc gives the following instructions a location, unless they have
// their own.
func TestBuilderSetSrcLoc(t *testing.T) {
	f := ir.NewFunction("%f", ir.Signature{Params: []ir.AbiParam{{Type: ir.I32}}})
	b := ir.NewBuilder(f)
	blk := b.CreateBlock()
	x := b.AppendBlockParam(blk, ir.I32)
	b.SwitchToBlock(blk)
	b.Ins(ir.OpIneg, ir.Invalid, x)
	b.SetSrcLoc(ir.SrcLoc(7))
	b.Ins(ir.OpIneg, ir.Invalid, x)
	b.Append(ir.InstData{Op: ir.OpIneg, Args: []ir.Value{x}, SrcLoc: ir.SrcLoc(9)})
	b.SetSrcLoc(ir.SourceLoc{})
	b.Return()
	want := []ir.SourceLoc{{}, ir.SrcLoc(7), ir.SrcLoc(9), {}}
	for i, w := range want {
		if got := f.Insts[i].SrcLoc; got != w {
			t.Errorf("inst%d has %v, want %v", i, got, w)
		}
	}
}
