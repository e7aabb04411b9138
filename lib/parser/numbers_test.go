package parser

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"cliff/lib/internal/uint128"
)

func TestParseSizedImm(t *testing.T) {
	tests := []struct {
		text  string
		width uint
		want  uint128.Uint128
		err   string
	}{
		{"0", 8, uint128.From64(0), ""},
		{"127", 8, uint128.From64(127), ""},
		{"255", 8, uint128.From64(255), ""}, // unsigned spelling of -1
		{"-1", 8, uint128.From64(0xff), ""},
		{"-128", 8, uint128.From64(0x80), ""},
		{"+5", 8, uint128.From64(5), ""},
		{"0xff", 8, uint128.From64(0xff), ""},
		{"-0x80", 8, uint128.From64(0x80), ""},
		{"256", 8, uint128.Uint128{}, "expected decimal immediate"},
		{"-129", 8, uint128.Uint128{}, "negative number too small"},
		{"-0x81", 8, uint128.Uint128{}, "negative number too small"},
		{"0x100", 8, uint128.Uint128{}, "as a hexadecimal u8 immediate"},
		{"1_000", 16, uint128.Uint128{}, "expected decimal immediate"}, // no separators in decimal
		{"0x7f_ff", 16, uint128.From64(0x7fff), ""},
		{"-32768", 16, uint128.From64(0x8000), ""},
		{"0xffffffff", 32, uint128.From64(0xffffffff), ""},
		{"-2147483648", 32, uint128.From64(0x80000000), ""},
		{"4294967296", 32, uint128.Uint128{}, "expected decimal immediate"},
		{"-1", 128, uint128.Uint128{Hi: ^uint64(0), Lo: ^uint64(0)}, ""},
		{"0x0000_0000_0000_0001_0000_0000_0000_0002", 128, uint128.Uint128{Hi: 1, Lo: 2}, ""},
		{"340282366920938463463374607431768211455", 128, uint128.Uint128{Hi: ^uint64(0), Lo: ^uint64(0)}, ""},
		{"340282366920938463463374607431768211456", 128, uint128.Uint128{}, "expected decimal immediate"},
		{"-170141183460469231731687303715884105728", 128, uint128.Uint128{Hi: 1 << 63}, ""},
		{"-170141183460469231731687303715884105729", 128, uint128.Uint128{}, "negative number too small"},
		{"0x", 8, uint128.Uint128{}, "hexadecimal"},
		{"-", 8, uint128.Uint128{}, "expected decimal immediate"},
	}
	for _, tc := range tests {
		got, err := parseSizedImm(tc.text, tc.width)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("parseSizedImm(%q, %d) error = %v, want %q", tc.text, tc.width, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("parseSizedImm(%q, %d) = %#x, %v; want %#x", tc.text, tc.width, got, err, tc.want)
		}
	}
}

func TestParseI64(t *testing.T) {
	tests := []struct {
		text string
		want int64
		err  string
	}{
		{"0", 0, ""},
		{"-1", -1, ""},
		{"1_000_000", 1000000, ""},
		{"0x1f96_3ea8_4eb6_5f81", 0x1f963ea84eb65f81, ""},
		{"0xffff_ffff_ffff_ffff", -1, ""}, // 2^64-1 wraps
		{"18446744073709551615", -1, ""},  // likewise in decimal
		{"-9223372036854775808", math.MinInt64, ""},
		{"-9223372036854775809", 0, "negative number too small"},
		{"18446744073709551616", 0, "too large decimal number"},
		{"0x1_0000_0000_0000_0000", 0, "too many hexadecimal digits"},
		{"-0x1", -1, ""}, // the sign is taken off first
		{"0xg", 0, "invalid character"},
		{"12a", 0, "invalid character in decimal number"},
		{"_", 0, "no digits"},
	}
	for _, tc := range tests {
		got, err := parseI64(tc.text)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("parseI64(%q) error = %v, want %q", tc.text, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("parseI64(%q) = %d, %v; want %d", tc.text, got, err, tc.want)
		}
	}
}

