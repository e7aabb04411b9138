package coverage

import (
	"slices"
	"testing"

	"cliff/lib/ir"
)

// TestParseISLE: forms, comments and lines; unbalanced parentheses are
// errors with their line.
func TestParseISLE(t *testing.T) {
	forms, err := parseISLE("; c (\n(rule (lower (iadd x y)) ; (\n  (add x y))\n(decl foo (u8) u8)\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(forms) != 2 || forms[0].head() != "rule" || forms[0].line != 2 || forms[1].head() != "decl" || forms[1].line != 4 {
		t.Fatalf("forms %+v", forms)
	}
	rules := isleRules("f.isle", forms)
	if len(rules) != 1 || rules[0].term != "lower" || rules[0].Line != 2 {
		t.Fatalf("rules %+v", rules)
	}
	for _, bad := range []struct{ src, err string }{{"(rule (a)\n", "line 1: '(' not closed"}, {"\n(a))", "line 2: unbalanced ')'"}} {
		if _, err := parseISLE(bad.src); err == nil || err.Error() != bad.err {
			t.Errorf("%q: error %v, want %q", bad.src, err, bad.err)
		}
	}
}

// TestAimOf: what reaches a rule, read from the sample sources: a
// lowering rule's own opcodes and types, a helper's through its callers,
// and nothing from a helper that every rule uses.
func TestAimOf(t *testing.T) {
	src := &ruleSources{crateDir: "testdata/isle", files: map[string][]string{}}
	ix, err := newISLEIndex(src, []string{"src/isa/x64/lower.isle", "src/opts/bitops.isle"})
	if err != nil {
		t.Fatal(err)
	}
	x64 := func(line int) Rule { return Rule{"src/isa/x64/lower.isle", line} }
	tests := []struct {
		name  string
		rule  Rule
		ops   []ir.Opcode
		types []ir.Type
	}{
		{"typed lowering", x64(2), []ir.Opcode{ir.OpPopcnt}, []ir.Type{ir.I8X16}},
		{"named rule, nested opcodes", x64(4), []ir.Opcode{ir.OpFma, ir.OpFneg}, nil},
		{"multi_lane, comment skipped", x64(6), []ir.Opcode{ir.OpImul}, []ir.Type{ir.I64X2, ir.F64X2}},
		{"helper: its caller's opcodes", x64(8), []ir.Opcode{ir.OpFma, ir.OpFneg}, nil},
		{"helper two levels down, its own type", x64(9), []ir.Opcode{ir.OpFma, ir.OpFneg}, []ir.Type{ir.F32}},
		{"generic helper: no opcodes", x64(10), nil, nil},
		{"type predicate", x64(20), []ir.Opcode{ir.OpBitselect}, []ir.Type{ir.I8X16, ir.I16X8, ir.I32X4, ir.I64X2, ir.Vector(ir.F16, 8), ir.F32X4, ir.F64X2}},
		{"through an extractor, and its caller", x64(22), []ir.Opcode{ir.OpIadd, ir.OpLoad}, nil},
		{"mid-end", Rule{"src/opts/bitops.isle", 1}, []ir.Opcode{ir.OpBxor, ir.OpBor, ir.OpBnot}, nil},
		{"mid-end constants", Rule{"src/opts/bitops.isle", 2}, []ir.Opcode{ir.OpFcopysign, ir.OpF64const}, []ir.Type{ir.F64}},
		{"not a rule", x64(3), nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := ix.aimOf(tt.rule)
			if !sameSet(a.ops, tt.ops) {
				t.Errorf("ops %v, want %v", a.ops, tt.ops)
			}
			if !sameSet(a.types, tt.types) {
				t.Errorf("types %v, want %v", a.types, tt.types)
			}
		})
	}
}

func sameSet[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// TestWeightsOfMisses: the weights are the square root of each family's
// (type's) missed rules over the median, in quarters, clamped: a family
// with none is weighted down to MinWeight; a rule that names nothing is
// counted silent.
func TestWeightsOfMisses(t *testing.T) {
	rep := &Report{sources: &ruleSources{crateDir: "testdata/isle", files: map[string][]string{}},
		ruleFiles: map[string][]string{"x86_64": {"src/isa/x64/lower.isle"}, "mid-end": {"src/opts/bitops.isle"}}}
	x64 := func(line int) Rule { return Rule{"src/isa/x64/lower.isle", line} }
	missed := map[string][]Rule{
		"x86_64":  {x64(2), x64(4), x64(8), x64(9), x64(10), x64(12), x64(13)},
		"mid-end": {{"src/opts/bitops.isle", 1}},
	}
	w, aims, err := rep.Weights(missed)
	if err != nil {
		t.Fatal(err)
	}
	// float: lines 4, 8, 9 (fma, fneg); bitwise: 2 (popcnt), 13 (band) and
	// the mid-end's; arith: 12 (isub).
	if aims.Families["float"] != 3 || aims.Families["bitwise"] != 3 || aims.Families["arith"] != 1 || aims.Rules != 8 || aims.Silent != 1 {
		t.Fatalf("aims %+v", aims)
	}
	// The median of the 15 families' counts is 0, taken as 1.
	want := map[string]float64{"float": 1.75, "bitwise": 1.75, "arith": 1, "shifts": MinWeight, "target": MinWeight}
	for f, wf := range want {
		if w.Families[f] != wf {
			t.Errorf("family %s: weight %v, want %v", f, w.Families[f], wf)
		}
	}
	if w.Types["i8x16"] != 1 || w.Types["f32"] != 1 || w.Types["i64x2"] != MinWeight || len(w.Types) != 16 {
		t.Errorf("type weights %v", w.Types)
	}
}

// TestScaleCounts: around the median, clamped.
func TestScaleCounts(t *testing.T) {
	got := scaleCounts(map[string]int{"a": 100, "b": 25, "c": 400, "d": 10000, "e": 0})
	want := map[string]float64{"a": 1, "b": 0.5, "c": 2, "d": MaxWeight, "e": MinWeight}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %v, want %v", k, got[k], v)
		}
	}
}
