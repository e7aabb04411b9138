package ub

import (
	"context"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"cliff/lib/driver"
	"cliff/lib/driver/drivertest"
	"cliff/lib/ir"
	"cliff/lib/parser"
	"cliff/lib/printer"
	"cliff/lib/verify"
)

// build makes %f(in) -> out whose body is body's instructions, verified.
func build(t *testing.T, in, out ir.Type, body func(b *ir.Builder, x ir.Value) ir.Value) string {
	t.Helper()
	f := ir.NewFunction("%f", ir.Signature{Params: []ir.AbiParam{{Type: in}}, Returns: []ir.AbiParam{{Type: out}}, CallConv: ir.CallConvFast})
	b := ir.NewBuilder(f)
	blk := b.CreateBlock()
	b.SwitchToBlock(blk)
	x := b.AppendBlockParam(blk, in)
	b.Return(body(b, x))
	if errs := verify.Function(f); len(errs) > 0 {
		t.Fatalf("built function does not verify: %v\n%s", errs, printer.FunctionString(f))
	}
	return printer.FunctionString(f)
}

func bitcast(b *ir.Builder, t ir.Type, x ir.Value) ir.Value {
	return b.Results(b.Append(ir.InstData{Op: ir.OpBitcast, CtrlType: t, Args: []ir.Value{x}, Flags: ir.MemFlags{Endian: ir.EndianLittle}}))[0]
}

// interpret runs %f of clif on arg (hex bytes, little-endian) and returns
// the result's hex bytes.
func interpret(t *testing.T, d *driver.Client, clif string, typ ir.Type, argHex string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ans, err := d.Interpret(ctx, &driver.InterpretRequest{CLIF: clif, Func: "%f", Args: []driver.Value{{Type: typ.String(), Hex: argHex}}})
	if err != nil {
		t.Fatalf("interpret: %v\n%s", err, clif)
	}
	if ans.Trap != "" || ans.Timeout || len(ans.Results) != 1 {
		t.Fatalf("interpret: %+v", ans)
	}
	return ans.Results[0].Hex
}

func le(bytes ...byte) string { return hex.EncodeToString(bytes) }

func TestCanonNaNMakesEveryNaNCanonicalAndKeepsOtherValues(t *testing.T) {
	d := drivertest.Client(t)
	tests := []struct {
		name      string
		intT, flT ir.Type
		in, want  string // little-endian bytes of the integer view
	}{
		{"f32 negative NaN with payload", ir.I32, ir.F32, le(0x01, 0x00, 0xc0, 0xff), le(0x00, 0x00, 0xc0, 0x7f)},
		{"f32 signalling NaN", ir.I32, ir.F32, le(0x01, 0x00, 0x80, 0x7f), le(0x00, 0x00, 0xc0, 0x7f)},
		{"f32 -0.0 stays", ir.I32, ir.F32, le(0, 0, 0, 0x80), le(0, 0, 0, 0x80)},
		{"f32 -inf stays", ir.I32, ir.F32, le(0, 0, 0x80, 0xff), le(0, 0, 0x80, 0xff)},
		{"f64 NaN", ir.I64, ir.F64, le(5, 0, 0, 0, 0, 0, 0xf8, 0xff), le(0, 0, 0, 0, 0, 0, 0xf8, 0x7f)},
		{"f64 subnormal stays", ir.I64, ir.F64, le(1, 0, 0, 0, 0, 0, 0, 0), le(1, 0, 0, 0, 0, 0, 0, 0)},
		{"f32x4 lanes: NaN, 1.0, NaN, -0.0", ir.I32X4, ir.F32X4,
			le(0x01, 0, 0xc0, 0xff, 0, 0, 0x80, 0x3f, 0x33, 0x22, 0x81, 0x7f, 0, 0, 0, 0x80),
			le(0, 0, 0xc0, 0x7f, 0, 0, 0x80, 0x3f, 0, 0, 0xc0, 0x7f, 0, 0, 0, 0x80)},
		{"f64x2 lanes: 2.0, NaN", ir.I64X2, ir.F64X2,
			le(0, 0, 0, 0, 0, 0, 0, 0x40, 9, 9, 9, 9, 9, 9, 0xff, 0xff),
			le(0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0xf8, 0x7f)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clif := build(t, tt.intT, tt.intT, func(b *ir.Builder, x ir.Value) ir.Value {
				return bitcast(b, tt.intT, CanonNaN(b, bitcast(b, tt.flT, x)))
			})
			if got := interpret(t, d, clif, tt.intT, tt.in); got != tt.want {
				t.Errorf("canon(%s) = %s, want %s\n%s", tt.in, got, tt.want, clif)
			}
			if n := strings.Count(clif, "@c1ff"); n < 3 {
				t.Errorf("%d scaffold instructions, want every canonicalising one marked:\n%s", n, clif)
			}
		})
	}
}

