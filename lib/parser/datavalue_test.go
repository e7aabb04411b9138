package parser

import (
	"encoding/hex"
	"strings"
	"testing"

	"cliff/lib/ir"
)

func TestParseDataValue(t *testing.T) {
	tests := []struct {
		typ, text, want, err string
	}{
		{typ: "i32", text: "0x7fffffff", want: "ffffff7f"},
		{typ: "i8", text: "-1", want: "ff"},
		{typ: "f32", text: "-0x1.8p1", want: "000040c0"},
		{typ: "f64", text: "NaN", want: "000000000000f87f"},
		{typ: "i32x4", text: "[1 2 3 4]", want: "01000000020000000300000004000000"},
		{typ: "i128", text: "1", want: "01000000000000000000000000000000"},
		{typ: "i32", text: "1 2", err: "unexpected"},
		{typ: "i8", text: "300", err: ""},
		{typ: "f32", text: "x", err: "value:1:1"},
	}
	for _, tc := range tests {
		ty, _ := ir.ParseType(tc.typ)
		got, err := ParseDataValue(ty, tc.text)
		if tc.want == "" {
			if err == nil {
				t.Errorf("ParseDataValue(%s, %q) = %x, want an error", tc.typ, tc.text, got.Bytes)
			} else if !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseDataValue(%s, %q) error %q, want it to mention %q", tc.typ, tc.text, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseDataValue(%s, %q): %v", tc.typ, tc.text, err)
			continue
		}
		if h := hex.EncodeToString(got.Bytes); h != tc.want || got.Type != ty {
			t.Errorf("ParseDataValue(%s, %q) = %s %s, want %s", tc.typ, tc.text, got.Type, h, tc.want)
		}
	}
}
