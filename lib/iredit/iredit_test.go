package iredit_test

import (
	"strings"
	"testing"

	"cliff/lib/analysis"
	"cliff/lib/ir"
	"cliff/lib/iredit"
	"cliff/lib/verify"
)

const loopSrc = `function %f(i32, i16) -> i16 {
block0(v0: i32, v1: i16):
@c1ff v2 = iconst.i32 3
@c1ff v3 = band v0, v2
@c1ff v4 = iconst.i32 0
@c1ff jump block1(v4, v1)

block1(v5: i32, v6: i16):
@c1ff v7 = icmp ult v5, v3
@c1ff brif v7, block2, block3(v6)

block2:
@c1ff v8 = iconst.i16 0
@c1ff v9 = icmp eq v6, v8
@c1ff v10 = iconst.i16 1
@c1ff v11 = select v9, v10, v6
    v12 = udiv v6, v11
    v13 = iadd v12, v1
@c1ff v14 = iconst.i32 1
@c1ff v15 = iadd v5, v14
@c1ff jump block1(v15, v13)

block3(v16: i16):
    v17 = imul v16, v16
    return v17
}
`

func parse(t *testing.T, src string) *ir.Module {
	t.Helper()
	m, err := iredit.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func verified(t *testing.T, m *ir.Module) string {
	t.Helper()
	iredit.Cleanup(m)
	text := iredit.Text(m)
	m2, err := iredit.Parse(text)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if errs := verify.Module(m2); len(errs) > 0 {
		t.Fatalf("edit left an invalid function: %v\n%s", errs, text)
	}
	return text
}

func TestReplaceable(t *testing.T) {
	m := parse(t, loopSrc)
	f := m.Funcs[0]
	u := iredit.IndexUses(f)
	for _, tc := range []struct {
		v    ir.Value
		want bool
		why  string
	}{
		{13, false, "v13 goes back to v6 through the scaffold back edge, and the guard (scaffold) reads v6"},
		{16, true, "the exit's param, which only a free imul reads"},
		{12, true, "an iadd operand"},
		{11, false, "the guarded divisor"},
		{15, false, "the trip counter, passed to v5, which the loop test reads"},
		{17, true, "a returned value"},
	} {
		if got := iredit.Replaceable(f, u, tc.v); got != tc.want {
			t.Errorf("Replaceable(v%d) = %v, want %v: %s", tc.v, got, tc.want, tc.why)
		}
	}
}

func TestDefineConst(t *testing.T) {
	for _, typ := range []string{"i8", "i16", "i32", "i64", "i128", "f16", "f32", "f64", "f128", "i8x16", "f32x4", "i64x2"} {
		t.Run(typ, func(t *testing.T) {
			src := "function %f(" + typ + ") -> " + typ + " {\nblock0(v0: " + typ + "):\n    return v0\n}\n"
			m := parse(t, src)
			f := m.Funcs[0]
			v := ir.Value(len(f.Values))
			f.Values = append(f.Values, ir.ValueData{Type: f.Values[0].Type})
			if iredit.DefineConst(f, f.Layout[0], 0, v, 1) == 0 {
				t.Fatal("no constant")
			}
			iredit.ReplaceUses(f, 0, v)
			text := verified(t, m)
			if strings.Contains(text, "return v0") {
				t.Errorf("the return still uses v0:\n%s", text)
			}
		})
	}
}

func TestLoops(t *testing.T) {
	m := parse(t, loopSrc)
	f := m.Funcs[0]
	if !iredit.Terminates(f) {
		t.Fatal("the loop has an exit")
	}
	// Collapsing the loop test to its body leaves a cycle without exit.
	c := parse(t, loopSrc)
	if !iredit.CollapseBranch(c.Funcs[0], 1, 0) || iredit.Terminates(c.Funcs[0]) {
		t.Error("a loop without exit passes Terminates")
	}
	// Running it once: no cycle left, the division stays with its guard.
	if !iredit.RunLoopOnce(f, 1) {
		t.Fatal("RunLoopOnce refused a while loop")
	}
	text := verified(t, m)
	if cfg := analysis.NewCFG(f); len(cfg.Preds(1)) != 1 {
		t.Errorf("block1 still has a back edge:\n%s", text)
	}
	if !strings.Contains(text, "jump block3(v13)") || !strings.Contains(text, "v12 = udiv.i16 v6, v11") {
		t.Errorf("the body does not run once into the exit:\n%s", text)
	}
}

func TestEarlyReturnAndCut(t *testing.T) {
	m := parse(t, loopSrc)
	f := m.Funcs[0]
	// A barrier after the udiv returns the latest i16: v12.
	if !iredit.EarlyReturn(f, 2, 5) {
		t.Fatal("EarlyReturn refused")
	}
	text := verified(t, m)
	if !strings.Contains(text, "return v12") {
		t.Errorf("the barrier does not return the current i16:\n%s", text)
	}
	// Keeping block0 and block1 cuts the edges to block2 and block3.
	m = parse(t, loopSrc)
	f = m.Funcs[0]
	if !iredit.CutOutside(f, map[ir.Block]bool{0: true, 1: true}) {
		t.Fatal("CutOutside refused")
	}
	text = verified(t, m)
	if strings.Contains(text, "udiv") || strings.Contains(text, "imul") {
		t.Errorf("blocks outside the prefix remain:\n%s", text)
	}
}

func TestRemoveSlot(t *testing.T) {
	src := `function %f(i64) -> i64 {
    ss0 = explicit_slot 8
    ss1 = explicit_slot 8

block0(v0: i64):
@c1ff v1 = stack_addr.i64 ss0
@c1ff v2 = iconst.i64 0
@c1ff store notrap aligned v2, v1
    store notrap aligned v0, v1
@c1ff v3 = stack_addr.i64 ss1
@c1ff store notrap aligned v2, v3
    v4 = load.i64 notrap aligned v3
    return v4
}
`
	m := parse(t, src)
	if iredit.RemoveSlot(m.Funcs[0], 1) {
		t.Error("removed a slot that is loaded")
	}
	m = parse(t, src)
	if !iredit.RemoveSlot(m.Funcs[0], 0) {
		t.Fatal("refused a slot only stored to")
	}
	text := verified(t, m)
	if strings.Contains(text, "ss0") || strings.Count(text, "store") != 1 {
		t.Errorf("ss0 and its stores remain:\n%s", text)
	}
}

// TestReturnOnly: a function nobody calls returns the chosen value alone,
// and what only its old return needed goes; a called function, or one
// that returns the value already, is left as it is.
func TestReturnOnly(t *testing.T) {
	for _, tc := range []struct {
		name, src, fn string
		inst          int // the instruction (in entry block order) whose result is returned
		ok            bool
		want          string
	}{
		{"keep-alive chain goes", "function %f(i8) -> i8 {\nblock0(v0: i8):\n    v5 = scalar_to_vector.i8x16 v0\n    v6 = extractlane v5, 3\n    return v6\n}\n", "%f", 0, true,
			"function %f(i8) -> i8x16 {\nblock0(v0: i8):\n    v5 = scalar_to_vector.i8x16 v0\n    return v5\n}\n"},
		{"returns it already", "function %f(i8) -> i8 {\nblock0(v0: i8):\n    v1 = iadd v0, v0\n    return v1\n}\n", "%f", 0, false, ""},
		{"called", "function %g(i8) -> i8 {\nblock0(v0: i8):\n    v1 = iadd v0, v0\n    v2 = iadd v1, v0\n    return v2\n}\n\nfunction %f(i8) -> i8 {\n    fn0 = %g(i8) -> i8\n\nblock0(v0: i8):\n    v1 = call fn0(v0)\n    return v1\n}\n", "%g", 0, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := iredit.Parse(tc.src)
			if err != nil {
				t.Fatal(err)
			}
			f := m.Func(tc.fn)
			r := f.Insts[f.Blocks[f.Layout[0]].Insts[tc.inst]].Results[0]
			if ok := iredit.ReturnOnly(m, tc.fn, r); ok != tc.ok {
				t.Fatalf("ReturnOnly = %v, want %v", ok, tc.ok)
			}
			if !tc.ok {
				if got := iredit.Text(m); got != iredit.Text(mustParse(t, tc.src)) {
					t.Errorf("changed although it could not:\n%s", got)
				}
				return
			}
			if got := iredit.Text(m); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func mustParse(t *testing.T, src string) *ir.Module {
	t.Helper()
	m, err := iredit.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// ReturnThroughCaller: a callee's value reaches the entry's output through
// the one call, the entry cut right after it; it refuses a callee called
// twice, one called through a tail call, and an address.
func TestReturnThroughCaller(t *testing.T) {
	const callee = "function %g(i8) -> i8 {\nblock0(v0: i8):\n    v1 = uextend.i16 v0\n    v2 = ireduce.i8 v1\n    v3 = iadd v2, v0\n    return v3\n}\n\n"
	for _, tc := range []struct {
		name, src string
		inst      int // the instruction (in %g's entry block) whose result shows
		ok        bool
		want      string
	}{
		{"once, then more code and a branch", callee + "function %f(i8) -> i8 {\n    fn0 = %g(i8) -> i8\n\nblock0(v0: i8):\n    brif v0, block1, block2\n\nblock1:\n    v1 = call fn0(v0)\n    v2 = iadd v1, v0\n    return v2\n\nblock2:\n    return v0\n}\n", 0, true,
			"function %g(i8) -> i16 {\nblock0(v0: i8):\n    v1 = uextend.i16 v0\n    return v1\n}\n\nfunction %f(i8) -> i16 {\n    sig0 = (i8) -> i16\n    fn0 = %g sig0\n\nblock0(v0: i8):\n    brif v0, block1, block2\n\nblock1:\n    v3 = call fn0(v0)\n    return v3\n\nblock2:\n    v4 = iconst.i16 0\n    return v4\n}\n"},
		{"called twice", callee + "function %f(i8) -> i8 {\n    fn0 = %g(i8) -> i8\n\nblock0(v0: i8):\n    v1 = call fn0(v0)\n    v2 = call fn0(v1)\n    return v2\n}\n", 0, false, ""},
		{"tail call", callee + "function %f(i8) -> i8 tail {\n    fn0 = %g(i8) -> i8\n\nblock0(v0: i8):\n    return_call fn0(v0)\n}\n", 0, false, ""},
		{"address", "function %h() {\nblock0:\n    return\n}\n\nfunction %g(i8) -> i8 {\n    fn0 = %h()\n\nblock0(v0: i8):\n    v1 = func_addr.i64 fn0\n    return v0\n}\n\nfunction %f(i8) -> i8 {\n    fn0 = %g(i8) -> i8\n\nblock0(v0: i8):\n    v1 = call fn0(v0)\n    return v1\n}\n", 0, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := mustParse(t, tc.src)
			g := m.Func("%g")
			r := g.Insts[g.Blocks[g.Layout[0]].Insts[tc.inst]].Results[0]
			if ok := iredit.ReturnThroughCaller(m, "%f", "%g", r); ok != tc.ok {
				t.Fatalf("ReturnThroughCaller = %v, want %v", ok, tc.ok)
			}
			if !tc.ok {
				if got := iredit.Text(m); got != iredit.Text(mustParse(t, tc.src)) {
					t.Errorf("changed although it could not:\n%s", got)
				}
				return
			}
			iredit.Cleanup(m)
			if got := iredit.Text(m); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			if errs := verify.Module(mustParse(t, iredit.Text(m))); len(errs) > 0 {
				t.Errorf("does not verify: %v", errs)
			}
		})
	}
}
