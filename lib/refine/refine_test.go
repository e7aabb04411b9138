package refine

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"cliff/lib/analysis"
	"cliff/lib/ir"
	"cliff/lib/metrics"
	"cliff/lib/record"
)

func TestSelect(t *testing.T) {
	for _, tt := range []struct {
		names []string
		want  []string
		err   string
	}{
		{nil, nil, ""},
		{[]string{"sink", "merge"}, []string{"merge", "sink"}, ""},
		{[]string{"operands", "decoy", "sink", "merge"}, []string{"decoy", "merge", "operands", "sink"}, ""},
		{[]string{"merge", "fold"}, nil, `unknown pass "fold" (passes: decoy, merge, operands, sink, prune)`},
		{[]string{"sink", "sink"}, nil, `pass "sink" named twice`},
	} {
		got, err := Select(tt.names)
		switch {
		case tt.err != "" && (err == nil || err.Error() != tt.err):
			t.Errorf("Select(%v) error = %v, want %q", tt.names, err, tt.err)
		case tt.err == "" && (err != nil || !slices.Equal(Names(got), tt.want)):
			t.Errorf("Select(%v) = %v, %v; want %v", tt.names, Names(got), err, tt.want)
		}
	}
}

// TestVerifyEachNamesTheBrokenPass: a pass that breaks the function is
// caught right after it ran, named, with the verifier's errors; an input
// that does not verify is an InputError before any pass runs.
func TestVerifyEachNamesTheBrokenPass(t *testing.T) {
	dropTerminator := Pass{Name: "broken", run: func(f *ir.Function, _ *rng, _ *analyses) {
		insts := f.Blocks[f.Layout[0]].Insts
		f.Blocks[f.Layout[0]].Insts = insts[:len(insts)-1]
	}}
	merge, _ := Select([]string{"merge"})
	mod := readModule(t, "diamond")
	_, err := Module(mod, 1, 1, Options{Passes: append(merge, dropTerminator), VerifyEach: true})
	var pe *PassError
	if !errors.As(err, &pe) || pe.Pass != "broken" || len(pe.Errs) == 0 || !strings.Contains(err.Error(), "pass broken produced invalid CLIF") {
		t.Fatalf("Module with a broken pass: %v, want a PassError naming it", err)
	}

	// Now mod is broken: as input, it is rejected before merge runs.
	_, err = Module(mod, 1, 1, Options{Passes: merge, VerifyEach: true})
	var ie *InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "input does not verify") {
		t.Fatalf("Module on an invalid input: %v, want an InputError", err)
	}
}

// TestCase: Case rewrites the CLIF, appends the passes to Refined,
// recomputes the metrics (dropping a stale survival), drops the results
// of the old code, and gives the same bytes for the same case, other
// bytes for another case index.
func TestCase(t *testing.T) {
	clif := text(readModule(t, "calls"))
	stale := 0.5
	c := record.Case{ID: "c", Seed: 9, CLIF: clif, Refined: []string{"merge"},
		Metrics: record.Metrics{Insts: 1, Survival: &stale},
		Results: []record.RunResult{{Config: record.Config{Arch: "x86_64", OptLevel: "none", Executor: record.ExecNative}, Status: record.StatusOK}}}
	if err := Case(&c, Options{Passes: Passes()}); err != nil {
		t.Fatal(err)
	}
	if c.CLIF == clif {
		t.Error("the CLIF did not change")
	}
	if len(c.Results) != 0 {
		t.Errorf("Results = %+v, want none: they are the old code's", c.Results)
	}
	if want := []string{"merge", "decoy", "merge", "operands", "sink"}; !slices.Equal(c.Refined, want) {
		t.Errorf("Refined = %v, want %v", c.Refined, want)
	}
	if want := metrics.Of(parse(t, c.CLIF)); c.Metrics.Insts != want.Insts || c.Metrics.Survival != nil {
		t.Errorf("Metrics = %+v, want those of the refined CLIF (%d insts) without survival", c.Metrics, want.Insts)
	}

	again := record.Case{ID: "c", Seed: 9, CLIF: clif}
	if err := Case(&again, Options{Passes: Passes()}); err != nil {
		t.Fatal(err)
	}
	if again.CLIF != c.CLIF {
		t.Error("the same case refined twice gave different CLIF")
	}
	other := record.Case{ID: "c", Seed: 9, CLIF: clif}
	other.Options.Index = 1
	if err := Case(&other, Options{Passes: Passes()}); err != nil {
		t.Fatal(err)
	}
	if other.CLIF == c.CLIF {
		t.Error("another case index gave the same CLIF: the random streams ignore it")
	}
}

