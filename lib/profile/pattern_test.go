package profile_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"cliff/lib/ir"
	"cliff/lib/parser"
	"cliff/lib/profile"
)

// TestMaskPatternSyntax: operand-producer entries parse, and
// FormatMaskEntry spells them canonically (operands by name), in a form
// ParseMask reads back as the same entry.
func TestMaskPatternSyntax(t *testing.T) {
	tests := []struct{ line, want string }{
		{"select_spectre_guard * riscv64 c=uextend.i128(icmp)", ""},
		{"select_spectre_guard * riscv64 0=uextend.i128(icmp)", "select_spectre_guard * riscv64 c=uextend.i128(icmp)"},
		{"bmask *:i128 riscv64 x=uextend.i128(fcmp)", ""},
		{"band * riscv64 *=ushr.*:i128", ""},
		{"select i128 x86_64 c=icmp", ""},
		{"swizzle - riscv64 y=splat.i8x16(ireduce.i8)", ""},
		{"iadd i32 * x=iadd(_,iconst) y=isub.i32", ""},
		{"iadd * aarch64", ""}, // every controlling type
		{"select i64:i128 x86_64", ""},
		{"nop - *", ""},
	}
	for _, tt := range tests {
		want := tt.want
		if want == "" {
			want = tt.line
		}
		mask, err := profile.ParseMask("m", []byte(tt.line+"\n"))
		if err != nil {
			t.Errorf("%q: %v", tt.line, err)
			continue
		}
		got := profile.FormatMaskEntry(mask[0])
		if got != want {
			t.Errorf("FormatMaskEntry(%q) = %q, want %q", tt.line, got, want)
		}
		again, err := profile.ParseMask("m", []byte(got))
		if err != nil || !reflect.DeepEqual(again[0], mask[0]) {
			t.Errorf("%q does not read back as itself: %+v, %v", got, again, err)
		}
	}
}

// TestKnownMaskRoundTrips: every entry of known.mask, plain or pattern,
// is written by FormatMaskEntry as a line ParseMask reads back equal.
func TestKnownMaskRoundTrips(t *testing.T) {
	mask, err := profile.KnownMask()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range mask {
		line := profile.FormatMaskEntry(e)
		again, err := profile.ParseMask("m", []byte(line))
		if err != nil || len(again) != 1 || !reflect.DeepEqual(again[0], e) {
			t.Errorf("%q reads back as %+v, %v", line, again, err)
		}
	}
}

func TestMaskPatternErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"select i32 * q=icmp\n", "m:1: q=icmp: select has no operand \"q\" (operands: c, x, y)"},
		{"select i32 * 3=icmp\n", "m:1: 3=icmp: select has no operand 3"},
		{"select i32 * c\n", "m:1: c: want OPERAND=PRODUCER"},
		{"select i32 * c=_\n", "m:1: c=_: `_` matches anything"},
		{"select i32 * c=nosuch\n", "m:1: c=nosuch: unknown opcode \"nosuch\""},
		{"select i32 * c=uextend.i128(icmp\n", "m:1: c=uextend.i128(icmp: missing )"},
		{"select i32 * c=uextend(icmp,icmp)\n", "m:1: c=uextend(icmp,icmp): uextend has 1 operands, the pattern names 2"},
		{"select i32 * c=icmp)\n", "m:1: c=icmp): unexpected \")\""},
		{"select i32 * c=uextend.f32\n", "m:1: c=uextend.f32: uextend cannot have controlling type f32"},
		{"select i32 * c=iconst.i32\n", ""},
		{"select i32 * c=\n", "m:1: c=: missing producer at column 1"},
		{"select i32 * c=uextend(,icmp)\n", "m:1: c=uextend(,icmp): missing producer at column 9"},
		{"iadd i32:i8 *\n", "m:1: iadd has no free operand type"},
		{"iadd * * *=iconst\n", ""},
	}
	for _, tt := range tests {
		_, err := profile.ParseMask("m", []byte(tt.src))
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("ParseMask(%q): %v", tt.src, err)
		case tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.want)):
			t.Errorf("ParseMask(%q) error = %v, want prefix %q", tt.src, err, tt.want)
		}
	}
}