func TestCanonNaNLeavesNonFloatValuesAlone(t *testing.T) {
	f := ir.NewFunction("%f", ir.Signature{})
	b := ir.NewBuilder(f)
	blk := b.CreateBlock()
	b.SwitchToBlock(blk)
	x := b.AppendBlockParam(blk, ir.I32X4)
	if got := CanonNaN(b, x); got != x || len(f.Insts) != 0 {
		t.Errorf("CanonNaN(i32x4) = %s with %d instructions, want the value itself and none", got, len(f.Insts))
	}
}

func TestOpaqueTrueIsOneForEveryInput(t *testing.T) {
	d := drivertest.Client(t)
	for _, tt := range []struct {
		typ ir.Type
		in  []string
	}{
		{ir.I8, []string{le(0), le(1), le(0x80), le(0xff), le(0x7f)}},
		{ir.I64, []string{le(0, 0, 0, 0, 0, 0, 0, 0), le(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), le(2, 0, 0, 0, 0, 0, 0, 0x80), le(0x55, 0x44, 0x33, 0x22, 0x11, 0, 0, 0)}},
	} {
		clif := build(t, tt.typ, ir.I8, func(b *ir.Builder, x ir.Value) ir.Value { return OpaqueTrue(b, x) })
		for _, in := range tt.in {
			if got := interpret(t, d, clif, tt.typ, in); got != "01" {
				t.Errorf("OpaqueTrue(%s %s) = %s, want 01", tt.typ, in, got)
			}
		}
	}
}

func TestFreeOperand(t *testing.T) {
	m, err := parser.ParseModule("t", []byte(`function %f(i64, i32, f32, f32) -> i32 fast {
    ss0 = explicit_slot 8
    sig0 = (i32) -> i32 fast
block0(v0: i64, v1: i32, v2: f32, v3: f32):
    v4 = iadd v1, v1
    v5 = udiv v4, v1
    v6 = stack_addr.i64 ss0
    store little v1, v6
    v7 = bitcast.i32 v2
    v8 = fcopysign v2, v3
    v9 = call_indirect sig0, v0(v5)
    v10 = iconst.i32 1
    @c1ff v11 = iadd v9, v10
    v12 = bxor v11, v7
    return v12
}
`))
	if err != nil {
		t.Fatal(err)
	}
	f := m.Funcs[0]
	inst := func(result ir.Value) ir.Inst { return f.Values[result].Inst }
	store := f.Blocks[0].Insts[3]
	ret := f.Blocks[0].Insts[len(f.Blocks[0].Insts)-1]
	for _, tt := range []struct {
		name string
		inst ir.Inst
		k    int
		want bool
	}{
		{"iadd operand", inst(4), 0, true},
		{"udiv dividend (trapping instruction)", inst(5), 0, false},
		{"udiv divisor", inst(5), 1, false},
		{"store value (memory access)", store, 0, false},
		{"bitcast of a float (NaN bits visible)", inst(7), 0, false},
		{"fcopysign magnitude", inst(8), 0, true},
		{"fcopysign sign source", inst(8), 1, false},
		{"indirect callee", inst(9), 0, false},
		{"indirect call argument", inst(9), 1, true},
		{"scaffold instruction", inst(11), 0, false},
		{"bxor of integers", inst(12), 1, true},
		{"return value", ret, 0, true},
		{"out of range operand", inst(4), 2, false},
	} {
		if got := FreeOperand(f, tt.inst, tt.k); got != tt.want {
			t.Errorf("%s: FreeOperand = %v, want %v", tt.name, got, tt.want)
		}
	}
	if !IsAddress(f, 6) || IsAddress(f, 0) || IsAddress(f, 4) {
		t.Errorf("IsAddress: stack_addr result %v, param %v, iadd %v; want true, false, false", IsAddress(f, 6), IsAddress(f, 0), IsAddress(f, 4))
	}
	if FreeBlockArgs(f, ret) != true {
		t.Error("FreeBlockArgs(return) = false, want true")
	}
}
