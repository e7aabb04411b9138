package ir_test

import (
	"testing"

	"cliff/lib/ir"
)

func TestParseTypeRoundTrip(t *testing.T) {
	var names []string
	for _, s := range ir.ScalarTypes {
		names = append(names, s.String())
	}
	names = append(names,
		"i8x8", "i16x4", "i32x2", "f16x4", "f32x2", // 64-bit vectors
		"i8x16", "i16x8", "i32x4", "i64x2", "i128x2", "f16x8", "f32x4", "f64x2", // 128-bit
		"i8x2", "i8x256", "f128x256", "i32x64",
		"i32x4xN", "i8x16xN", "f64x2xN", "i8x2xN", "i128x2xN", "f32x8xN",
	)
	for _, name := range names {
		ty, ok := ir.ParseType(name)
		if !ok || !ty.Valid() {
			t.Errorf("ParseType(%q) = %v, %v", name, ty, ok)
			continue
		}
		if got := ty.String(); got != name {
			t.Errorf("ParseType(%q).String() = %q", name, got)
		}
	}
	// Every scalar at every lane count goes through Vector and back.
	for _, lane := range ir.ScalarTypes {
		for n := 1; n <= ir.MaxLanes; n *= 2 {
			v := ir.Vector(lane, n)
			back, ok := ir.ParseType(v.String())
			if !ok || back != v || v.Lanes() != n || v.LaneType() != lane {
				t.Errorf("Vector(%v, %d) = %v, parses back as %v, %v", lane, n, v, back, ok)
			}
		}
	}
}

func TestParseTypeRejects(t *testing.T) {
	for _, name := range []string{
		"", "i", "i7", "i256", "f8", "b1", "r64", "I32", "iadd",
		"i32x", "i32x0", "i32x3", "i32x512", "x4", "i32x4x", "i32x4xn", "i32x4xNxN",
		"i32xN",    // a dynamic vector needs a fixed vector base
		"i32x16xN", // 512 bits: Cranelift has no dynamic form of vectors over 256 bits
		"i32x-4", "i32x04x",
	} {
		if ty, ok := ir.ParseType(name); ok {
			t.Errorf("ParseType(%q) = %v, want failure", name, ty)
		}
	}
}

func tyOf(t *testing.T, s string) ir.Type {
	t.Helper()
	if s == "-" {
		return ir.Invalid
	}
	ty, ok := ir.ParseType(s)
	if !ok {
		t.Fatalf("bad type %q in test table", s)
	}
	return ty
}

func TestDerivedTypes(t *testing.T) {
	// - marks Invalid: the derivation does not exist.
	for _, tc := range []struct {
		in                                                       string
		half, double, split, merge, truthy, lane, asInt, toFixed string
	}{
		{"i8", "-", "i16", "-", "-", "i8", "i8", "i8", "-"},
		{"i16", "i8", "i32", "i8x2", "-", "i8", "i16", "i16", "-"},
		{"i32", "i16", "i64", "i16x2", "-", "i8", "i32", "i32", "-"},
		{"i64", "i32", "i128", "i32x2", "-", "i8", "i64", "i64", "-"},
		{"i128", "i64", "-", "i64x2", "-", "i8", "i128", "i128", "-"},
		{"f16", "-", "f32", "-", "-", "i8", "f16", "i16", "-"},
		{"f32", "f16", "f64", "f16x2", "-", "i8", "f32", "i32", "-"},
		{"f64", "f32", "f128", "f32x2", "-", "i8", "f64", "i64", "-"},
		{"f128", "f64", "-", "f64x2", "-", "i8", "f128", "i128", "-"},
		{"i8x16", "-", "i16x16", "-", "i16x8", "i8x16", "i8", "i8x16", "-"},
		{"i16x8", "i8x8", "i32x8", "i8x16", "i32x4", "i16x8", "i16", "i16x8", "-"},
		{"i32x4", "i16x4", "i64x4", "i16x8", "i64x2", "i32x4", "i32", "i32x4", "-"},
		{"i64x2", "i32x2", "i128x2", "i32x4", "i128", "i64x2", "i64", "i64x2", "-"},
		{"f32x4", "f16x4", "f64x4", "f16x8", "f64x2", "i32x4", "f32", "i32x4", "-"},
		{"f64x2", "f32x2", "f128x2", "f32x4", "f128", "i64x2", "f64", "i64x2", "-"},
		{"i16x256", "i8x256", "i32x256", "-", "i32x128", "i16x256", "i16", "i16x256", "-"},
		// Dynamic vectors: Cranelift's as_truthy gives i8 (they are no
		// "vector" to it); split and merge keep the vector dynamic and at
		// least two lanes.
		{"i32x4xN", "i16x4xN", "i64x4xN", "i16x8xN", "i64x2xN", "i8", "i32", "i32x4xN", "i32x4"},
		{"i8x2xN", "-", "i16x2xN", "-", "-", "i8", "i8", "i8x2xN", "i8x2"},
		{"i16x2xN", "i8x2xN", "i32x2xN", "i8x4xN", "-", "i8", "i16", "i16x2xN", "i16x2"},
		{"f64x4xN", "f32x4xN", "-", "f32x8xN", "f128x2xN", "i8", "f64", "i64x4xN", "f64x4"},
	} {
		ty := tyOf(t, tc.in)
		for _, c := range []struct {
			what      string
			got, want ir.Type
		}{
			{"HalfWidth", ty.HalfWidth(), tyOf(t, tc.half)},
			{"DoubleWidth", ty.DoubleWidth(), tyOf(t, tc.double)},
			{"SplitLanes", ty.SplitLanes(), tyOf(t, tc.split)},
			{"MergeLanes", ty.MergeLanes(), tyOf(t, tc.merge)},
			{"AsTruthy", ty.AsTruthy(), tyOf(t, tc.truthy)},
			{"LaneType", ty.LaneType(), tyOf(t, tc.lane)},
			{"AsInt", ty.AsInt(), tyOf(t, tc.asInt)},
			{"DynamicToVector", ty.DynamicToVector(), tyOf(t, tc.toFixed)},
		} {
			if c.got != c.want {
				t.Errorf("%s.%s() = %v, want %v", tc.in, c.what, c.got, c.want)
			}
		}
	}
}