func TestParseSmallImmediates(t *testing.T) {
	if v, err := parseOffset32("+8"); err != nil || v != 8 {
		t.Errorf("parseOffset32(+8) = %d, %v", v, err)
	}
	if v, err := parseOffset32("-0x8000_0000"); err != nil || v != math.MinInt32 {
		t.Errorf("parseOffset32(-0x8000_0000) = %d, %v", v, err)
	}
	if _, err := parseU64("-0x1"); err == nil {
		t.Errorf("parseU64(-0x1) succeeded")
	}
	if v, err := parseOffset32("-2147483648"); err != nil || v != math.MinInt32 {
		t.Errorf("parseOffset32(-2147483648) = %d, %v", v, err)
	}
	for _, bad := range []string{"8", "+2147483648", "-2147483649"} {
		if _, err := parseOffset32(bad); err == nil {
			t.Errorf("parseOffset32(%q) succeeded", bad)
		}
	}
	for text, want := range map[string]uint8{"0": 0, "255": 255, "0xff": 255, "0x1": 1} {
		if v, err := parseUimm8(text); err != nil || v != want {
			t.Errorf("parseUimm8(%q) = %d, %v; want %d", text, v, err, want)
		}
	}
	for _, bad := range []string{"256", "-1", "0x100", "x"} {
		if _, err := parseUimm8(bad); err == nil {
			t.Errorf("parseUimm8(%q) succeeded", bad)
		}
	}
	if v, err := parseUimm32("0xffff_ffff"); err != nil || v != math.MaxUint32 {
		t.Errorf("parseUimm32(0xffff_ffff) = %d, %v", v, err)
	}
	if _, err := parseUimm32("-1"); err == nil {
		t.Errorf("parseUimm32(-1) succeeded")
	}
}

func TestParseHexConstant(t *testing.T) {
	tests := []struct {
		text string
		want string // bytes in order, hex
		err  string
	}{
		{"0x000102", "020100", ""},
		{"0x00_01_02_ff", "ff020100", ""},
		{"0x" + strings.Repeat("ab", 16), strings.Repeat("ab", 16), ""},
		{"0x" + strings.Repeat("ab", 17), "", "too many digits"},
		{"0x123", "", "even number"},
		{"0x", "", "expected a hexadecimal string"},
		{"0x__", "", "some digits"},
		{"12", "", "expected a hexadecimal string"},
		{"0xzz", "", "unable to parse"},
	}
	for _, tc := range tests {
		got, err := parseHexConstant(tc.text)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("parseHexConstant(%q) error = %v, want %q", tc.text, err, tc.err)
			}
			continue
		}
		if g := strconv.Quote(string(got)); err != nil || hexString(got) != tc.want {
			t.Errorf("parseHexConstant(%q) = %s, %v; want %s", tc.text, g, err, tc.want)
		}
	}
}

func hexString(b []byte) string {
	const digits = "0123456789abcdef"
	var s strings.Builder
	for _, c := range b {
		s.WriteByte(digits[c>>4])
		s.WriteByte(digits[c&15])
	}
	return s.String()
}

func TestParseFloat(t *testing.T) {
	tests := []struct {
		text string
		f    floatFormat
		want uint128.Uint128
		err  string
	}{
		{"0.0", formatF32, uint128.From64(0), ""},
		{"-0.0", formatF32, uint128.From64(0x80000000), ""},
		{"0x0.0", formatF64, uint128.From64(0), ""},
		{"0x1.5p3", formatF32, uint128.From64(uint64(math.Float32bits(10.5))), ""},
		{"-0x1.0p0", formatF64, uint128.From64(math.Float64bits(-1)), ""},
		{"0x1.66e07ap-1", formatF32, uint128.From64(0x3f33703d), ""},
		{"Inf", formatF32, uint128.From64(0x7f800000), ""},
		{"-Inf", formatF64, uint128.From64(0xfff0000000000000), ""},
		{"NaN", formatF32, uint128.From64(0x7fc00000), ""},
		{"+NaN", formatF16, uint128.From64(0x7e00), ""},
		{"-NaN", formatF64, uint128.From64(0xfff8000000000000), ""},
		{"NaN:0x42", formatF32, uint128.From64(0x7fc00042), ""},
		{"+sNaN:0x1", formatF32, uint128.From64(0x7f800001), ""},
		{"-sNaN:0x1", formatF64, uint128.From64(0xfff0000000000001), ""},
		{"Inf", formatF128, uint128.Uint128{Hi: 0x7fff000000000000}, ""},
		{"-0x1.0p0", formatF128, uint128.Uint128{Hi: 0xbfff000000000000}, ""},
		{"0x1.0000000000000000000000000001p0", formatF128, uint128.Uint128{Hi: 0x3fff000000000000, Lo: 1}, ""},
		{"0x1.0p-24", formatF16, uint128.From64(0x0001), ""},  // smallest f16 subnormal
		{"0x1.ffcp15", formatF16, uint128.From64(0x7bff), ""}, // largest f16
		{"0x1.0p-149", formatF32, uint128.From64(1), ""},
		{"0x1.0p-1074", formatF64, uint128.From64(1), ""},
		{"1.0", formatF32, uint128.Uint128{}, "float must be hexadecimal"},
		{"NaN:0x400000", formatF32, uint128.Uint128{}, "invalid NaN payload"},
		{"sNaN:0x0", formatF32, uint128.Uint128{}, "invalid sNaN payload"},
		{"0x1.0p128", formatF32, uint128.Uint128{}, "magnitude too large"},
		{"0x1.0p-150", formatF32, uint128.Uint128{}, "magnitude too small"},
		{"0x1.8p-149", formatF32, uint128.Uint128{}, "subnormal underflow"},
		{"0x1.000001p0", formatF32, uint128.Uint128{}, "too many significant bits"},
		{"0x1.0.0", formatF32, uint128.Uint128{}, "multiple radix points"},
		{"0x1.0p", formatF32, uint128.Uint128{}, "bad exponent"},
		{"0x", formatF32, uint128.Uint128{}, "no digits"},
		{"0x1g", formatF32, uint128.Uint128{}, "invalid character"},
		{"0x" + strings.Repeat("1", 33), formatF128, uint128.Uint128{}, "too many digits"},
	}
	for _, tc := range tests {
		got, err := parseFloat(tc.text, tc.f)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("parseFloat(%q, %v) error = %v, want %q", tc.text, tc.f, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("parseFloat(%q, %v) = %#x, %v; want %#x", tc.text, tc.f, got, err, tc.want)
		}
	}
}

