package coverage

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// generatedSample is the shape of ISLE's generated Rust: constructors whose
// rules end in a return, nested tests, a multi-line struct literal, and a
// multi-constructor that pushes results. Line numbers matter: see the
// table below.
const generatedSample = `// Generated as internal constructor for term lower.
pub fn constructor_lower<C: Context>(
    ctx: &mut C,
    arg0: Inst,
) -> Option<InstOutput> {
    let v1 = C::inst_data(ctx, arg0);
    if let Some(v2) = v1 {
        let v3 = C::ty_int(ctx, v2);
        let v4 = constructor_x64_add(ctx, v3);
        // Rule at src/isa/x64/lower.isle line 10.
        return Some(v4);
    }
    if let &Opcode::Iadd = v1 {
        let v5 = &MInst::AluRmiR {
            op: v1,
        };
        // Rule at src/isa/x64/lower.isle line 20.
        return Some(v5);
    }
    let v6 = C::other(ctx, arg0);
    // Rule at src/isa/x64/inst.isle line 30.
    return v6;
}

pub fn constructor_simplify<C: Context>(ctx: &mut C, returns: &mut ConstructorVec<Value>) {
    if v1 == v2 {
        let v7 = constructor_ule(ctx, v1);
        // Rule at src/opts/bitops.isle line 40.
        returns.extend(Some(v7));
        if returns.len() >= MAX_ISLE_RETURNS { return; }
        let v8 = constructor_ugt(ctx, v2);
        // Rule at src/opts/bitops.isle line 41.
        returns.extend(Some(v8));
        if returns.len() >= MAX_ISLE_RETURNS { return; }
    }
}
`

func TestParseRules(t *testing.T) {
	sites, err := ParseRules([]byte(generatedSample))
	if err != nil {
		t.Fatal(err)
	}
	// ISLE counts lines from 0: "line 10" is the rule on line 11.
	want := []RuleSite{
		// The rule's own lets and its return; not the shared test above.
		{Rule{"src/isa/x64/lower.isle", 11}, 8, 11},
		// A struct literal's closing "};" is part of the let.
		{Rule{"src/isa/x64/lower.isle", 21}, 14, 18},
		// After a nested block's "}": only what follows it.
		{Rule{"src/isa/x64/inst.isle", 31}, 20, 22},
		// Multi-constructor: up to the early return; the next rule starts
		// after it.
		{Rule{"src/opts/bitops.isle", 41}, 27, 30},
		{Rule{"src/opts/bitops.isle", 42}, 31, 34},
	}
	show := func(ss []RuleSite) (out []string) {
		for _, s := range ss {
			out = append(out, fmt.Sprintf("%s@%d-%d", s.Rule, s.From, s.To))
		}
		return out
	}
	if !slices.Equal(sites, want) {
		t.Errorf("ParseRules:\n have %v\n want %v", show(sites), show(want))
	}
}

func TestCoverRules(t *testing.T) {
	sites := []RuleSite{
		{Rule{"a.isle", 1}, 10, 12},
		{Rule{"a.isle", 2}, 20, 22},
		{Rule{"a.isle", 3}, 30, 31},
		{Rule{"a.isle", 1}, 40, 41}, // a second site of rule 1
		{Rule{"a.isle", 4}, 50, 50},
	}
	tests := []struct {
		name                              string
		instrumented, covered             LineSet
		wantCovered, wantUncov, wantUnmes []int
	}{
		{
			name:         "nothing ran",
			instrumented: LineSet{11: true, 21: true, 40: true},
			covered:      LineSet{},
			wantUncov:    []int{1, 2}, wantUnmes: []int{3, 4},
		},
		{
			name:         "a rule is covered by any of its sites",
			instrumented: LineSet{11: true, 21: true, 40: true, 50: true},
			covered:      LineSet{40: true, 50: true},
			wantCovered:  []int{1, 4}, wantUncov: []int{2}, wantUnmes: []int{3},
		},
		{
			name:         "a covered line outside every site covers no rule",
			instrumented: LineSet{11: true, 15: true},
			covered:      LineSet{15: true},
			wantUncov:    []int{1}, wantUnmes: []int{2, 3, 4},
		},
	}
	lines := func(rs []Rule) []int {
		var out []int
		for _, r := range rs {
			out = append(out, r.Line)
		}
		return out
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rc := CoverRules(sites, tt.instrumented, tt.covered)
			if got := lines(rc.Covered); !slices.Equal(got, tt.wantCovered) {
				t.Errorf("covered %v, want %v", got, tt.wantCovered)
			}
			if got := lines(rc.Uncovered); !slices.Equal(got, tt.wantUncov) {
				t.Errorf("uncovered %v, want %v", got, tt.wantUncov)
			}
			if got := lines(rc.Unmeasured); !slices.Equal(got, tt.wantUnmes) {
				t.Errorf("unmeasured %v, want %v", got, tt.wantUnmes)
			}
		})
	}
}

// A listed rule is shown with its first line, read from the crate's source
// or from OUT_DIR.
func TestRuleSources(t *testing.T) {
	crate, out := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(crate, "src/isa/x64"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(crate, "src/isa/x64"), "lower.isle", ";; iadd\n  (rule (lower (iadd x y))\n      (x64_add x y))\n")
	writeFile(t, out, "assembler.isle", "(rule (x64_add_raw a b) (x))\n")
	s := &ruleSources{crateDir: crate, outDir: out, files: map[string][]string{}}
	for _, tt := range []struct {
		rule Rule
		want string
	}{
		{Rule{"src/isa/x64/lower.isle", 2}, "(rule (lower (iadd x y))"},
		{Rule{"<OUT_DIR>/assembler.isle", 1}, "(rule (x64_add_raw a b) (x))"},
		{Rule{"src/isa/x64/lower.isle", 9}, ""}, // past the end
		{Rule{"src/missing.isle", 1}, ""},
	} {
		if got := s.text(tt.rule); got != tt.want {
			t.Errorf("text(%v) = %q, want %q", tt.rule, got, tt.want)
		}
	}
}
