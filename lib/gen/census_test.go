package gen

import (
	"math/big"
	"slices"
	"strings"
	"testing"

	"cliff/lib/ir"
	"cliff/lib/parser"
	"cliff/lib/profile/universe"
	"cliff/lib/verify"
)

// censusCase builds the census case of c and checks that it verifies.
func censusCase(t *testing.T, c universe.Combo) (id, clif string, inputs [][]string) {
	t.Helper()
	rec, mod, ok := CensusCase(c, 1, nil, ir.I64)
	if !ok {
		t.Fatalf("%s: no census case", universe.Key(c))
	}
	if errs := verify.Module(mod); len(errs) > 0 {
		t.Fatalf("%s: %v\n%s", universe.Key(c), errs, rec.CLIF)
	}
	for _, iv := range rec.Inputs {
		var vs []string
		for _, v := range iv {
			vs = append(vs, v.Value)
		}
		inputs = append(inputs, vs)
	}
	return rec.ID, rec.CLIF, inputs
}

// TestCensusCaseIsOneInstruction: the case is the instruction on its
// params, returned; nothing guards it.
func TestCensusCaseIsOneInstruction(t *testing.T) {
	tests := []struct {
		combo universe.Combo
		want  []string // lines of the CLIF
	}{
		{universe.Combo{Op: ir.OpFcvtToUint, Ctrl: ir.I8, Free: ir.F64},
			[]string{"function %main(f64) -> i8 system_v {", "    v1 = fcvt_to_uint.i8 v0", "    return v1"}},
		{universe.Combo{Op: ir.OpFcmp, Ctrl: ir.F32X4, Imm: "ueq"},
			[]string{"    v2 = fcmp ueq v0, v1"}},
		{universe.Combo{Op: ir.OpUdiv, Ctrl: ir.I64},
			[]string{"function %main(i64, i64) -> i64 system_v {", "    v2 = udiv v0, v1"}},
		{universe.Combo{Op: ir.OpAtomicRmw, Ctrl: ir.I32, Imm: "xchg"},
			[]string{"atomic_rmw.i32 notrap aligned little xchg", "load.i64"}},
	}
	for _, tt := range tests {
		id, clif, _ := censusCase(t, tt.combo)
		if id != CensusIDPrefix+universe.Key(tt.combo) {
			t.Errorf("id %q, want %q", id, CensusIDPrefix+universe.Key(tt.combo))
		}
		for _, w := range tt.want {
			if !strings.Contains(clif, w) {
				t.Errorf("%s: CLIF lacks %q:\n%s", id, w, clif)
			}
		}
		if strings.Contains(clif, "select") || strings.Contains(clif, "fcmp") && tt.combo.Op != ir.OpFcmp {
			t.Errorf("%s: the instruction is guarded:\n%s", id, clif)
		}
	}
}

// TestCensusInputsAreEdgesInDomain: the inputs hold the edge values, and
// a partial operation's operands stay in its domain.
func TestCensusInputsAreEdgesInDomain(t *testing.T) {
	has := func(inputs [][]string, k int, want ...string) []string {
		var missing []string
		for _, w := range want {
			if !slices.ContainsFunc(inputs, func(iv []string) bool { return iv[k] == w }) {
				missing = append(missing, w)
			}
		}
		return missing
	}
	_, _, in := censusCase(t, universe.Combo{Op: ir.OpIadd, Ctrl: ir.I32})
	if m := has(in, 0, "0", "1", "-1", "-2147483648", "2147483647", "31", "32"); len(m) > 0 {
		t.Errorf("iadd.i32 inputs lack %v", m)
	}
	if !slices.ContainsFunc(in, func(iv []string) bool { return iv[0] == iv[1] }) || !slices.ContainsFunc(in, func(iv []string) bool { return iv[0] != iv[1] }) {
		t.Errorf("iadd.i32: want vectors with equal and with different operands: %v", in)
	}
	_, _, in = censusCase(t, universe.Combo{Op: ir.OpFadd, Ctrl: ir.F64})
	if m := has(in, 0, "0.0", "-0.0", "+Inf", "-Inf", "+NaN", "0x0.0000000000001p-1022"); len(m) > 0 {
		t.Errorf("fadd.f64 inputs lack %v: %v", m, in)
	}
	_, _, in = censusCase(t, universe.Combo{Op: ir.OpIadd, Ctrl: ir.I32X4})
	if !slices.ContainsFunc(in, func(iv []string) bool {
		hex := strings.TrimPrefix(iv[0], "0x") // the lanes, last first
		return len(hex) == 32 && hex[:8] != hex[8:16]
	}) {
		t.Errorf("iadd.i32x4: no vector mixes lanes: %v", in)
	}
	for _, op := range []ir.Opcode{ir.OpSdiv, ir.OpSrem, ir.OpUdiv, ir.OpUrem} {
		for _, ty := range []ir.Type{ir.I8, ir.I64, ir.I128} {
			_, _, in := censusCase(t, universe.Combo{Op: op, Ctrl: ty})
			min := map[ir.Type]string{ir.I8: "-128", ir.I64: "-9223372036854775808", ir.I128: "-170141183460469231731687303715884105728"}[ty]
			for _, iv := range in {
				if iv[1] == "0" || (op == ir.OpSdiv || op == ir.OpSrem) && iv[0] == min && iv[1] == "-1" {
					t.Errorf("%s.%s: input %v is outside the domain", op, ty, iv)
				}
			}
			if m := has(in, 0, "0", min); len(m) > 0 {
				t.Errorf("%s.%s: dividends lack %v", op, ty, m)
			}
		}
	}
}