// patternFuncs holds, per function, instructions a pattern entry must
// and must not match: the forms of findings 06, 10, 11 and 20 and their
// near misses.
const patternFuncs = `
function %ssg(i32, i32, i64, i64, i128) -> i64, i64, i64 {
block0(v0: i32, v1: i32, v2: i64, v3: i64, v4: i128):
    v5 = icmp eq v0, v1
    v6 = uextend.i128 v5
    v7 = select_spectre_guard v6, v2, v3 ; match
    v8 = sextend.i128 v5
    v9 = select_spectre_guard v8, v2, v3
    v10 = select_spectre_guard v4, v2, v3
    v11 = uextend.i64 v5
    v12 = select_spectre_guard v11, v2, v3
    return v7, v9, v10
}

function %bext(i32, i64, i128) -> i32, i32, i32 {
block0(v0: i32, v1: i64, v2: i128):
    v3 = ushr v0, v2
    v4 = iconst.i32 1
    v5 = band v3, v4 ; match
    v6 = band v4, v3 ; match
    v7 = ushr v0, v1
    v8 = band v7, v4
    return v5, v6, v8
}

function %swz(i8x16, i8, i8x16) -> i8x16, i8x16 {
block0(v0: i8x16, v1: i8, v2: i8x16):
    v3 = splat.i8x16 v1
    v4 = swizzle v0, v3 ; match
    v5 = swizzle v3, v2
    v6 = swizzle v0, v2
    return v4, v5
}

function %alias(i32, i32, i64, i64) -> i64 {
block0(v0: i32, v1: i32, v2: i64, v3: i64):
    v4 = icmp ult v0, v1
    v5 = uextend.i128 v4
    v6 -> v5
    v7 = select_spectre_guard v6, v2, v3 ; match
    return v7
}
`

// TestPatternMatch: a pattern matches the instructions of its shape, by
// operand, producer opcode, type and nested producer, through aliases,
// and nothing else.
func TestPatternMatch(t *testing.T) {
	const mask = `
select_spectre_guard * riscv64 c=uextend.i128(icmp)
band * riscv64 *=ushr.*:i128
swizzle - riscv64 y=splat
`
	entries, err := profile.ParseMask("m", []byte(mask))
	if err != nil {
		t.Fatal(err)
	}
	p := load(t, "riscv64").Without(entries)
	if p.Patterns().Len() != 3 {
		t.Fatalf("riscv64 has %d patterns, want 3", p.Patterns().Len())
	}
	for _, op := range []string{"select_spectre_guard", "band", "swizzle"} {
		if len(p.Types(opc(t, op))) == 0 {
			t.Errorf("a pattern took %s out of the tables", op)
		}
	}
	if n := load(t, "x86_64").Without(entries).Patterns().Len(); n != 0 {
		t.Errorf("x86_64 has %d riscv64 patterns", n)
	}
	if !p.Patterns().Inner(opc(t, "uextend")) || p.Patterns().Inner(opc(t, "icmp")) || p.Patterns().Inner(opc(t, "ushr")) {
		t.Error("Inner: want uextend only (the one producer with a pattern of its operands)")
	}
	mod, err := parser.ParseModuleString("f.clif", patternFuncs)
	if err != nil {
		t.Fatal(err)
	}
	matched := 0
	for _, f := range mod.Funcs {
		_, text, _ := strings.Cut(patternFuncs, "function %"+strings.TrimPrefix(f.Name, "%")+"(")
		text, _, _ = strings.Cut(text, "function %")
		lines := strings.Split(text, "\n")
		for _, blk := range f.Layout {
			for _, inst := range f.Blocks[blk].Insts {
				d := &f.Insts[inst]
				if len(d.Results) == 0 {
					continue
				}
				res := "v" + strconv.Itoa(int(d.Results[0]))
				want := false
				for _, l := range lines {
					if strings.HasPrefix(strings.TrimSpace(l), res+" = ") {
						want = strings.HasSuffix(l, "; match")
					}
				}
				_, got := p.Patterns().Match(f, d)
				if got != want {
					t.Errorf("%s: %s %s: Match = %v, want %v", f.Name, res, d.Op, got, want)
				}
				if err := p.CheckInst(f, d); (err != nil) != want {
					t.Errorf("%s: %s: CheckInst = %v", f.Name, res, err)
				}
				if got {
					matched++
				}
			}
		}
	}
	if matched != 5 {
		t.Errorf("%d matches, want 5", matched)
	}
}

