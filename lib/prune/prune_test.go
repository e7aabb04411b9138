package prune

import (
	"slices"
	"strings"
	"testing"

	"cliff/lib/ir"
	"cliff/lib/parser"
	"cliff/lib/printer"
	"cliff/lib/refinterp"
	"cliff/lib/verify"
)

// Guarded forms as lib/gen and ub.CanonNaN make them.
const (
	udivGuarded = `function %main(i64, i64) -> i64 {
block0(v0: i64, v1: i64):
@c1ff v2 = iconst.i64 0
@c1ff v3 = icmp eq v1, v2
@c1ff v4 = iconst.i64 1
@c1ff v5 = select v3, v4, v1
    v6 = udiv v0, v5
    return v6
}
`
	sdivGuarded = `function %main(i32, i32) -> i32 {
block0(v0: i32, v1: i32):
@c1ff v2 = iconst.i32 0
@c1ff v3 = icmp eq v1, v2
@c1ff v4 = iconst.i32 1
@c1ff v5 = select v3, v4, v1
@c1ff v6 = iconst.i32 -1
@c1ff v7 = iconst.i32 31
@c1ff v8 = ishl v6, v7
@c1ff v9 = icmp eq v0, v8
@c1ff v10 = icmp eq v5, v6
@c1ff v11 = band v9, v10
@c1ff v12 = iconst.i32 1
@c1ff v13 = select v11, v12, v5
    v14 = sdiv v0, v13
    return v14
}
`
	fcvtGuarded = `function %main(f64) -> i32 {
block0(v0: f64):
@c1ff v1 = f64const -0x1.0000000000000p31
@c1ff v2 = fcmp ge v0, v1
@c1ff v3 = f64const 0x1.0000000000000p31
@c1ff v4 = fcmp lt v0, v3
@c1ff v5 = band v2, v4
@c1ff v6 = f64const 0.0
@c1ff v7 = select v5, v0, v6
    v8 = fcvt_to_sint.i32 v7
    return v8
}
`
	nanGuarded = `function %main(f32, f32) -> i32 {
block0(v0: f32, v1: f32):
    v2 = fadd v0, v1
@c1ff v3 = fcmp uno v2, v2
@c1ff v4 = f32const +NaN
@c1ff v5 = select v3, v4, v2
    v6 = bitcast.i32 v5
    return v6
}
`
	vectorNaNGuarded = `function %main(f32x4) -> i64x2 {
block0(v0: f32x4):
    v1 = fmul v0, v0
@c1ff v2 = fcmp uno v1, v1
@c1ff v3 = vconst.f32x4 0x7fc000007fc000007fc000007fc00000
@c1ff v4 = bitcast.f32x4 little v2
@c1ff v5 = bitselect v4, v3, v1
    v6 = bitcast.i64x2 little v5
    return v6
}
`
	// sdivGuarded with a jump between the guards and the division: the
	// selects are not in the consumer's block, so the pruned case is
	// re-checked (sameOperand).
	sdivAcrossBlocks = `function %main(i32, i32) -> i32 {
block0(v0: i32, v1: i32):
@c1ff v2 = iconst.i32 0
@c1ff v3 = icmp eq v1, v2
@c1ff v4 = iconst.i32 1
@c1ff v5 = select v3, v4, v1
@c1ff v6 = iconst.i32 -1
@c1ff v7 = iconst.i32 31
@c1ff v8 = ishl v6, v7
@c1ff v9 = icmp eq v0, v8
@c1ff v10 = icmp eq v5, v6
@c1ff v11 = band v9, v10
@c1ff v12 = iconst.i32 1
@c1ff v13 = select v11, v12, v5
    jump block1

block1:
    v14 = sdiv v0, v13
    return v14
}
`
	// A loop's counter and an opaque condition are scaffold but no guard.
	loopScaffold = `function %main(i64, i64) -> i64 {
block0(v0: i64, v1: i64):
@c1ff v2 = iconst.i64 3
@c1ff v3 = iconst.i64 0
@c1ff jump block1(v3, v0)

block1(v4: i64, v5: i64):
@c1ff v6 = icmp ult v4, v2
@c1ff brif v6, block2, block3(v5)

block2:
@c1ff v7 = iconst.i64 1
@c1ff v8 = bor v1, v7
@c1ff v9 = imul v8, v8
@c1ff v10 = iconst.i64 7
@c1ff v11 = band v9, v10
@c1ff v12 = icmp eq v11, v7
    v13 = iadd v5, v1
@c1ff v14 = iadd v4, v7
@c1ff brif v12, block1(v14, v13), block3(v13)

block3(v15: i64):
    return v15
}
`
)

