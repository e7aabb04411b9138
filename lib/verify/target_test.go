package verify

import (
	"testing"

	"cliff/lib/ir"
	"cliff/lib/parser"
)

func TestPointerType(t *testing.T) {
	for isa, want := range map[string]ir.Type{
		"x86_64": ir.I64, "aarch64": ir.I64, "riscv64": ir.I64, "riscv64gc": ir.I64, "s390x": ir.I64,
		"pulley64": ir.I64, "pulley64be": ir.I64, "pulley32": ir.I32, "pulley32be": ir.I32, "vax": ir.Invalid,
	} {
		if got := PointerType(isa); got != want {
			t.Errorf("PointerType(%q) = %s, want %s", isa, got, want)
		}
	}
}

func TestOptionsFor(t *testing.T) {
	tests := []struct {
		header string
		want   Options
	}{
		{"test verifier\n", Options{}},
		{"test verifier\ntarget pulley32\n", Options{PointerType: ir.I32}},
		// Cranelift gives a test that does not compile code a target only
		// when the file names exactly one.
		{"test interpret\ntarget pulley32\ntarget pulley32be\n", Options{}},
		{"test compile\ntarget x86_64\ntarget aarch64\n", Options{PointerType: ir.I64}},
		{"test run\ntarget x86_64\n", Options{PointerType: ir.I64, DefaultCallConv: ir.CallConvSystemV}},
		{"test compile\nset preserve_frame_pointers=true\nset enable_pinned_reg\ntarget x86_64\n",
			Options{PointerType: ir.I64, PreserveFramePointers: true, EnablePinnedReg: true}},
		{"test compile\nset enable_pinned_reg=false\ntarget x86_64\n", Options{PointerType: ir.I64}},
	}
	for _, tc := range tests {
		file, err := parser.ParseFile("h", []byte(tc.header+"function %f() {\nblock0:\n    return\n}\n"))
		if err != nil {
			t.Fatalf("%q: %v", tc.header, err)
		}
		if got := OptionsFor(file); got != tc.want {
			t.Errorf("%q: got %+v, want %+v", tc.header, got, tc.want)
		}
	}
}

func TestModule(t *testing.T) {
	m, err := parser.ParseModule("m", []byte(`
function %ok() {
block0:
    return
}
function %bad() -> i32 {
block0:
    return
}
function %worse(i32) {
block0:
    return
}
`))
	if err != nil {
		t.Fatal(err)
	}
	errs := Module(m)
	if len(errs) != 2 || errs[0].Func != "%bad" || errs[1].Func != "%worse" {
		t.Errorf("want one error each from %%bad and %%worse, got:\n%v", errs)
	}
}

func TestIntImmBounds(t *testing.T) {
	for _, tc := range []struct {
		t   ir.Type
		imm int64
		ok  bool
	}{
		{ir.I8, 0xff, true}, {ir.I8, 0x100, false}, {ir.I8, -1, false},
		{ir.I16, 0xffff, true}, {ir.I32, 0xffff_ffff, true}, {ir.I32, -1, false},
		{ir.I64, -1, true},
	} {
		b := newBuilder("%c", nil, nil)
		b0, _ := b.block()
		i, _ := b.inst(b0, ir.InstData{Op: ir.OpIconst, CtrlType: tc.t, Imm: tc.imm}, tc.t)
		b.ret(b0)
		var wants []want
		if !tc.ok {
			wants = []want{{b0, i, "constant immediate is out of bounds"}}
		}
		t.Run(tc.t.String(), func(t *testing.T) { checkErrors(t, Function(b.f), wants) })
	}
}