// TestWithoutAnyType: `*` as the controlling type removes every one.
func TestWithoutAnyType(t *testing.T) {
	entries, err := profile.ParseMask("m", []byte("iadd * x86_64\nselect *:i128 x86_64\n"))
	if err != nil {
		t.Fatal(err)
	}
	p := load(t, "x86_64")
	q := p.Without(entries)
	if len(p.Types(opc(t, "iadd"))) == 0 || len(q.Types(opc(t, "iadd"))) != 0 {
		t.Errorf("iadd * x86_64: types before %v, after %v", p.Types(opc(t, "iadd")), q.Types(opc(t, "iadd")))
	}
	sel := opc(t, "select")
	for _, ctrl := range p.Types(sel) {
		if q.AllowsFree(sel, ctrl, ir.I128) {
			t.Errorf("select %s:i128 still allowed", ctrl)
		}
		if p.AllowsFree(sel, ctrl, ir.I8) && !q.AllowsFree(sel, ctrl, ir.I8) {
			t.Errorf("select %s:i8 removed", ctrl)
		}
	}
}

// TestAppendMask: entries go to the end of the file, each under a comment
// with its cluster signature and reproducer; entries already in the file,
// or twice in one call, are not written again; a missing file is made;
// a file that does not parse is left alone.
func TestAppendMask(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.mask")
	old := "# known\nfpromote f64:f16 x86_64\nselect_spectre_guard * riscv64 0=uextend.i128(icmp)" // no final newline
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	entry := func(line string) profile.MaskEntry {
		t.Helper()
		m, err := profile.ParseMask("e", []byte(line))
		if err != nil {
			t.Fatal(err)
		}
		return m[0]
	}
	adds := []profile.MaskAddition{
		{Entry: entry("fpromote f64:f16 x86_64"), Signature: "panic x86_64", Repro: "a.clif"},
		{Entry: entry("select_spectre_guard * riscv64 c=uextend.i128(icmp)"), Signature: "same, spelt by name", Repro: "b.clif"},
		{Entry: entry("swizzle - riscv64 y=splat"), Signature: "miscompile riscv64\nat every opt level", Repro: "c.clif"},
		{Entry: entry("scalar_to_vector i8x16 x86_64"), Signature: "panic x86_64 bitcast_gpr_to_xmm", Repro: "d.clif"},
		{Entry: entry("swizzle - riscv64 1=splat"), Signature: "again", Repro: "e.clif"},
	}
	added, err := profile.AppendMask(path, adds)
	if err != nil {
		t.Fatal(err)
	}
	if len(added) != 2 {
		t.Errorf("appended %d entries, want 2: %v", len(added), added)
	}
	want := old + "\n# miscompile riscv64 at every opt level (c.clif)\nswizzle - riscv64 y=splat\n" +
		"# panic x86_64 bitcast_gpr_to_xmm (d.clif)\nscalar_to_vector i8x16 x86_64\n"
	got, _ := os.ReadFile(path)
	if string(got) != want {
		t.Errorf("file:\n%s\nwant:\n%s", got, want)
	}
	if added, err := profile.AppendMask(path, adds); err != nil || len(added) != 0 {
		t.Errorf("appending again: %v, %v; want nothing", added, err)
	}
	if got2, _ := os.ReadFile(path); string(got2) != want {
		t.Errorf("appending again changed the file:\n%s", got2)
	}
	fresh := filepath.Join(dir, "new.mask")
	if added, err := profile.AppendMask(fresh, adds[:1]); err != nil || len(added) != 1 {
		t.Fatalf("new file: %v, %v", added, err)
	}
	if got, _ := os.ReadFile(fresh); string(got) != "# panic x86_64 (a.clif)\nfpromote f64:f16 x86_64\n" {
		t.Errorf("new file:\n%s", got)
	}
	broken := filepath.Join(dir, "broken.mask")
	os.WriteFile(broken, []byte("iadd i32\n"), 0o644)
	if _, err := profile.AppendMask(broken, adds); err == nil || !strings.Contains(err.Error(), broken+":1:") {
		t.Errorf("broken file: %v, want its error", err)
	}
	if got, _ := os.ReadFile(broken); string(got) != "iadd i32\n" {
		t.Errorf("broken file changed: %q", got)
	}
}
