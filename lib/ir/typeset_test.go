package ir_test

import (
	"slices"
	"strings"
	"testing"

	"cliff/lib/ir"
)

func tysOf(t *testing.T, s string) []ir.Type {
	t.Helper()
	var out []ir.Type
	for _, name := range strings.Fields(s) {
		out = append(out, tyOf(t, name))
	}
	return out
}

func TestTypeSetTypes(t *testing.T) {
	for _, tc := range []struct {
		set  ir.TypeSet
		text string // String()
		want string // Types(), in order: by lane count, then lane type; dynamic last
	}{
		{ir.TypeSet{Ints: 0b01100, Lanes: 1}, "ints(32..64) lanes(1..1)", "i32 i64"},
		{ir.TypeSet{Ints: 0b11111, Lanes: 1}, "ints(8..128) lanes(1..1)", "i8 i16 i32 i64 i128"},
		{ir.TypeSet{Floats: 0b1111, Lanes: 1}, "floats(16..128) lanes(1..1)", "f16 f32 f64 f128"},
		{ir.TypeSet{Ints: 0b00001, Lanes: 1 << 4}, "ints(8..8) lanes(16..16)", "i8x16"},
		{ir.TypeSet{Floats: 0b0110, Lanes: 0b110}, "floats(32..64) lanes(2..4)", "f32x2 f64x2 f32x4 f64x4"},
		{ir.TypeSet{Ints: 0b00100, Floats: 0b0010, Lanes: 0b101}, "ints(32..32) floats(32..32) lanes(1..4)",
			"i32 f32 i32x4 f32x4"},
		// Dynamic vectors exist up to 256 bits only.
		{ir.TypeSet{Ints: 0b01000, DynLanes: 0x1fe}, "ints(64..64) dynlanes(2..256)", "i64x2xN i64x4xN"},
		{ir.TypeSet{Ints: 0b00100, Lanes: 1, DynLanes: 0b1100}, "ints(32..32) lanes(1..1) dynlanes(4..8)",
			"i32 i32x4xN i32x8xN"},
		// Fixed vectors are listed up to 1024 bits (Cranelift has up to 256 lanes).
		{ir.TypeSet{Ints: 0b10000, Lanes: 0x1ff}, "ints(128..128) lanes(1..256)", "i128 i128x2 i128x4 i128x8"},
	} {
		if got := tc.set.String(); got != tc.text {
			t.Errorf("%+v.String() = %q, want %q", tc.set, got, tc.text)
		}
		want := tysOf(t, tc.want)
		got := tc.set.Types()
		if !slices.Equal(got, want) {
			t.Errorf("%s: Types() = %v, want %v", tc.text, got, want)
		}
		for _, ty := range got {
			if !tc.set.Contains(ty) {
				t.Errorf("%s: lists %v but does not contain it", tc.text, ty)
			}
		}
	}
}

func TestTypeSetContains(t *testing.T) {
	// The set of load's Mem: every int and float type, scalar, fixed and
	// dynamic vector.
	mem := ir.TypeSet{Ints: 0x1f, Floats: 0xf, Lanes: 0x1ff, DynLanes: 0x1fe}
	// The set of uadd_sat: integer vectors only.
	intVec := ir.TypeSet{Ints: 0x1f, Lanes: 0x1fe}
	// iAddr: i32 and i64.
	addr := ir.TypeSet{Ints: 0b01100, Lanes: 1}
	for _, tc := range []struct {
		set  ir.TypeSet
		in   string
		want bool
	}{
		{mem, "i8", true},
		{mem, "f128", true},
		{mem, "i8x256", true},
		{mem, "i32x4xN", true},
		{intVec, "i32x4", true},
		{intVec, "i32", false},
		{intVec, "f32x4", false},
		{intVec, "i32x4xN", false},
		{addr, "i32", true},
		{addr, "i64", true},
		{addr, "i16", false},
		{addr, "i128", false},
		{addr, "i64x2", false},
		{addr, "f64", false},
	} {
		if got := tc.set.Contains(tyOf(t, tc.in)); got != tc.want {
			t.Errorf("%v.Contains(%s) = %v, want %v", tc.set, tc.in, got, tc.want)
		}
	}
	for _, s := range []ir.TypeSet{mem, intVec, addr} {
		if s.Contains(ir.Invalid) {
			t.Errorf("%v contains Invalid", s)
		}
		if s.IsEmpty() {
			t.Errorf("%v is empty", s)
		}
	}
	for _, s := range []ir.TypeSet{{}, {Ints: 1}, {Lanes: 1}, {DynLanes: 2}} {
		if !s.IsEmpty() || len(s.Types()) != 0 {
			t.Errorf("%+v is not empty", s)
		}
	}
}