// moduleCases are guarded cases, their inputs and what pruning them does.
var moduleCases = []struct {
	name   string
	clif   string
	inputs [][]string
	pruned map[Kind]int
	want   []string // lines of the result
	gone   []string // lines that must not be in it
}{
	{name: "divisor never zero", clif: udivGuarded, inputs: [][]string{{"7", "2"}, {"-1", "-1"}, {"0", "9"}},
		pruned: map[Kind]int{Zero: 1}, want: []string{"@c1fe v6 = udiv v0, v1"}, gone: []string{"select", "icmp"}},
	{name: "divisor zero on one input", clif: udivGuarded, inputs: [][]string{{"7", "2"}, {"7", "0"}},
		want: []string{"    v6 = udiv v0, v5", "@c1ff v5 = select v3, v4, v1"}},
	{name: "no inputs: the guard never runs", clif: udivGuarded,
		pruned: map[Kind]int{Zero: 1}, want: []string{"@c1fe v6 = udiv v0, v1"}},
	{name: "signed divisor never -1 under MIN nor 0", clif: sdivGuarded, inputs: [][]string{{"-2147483648", "3"}, {"5", "-1"}},
		pruned: map[Kind]int{Zero: 1, Overflow: 1}, want: []string{"@c1fe v14 = sdiv v0, v1"}, gone: []string{"select", "ishl"}},
	{name: "signed divisor sometimes 0: the overflow guard goes", clif: sdivGuarded, inputs: [][]string{{"-2147483648", "3"}, {"5", "0"}},
		pruned: map[Kind]int{Overflow: 1}, want: []string{"@c1fe v14 = sdiv v0, v5", "@c1ff v5 = select v3, v4, v1"}, gone: []string{"ishl", "band"}},
	{name: "MIN / -1: both stay", clif: sdivGuarded, inputs: [][]string{{"-2147483648", "-1"}},
		want: []string{"    v14 = sdiv v0, v13"}},
	{name: "conversion in range", clif: fcvtGuarded, inputs: [][]string{{"0x1.8p1"}, {"-0x1.0p31"}, {"-0x0.0p0"}},
		pruned: map[Kind]int{Range: 1}, want: []string{"@c1fe v8 = fcvt_to_sint.i32 v0"}, gone: []string{"fcmp"}},
	{name: "conversion out of range", clif: fcvtGuarded, inputs: [][]string{{"0x1.8p1"}, {"0x1.0p31"}},
		want: []string{"    v8 = fcvt_to_sint.i32 v7"}},
	{name: "conversion of a NaN", clif: fcvtGuarded, inputs: [][]string{{"+NaN"}},
		want: []string{"    v8 = fcvt_to_sint.i32 v7"}},
	{name: "no NaN arrives", clif: nanGuarded, inputs: [][]string{{"0x1.0p0", "-0x1.0p0"}, {"+Inf", "0x1.0p0"}},
		pruned: map[Kind]int{NaN: 1}, want: []string{"@c1fe v6 = bitcast.i32 v2"}, gone: []string{"fcmp"}},
	{name: "a NaN arrives (inf - inf)", clif: nanGuarded, inputs: [][]string{{"0x1.0p0", "0x1.0p0"}, {"+Inf", "-Inf"}},
		want: []string{"    v6 = bitcast.i32 v5"}},
	{name: "no NaN lane arrives", clif: vectorNaNGuarded, inputs: [][]string{{"[0x1.0p0 0x1.0p1 -0x1.0p2 +Inf]"}},
		pruned: map[Kind]int{NaN: 1}, want: []string{"@c1fe v6 = bitcast.i64x2 little v1"}, gone: []string{"bitselect"}},
	{name: "a NaN lane arrives", clif: vectorNaNGuarded, inputs: [][]string{{"[0x1.0p0 0x1.0p1 +NaN 0x1.0p3]"}},
		want: []string{"    v6 = bitcast.i64x2 little v5"}},
	{name: "loop counters and opaque conditions stay", clif: loopScaffold, inputs: [][]string{{"1", "2"}},
		want: []string{"@c1ff v6 = icmp ult v4, v2", "@c1ff v12 = icmp eq v11, v7"}},
	{name: "a guard in a loop never fires", clif: guardedLoop, inputs: [][]string{{"1", "5"}, {"-7", "1"}},
		pruned: map[Kind]int{Zero: 1}, want: []string{"@c1fe v9 = udiv.i64 v0, v5"}, gone: []string{"select"}},
	{name: "a guard in a loop fires on a later trip", clif: guardedLoop, inputs: [][]string{{"1", "5"}, {"1", "4"}},
		want: []string{"    v9 = udiv.i64 v0, v8"}},
	{name: "guards across blocks never fire", clif: sdivAcrossBlocks, inputs: [][]string{{"7", "3"}, {"-2147483648", "2"}},
		pruned: map[Kind]int{Zero: 1, Overflow: 1}, want: []string{"@c1fe v14 = sdiv.i32 v0, v1"}, gone: []string{"select", "ishl"}},
}

