package refine

import (
	"slices"
	"testing"

	"cliff/lib/analysis"
	"cliff/lib/ir"
)

// TestUseCountsCountEveryUse checks useCounts, which writes out the loops
// of ir.InstData.ForEachUse, against ForEachUse itself, on generated
// modules before and after the passes (which add block args and
// accumulators) and on a try_call with handler args and contexts.
func TestUseCountsCountEveryUse(t *testing.T) {
	var mods []*ir.Module
	for _, m := range testModules(t, 20) {
		mods = append(mods, parse(t, m.clif), refined(t, m.clif, Names(Passes())...))
	}
	mods = append(mods, parse(t, tryCallCLIF))
	for _, mod := range mods {
		for _, f := range mod.Funcs {
			want := make([]int32, len(f.Values))
			for _, b := range f.Layout {
				for _, inst := range f.Blocks[b].Insts {
					f.Insts[inst].ForEachUse(func(v ir.Value) {
						if v = f.Resolve(v); int(v) < len(want) {
							want[v]++
						}
					})
				}
			}
			if got := useCounts(f, nil); !slices.Equal(got, want) {
				t.Errorf("%s: useCounts = %v, ForEachUse counts %v", f.Name, got, want)
			}
		}
	}
}

const tryCallCLIF = `function %f(i64, i32) -> i32 tail {
    sig0 = (i32) -> i32 tail
    fn0 = %g sig0

block0(v0: i64, v1: i32):
    try_call fn0(v1), sig0, block1(ret0, v1), [ context v0, tag1: block2(exn0, v1), default: block2(exn0, v1) ]

block1(v2: i32, v3: i32):
    return v2

block2(v4: i64, v5: i32):
    return v5
}
`

// TestCandidatesTableIsCandidate checks the analyses' table of candidates
// against candidate, value by value, when passes have added values since
// the table was first filled.
func TestCandidatesTableIsCandidate(t *testing.T) {
	for _, m := range testModules(t, 20) {
		mod := parse(t, m.clif)
		for _, f := range mod.Funcs {
			var a analyses
			a.reset(f, new(scratch))
			a.candidate(0)
			decoy(f, newRNG(1, 2, "decoy", 0), &a)
			for v := range f.Values {
				if got, want := a.candidate(ir.Value(v)), candidate(f, ir.Value(v)); got != want {
					t.Errorf("%s: %s v%d: table says candidate %v, candidate %v", m.name, f.Name, v, got, want)
				}
			}
		}
	}
}

// TestLivenessHandsOnUseCounts: the use counts merge takes from the
// liveness scan (analyses.liveness) are useCounts', on modules as decoy
// leaves them for merge and on one with an alias, which the scan does not
// count as useCounts does (Uses counts afresh then).
func TestLivenessHandsOnUseCounts(t *testing.T) {
	var mods []*ir.Module
	for i, m := range testModules(t, 20) {
		mod := parse(t, m.clif)
		for k, f := range mod.Funcs {
			var a analyses
			a.reset(f, new(scratch))
			decoy(f, newRNG(uint64(i), 2, "decoy", k), &a)
		}
		mods = append(mods, parse(t, m.clif), mod)
	}
	alias := parse(t, aliasCLIF)
	mods = append(mods, alias)
	wholes := 0
	for _, mod := range mods {
		for _, f := range mod.Funcs {
			var a analyses
			a.reset(f, new(scratch))
			a.liveness(new(analysis.Liveness))
			if a.haveUses {
				wholes++
				if mod == alias {
					t.Errorf("%s: the liveness scan counted the uses of a function with an alias", f.Name)
				}
			}
			if got, want := a.Uses(), useCounts(f, nil); !slices.Equal(got, want) {
				t.Errorf("%s: use counts %v after liveness, useCounts %v", f.Name, got, want)
			}
		}
	}
	if wholes == 0 {
		t.Error("the liveness scan never counted the uses")
	}
}

const aliasCLIF = `function %f(i32) -> i32 {
block0(v0: i32):
    v1 = iadd v0, v0
    v2 -> v1
    v3 = iadd v2, v2
    return v3
}
`

// TestFunctionsWithoutAliasesResolveToThemselves: operands skips
// ir.Function.Resolve where hasAliases says there are none, which holds
// when Resolve is the identity there; and the passes make no alias, so
// that the answer holds from the input on.
func TestFunctionsWithoutAliasesResolveToThemselves(t *testing.T) {
	clifs := []string{aliasCLIF}
	for _, m := range testModules(t, 20) {
		clifs = append(clifs, m.clif)
	}
	without := 0
	for _, clif := range clifs {
		in, out := parse(t, clif), refined(t, clif, Names(Passes())...)
		for i, f := range in.Funcs {
			g := out.Funcs[i]
			if hasAliases(f) != hasAliases(g) {
				t.Errorf("%s: hasAliases %v before the passes, %v after", f.Name, hasAliases(f), hasAliases(g))
			}
			for _, h := range []*ir.Function{f, g} {
				if hasAliases(h) {
					continue
				}
				without++
				for v := range ir.Value(len(h.Values) + 2) {
					if r := h.Resolve(v); r != v {
						t.Errorf("%s without aliases: Resolve(v%d) = v%d", h.Name, v, r)
					}
				}
			}
		}
	}
	if mod := parse(t, aliasCLIF); !hasAliases(mod.Funcs[0]) {
		t.Error("hasAliases misses the alias of aliasCLIF")
	}
	if without == 0 {
		t.Error("no function without aliases")
	}
}
