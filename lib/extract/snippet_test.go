package extract

import (
	"reflect"
	"testing"

	"cliff/lib/parser"
	"cliff/lib/printer"
	"cliff/lib/record"
)

// snippetsOf parses src and abstracts every block of its first function.
func snippetsOf(t *testing.T, src string) []record.Snippet {
	t.Helper()
	file, err := parser.ParseFile("t.clif", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	f := file.Funcs[0]
	outside := usedOutsideBody(f)
	lines := printer.Options{NoConstComments: true}.NewLines(f)
	var out []record.Snippet
	for _, b := range f.Layout {
		if s, ok := blockSnippet("t.clif", f, b, outside, lines); ok {
			if err := s.Validate(); err != nil {
				t.Fatalf("invalid snippet: %v", err)
			}
			out = append(out, s)
		}
	}
	return out
}

func TestBlockSnippetImmediates(t *testing.T) {
	src := `function %f(i64, i32, f32, i32x4) -> i32 {
    ss0 = explicit_slot 16
    fn0 = %g(i32) -> i32
block0(v0: i64, v1: i32, v2: f32, v3: i32x4):
    v4 = load.i32 notrap aligned v0+8
    store little v1, v0-4
    v5 = icmp slt v1, v4
    v6 = fcmp uno v2, v2
    v7 = extractlane v3, 2
    v8 = atomic_rmw.i32 xchg v0, v1
    v9 = stack_addr.i64 ss0+4
    v10 = call fn0(v1)
    v11 = f32const 0x1.8p1
    v12 = vconst.i32x4 [1 2 3 4]
    trapz v1, user7
    return v10
}`
	s := snippetsOf(t, src)
	if len(s) != 1 {
		t.Fatalf("got %d snippets, want 1", len(s))
	}
	want := []record.Imms{
		{Flags: "notrap aligned", Offset: "+8"},
		{Flags: "little", Offset: "-4"},
		{Cond: "slt"},
		{Cond: "uno"},
		{Lane: "2"},
		{RmwOp: "xchg"},
		{Entity: "ss0", Offset: "+4"},
		{Entity: "fn0"},
		{Imm: "0x1.800000p1"},
		{Bytes: "0x00000004000000030000000200000001"},
		{Trap: "user7"},
	}
	if len(s[0].Insts) != len(want) {
		t.Fatalf("got %d instructions, want %d (terminator excluded)", len(s[0].Insts), len(want))
	}
	for i, w := range want {
		if got := s[0].Insts[i].Imms; got != w {
			t.Errorf("inst %d (%s): imms %+v, want %+v", i, s[0].Insts[i].Text, got, w)
		}
	}
	// Inputs are numbered by first use: v0 (in load), v1 (store), v2, v3.
	if want := []string{"i64", "i32", "f32", "i32x4"}; !reflect.DeepEqual(s[0].Params, want) {
		t.Errorf("params %v, want %v", s[0].Params, want)
	}
	// Only v10 is used after the body (by return).
	if got := s[0].Outputs; !reflect.DeepEqual(got, []record.Ref{record.ResultRef(7, 0)}) {
		t.Errorf("outputs %v, want [r7.0]", got)
	}
}

func TestBlockSnippetAbstraction(t *testing.T) {
	// v4 is an alias of v1; the body of block1 uses block1's param, a value
	// from block0 and its own results; v7 flows to block2 as a branch arg.
	src := `function %f(i32, i32) -> i32 {
block0(v0: i32, v1: i32):
    v2 = iadd v0, v1
    jump block1(v2)

block1(v3: i32):
    v4 -> v1
    v5 = imul v3, v4
    v6 = isub v5, v0
    v7 = iadd v6, v6
    brif v5, block2(v7), block2(v6)

block2(v8: i32):
    return v8
}`
	s := snippetsOf(t, src)
	if len(s) != 2 {
		t.Fatalf("got %d snippets, want 2 (block2 has no body)", len(s))
	}
	b1 := s[1]
	if b1.Source.Block != "block1" || b1.Source.Line != 8 {
		t.Errorf("source %+v, want block1 at line 8", b1.Source)
	}
	args := func(i int) []string {
		var out []string
		for _, r := range b1.Insts[i].Args {
			out = append(out, r.String())
		}
		return out
	}
	for i, want := range [][]string{{"in0", "in1"}, {"r0.0", "in2"}, {"r1.0", "r1.0"}} {
		if got := args(i); !reflect.DeepEqual(got, want) {
			t.Errorf("inst %d args %v, want %v", i, got, want)
		}
	}
	// v5 (brif condition), v6 and v7 (branch args) are used after the body.
	want := []record.Ref{record.ResultRef(0, 0), record.ResultRef(1, 0), record.ResultRef(2, 0)}
	if !reflect.DeepEqual(b1.Outputs, want) {
		t.Errorf("outputs %v, want %v", b1.Outputs, want)
	}
}

func TestSnippetIDIgnoresNames(t *testing.T) {
	a := snippetsOf(t, `function %a(i64) -> i64 {
block0(v0: i64):
    v1 = iconst.i64 3
    v2 = ishl v0, v1
    return v2
}`)
	b := snippetsOf(t, `function %b(i64) -> i64 {
block7(v30: i64):
    v31 = iconst.i64 3
    v32 = ishl v30, v31
    return v32
}`)
	c := snippetsOf(t, `function %c(i64) -> i64 {
block0(v0: i64):
    v1 = iconst.i64 4
    v2 = ishl v0, v1
    return v2
}`)
	if a[0].ID != b[0].ID {
		t.Errorf("renamed values and blocks changed the ID: %s vs %s", a[0].ID, b[0].ID)
	}
	if a[0].ID == c[0].ID {
		t.Errorf("a different immediate kept the ID %s", a[0].ID)
	}
}
