package gen

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cliff/lib/extract"
	"cliff/lib/ir"
	"cliff/lib/parents"
	"cliff/lib/record"
)

// testFunctions is a sample of the function records cliff-extract
// --functions makes from Cranelift's filetests: every tenth.
const testFunctions = "testdata/functions.jsonl.zst"

// testParents are the functions of testdata/parents.clif, extracted as
// cliff-extract --functions does.
func testParents(t testing.TB) *Parents {
	t.Helper()
	sources, err := extract.Expand([]string{"testdata/parents.clif"})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "functions.jsonl")
	if _, err := extract.Run(context.Background(), extract.Options{Sources: sources, Output: out, Functions: true}); err != nil {
		t.Fatal(err)
	}
	return loadParents(t, out)
}

// loadParents reads a crossover corpus as cliff-gen does (genrun).
func loadParents(t testing.TB, path string) *Parents {
	t.Helper()
	c, err := parents.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	funcs := make([]Parent, len(c.Funcs))
	for i, f := range c.Funcs {
		funcs[i] = Parent(f)
	}
	ps, err := NewParents(c.Path, c.Hash, c.Read, c.Refused, funcs)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// TestLoadParents: every function of the file but the loop is a parent,
// with its run lines.
func TestLoadParents(t *testing.T) {
	ps := testParents(t)
	var names []string
	for _, p := range ps.funcs {
		names = append(names, p.Source.Function)
	}
	if want := []string{"%sdiv_sel", "%load_add", "%calls", "%table", "%fbits"}; !slices.Equal(names, want) {
		t.Errorf("parents %v, want %v", names, want)
	}
	if ps.Read != 6 || ps.Refused["has a loop"] != 1 {
		t.Errorf("read %d, refused %v; want 6 read and the loop refused", ps.Read, ps.Refused)
	}
	if runs := ps.funcs[0].Runs; len(runs) != 2 || runs[1][0] != (record.Value{Type: "i32", Value: "-9"}) {
		t.Errorf("%%sdiv_sel's runs: %v", runs)
	}
}

// TestCrossoverCases: crossed cases of every way verify, keep lib/ub's
// invariants and the profile (with known.mask), name their parents, and
// take inputs from the parents' run lines; the opcodes a parent brings
// that the generator has no other source for (here: the stores of
// %load_add become stack stores, sdiv comes guarded) are there.
func TestCrossoverCases(t *testing.T) {
	ps := testParents(t)
	p := masked(t, "compat")
	for _, way := range crossWayFeatures {
		t.Run(way, func(t *testing.T) {
			opts := DefaultOptions(p, 11, 3)
			opts.Parents = ps
			opts.Features = map[string]bool{"crossover": true, "floats": true, "stack": true}
			for _, w := range crossWayFeatures {
				opts.Features[w] = w == way
			}
			g, err := New(opts)
			if err != nil {
				t.Fatal(err)
			}
			crossed, hinted, called := 0, 0, 0
			for i := range uint64(80) {
				c, mod := checkedCase(t, g, p, i)
				if strings.Contains(c.CLIF, "%external") || strings.Contains(c.CLIF, "trap user1") {
					t.Fatalf("case %d: a parent's call or trap got in\n%s", i, c.CLIF)
				}
				if len(c.Parents) > 0 {
					crossed++
				}
				for _, vec := range c.Inputs[:1] {
					for _, v := range vec {
						if v == (record.Value{Type: "i32", Value: "7"}) {
							hinted++
						}
					}
				}
				if way == "crossover_call" && len(mod.Funcs) > 1 && callsLast(mod) {
					called++
				}
			}
			if crossed < 20 {
				t.Errorf("%d of 80 cases crossed", crossed)
			}
			if way == "crossover_call" && called == 0 {
				t.Errorf("no case calls its crossover callee")
			}
			if way != "crossover_call" && hinted == 0 {
				t.Errorf("no case takes %%sdiv_sel's run line 7 as an input")
			}
		})
	}
}

// callsLast reports whether a function of mod calls its last function.
func callsLast(mod *ir.Module) bool {
	last := mod.Funcs[len(mod.Funcs)-1].Name
	for _, f := range mod.Funcs {
		for _, d := range f.Insts {
			if d.Op == ir.OpCall && f.FuncRefs[d.Func].Name == last {
				return true
			}
		}
	}
	return false
}

// TestCrossoverOffChangesNothing: given parents, a case with the
// crossover feature off is the case generated without them, CLIF and
// inputs, so that crossover shifts no other feature's choices.
func TestCrossoverOffChangesNothing(t *testing.T) {
	ps := testParents(t)
	p := masked(t, "compat")
	plain, err := New(DefaultOptions(p, 5, 4))
	if err != nil {
		t.Fatal(err)
	}
	opts := DefaultOptions(p, 5, 4)
	opts.Parents, opts.Features = ps, map[string]bool{"crossover": false}
	off, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	for i := range uint64(40) {
		a, _, err := plain.Case(i)
		if err != nil {
			t.Fatal(err)
		}
		b, _, err := off.Case(i)
		if err != nil {
			t.Fatal(err)
		}
		if a.CLIF != b.CLIF || !slices.EqualFunc(a.Inputs, b.Inputs, slices.Equal) || len(b.Parents) != 0 {
			t.Fatalf("case %d differs with crossover off", i)
		}
		if _, ok := a.Features["crossover"]; ok {
			t.Fatalf("case %d: a crossover feature drawn without parents", i)
		}
	}
}

// TestCrossoverFiletestsSample: cases crossing a sample of the filetests'
// functions, at campaign depth with the corpus and every way on, verify
// and keep lib/ub's invariants and the profile with known.mask, on compat
// and every target's profile.
func TestCrossoverFiletestsSample(t *testing.T) {
	ps := loadParents(t, testFunctions)
	if ps.Len() < ps.Read/2 {
		t.Errorf("%d of %d functions are parents (refused: %v)", ps.Len(), ps.Read, ps.Refused)
	}
	corpus, err := LoadCorpus(testCorpus)
	if err != nil {
		t.Fatal(err)
	}
	n := uint64(150)
	if testing.Short() {
		n = 20
	}
	for _, name := range []string{"compat", "x86_64", "aarch64", "riscv64", "s390x"} {
		t.Run(name, func(t *testing.T) {
			p := masked(t, name)
			opts := DefaultOptions(p, 23, 5)
			opts.Corpus, opts.Parents = corpus, ps
			opts.Features = map[string]bool{"crossover": true, "crossover_chain": true, "crossover_graft": true, "crossover_call": true}
			g, err := New(opts)
			if err != nil {
				t.Fatal(err)
			}
			crossed := 0
			for i := range n {
				c, _ := checkedCase(t, g, p, i)
				if len(c.Parents) >= 2 {
					crossed++
				}
			}
			if crossed < int(n)/2 {
				t.Errorf("%d of %d cases have two parents", crossed, n)
			}
		})
	}
}