// guardedLoop divides by a loop variable that counts down by 2 from v1
// while it is not negative: it reaches 0 when v1 is even.
const guardedLoop = `function %main(i64, i64) -> i64 {
block0(v0: i64, v1: i64):
    jump block1(v0, v1)

block1(v4: i64, v5: i64):
@c1ff v6 = iconst.i64 0
@c1ff v7 = icmp eq v5, v6
@c1ff v10 = iconst.i64 1
@c1ff v8 = select v7, v10, v5
    v9 = udiv v0, v8
    v11 = iadd v4, v9
    v12 = iconst.i64 2
    v13 = isub v5, v12
    v14 = icmp sge v13, v6
    brif v14, block1(v11, v13), block2

block2:
    return v4
}
`

func TestModule(t *testing.T) {
	for _, tc := range moduleCases {
		t.Run(tc.name, func(t *testing.T) {
			mod, err := parser.ParseModuleString(tc.name, tc.clif)
			if err != nil {
				t.Fatal(err)
			}
			before := text(mod)
			got, err := Module(mod, "%main", args(t, mod, tc.inputs), refinterp.DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			text := text(mod)
			for _, k := range Kinds {
				if got.Pruned[k] != tc.pruned[k] {
					t.Errorf("pruned %s guards: %d, want %d\n%s", k, got.Pruned[k], tc.pruned[k], text)
				}
			}
			if Total(got.Restored) != 0 || got.Unjudged != 0 {
				t.Errorf("restored %v, unjudged %d: want none", got.Restored, got.Unjudged)
			}
			if len(tc.pruned) == 0 && text != before {
				t.Errorf("nothing pruned, but the module changed:\n%s", text)
			}
			for _, w := range tc.want {
				if !strings.Contains(text, w+"\n") {
					t.Errorf("no line %q in\n%s", w, text)
				}
			}
			for _, g := range tc.gone {
				if strings.Contains(text, g) {
					t.Errorf("%q is still in\n%s", g, text)
				}
			}
			reparsed, err := parser.ParseModuleString(tc.name, text)
			if err != nil {
				t.Fatal(err)
			}
			if errs := verify.ModuleWith(reparsed, verify.DefaultOptions()); len(errs) > 0 {
				t.Errorf("the pruned module does not verify: %v\n%s", errs, text)
			}
		})
	}
}

// TestUnjudgedCasesStay: a case the reference cannot answer for on every
// input (here a trap) loses no guard.
func TestUnjudgedCasesStay(t *testing.T) {
	const trapping = `function %main(i64, i64) -> i64 {
block0(v0: i64, v1: i64):
@c1ff v2 = iconst.i64 0
@c1ff v3 = icmp eq v1, v2
@c1ff v4 = iconst.i64 1
@c1ff v5 = select v3, v4, v1
    v6 = udiv v0, v5
    v7 = udiv v0, v1
    return v6
}
`
	mod, err := parser.ParseModuleString("trapping", trapping)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Module(mod, "%main", args(t, mod, [][]string{{"1", "1"}, {"1", "0"}}), refinterp.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if got.Unjudged != 1 || Total(got.Pruned) != 0 {
		t.Errorf("unjudged %d, pruned %d: want 1 and 0", got.Unjudged, Total(got.Pruned))
	}
	if text, want := text(mod), text(mustParse(t, trapping)); text != want {
		t.Errorf("an unjudged case changed:\n%s", text)
	}
}

// TestRecheckPutsGuardsBack: when the pruned case does not answer as the
// guarded one did on the reference (undefined behaviour, a trap, another
// result), every guard is put back and the case is as it was.
func TestRecheckPutsGuardsBack(t *testing.T) {
	for _, tc := range []struct {
		name  string
		again func(in *refinterp.Interp, entry string, inputs [][]ir.DataValue) ([][]ir.DataValue, bool)
	}{
		{"undefined or trap", func(*refinterp.Interp, string, [][]ir.DataValue) ([][]ir.DataValue, bool) { return nil, false }},
		{"another result", func(in *refinterp.Interp, entry string, inputs [][]ir.DataValue) ([][]ir.DataValue, bool) {
			got, ok := run(in, entry, inputs)
			got[0][0].Bytes[0] ^= 1
			return got, ok
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func(saved func(*refinterp.Interp, string, [][]ir.DataValue) ([][]ir.DataValue, bool)) { rerun = saved }(rerun)
			rerun = tc.again
			mod := mustParse(t, sdivAcrossBlocks)
			got, err := Module(mod, "%main", args(t, mod, [][]string{{"7", "3"}}), refinterp.DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			if got.Restored[Zero] != 1 || got.Restored[Overflow] != 1 || Total(got.Pruned) != 0 || got.Changed != 0 {
				t.Errorf("restored %v, pruned %v, changed %d: want both restored", got.Restored, got.Pruned, got.Changed)
			}
			if text, want := text(mod), text(mustParse(t, sdivAcrossBlocks)); text != want {
				t.Errorf("the guards are not back:\n%s", text)
			}
		})
	}
}

func text(mod *ir.Module) string { return printer.Options{Compact: true}.ModuleString(mod) }

func mustParse(t *testing.T, clif string) *ir.Module {
	t.Helper()
	mod, err := parser.ParseModuleString("clif", clif)
	if err != nil {
		t.Fatal(err)
	}
	return mod
}

// args parses input vectors for %main's params.
func args(t *testing.T, mod *ir.Module, inputs [][]string) [][]ir.DataValue {
	t.Helper()
	f := mod.Func("%main")
	var out [][]ir.DataValue
	for _, vec := range inputs {
		var vals []ir.DataValue
		for k, text := range vec {
			dv, err := parser.ParseDataValue(f.Sig.Params[k].Type, text)
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			vals = append(vals, dv)
		}
		out = append(out, vals)
	}
	return out
}

// TestHolds: a pruned module keeps its promise on inputs where its
// pruned operations stay safe, and breaks it where a pruned divisor is 0
// (a trap on the reference) or a NaN reaches a pruned float operand.
func TestHolds(t *testing.T) {
	const (
		prunedDiv = `function %main(i64, i64) -> i64 {
block0(v0: i64, v1: i64):
@c1fe v2 = udiv v0, v1
    return v2
}
`
		prunedNaN = `function %main(f32, f32) -> i32 {
block0(v0: f32, v1: f32):
    v2 = fadd v0, v1
@c1fe v3 = bitcast.i32 v2
    return v3
}
`
		prunedVectorNaN = `function %main(f64x2) -> i64x2 {
block0(v0: f64x2):
@c1fe v1 = bitcast.i64x2 little v0
    return v1
}
`
	)
	for _, tc := range []struct {
		name, clif string
		inputs     [][]string
		want       bool
	}{
		{"divisors not 0", prunedDiv, [][]string{{"7", "2"}, {"0", "-1"}}, true},
		{"a divisor 0", prunedDiv, [][]string{{"7", "2"}, {"7", "0"}}, false},
		{"no NaN", prunedNaN, [][]string{{"0x1.0p0", "+Inf"}}, true},
		{"a NaN (inf - inf)", prunedNaN, [][]string{{"0x1.0p0", "0x1.0p0"}, {"+Inf", "-Inf"}}, false},
		{"no NaN lane", prunedVectorNaN, [][]string{{"[0x1.0p0 -Inf]"}}, true},
		{"a NaN lane", prunedVectorNaN, [][]string{{"[0x1.0p0 -NaN]"}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mod := mustParse(t, tc.clif)
			if !Pruned(mod) {
				t.Fatal("Pruned: false for a pruned module")
			}
			if got := Holds(mod, "%main", args(t, mod, tc.inputs), refinterp.DefaultLimits); got != tc.want {
				t.Errorf("Holds = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestRecheckPutsBackTwoOperands: a consumer with two pruned operands
// gets both guards and its own location back.
func TestRecheckPutsBackTwoOperands(t *testing.T) {
	const twoNaNs = `function %main(f32, f32) -> f32 {
block0(v0: f32, v1: f32):
@c1ff v2 = fcmp uno v0, v0
@c1ff v3 = f32const +NaN
@c1ff v4 = select v2, v3, v0
@c1ff v5 = fcmp uno v1, v1
@c1ff v6 = f32const +NaN
@c1ff v7 = select v5, v6, v1
    jump block1

block1:
    v8 = fcopysign v4, v7
    return v8
}
`
	defer func(saved func(*refinterp.Interp, string, [][]ir.DataValue) ([][]ir.DataValue, bool)) { rerun = saved }(rerun)
	rerun = func(*refinterp.Interp, string, [][]ir.DataValue) ([][]ir.DataValue, bool) { return nil, false }
	mod := mustParse(t, twoNaNs)
	got, err := Module(mod, "%main", args(t, mod, [][]string{{"0x1.0p0", "-0x1.0p1"}}), refinterp.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if got.Restored[NaN] != 2 {
		t.Errorf("restored %v, want 2 NaN guards", got.Restored)
	}
	if text, want := text(mod), text(mustParse(t, twoNaNs)); text != want {
		t.Errorf("the guards are not back:\n%s", text)
	}
}

// TestRecheckRunsOnlyWherePrunedGuardsRan: the re-check runs the inputs
// on which a pruned guard's select ran, with their own expected answers,
// and no other: on the rest the pruned case runs what the guarded one
// did (the select dominates its consumer).
func TestRecheckRunsOnlyWherePrunedGuardsRan(t *testing.T) {
	// The division runs only when v2 is not 0: inputs 1 and 3. It is in
	// another block than its guard, so the pruned case is re-checked.
	const branchy = `function %main(i64, i64, i64) -> i64 {
block0(v0: i64, v1: i64, v2: i64):
    brif v2, block1, block2
block1:
@c1ff v3 = iconst.i64 0
@c1ff v4 = icmp eq v1, v3
@c1ff v5 = iconst.i64 1
@c1ff v6 = select v4, v5, v1
    jump block3
block3:
    v7 = udiv v0, v6
    return v7
block2:
    return v0
}
`
	defer func(saved func(*refinterp.Interp, string, [][]ir.DataValue) ([][]ir.DataValue, bool)) { rerun = saved }(rerun)
	var rechecked [][]ir.DataValue
	rerun = func(in *refinterp.Interp, entry string, inputs [][]ir.DataValue) ([][]ir.DataValue, bool) {
		rechecked = inputs
		return run(in, entry, inputs)
	}
	mod := mustParse(t, branchy)
	inputs := args(t, mod, [][]string{{"9", "0", "0"}, {"9", "3", "1"}, {"5", "0", "0"}, {"8", "2", "1"}})
	got, err := Module(mod, "%main", inputs, refinterp.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if got.Pruned[Zero] != 1 || got.Changed != 1 {
		t.Fatalf("pruned %v, changed %d: want the zero guard pruned", got.Pruned, got.Changed)
	}
	if len(rechecked) != 2 || !slices.Equal(rechecked[0][2].Bytes, inputs[1][2].Bytes) || !slices.Equal(rechecked[1][1].Bytes, inputs[3][1].Bytes) {
		t.Errorf("re-checked %v, want inputs 1 and 3", rechecked)
	}
	// Their answers are held to their own inputs' answers: a wrong one
	// for input 3 alone puts the guard back.
	rerun = func(in *refinterp.Interp, entry string, inputs [][]ir.DataValue) ([][]ir.DataValue, bool) {
		got, ok := run(in, entry, inputs)
		got[len(got)-1][0].Bytes[0] ^= 1
		return got, ok
	}
	mod = mustParse(t, branchy)
	if got, err = Module(mod, "%main", inputs, refinterp.DefaultLimits); err != nil || got.Restored[Zero] != 1 {
		t.Errorf("restored %v (%v), want the zero guard back", got.Restored, err)
	}
}

// TestSameOperandAgreesWithRecheck: pruning that skips the re-check
// where sameOperand shows it would repeat the observation leaves every
// case as pruning that re-checks every input a pruned select ran on, and
// that re-check passes.
// The table's cases and generated ones (gen.Sample) are compared.
func TestSameOperandAgreesWithRecheck(t *testing.T) {
	var cases []sampleCase
	for _, tc := range moduleCases {
		mod := mustParse(t, tc.clif)
		cases = append(cases, sampleCase{text: tc.clif, entry: "%main", inputs: args(t, mod, tc.inputs)})
	}
	cases = append(cases, sampleCases(t, 100)...)
	for i, c := range cases {
		fast := c.module(t)
		fastCnt, err := Module(fast, c.entry, c.inputs, refinterp.DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		saved := provenSame
		provenSame = func([]guard) bool { return false }
		slow := c.module(t)
		slowCnt, err := Module(slow, c.entry, c.inputs, refinterp.DefaultLimits)
		provenSame = saved
		if err != nil {
			t.Fatal(err)
		}
		if fastCnt != slowCnt || Total(slowCnt.Restored) != 0 {
			t.Errorf("case %d: counts %+v, re-checking every input %+v", i, fastCnt, slowCnt)
		}
		if text(fast) != text(slow) {
			t.Errorf("case %d: pruned\n%s\nre-checking every input\n%s", i, text(fast), text(slow))
		}
	}
}

// countUses counts the uses of each value of f by its layout's
// instructions, afresh.
func countUses(f *ir.Function) []int {
	uses := make([]int, len(f.Values))
	for _, b := range f.Layout {
		for _, inst := range f.Blocks[b].Insts {
			d := &f.Insts[inst]
			vals := slices.Clone(d.Args)
			for _, c := range d.Dests {
				for _, a := range c.Args {
					if a.Kind == ir.ArgValue {
						vals = append(vals, a.Value)
					}
				}
			}
			for _, h := range d.Handlers {
				for _, a := range h.Dest.Args {
					if a.Kind == ir.ArgValue {
						vals = append(vals, a.Value)
					}
				}
			}
			for _, v := range vals {
				uses[f.Resolve(v)]++
			}
		}
	}
	return uses
}

// TestUseCounts: the uses sites counts in its pass are a fresh count's,
// and after pruning no guard is left that a fresh count shows dead (the
// counts removeDead went by followed the rewrites): on the table's cases
// and generated ones.
func TestUseCounts(t *testing.T) {
	var cases []sampleCase
	for _, tc := range moduleCases {
		mod := mustParse(t, tc.clif)
		cases = append(cases, sampleCase{text: tc.clif, entry: "%main", inputs: args(t, mod, tc.inputs)})
	}
	cases = append(cases, sampleCases(t, 100)...)
	for i, c := range cases {
		mod := c.module(t)
		var found [][]site
		for _, f := range mod.Funcs {
			fs, uses := sites(f)
			if want := countUses(f); !slices.Equal(uses, want) {
				t.Errorf("case %d, %s: sites counted uses %v, want %v", i, f.Name, uses, want)
			}
			found = append(found, fs)
		}
		if _, err := Module(mod, c.entry, c.inputs, refinterp.DefaultLimits); err != nil {
			t.Fatal(err)
		}
		for k, f := range mod.Funcs {
			uses := countUses(f)
			inLayout := map[ir.Inst]bool{}
			for _, b := range f.Layout {
				for _, inst := range f.Blocks[b].Insts {
					inLayout[inst] = true
				}
			}
			for _, s := range found[k] {
				for _, g := range s.chain {
					if inLayout[g.sel] && uses[f.Insts[g.sel].Results[0]] == 0 {
						t.Errorf("case %d, %s: the guard %s is left without uses", i, f.Name, g.sel)
					}
				}
			}
		}
		if errs := verify.ModuleWith(mod, verify.DefaultOptions()); len(errs) > 0 {
			t.Errorf("case %d: the pruned module does not verify: %v", i, errs)
		}
	}
}

// TestSameOperand: the guards whose selects precede their consumer in
// its block, with no redefinition of raw between, skip the re-check.
func TestSameOperand(t *testing.T) {
	// v9 is defined between the select and the division (not SSA: the
	// select reads it before its definition).
	const rawBetween = `function %main(i64, i64) -> i64 {
block0(v0: i64, v1: i64):
@c1ff v2 = iconst.i64 0
@c1ff v3 = icmp eq v9, v2
@c1ff v4 = iconst.i64 1
@c1ff v5 = select v3, v4, v9
    v9 = iadd v0, v1
    v6 = udiv v0, v5
    return v6
}
`
	for _, tc := range []struct {
		name, clif string
		want       []bool // by site
	}{
		{"one guard", udivGuarded, []bool{true}},
		{"a chain", sdivGuarded, []bool{true}},
		{"in a loop", guardedLoop, []bool{true}},
		{"a chain in another block", sdivAcrossBlocks, []bool{false}},
		{"raw defined between", rawBetween, []bool{false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mod := mustParse(t, tc.clif)
			var got []bool
			found, _ := sites(mod.Func("%main"))
			for _, s := range found {
				got = append(got, sameOperand(s.chain))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("sameOperand by site: %v, want %v", got, tc.want)
			}
		})
	}
}
