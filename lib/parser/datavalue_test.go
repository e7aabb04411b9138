package parser

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"testing"

	"cliff/lib/ir"
	"cliff/lib/printer"
)

// slowDataValue is ParseDataValue without its fast path.
func slowDataValue(t ir.Type, text string) (ir.DataValue, error) {
	p := newParser("value", text)
	dv, err := p.parseDataValue(t)
	if err == nil && p.tok.kind != tokEOF {
		return ir.DataValue{}, p.errAt(p.tok, "trailing")
	}
	return dv, err
}

// checkPlainInt: where a fast path (plainInt, plainVector, plainFloat)
// answers, the parser answers the same.
func checkPlainInt(t *testing.T, ty ir.Type, text string) bool {
	fast, ok := plainInt(ty, text)
	if !ok {
		fast, ok = plainVector(ty, text)
	}
	if !ok {
		fast, ok = plainFloat(ty, text)
	}
	if !ok {
		return false
	}
	slow, err := slowDataValue(ty, text)
	if err != nil {
		t.Errorf("%s %q: the fast path read %x, the parser refuses it: %v", ty, text, fast.Bytes, err)
	} else if fast.Type != slow.Type || !bytes.Equal(fast.Bytes, slow.Bytes) {
		t.Errorf("%s %q: fast path %x, parser %x", ty, text, fast.Bytes, slow.Bytes)
	}
	return true
}

func TestPlainInt(t *testing.T) {
	for _, tc := range []struct {
		ty   ir.Type
		text string
		fast bool // plainInt answers (else the parser does)
	}{
		{ir.I8, "-128", true}, {ir.I8, "127", true}, {ir.I8, "-1", true},
		{ir.I8, "128", false}, {ir.I8, "255", false}, // unsigned spellings: the parser's
		{ir.I16, "-32768", true}, {ir.I32, "2147483647", true},
		{ir.I64, "-9223372036854775808", true}, {ir.I64, "18446744073709551615", false},
		{ir.I64, "0", true}, {ir.I64, "-0", true}, {ir.I64, "007", false},
		{ir.I64, "0x10", false}, {ir.I64, "1_000", false}, {ir.I64, "", false}, {ir.I64, "-", false},
		{ir.I128, "1", false}, {ir.F32, "1", false}, {ir.I32X4, "1", false},
		{ir.I8X16, "0xdf5d3e8cdddf5e61487e6f1f3b4dcbd6", true}, {ir.F64X2, "0x00000000000000010000000000000000", true},
		{ir.I32X4, "0xABCDEF00ABCDEF00abcdef00abcdef00", true}, {ir.Vector(ir.I16, 4), "0x0123456789abcdef", true},
		{ir.I8X16, "0xdf5d", false}, {ir.I8X16, "0xdf5d_3e8cdddf5e61487e6f1f3b4dcbd6", false}, // short, or with _: the parser's
		{ir.I8X16, "0xdf5d3e8cdddf5e61487e6f1f3b4dcbdg", false}, {ir.I128, "0xdf5d3e8cdddf5e61487e6f1f3b4dcbd6", false},
		{ir.F32, "0x1.000000p0", true}, {ir.F32, "-0x1.fffffep127", true}, {ir.F32, "0x1.000000p-126", true},
		{ir.F32, "0x1.000001p0", false}, // a bit below the fraction: the parser's (it refuses it)
		{ir.F32, "0x1.000000p128", false}, {ir.F32, "0x1.000000p-127", false}, {ir.F32, "0x0.800000p-126", false},
		{ir.F16, "-0x1.ffcp15", true}, {ir.F16, "0x1.000p-14", true}, {ir.F16, "0x1.002p0", false},
		{ir.F64, "0x1.0000000000000p0", true}, {ir.F64, "-0x1.fffffffffffffp1023", true}, {ir.F64, "0x1.8000000000000p-1022", true},
		{ir.F128, "-0x1.0000000000000000000000000001p16383", true}, {ir.F128, "0x1.8000000000000000000000000000p-16382", true},
		{ir.F64, "0x1.0000000000000p+3", false}, {ir.F64, "0x1.0000000000000p03", false}, {ir.F64, "0x1.0000000000000p-0", false},
		{ir.F64, "0x1.0p0", false}, {ir.F64, "+NaN", false}, {ir.F64, "-Inf", false}, {ir.F64, "0.0", false},
	} {
		if got := checkPlainInt(t, tc.ty, tc.text); got != tc.fast {
			t.Errorf("%s %q: fast path %v, want %v", tc.ty, tc.text, got, tc.fast)
		}
	}
	for _, ty := range []ir.Type{ir.I8, ir.I16, ir.I32, ir.I64} {
		for _, x := range []int64{0, 1, -1, 1<<(ty.Bits()-1) - 1, -1 << (ty.Bits() - 1), 100, -100} {
			if !checkPlainInt(t, ty, strconv.FormatInt(x, 10)) {
				t.Errorf("%s %d: not on the fast path", ty, x)
			}
		}
	}
}

func FuzzParseDataValue(f *testing.F) {
	for _, s := range []string{"0", "-1", "127", "-128", "65535", "-9223372036854775808", "007", "-0",
		"0xdf5d3e8cdddf5e61487e6f1f3b4dcbd6", "0x0123456789abcdef",
		"0x1.000000p0", "-0x1.fffffffffffffp1023", "0x1.000p-14", "-0x1.0000000000000000000000000001p16383"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, ty := range []ir.Type{ir.I8, ir.I16, ir.I32, ir.I64, ir.I8X16, ir.I64X2, ir.F32X4, ir.Vector(ir.I16, 4), ir.F16, ir.F32, ir.F64, ir.F128} {
			checkPlainInt(t, ty, text)
		}
	})
}

// TestFastPathsReadThePrinter: inputs as the printer writes them (as
// cliff-gen does) go through the fast paths where they are meant to,
// normal floats of every width and whole vectors, with the parser's
// answer.
func TestFastPathsReadThePrinter(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, ty := range []ir.Type{ir.F16, ir.F32, ir.F64, ir.F128, ir.I8X16, ir.F64X2, ir.Vector(ir.I16, 4)} {
		fast := 0
		for range 2000 {
			b := make([]byte, ty.Bytes())
			for i := range b {
				b[i] = byte(rng.Uint32())
			}
			text := printer.DataValue(ir.DataValue{Type: ty, Bytes: b})
			if checkPlainInt(t, ty, text) {
				fast++
			}
			slow, err := slowDataValue(ty, text)
			if err != nil || !bytes.Equal(slow.Bytes, b) {
				t.Fatalf("%s %q: the parser reads %x (%v), printed from %x", ty, text, slow.Bytes, err, b)
			}
		}
		// Random bits are normal numbers but for the top and bottom
		// exponents (NaN, infinity, subnormal, zero).
		if fast < 1800 {
			t.Errorf("%s: %d of 2000 printed values took the fast path", ty, fast)
		}
	}
}