// TestCensusFcvtInputsInRange: every input of fcvt_to_uint/sint is a
// float whose integer part fits, including values at the bounds.
func TestCensusFcvtInputsInRange(t *testing.T) {
	for _, op := range []ir.Opcode{ir.OpFcvtToUint, ir.OpFcvtToSint} {
		for _, to := range []ir.Type{ir.I8, ir.I32, ir.I64, ir.I128} {
			for _, from := range []ir.Type{ir.F16, ir.F32, ir.F64, ir.F128} {
				c := universe.Combo{Op: op, Ctrl: to, Free: from}
				rec, _, ok := CensusCase(c, 1, nil, ir.I64)
				if !ok {
					t.Fatalf("%s: no case", universe.Key(c))
				}
				for _, iv := range rec.Inputs {
					dv, err := parser.ParseDataValue(from, iv[0].Value)
					if err != nil {
						t.Fatalf("%s: %v", universe.Key(c), err)
					}
					if !fcvtInRange(from, dv.Bytes, to.Bits(), op == ir.OpFcvtToSint) {
						t.Errorf("%s: input %s is out of range", universe.Key(c), iv[0].Value)
					}
				}
			}
		}
	}
	// The bounds themselves: 255.0 and 0x1.fffp7 (255.99..) for u8 of f64.
	_, _, in := censusCase(t, universe.Combo{Op: ir.OpFcvtToUint, Ctrl: ir.I8, Free: ir.F64})
	for _, w := range []string{"0x1.fe00000000000p7", "0x1.fffffffffffffp7", "-0x1.0000000000000p-1"} {
		if !slices.ContainsFunc(in, func(iv []string) bool { return iv[0] == w }) {
			t.Errorf("fcvt_to_uint.i8.f64 inputs lack %s: %v", w, in)
		}
	}
}

func TestFcvtInRange(t *testing.T) {
	f64 := func(x float64) []byte { b, _ := encodeFloat(ir.F64, big.NewFloat(x)); return b }
	tests := []struct {
		x      float64
		n      int
		signed bool
		want   bool
	}{
		{255.9, 8, false, true}, {256, 8, false, false}, {-0.9, 8, false, true}, {-1, 8, false, false},
		{127.5, 8, true, true}, {128, 8, true, false}, {-128.9, 8, true, true}, {-129, 8, true, false},
	}
	for _, tt := range tests {
		if got := fcvtInRange(ir.F64, f64(tt.x), tt.n, tt.signed); got != tt.want {
			t.Errorf("fcvtInRange(%v, %d, signed %v) = %v, want %v", tt.x, tt.n, tt.signed, got, tt.want)
		}
	}
	for _, b := range laneEdges(ir.F32) {
		if x, ok := floatValue(ir.F32, b); ok {
			back, exact := encodeFloat(ir.F32, x)
			if !exact || !slices.Equal(back, b) {
				t.Errorf("f32 %x: encode(decode) = %x, %v", b, back, exact)
			}
		}
	}
}

// TestCensusCasePointer32: on a 32-bit target the scaffold's addresses
// are i32, and the case's ID says so (its CLIF is not the other targets'),
// while CensusKey still gives the combination; a case without memory is
// the same everywhere.
func TestCensusCasePointer32(t *testing.T) {
	load := universe.Combo{Op: ir.OpLoad, Ctrl: ir.I32}
	rec, mod, ok := CensusCase(load, 1, nil, ir.I32)
	if !ok {
		t.Fatal("no census case for load.i32")
	}
	if errs := verify.ModuleWith(mod, verify.Options{PointerType: ir.I32}); len(errs) > 0 {
		t.Fatalf("%v\n%s", errs, rec.CLIF)
	}
	if !strings.Contains(rec.CLIF, "stack_addr.i32") || strings.Contains(rec.CLIF, "stack_addr.i64") {
		t.Errorf("want i32 addresses:\n%s", rec.CLIF)
	}
	if key, ok := CensusKey(rec.ID); rec.ID != "census-p32:load.i32" || !ok || key != "load.i32" {
		t.Errorf("ID %q, key %q %v; want census-p32:load.i32, load.i32", rec.ID, key, ok)
	}
	add, _, _ := CensusCase(universe.Combo{Op: ir.OpIadd, Ctrl: ir.I32}, 1, nil, ir.I32)
	add64, _, _ := CensusCase(universe.Combo{Op: ir.OpIadd, Ctrl: ir.I32}, 1, nil, ir.I64)
	if add.ID != add64.ID || add.CLIF != add64.CLIF {
		t.Errorf("iadd.i32: %s vs %s", add.ID, add64.ID)
	}
}
