package locate_test

import (
	"context"
	"strings"
	"testing"

	"cliff/lib/ir"
	"cliff/lib/locate"
	"cliff/lib/record"
	"cliff/lib/reduce"
	"cliff/lib/reduce/reducetest"
)

// TestFindCulprit: after reduction of a generated case, the culprit a mask
// would name is the instruction the modelled bug is about, for a crash
// (kept alive by whatever consumes it) and a miscompile (whose chain to
// the output needs every instruction on it).
func TestFindCulprit(t *testing.T) {
	for _, tc := range []struct {
		name    string
		culprit reducetest.Culprit
		shape   func(reducetest.Culprit) reducetest.Shape
		crash   bool
		seed    uint64
	}{
		{"crash", reducetest.Culprit{Op: ir.OpScalarToVector, Type: ir.I8X16},
			func(c reducetest.Culprit) reducetest.Shape { return reducetest.Crash(c, "") }, true, 1},
		{"miscompile", reducetest.Culprit{Op: ir.OpImul, Type: ir.I32}, reducetest.Miscompile, false, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			shape := tc.shape(tc.culprit)
			cand, err := reducetest.Generated(tc.seed, 5, 200, configs(), shape)
			if err != nil {
				t.Fatal(err)
			}
			oracle := &reducetest.Checked{Shape: shape}
			tester := reduce.NewTester(oracle, shape(cand))
			res, err := reduce.Reduce(ctx, tester, cand, reduce.Options{})
			if err != nil {
				t.Fatal(err)
			}
			cul, err := locate.FindCulprit(ctx, tester, res.Case, tc.crash)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range oracle.Problems {
				t.Errorf("candidate sent to the oracle: %s", p)
			}
			if cul == nil {
				t.Fatalf("no culprit in\n%s", res.Case.CLIF)
			}
			if cul.Opcode != tc.culprit.Op.String() {
				t.Errorf("culprit %s (%s), want a %s, in\n%s", cul.Text, cul.Opcode, tc.culprit, res.Case.CLIF)
			}
		})
	}
}

// TestFindCulpritInCallee: a miscompiled value inside a callee is found by
// showing it through the entry's one call of the callee, and the call
// itself, whose result is wrong only because of it, is not blamed.
func TestFindCulpritInCallee(t *testing.T) {
	ctx := context.Background()
	culprit := reducetest.Culprit{Op: ir.OpImul, Type: ir.I32}
	miscompile := reducetest.Miscompile(culprit)
	// The real signature's form, so that exposed values are compared.
	shape := func(c *reduce.Candidate) string {
		if s := miscompile(c); strings.HasPrefix(s, "divergent ") {
			return "divergent x86_64/*: " + s[strings.LastIndex(s, " ")+1:] + " value"
		} else {
			return s
		}
	}
	cand, err := reduce.NewCandidate(&record.Case{ID: "callee", CLIF: `function %main(i32, i32) -> i64 {
    fn0 = %g(i32, i32) -> i32

block0(v0: i32, v1: i32):
    v2 = call fn0(v0, v1)
    v3 = iadd v2, v0
    v4 = uextend.i64 v3
    return v4
}

function %g(i32, i32) -> i32 {
block0(v0: i32, v1: i32):
    v2 = iadd v0, v1
    v3 = imul v2, v0
    v4 = bxor v3, v1
    return v4
}
`}, configs())
	if err != nil {
		t.Fatal(err)
	}
	oracle := &reducetest.Checked{Shape: shape}
	tester := reduce.NewTester(oracle, shape(cand))
	cul, err := locate.FindCulprit(ctx, tester, cand, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range oracle.Problems {
		t.Errorf("candidate sent to the oracle: %s", p)
	}
	if cul == nil || cul.Function != "%g" || cul.Opcode != "imul" {
		t.Fatalf("culprit %+v, want the imul of %%g", cul)
	}
}
