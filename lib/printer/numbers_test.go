package printer

import (
	"encoding/binary"
	"math"
	"testing"

	"cliff/lib/ir"
)

// The expectations below are Cranelift's own (ir/immediates.rs tests,
// constant.rs and data_value.rs Display).

func TestImm64(t *testing.T) {
	for _, tc := range []struct {
		x    int64
		want string
	}{
		{0, "0"}, {9999, "9999"}, {10000, "0x2710"}, {-9999, "-9999"}, {-10000, "-10000"},
		{0xffff, "0xffff"}, {0x10000, "0x0001_0000"}, {-1, "-1"},
		{math.MaxInt64, "0x7fff_ffff_ffff_ffff"}, {math.MinInt64, "-9223372036854775808"},
		{0x1f963ea84eb65f81, "0x1f96_3ea8_4eb6_5f81"},
	} {
		if got := string(appendImm64(nil, tc.x)); got != tc.want {
			t.Errorf("Imm64(%d) = %q, want %q", tc.x, got, tc.want)
		}
	}
}

func TestOffset32(t *testing.T) {
	for _, tc := range []struct {
		x    int64
		want string
	}{
		{0, ""}, {1, "+1"}, {-1, "-1"}, {9999, "+9999"}, {10000, "+0x2710"}, {-9999, "-9999"},
		{-10000, "-0x2710"}, {0xffff, "+0xffff"}, {0x10000, "+0x0001_0000"},
		{math.MinInt32, "-0x8000_0000"}, {math.MaxInt32, "+0x7fff_ffff"},
	} {
		if got := string(appendOffset32(nil, tc.x)); got != tc.want {
			t.Errorf("Offset32(%d) = %q, want %q", tc.x, got, tc.want)
		}
	}
}

func TestFloats(t *testing.T) {
	f32 := func(f float32) uint64 { return uint64(math.Float32bits(f)) }
	f64 := math.Float64bits
	for _, tc := range []struct {
		typ  ir.Type
		bits uint64
		want string
	}{
		{ir.F16, 0, "0.0"}, {ir.F16, 0x8000, "-0.0"}, {ir.F16, 0x3c00, "0x1.000p0"},
		{ir.F16, 0x3e00, "0x1.800p0"}, {ir.F16, 0x3800, "0x1.000p-1"}, {ir.F16, 0x1400, "0x1.000p-10"},
		{ir.F16, 0xfbff, "-0x1.ffcp15"}, {ir.F16, 0x7bff, "0x1.ffcp15"}, {ir.F16, 0x0400, "0x1.000p-14"},
		{ir.F16, 0x0200, "0x0.800p-14"}, {ir.F16, 0x0001, "0x0.004p-14"}, {ir.F16, 0x7c00, "+Inf"},
		{ir.F16, 0xfc00, "-Inf"}, {ir.F16, 0x7e00, "+NaN"}, {ir.F16, 0xfe00, "-NaN"},
		{ir.F16, 0x7e01, "+NaN:0x1"}, {ir.F16, 0x7f01, "+NaN:0x101"}, {ir.F16, 0x7c01, "+sNaN:0x1"},
		{ir.F16, 0x7d01, "+sNaN:0x101"},

		{ir.F32, f32(0), "0.0"}, {ir.F32, f32(float32(math.Copysign(0, -1))), "-0.0"},
		{ir.F32, f32(1), "0x1.000000p0"}, {ir.F32, f32(1.5), "0x1.800000p0"}, {ir.F32, f32(0.5), "0x1.000000p-1"},
		{ir.F32, f32(-math.MaxFloat32), "-0x1.fffffep127"}, {ir.F32, f32(math.MaxFloat32), "0x1.fffffep127"},
		{ir.F32, f32(float32(math.Inf(1))), "+Inf"}, {ir.F32, f32(float32(math.Inf(-1))), "-Inf"},
		{ir.F32, 0x7fc00000, "+NaN"}, {ir.F32, 0xffc00000, "-NaN"}, {ir.F32, 0x7fc00001, "+NaN:0x1"},
		{ir.F32, 0x7ff00001, "+NaN:0x300001"}, {ir.F32, 0x7f800001, "+sNaN:0x1"}, {ir.F32, 0x7fa00001, "+sNaN:0x200001"},
		{ir.F32, 1, "0x0.000002p-126"},

		{ir.F64, f64(0), "0.0"}, {ir.F64, f64(math.Copysign(0, -1)), "-0.0"}, {ir.F64, f64(1), "0x1.0000000000000p0"},
		{ir.F64, f64(1.5), "0x1.8000000000000p0"}, {ir.F64, f64(0.5), "0x1.0000000000000p-1"},
		{ir.F64, f64(math.Nextafter(1, 2) - 1), "0x1.0000000000000p-52"},
		{ir.F64, f64(-math.MaxFloat64), "-0x1.fffffffffffffp1023"}, {ir.F64, f64(math.MaxFloat64), "0x1.fffffffffffffp1023"},
		{ir.F64, f64(math.Inf(1)), "+Inf"}, {ir.F64, f64(math.Inf(-1)), "-Inf"}, {ir.F64, 0x7ff8000000000000, "+NaN"},
		{ir.F64, 0xfff8000000000000, "-NaN"}, {ir.F64, 1, "0x0.0000000000001p-1022"},
	} {
		if got := string(appendFloatOfType(nil, tc.typ, tc.bits)); got != tc.want {
			t.Errorf("%s bits %#x = %q, want %q", tc.typ, tc.bits, got, tc.want)
		}
	}
}

