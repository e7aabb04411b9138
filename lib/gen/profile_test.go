package gen

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"cliff/lib/extract"
	"cliff/lib/ir"
	"cliff/lib/profile"
	"cliff/lib/record"
	"cliff/lib/refine"
	"cliff/lib/verify"
)

// Every instruction of a case, whoever made it (the profile's tables, a
// corpus snippet, a mutation, a guard, a refinement pass), is one the
// profile allows, with its free operand type, and the mask does not list:
// the corpus holds what Cranelift's filetests test, on any target.

// filetestsDir holds Cranelift's filetests, the real corpus's source.
const filetestsDir = "../../../shared/cranelift-filetests"

// outsideProfile is CLIF whose every block is a computation that the
// compat profile with data/known.mask forbids although its opcode and
// controlling type are allowed: fpromote.f64 of f16 and fdemote.f32 of
// f128 (riscv64 does not lower them, x86_64 crashes, aarch64 miscompiles:
// the 14 failures of a 10,000-case campaign), select.i128 (masked on
// x86_64 and aarch64), ushr of an i128 amount (masked on riscv64), and
// whole combinations compat leaves out (fpromote.f128, fdemote.f16, fcmp
// ueq of f64x2).
const outsideProfile = `
function %promote_f16(f16) -> f64 {
block0(v0: f16):
    v1 = fpromote.f64 v0
    v2 = fadd v1, v1
    return v2
}

function %demote_f128(f128) -> f32 {
block0(v0: f128):
    v1 = fdemote.f32 v0
    v2 = fneg v1
    return v2
}

function %promote_to_f128(f64) -> f128 {
block0(v0: f64):
    v1 = fpromote.f128 v0
    return v1
}

function %demote_to_f16(f32) -> f16 {
block0(v0: f32):
    v1 = fdemote.f16 v0
    return v1
}

function %select_i128(i8, i128, i128) -> i128 {
block0(v0: i8, v1: i128, v2: i128):
    v3 = select v0, v1, v2
    return v3
}

function %ushr_i128_amount(i64, i128) -> i64 {
block0(v0: i64, v1: i128):
    v2 = ushr v0, v1
    return v2
}

function %fcmp_ueq_f64x2(f64x2, f64x2) -> i64x2 {
block0(v0: f64x2, v1: f64x2):
    v2 = fcmp ueq v0, v1
    return v2
}
`

// masked is the named profile without data/known.mask: what campaigns
// generate with.
func masked(t testing.TB, name string) *profile.Profile {
	t.Helper()
	p, err := profile.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	mask, err := profile.KnownMask()
	if err != nil {
		t.Fatal(err)
	}
	return p.Without(mask)
}

// extractCorpus runs cliff-extract's extraction on paths into a corpus in
// a temporary directory and loads it.
func extractCorpus(t testing.TB, paths ...string) *Corpus {
	t.Helper()
	sources, err := extract.Expand(paths)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "corpus.jsonl.zst")
	if _, err := extract.Run(context.Background(), extract.Options{Sources: sources, Output: out}); err != nil {
		t.Fatal(err)
	}
	c, err := LoadCorpus(out)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// checkProfile fails the test at the first instruction of mod that p does
// not allow.
func checkProfile(t testing.TB, p *profile.Profile, mod *ir.Module, what, text string) {
	t.Helper()
	for _, f := range mod.Funcs {
		for _, blk := range f.Layout {
			for _, inst := range f.Blocks[blk].Insts {
				if err := p.CheckInst(f, &f.Insts[inst]); err != nil {
					t.Fatalf("%s: %s: %v\n%s", what, f.Name, err, text)
				}
			}
		}
	}
}

// TestSnippetsStayInProfile: a corpus of nothing but instructions the
// profile forbids gives cases without them. Mutation is off and the
// convert family too, so every fpromote and fdemote comes from a snippet:
// they must be there, of the allowed source types.
func TestSnippetsStayInProfile(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "outside.clif")
	if err := os.WriteFile(src, []byte(outsideProfile), 0o644); err != nil {
		t.Fatal(err)
	}
	corpus := extractCorpus(t, src)
	p := masked(t, "compat")
	opts := DefaultOptions(p, 7, 3)
	opts.Corpus, opts.Mutation = corpus, 0
	opts.Features = map[string]bool{"snippets": true, "floats": true, "f16": true, "f128": true, "i128": true, "vectors": true, "ops:convert": false}
	g, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	fromSnippets := map[ir.Opcode]int{}
	for i := range uint64(300) {
		c, mod, err := g.Case(i)
		if err != nil {
			t.Fatal(err)
		}
		checkProfile(t, p, mod, c.ID, c.CLIF)
		for _, f := range mod.Funcs {
			for _, d := range f.Insts {
				if d.Op != ir.OpFpromote && d.Op != ir.OpFdemote {
					continue
				}
				from := f.Values[d.Args[0]].Type
				if from == ir.F16 || from == ir.F128 || d.CtrlType == ir.F16 || d.CtrlType == ir.F128 {
					t.Fatalf("%s: %s.%s of %s\n%s", c.ID, d.Op, d.CtrlType, from, c.CLIF)
				}
				fromSnippets[d.Op]++
			}
		}
	}
	if fromSnippets[ir.OpFpromote] == 0 || fromSnippets[ir.OpFdemote] == 0 {
		t.Errorf("no fpromote or fdemote from the snippets in 300 cases (%v): the corpus path went untested", fromSnippets)
	}
}

