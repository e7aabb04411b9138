package metrics

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"cliff/lib/driver"
	"cliff/lib/driver/drivertest"
)

func TestSurvivalMeasure(t *testing.T) {
	s := NewSurvival(drivertest.Client(t), "x86_64", time.Minute)
	tests := []struct {
		name string
		clif string
		want float64
	}{
		{
			// Every instruction feeds the return and nothing folds.
			name: "all live",
			clif: `function %f(i64, i64) -> i64 {
block0(v0: i64, v1: i64):
    v2 = iadd v0, v1
    v3 = imul v2, v1
    v4 = bxor v3, v0
    v5 = rotl v4, v1
    v6 = isub v5, v2
    return v6
}
`,
			want: 1,
		},
		{
			// Four of six instructions are dead: 2/6 survive.
			name: "dead code",
			clif: `function %f(i64, i64) -> i64 {
block0(v0: i64, v1: i64):
    v2 = iadd v0, v1
    v3 = imul v0, v1
    v4 = bxor v3, v0
    v5 = iconst.i64 7
    v6 = isub v0, v5
    return v2
}
`,
			want: 2.0 / 6,
		},
		{
			// 2 + 3 folds to one constant: iconst and return survive.
			name: "constant folding",
			clif: `function %f(i64) -> i64 {
block0(v0: i64):
    v1 = iconst.i64 2
    v2 = iconst.i64 3
    v3 = iadd v1, v2
    return v3
}
`,
			want: 2.0 / 4,
		},
		{
			// Summed over functions, not averaged: (2 + 2) / (6 + 2), where
			// the mean of the ratios would be 2/3.
			name: "sum over functions",
			clif: `function %dead(i64, i64) -> i64 {
block0(v0: i64, v1: i64):
    v2 = iadd v0, v1
    v3 = imul v0, v1
    v4 = bxor v3, v0
    v5 = iconst.i64 7
    v6 = isub v0, v5
    return v2
}

function %live(i64, i64) -> i64 {
block0(v0: i64, v1: i64):
    v2 = iadd v0, v1
    return v2
}
`,
			want: 0.5,
		},
		{
			// The mid-end rematerialises the constant in both arms: 7
			// instructions after 6, clamped to 1.
			name: "clamped",
			clif: `function %f(i64) -> i64 {
block0(v0: i64):
    v1 = iconst.i64 5
    brif v0, block1, block2
block1:
    v2 = iadd v0, v1
    return v2
block2:
    v3 = isub v0, v1
    return v3
}
`,
			want: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Measure(context.Background(), tt.clif)
			if err != nil {
				t.Fatal(err)
			}
			if diff := got - tt.want; diff > 1e-9 || diff < -1e-9 {
				t.Errorf("survival %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSurvivalErrorsSayWhere(t *testing.T) {
	c := drivertest.Client(t)
	tests := []struct {
		name, target, clif string
		want               []string // substrings of the error
	}{
		{"unparsable module", "x86_64", "function %f(", []string{"survival on x86_64: ", "parse error"}},
		{"unknown target", "sparc", "function %f() {\nblock0:\n    return\n}\n", []string{"survival on sparc: ", "sparc"}},
		{"no functions", "x86_64", "", []string{"survival on x86_64: "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := NewSurvival(c, tt.target, time.Minute).Measure(context.Background(), tt.clif)
			if err == nil {
				t.Fatalf("survival %v, want an error", got)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
	// A rejected module is Cranelift's verdict, which callers can tell from
	// a dead driver.
	_, err := NewSurvival(c, "x86_64", time.Minute).Measure(context.Background(), "function %f(")
	var f *driver.Failure
	if !errors.As(err, &f) || f.Status != driver.StatusError {
		t.Errorf("error %v does not wrap the driver's error Failure", err)
	}
	// The driver goes on serving after a failure.
	s, err := NewSurvival(c, "aarch64", time.Minute).Measure(context.Background(), "function %f() {\nblock0:\n    return\n}\n")
	if err != nil || s != 1 {
		t.Errorf("after failures: survival %v, %v; want 1", s, err)
	}
}

func TestTargetString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"x86_64", "x86_64"},
		{"riscv64=has_v,has_zbb", "riscv64 has_v has_zbb"},
		{"riscv64 has_v has_zbb", "riscv64 has_v has_zbb"},
		{"aarch64=", "aarch64"},
		{"x86_64 has_avx sse_level=4", "x86_64 has_avx sse_level=4"},
	}
	for _, tc := range tests {
		if got := TargetString(tc.in); got != tc.want {
			t.Errorf("TargetString(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