func TestF128(t *testing.T) {
	for _, tc := range []struct {
		hi, lo uint64
		want   string
	}{
		{0, 0, "0.0"},
		{0x8000000000000000, 0, "-0.0"},
		{0x3fff000000000000, 0, "0x1.0000000000000000000000000000p0"},
		{0x3fff800000000000, 0, "0x1.8000000000000000000000000000p0"},
		{0x3ffe000000000000, 0, "0x1.0000000000000000000000000000p-1"},
		{0x3f8f000000000000, 0, "0x1.0000000000000000000000000000p-112"},
		{0xfffeffffffffffff, 0xffffffffffffffff, "-0x1.ffffffffffffffffffffffffffffp16383"},
		{0x7ffeffffffffffff, 0xffffffffffffffff, "0x1.ffffffffffffffffffffffffffffp16383"},
		{0x0001000000000000, 0, "0x1.0000000000000000000000000000p-16382"},
		{0x0000800000000000, 0, "0x0.8000000000000000000000000000p-16382"},
		{0, 1, "0x0.0000000000000000000000000001p-16382"},
		{0x7fff000000000000, 0, "+Inf"},
		{0xffff000000000000, 0, "-Inf"},
		{0x7fff800000000000, 0, "+NaN"},
		{0xffff800000000000, 0, "-NaN"},
		{0x7fff800000000000, 1, "+NaN:0x1"},
		{0x7fff000000000001, 0, "+sNaN:0x10000000000000000"},
	} {
		le := make([]byte, 16)
		binary.LittleEndian.PutUint64(le, tc.lo)
		binary.LittleEndian.PutUint64(le[8:], tc.hi)
		if got := string(appendF128(nil, le)); got != tc.want {
			t.Errorf("f128 %#x_%016x = %q, want %q", tc.hi, tc.lo, got, tc.want)
		}
	}
}

func TestDataValue(t *testing.T) {
	le := func(n int, x uint64) []byte {
		b := make([]byte, n)
		for k := range b {
			if k < 8 {
				b[k] = byte(x >> (8 * k))
			} else if int64(x) < 0 {
				b[k] = 0xff
			}
		}
		return b
	}
	for _, tc := range []struct {
		v    ir.DataValue
		want string
	}{
		{ir.DataValue{Type: ir.I8, Bytes: []byte{0xff}}, "-1"},
		{ir.DataValue{Type: ir.I8, Bytes: []byte{0x7f}}, "127"},
		{ir.DataValue{Type: ir.I16, Bytes: le(2, 0x8000)}, "-32768"},
		{ir.DataValue{Type: ir.I32, Bytes: le(4, 0xfffffffe)}, "-2"},
		{ir.DataValue{Type: ir.I64, Bytes: le(8, 1<<63)}, "-9223372036854775808"},
		{ir.DataValue{Type: ir.I64, Bytes: le(8, 12345)}, "12345"},
		{ir.DataValue{Type: ir.I128, Bytes: le(16, math.MaxUint64)}, "-1"},
		{ir.DataValue{Type: ir.I128, Bytes: append(le(8, 0), le(8, 1)...)}, "18446744073709551616"},
		{ir.DataValue{Type: ir.I128, Bytes: append(le(8, 0), le(8, 1<<63)...)}, "-170141183460469231731687303715884105728"},
		{ir.DataValue{Type: ir.F32, Bytes: le(4, uint64(math.Float32bits(1.5)))}, "0x1.800000p0"},
		{ir.DataValue{Type: ir.F64, Bytes: le(8, 0x7ff8000000000000)}, "+NaN"},
		{ir.DataValue{Type: ir.F16, Bytes: le(2, 0x3c00)}, "0x1.000p0"},
		{ir.DataValue{Type: ir.I32X4, Bytes: []byte{1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0}},
			"0x00000004000000030000000200000001"},
		{ir.DataValue{Type: ir.I32, Bytes: []byte{1}}, "<bad data value i32 0x01>"},
	} {
		if got := DataValue(tc.v); got != tc.want {
			t.Errorf("DataValue(%s % x) = %q, want %q", tc.v.Type, tc.v.Bytes, got, tc.want)
		}
	}
}

func TestLEHex(t *testing.T) {
	// constant.rs: ConstantData::from([3, 2, 1, 0, 0]) displays as 0x0000010203.
	if got := string(appendLEHex(nil, []byte{3, 2, 1, 0, 0})); got != "0x0000010203" {
		t.Errorf("got %q", got)
	}
	if got := string(appendLEHex(nil, nil)); got != "" {
		t.Errorf("empty data: got %q", got)
	}
}