// TestCampaignStaysInProfile is a campaign's generation in small: cases
// of many seeds at depth 5 from the corpus of Cranelift's filetests (with
// its f16 and f128 conversions), refined as cliff-refine does, every
// instruction allowed by the profile without known.mask: 2,000 cases of
// compat, which campaigns use, and 200 of each target's own.
func TestCampaignStaysInProfile(t *testing.T) {
	if _, err := os.Stat(filetestsDir); err != nil {
		t.Skipf("no Cranelift filetests at %s: %v", filetestsDir, err)
	}
	corpus := extractCorpus(t, filetestsDir) // half a second
	type run struct {
		profile        string
		seeds, perSeed int
	}
	runs := []run{{"compat", 40, 50}}
	for _, a := range profile.Arches {
		runs = append(runs, run{a, 5, 40})
	}
	for _, run := range runs {
		p := masked(t, run.profile)
		seeds := run.seeds
		if testing.Short() {
			seeds = 1
		}
		for seed := range uint64(seeds) {
			opts := DefaultOptions(p, 2026+seed, 5)
			opts.Corpus = corpus
			g, err := New(opts)
			if err != nil {
				t.Fatal(err)
			}
			for i := range uint64(run.perSeed) {
				c, mod, err := g.Case(i)
				if err != nil {
					t.Fatal(err)
				}
				checkProfile(t, p, mod, c.ID, c.CLIF)
				if _, err := refine.Module(mod, c.Seed, i, refine.Options{Passes: refine.Passes(), Mask: p.Patterns(), Profile: p}); err != nil {
					t.Fatalf("%s: %v", c.ID, err)
				}
				if err := SetCLIF(c, mod); err != nil {
					t.Fatal(err)
				}
				checkProfile(t, p, mod, c.ID+" refined", c.CLIF)
			}
		}
	}
}

// TestFamiliesFromTable checks the opcode table's family column against
// cliff-gen's families: every family but target has opcodes, and the
// partial column names exactly the opcodes guard.go guards.
func TestFamiliesFromTable(t *testing.T) {
	count := make([]int, len(families))
	for _, i := range familyOf {
		count[i]++
	}
	for i, f := range families {
		if f.name != "target" && count[i] == 0 {
			t.Errorf("family %s has no opcode in the table", f.name)
		}
	}
	if got := familyIndex(ir.OpIadd); families[got].name != "arith" {
		t.Errorf("iadd is in family %s, want arith", families[got].name)
	}
	if got := familyIndex(ir.OpX86Pmaddubsw); families[got].name != "target" {
		t.Errorf("x86_pmaddubsw is in family %s, want target", families[got].name)
	}
	var partial []string
	for _, op := range ir.Opcodes() {
		if guarded(op) {
			partial = append(partial, op.String()+":"+op.Info().Partial)
		}
	}
	want := []string{"udiv:nonzero", "sdiv:nonzero_nooverflow", "urem:nonzero", "srem:nonzero_nooverflow", "fcvt_to_uint:in_range", "fcvt_to_sint:in_range"}
	slices.Sort(partial)
	slices.Sort(want)
	if !slices.Equal(partial, want) {
		t.Errorf("partial operations %v, want %v", partial, want)
	}
}

// checkedCase generates case i of g and fails the test unless it
// verifies, keeps lib/ub's invariants and stays inside profile p.
func checkedCase(t *testing.T, g *Generator, p *profile.Profile, i uint64) (*record.Case, *ir.Module) {
	t.Helper()
	c, mod, err := g.Case(i)
	if err != nil {
		t.Fatal(err)
	}
	if errs := verify.ModuleWith(mod, verify.Options{PointerType: p.Pointer}); len(errs) > 0 {
		t.Fatalf("case %d: %v\n%s", i, errs, c.CLIF)
	}
	checkInvariants(t, mod, c.CLIF, p)
	checkProfile(t, p, mod, c.ID, c.CLIF)
	return c, mod
}