// TestCaseReportsUnparsableCLIF: an InputError carrying the parser's
// position within the CLIF.
func TestCaseReportsUnparsableCLIF(t *testing.T) {
	c := record.Case{ID: "c", CLIF: "function %f() {\nblock0:\n    bogus\n}\n"}
	err := Case(&c, Options{Passes: Passes()})
	var ie *InputError
	if !errors.As(err, &ie) || !strings.HasPrefix(err.Error(), "clif:3:5: ") {
		t.Errorf("Case on unparsable CLIF: %v, want an InputError at clif:3:5", err)
	}
}

// TestPassesThatKeepAnalysesDo: a pass marked keepsCFG hands the next
// pass its CFG and dominator tree, one marked keepsUses its use counts;
// they must be what computing them afresh after the pass gives, or the
// next pass works on stale facts. Decoy's splits of generated code are
// all followed (CFG.SplitBlock), not left to a recomputation.
func TestPassesThatKeepAnalysesDo(t *testing.T) {
	split := 0
	for _, c := range benchCases(t)[:16] {
		mod := parse(t, c.CLIF)
		for i, f := range mod.Funcs {
			a := &analyses{f: f, scratch: new(scratch)}
			for _, p := range table {
				if p.run == nil {
					continue // prune: a step of the case
				}
				blocks := len(f.Blocks)
				p.run(f, newRNG(c.Seed, c.Options.Index, p.Name, i), a)
				if p.Name == "decoy" && len(f.Blocks) > blocks {
					split++
					if !a.haveCFG || !a.haveDT {
						t.Errorf("case %s, %s: decoy left its CFG to be computed afresh", c.ID, f.Name)
					}
				}
				a.forget(&p)
				if p.keepsCFG {
					if diff := cfgDiff(a.CFG(), a.DomTree(), f); diff != "" {
						t.Fatalf("case %s, %s, after %s (keepsCFG): %s", c.ID, f.Name, p.Name, diff)
					}
				}
				if a.haveUses && !slices.Equal(a.Uses(), useCounts(f, nil)) {
					t.Fatalf("case %s, %s, after %s (keepsUses): use counts differ from a recount", c.ID, f.Name, p.Name)
				}
			}
		}
	}
	if split == 0 {
		t.Error("decoy split no block")
	}
}

// cfgDiff compares a CFG and dominator tree with fresh ones of f.
func cfgDiff(cfg *analysis.CFG, dt *analysis.DomTree, f *ir.Function) string {
	fresh := analysis.NewCFG(f)
	freshDT := analysis.NewDomTree(fresh)
	if !slices.Equal(cfg.Layout(), fresh.Layout()) || !slices.Equal(cfg.RPO(), fresh.RPO()) {
		return "layout or RPO differ"
	}
	for _, b := range fresh.Layout() {
		if !slices.Equal(cfg.Succs(b), fresh.Succs(b)) || !slices.Equal(cfg.Preds(b), fresh.Preds(b)) {
			return fmt.Sprintf("edges of block%d differ", b)
		}
		if dt.Idom(b) != freshDT.Idom(b) {
			return fmt.Sprintf("idom of block%d differs", b)
		}
	}
	for inst := range f.Insts {
		i := ir.Inst(inst)
		if cfg.InstBlock(i) != fresh.InstBlock(i) || cfg.InstIndex(i) != fresh.InstIndex(i) {
			return fmt.Sprintf("inst%d is placed elsewhere", inst)
		}
	}
	return ""
}