func TestTypeSizes(t *testing.T) {
	for _, tc := range []struct {
		in                     string
		laneBits, lanes, bytes int
		scalar, vector, dyn    bool
		isInt, isFloat         bool
	}{
		{"i8", 8, 1, 1, true, false, false, true, false},
		{"i128", 128, 1, 16, true, false, false, true, false},
		{"f16", 16, 1, 2, true, false, false, false, true},
		{"i32x4", 32, 4, 16, false, true, false, true, false},
		{"f64x2", 64, 2, 16, false, true, false, false, true},
		{"i8x256", 8, 256, 256, false, true, false, true, false},
		{"i32x4xN", 32, 4, 16, false, false, true, true, false},
	} {
		ty := tyOf(t, tc.in)
		if ty.LaneBits() != tc.laneBits || ty.Lanes() != tc.lanes || ty.Bytes() != tc.bytes || ty.Bits() != 8*tc.bytes {
			t.Errorf("%s: lane bits %d, lanes %d, bytes %d", tc.in, ty.LaneBits(), ty.Lanes(), ty.Bytes())
		}
		if ty.IsScalar() != tc.scalar || ty.IsVector() != tc.vector || ty.IsDynamic() != tc.dyn ||
			ty.IsInt() != tc.isInt || ty.IsFloat() != tc.isFloat {
			t.Errorf("%s: scalar %v vector %v dynamic %v int %v float %v", tc.in,
				ty.IsScalar(), ty.IsVector(), ty.IsDynamic(), ty.IsInt(), ty.IsFloat())
		}
	}
	if ir.Invalid.Valid() || ir.Invalid.IsScalar() || ir.Invalid.String() != "invalid" {
		t.Error("Invalid is a valid type")
	}
	if got := ir.Vector(ir.I32, 3); got != ir.Invalid {
		t.Errorf("Vector(i32, 3) = %v", got)
	}
	if got := ir.DynamicOf(ir.I32); got != ir.Invalid {
		t.Errorf("DynamicOf(i32) = %v", got)
	}
}

func TestDeriveAdmits(t *testing.T) {
	for _, tc := range []struct {
		d         ir.Derive
		ctrl, got string
		ok        bool
	}{
		{ir.DeriveNone, "i32", "i32", true},
		{ir.DeriveNone, "i32", "i64", false},
		{ir.DeriveAsTruthy, "f32x4", "i32x4", true},
		{ir.DeriveAsTruthy, "f32", "i8", true},
		{ir.DeriveAsTruthy, "f32", "i32", false},
		{ir.DeriveLaneOf, "f32x4", "f32", true},
		{ir.DeriveHalfWidth, "i8", "i8", false}, // i8 has no half width
		{ir.DeriveNarrower, "i64", "i8", true},
		{ir.DeriveNarrower, "i64", "i32", true},
		{ir.DeriveNarrower, "i64", "i64", false},
		{ir.DeriveNarrower, "i64", "f32", false},
		{ir.DeriveNarrower, "i8", "i8", false},
		{ir.DeriveWider, "i32", "i64", true},
		{ir.DeriveWider, "i32", "i128", true},
		{ir.DeriveWider, "i32", "i16", false},
		{ir.DeriveWider, "f32", "f64", true},
		{ir.DeriveWider, "f32", "i64", false},
	} {
		if got := tc.d.Admits(tyOf(t, tc.ctrl), tyOf(t, tc.got)); got != tc.ok {
			t.Errorf("%v.Admits(%s, %s) = %v, want %v", tc.d, tc.ctrl, tc.got, got, tc.ok)
		}
	}
	for _, name := range []string{"lane_of", "as_truthy", "half_width", "double_width", "split_lanes",
		"merge_lanes", "dynamic_to_vector", "narrower", "wider"} {
		d, ok := ir.ParseDerive(name)
		if !ok || d.String() != name {
			t.Errorf("ParseDerive(%q) = %v, %v", name, d, ok)
		}
	}
	if _, ok := ir.ParseDerive(""); ok {
		t.Error(`ParseDerive("") succeeds`)
	}
}
