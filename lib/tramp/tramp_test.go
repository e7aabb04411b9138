package tramp

import (
	"strings"
	"testing"

	"cliff/lib/ir"
	"cliff/lib/parser"
	"cliff/lib/printer"
	"cliff/lib/verify"
)

const entrySrc = `function %f(i8, i32, i8x16, f64, i128) -> i64, f32x4, i16 tail {
block0(v0: i8, v1: i32, v2: i8x16, v3: f64, v4: i128):
    v5 = iconst.i64 1
    v6 = vconst.f32x4 0x00
    v7 = iconst.i16 2
    return v5, v6, v7
}
`

func parseEntry(t *testing.T, src string) *ir.Function {
	t.Helper()
	m, err := parser.ParseModule("entry.clif", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return m.Funcs[0]
}

func TestTextLoadsCallsStoresLittleEndian(t *testing.T) {
	text, layout, err := Text(parseEntry(t, entrySrc))
	if err != nil {
		t.Fatal(err)
	}
	want := `function %__cliff_tramp_f(i64, i64) system_v {
    sig0 = (i8, i32, i8x16, f64, i128) -> i64, f32x4, i16 tail
    fn0 = %f sig0

block0(v0: i64, v1: i64):
    v2 = load.i8 notrap little v0
    v3 = load.i32 notrap little v0+16
    v4 = load.i8x16 notrap little v0+32
    v5 = load.f64 notrap little v0+48
    v6 = load.i128 notrap little v0+64
    v7, v8, v9 = call fn0(v2, v3, v4, v5, v6)
    store notrap little v7, v1
    store notrap little v8, v1+16
    store notrap little v9, v1+32
    return
}
`
	if text != want {
		t.Errorf("trampoline text:\n%s\nwant:\n%s", text, want)
	}
	if layout.ArgsSize != 80 || layout.ResultsSize != 48 {
		t.Errorf("sizes %d/%d, want 80/48", layout.ArgsSize, layout.ResultsSize)
	}
	// Together with its entry, the trampoline is a valid module.
	m, err := parser.ParseModule("both.clif", []byte(entrySrc+"\n"+text))
	if err != nil {
		t.Fatalf("trampoline does not parse: %v", err)
	}
	if err := verify.Module(m); err != nil {
		t.Errorf("trampoline does not verify: %v", err)
	}
}

func TestNameIsASymbolFriendlyFunctionName(t *testing.T) {
	for in, want := range map[string]string{"%f": "%__cliff_tramp_f", "u0:3": "%__cliff_tramp_u0_3", "%a_b1": "%__cliff_tramp_a_b1"} {
		if got := Name(in); got != want {
			t.Errorf("Name(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLayoutRejectsWhatTheHarnessCannotSupply(t *testing.T) {
	for _, src := range []string{
		"function %g(i64 sret) {\nblock0(v0: i64):\n    return\n}\n",
		"function %g(i64 sarg(8)) {\nblock0(v0: i64):\n    return\n}\n",
	} {
		_, _, err := Build(parseEntry(t, src))
		if err == nil || !strings.Contains(err.Error(), "purpose") {
			t.Errorf("Build(%q) error = %v, want a purpose error", strings.SplitN(src, "\n", 2)[0], err)
		}
	}
}

func TestPackAndUnpackRoundTrip(t *testing.T) {
	l, err := LayoutOf(&parseEntry(t, entrySrc).Sig)
	if err != nil {
		t.Fatal(err)
	}
	args := []ir.DataValue{
		{Type: ir.I8, Bytes: []byte{0xff}},
		{Type: ir.I32, Bytes: []byte{1, 2, 3, 4}},
		{Type: ir.Vector(ir.I8, 16), Bytes: []byte("0123456789abcdef")},
		{Type: ir.F64, Bytes: []byte{0, 0, 0, 0, 0, 0, 0xf0, 0x3f}},
		{Type: ir.I128, Bytes: make([]byte, 16)},
	}
	buf, err := l.PackArgs(args)
	if err != nil {
		t.Fatal(err)
	}
	if buf[0] != 0xff || buf[16] != 1 || buf[19] != 4 || string(buf[32:48]) != "0123456789abcdef" || buf[55] != 0x3f {
		t.Errorf("packed args at the wrong offsets: % x", buf)
	}
	if _, err := l.PackArgs(args[:4]); err == nil {
		t.Error("PackArgs accepted too few arguments")
	}
	bad := append([]ir.DataValue(nil), args...)
	bad[1] = ir.DataValue{Type: ir.I64, Bytes: make([]byte, 8)}
	if _, err := l.PackArgs(bad); err == nil {
		t.Error("PackArgs accepted an i64 for an i32 parameter")
	}
	res := make([]byte, l.ResultsSize)
	res[0], res[16], res[32], res[33] = 7, 9, 0x34, 0x12
	vals, err := l.UnpackResults(res)
	if err != nil {
		t.Fatal(err)
	}
	if len(vals) != 3 || vals[0].Type != ir.I64 || vals[0].Bytes[0] != 7 || len(vals[1].Bytes) != 16 || vals[1].Bytes[0] != 9 || vals[2].Type != ir.I16 || vals[2].Bytes[1] != 0x12 {
		t.Errorf("UnpackResults = %v", vals)
	}
	if _, err := l.UnpackResults(res[:10]); err == nil {
		t.Error("UnpackResults accepted a short buffer")
	}
}

// TestVMContextIsAnArgument checks that a vmctx parameter gets a slot like
// any other, so a run command's value for it reaches the function.
func TestVMContextIsAnArgument(t *testing.T) {
	f, l, err := Build(parseEntry(t, "function %g(i64 vmctx, i32) -> i64 {\nblock0(v0: i64, v1: i32):\n    return v0\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Args) != 2 || l.Args[0] != (Slot{Type: ir.I64, Offset: 0}) || l.Args[1] != (Slot{Type: ir.I32, Offset: 16}) {
		t.Errorf("layout %+v, want i64 at 0 and i32 at 16", l.Args)
	}
	if text := printer.FunctionString(f); !strings.Contains(text, "(i64 vmctx, i32) -> i64") {
		t.Errorf("the trampoline does not call the entry with its vmctx signature:\n%s", text)
	}
}

// TestI128ResultsStoredAsHalves checks that an i128 result is stored as two
// little-endian i64 halves, never with store.i128, whose offset Cranelift's
// Pulley backend drops (findings/60; cmd/run's pulley script runs it).
func TestI128ResultsStoredAsHalves(t *testing.T) {
	entry := "function %h(i128) -> i16, i128 {\nblock0(v0: i128):\n    v1 = iconst.i16 1\n    return v1, v0\n}\n"
	text, layout, err := TextFor(parseEntry(t, entry), ir.I32)
	if err != nil {
		t.Fatal(err)
	}
	want := `function %__cliff_tramp_h(i32, i32) system_v {
    sig0 = (i128) -> i16, i128
    fn0 = %h sig0

block0(v0: i32, v1: i32):
    v2 = load.i128 notrap little v0
    v3, v4 = call fn0(v2)
    store notrap little v3, v1
    v5, v6 = isplit v4
    store notrap little v5, v1+16
    store notrap little v6, v1+24
    return
}
`
	if text != want {
		t.Errorf("trampoline text:\n%s\nwant:\n%s", text, want)
	}
	if layout.ResultsSize != 32 {
		t.Errorf("results size %d, want 32", layout.ResultsSize)
	}
}