// TestParseFloatRoundTrip checks parseFloat against Go's hexadecimal float
// formatting for random finite float32 and float64 bit patterns, subnormals
// included.
func TestParseFloatRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		b64 := r.Uint64()
		if f := math.Float64frombits(b64); !math.IsInf(f, 0) && !math.IsNaN(f) {
			text := strconv.FormatFloat(f, 'x', -1, 64)
			got, err := parseFloat(text, formatF64)
			if err != nil || got != uint128.From64(b64) {
				t.Fatalf("f64 %s: got %#x, %v; want %#x", text, got, err, b64)
			}
		}
		b32 := r.Uint32()
		if f := math.Float32frombits(b32); !math.IsInf(float64(f), 0) && !math.IsNaN(float64(f)) {
			text := strconv.FormatFloat(float64(f), 'x', -1, 32)
			got, err := parseFloat(text, formatF32)
			if err != nil || got != uint128.From64(uint64(b32)) {
				t.Fatalf("f32 %s: got %#x, %v; want %#x", text, got, err, b32)
			}
		}
	}
}

// TestParseUnsignedWidths covers both ways parseUnsigned reads: in 64
// bits (up to 15 digits, width at most 64) and in 128.
func TestParseUnsignedWidths(t *testing.T) {
	tests := []struct {
		s     string
		base  uint64
		width uint
		hi    uint64
		lo    uint64
		ok    bool
	}{
		{"ffffffff", 16, 32, 0, 0xffffffff, true},
		{"100000000", 16, 32, 0, 0, false},
		{"fffffffffffffff", 16, 60, 0, 0xfffffffffffffff, true},
		{"fffffffffffffff", 16, 56, 0, 0, false},
		{"ffffffffffffffff", 16, 64, 0, 0xffffffffffffffff, true},
		{"10000000000000000", 16, 64, 0, 0, false},
		{"10000000000000000", 16, 128, 1, 0, true},
		{"999999999999999", 10, 64, 0, 999999999999999, true},
		{"18446744073709551616", 10, 64, 0, 0, false},
		{"0g", 16, 32, 0, 0, false},
		{"1a", 10, 32, 0, 0, false},
		{"", 10, 32, 0, 0, false},
	}
	for _, tc := range tests {
		v, ok := parseUnsigned(tc.s, tc.base, tc.width)
		if ok != tc.ok || ok && (v.Hi != tc.hi || v.Lo != tc.lo) {
			t.Errorf("parseUnsigned(%q, %d, %d) = %#x:%#x, %v; want %#x:%#x, %v", tc.s, tc.base, tc.width, v.Hi, v.Lo, ok, tc.hi, tc.lo, tc.ok)
		}
	}
}
