package parser

import (
	"bytes"
	"strconv"
	"testing"

	"cliff/lib/ir"
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

// checkPlainInt: where plainInt answers, the parser answers the same.
func checkPlainInt(t *testing.T, ty ir.Type, text string) bool {
	fast, ok := plainInt(ty, text)
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
	for _, s := range []string{"0", "-1", "127", "-128", "65535", "-9223372036854775808", "007", "-0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, ty := range []ir.Type{ir.I8, ir.I16, ir.I32, ir.I64} {
			checkPlainInt(t, ty, text)
		}
	})
}
