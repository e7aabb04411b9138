package engine

import (
	"strings"
	"testing"

	"cliff/lib/parser"
)

// TestPulley32StackArgs follows Pulley's compute_arg_locs: 15 integer
// registers (an i128 takes two), 16 float and 16 vector registers, and
// x0 for the return area when the returns overflow.
func TestPulley32StackArgs(t *testing.T) {
	n := func(ty string, k int) string {
		return strings.TrimSuffix(strings.Repeat(ty+", ", k), ", ")
	}
	for _, tc := range []struct {
		sig  string
		want bool
	}{
		{"()", false},
		{"(" + n("i64", 15) + ")", false},
		{"(" + n("i64", 16) + ")", true},
		{"(" + n("i32", 20) + ")", true},
		{"(" + n("i64", 13) + ", i128)", false},
		{"(" + n("i64", 14) + ", i128)", true},
		{"(" + n("f64", 16) + ", " + n("i64", 15) + ", " + n("i8x16", 16) + ")", false},
		{"(" + n("f32", 17) + ")", true},
		{"(" + n("i32x4", 17) + ")", true},
		{"(" + n("i64", 15) + ") -> " + n("i64", 15), false},
		{"(" + n("i64", 15) + ") -> " + n("f32", 17), true},
		{"(" + n("i64", 14) + ") -> " + n("i64", 16), false},
	} {
		src := "function %f" + tc.sig + " {\nblock0:\n    trap user1\n}\n"
		m, err := parser.ParseModuleString("t", src)
		if err != nil {
			t.Fatalf("%s: %v", tc.sig, err)
		}
		if got := pulley32StackArgs(&m.Funcs[0].Sig); got != tc.want {
			t.Errorf("pulley32StackArgs(%s) = %v, want %v", tc.sig, got, tc.want)
		}
	}
}
