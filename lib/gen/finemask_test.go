package gen

import (
	"os"
	"testing"

	"cliff/lib/ir"
	"cliff/lib/profile"
	"cliff/lib/refine"
)

// The fine known.mask entries of findings 06, 10, 11 and 20 (operand-
// producer patterns) keep the bug shapes out of every case, before and
// after refinement, while the opcodes the coarse entries hid come back.
// The shapes are recognised here by hand, not by lib/profile's matcher.

// producer returns the instruction that defines v, or nil for a param.
func producer(f *ir.Function, v ir.Value) *ir.InstData {
	v = f.Resolve(v)
	if int(v) >= len(f.Values) || f.Values[v].Kind != ir.DefResult {
		return nil
	}
	return &f.Insts[f.Values[v].Inst]
}

func isOp(d *ir.InstData, ops ...ir.Opcode) bool {
	if d == nil {
		return false
	}
	for _, op := range ops {
		if d.Op == op {
			return true
		}
	}
	return false
}

// A fineFinding is one refined entry: the shape it must keep out, and
// the instructions the coarse entry hid that may come back.
type fineFinding struct {
	name   string
	arches []string
	shape  func(f *ir.Function, d *ir.InstData) bool
	hidden func(f *ir.Function, d *ir.InstData) bool
}

var fineFindings = []fineFinding{
	{
		name:   "06 select.i128 of an icmp",
		arches: []string{"x86_64", "aarch64"},
		shape: func(f *ir.Function, d *ir.InstData) bool {
			if d.Op != ir.OpSelect || d.CtrlType != ir.I128 {
				return false
			}
			c := producer(f, d.Args[0])
			if isOp(c, ir.OpUextend, ir.OpSextend, ir.OpBmask, ir.OpIneg) {
				c = producer(f, c.Args[0])
			}
			return isOp(c, ir.OpIcmp)
		},
		hidden: func(f *ir.Function, d *ir.InstData) bool { return d.Op == ir.OpSelect && d.CtrlType == ir.I128 },
	},
	{
		name:   "10 select_spectre_guard or bmask of uextend.i128 of a compare",
		arches: []string{"riscv64"},
		shape: func(f *ir.Function, d *ir.InstData) bool {
			if !isOp(d, ir.OpSelectSpectreGuard, ir.OpBmask) {
				return false
			}
			x := producer(f, d.Args[0])
			if !isOp(x, ir.OpUextend) || x.CtrlType != ir.I128 {
				return false
			}
			c := producer(f, x.Args[0])
			if isOp(c, ir.OpUextend) {
				c = producer(f, c.Args[0])
			}
			return isOp(c, ir.OpIcmp, ir.OpFcmp)
		},
		hidden: func(f *ir.Function, d *ir.InstData) bool {
			return isOp(d, ir.OpSelectSpectreGuard, ir.OpBmask) && f.Values[f.Resolve(d.Args[0])].Type == ir.I128
		},
	},
	{
		name:   "11 band.i32/i64 of a shift by an i128 amount",
		arches: []string{"riscv64"},
		shape: func(f *ir.Function, d *ir.InstData) bool {
			if d.Op != ir.OpBand || (d.CtrlType != ir.I32 && d.CtrlType != ir.I64) {
				return false
			}
			for _, a := range d.Args {
				if s := producer(f, a); isOp(s, ir.OpUshr, ir.OpSshr) && f.Values[f.Resolve(s.Args[1])].Type == ir.I128 {
					return true
				}
			}
			return false
		},
		hidden: func(f *ir.Function, d *ir.InstData) bool {
			return isOp(d, ir.OpUshr, ir.OpSshr) && (d.CtrlType == ir.I32 || d.CtrlType == ir.I64) && f.Values[f.Resolve(d.Args[1])].Type == ir.I128
		},
	},
	{
		name:   "20 swizzle of a splat index",
		arches: []string{"riscv64"},
		shape: func(f *ir.Function, d *ir.InstData) bool {
			return d.Op == ir.OpSwizzle && isOp(producer(f, d.Args[1]), ir.OpSplat)
		},
		hidden: func(f *ir.Function, d *ir.InstData) bool { return d.Op == ir.OpSwizzle },
	},
}

// fineCounts counts, per finding, whether mod has an instruction in its
// shape and one the coarse entry hid: cases, not instructions.
func fineCounts(mod *ir.Module, arch string, shapes, hidden []int) {
	var shape, hide [8]bool
	defer func() {
		for i := range fineFindings {
			if shape[i] {
				shapes[i]++
			}
			if hide[i] {
				hidden[i]++
			}
		}
	}()
	for _, f := range mod.Funcs {
		for _, blk := range f.Layout {
			for _, inst := range f.Blocks[blk].Insts {
				d := &f.Insts[inst]
				for i, ff := range fineFindings {
					if !containsArch(ff.arches, arch) {
						continue
					}
					shape[i] = shape[i] || ff.shape(f, d)
					hide[i] = hide[i] || ff.hidden(f, d)
				}
			}
		}
	}
}

// containsArch reports whether a finding on arches applies to the
// profile named a: compat covers all four.
func containsArch(arches []string, a string) bool {
	if a == profile.CompatName {
		return true
	}
	for _, x := range arches {
		if x == a {
			return true
		}
	}
	return false
}

// TestFineMaskEntries generates cases of each target's profile with the
// filetests corpus, with known.mask and without any mask: masked, no case
// holds a bug shape, before or after refinement, and each opcode the
// coarse entry hid appears again; unmasked, the shapes do appear (the
// check can see them).
func TestFineMaskEntries(t *testing.T) {
	if _, err := os.Stat(filetestsDir); err != nil {
		t.Skipf("no Cranelift filetests at %s: %v", filetestsDir, err)
	}
	corpus := extractCorpus(t, filetestsDir)
	const seeds, perSeed = 4, 75
	for _, arch := range []string{"x86_64", "aarch64", "riscv64", profile.CompatName} {
		for _, withMask := range []bool{true, false} {
			p, err := profile.Load(arch)
			if err != nil {
				t.Fatal(err)
			}
			if withMask {
				p = masked(t, arch)
			}
			n := len(fineFindings)
			shapes, shapesRefined, hidden, hiddenRefined := make([]int, n), make([]int, n), make([]int, n), make([]int, n)
			for seed := range uint64(seeds) {
				opts := DefaultOptions(p, 9000+seed, 5)
				opts.Corpus = corpus
				g, err := New(opts)
				if err != nil {
					t.Fatal(err)
				}
				for i := range uint64(perSeed) {
					c, mod, err := g.Unprinted(i)
					if err != nil {
						t.Fatal(err)
					}
					fineCounts(mod, arch, shapes, hidden)
					if _, err := refine.Module(mod, c.Seed, i, refine.Options{Passes: refine.Passes(), Mask: p.Patterns()}); err != nil {
						t.Fatalf("%s: %v", c.ID, err)
					}
					fineCounts(mod, arch, shapesRefined, hiddenRefined)
				}
			}
			unmaskedShapes := 0
			for i, ff := range fineFindings {
				if !containsArch(ff.arches, arch) {
					continue
				}
				unmaskedShapes += shapes[i]
				t.Logf("%s, mask %v, %d cases: finding %s: in %d cases (%d refined); formerly hidden instructions in %d cases (%d refined)",
					arch, withMask, seeds*perSeed, ff.name, shapes[i], shapesRefined[i], hidden[i], hiddenRefined[i])
				if withMask && (shapes[i] > 0 || shapesRefined[i] > 0) {
					t.Errorf("%s with known.mask: finding %s: %d cases' instructions in the bug shape, %d after refinement", arch, ff.name, shapes[i], shapesRefined[i])
				}
				if withMask && (hidden[i] == 0 || hiddenRefined[i] == 0) {
					t.Errorf("%s with known.mask: finding %s: the instructions the coarse entry hid never appear (%d, refined %d)", arch, ff.name, hidden[i], hiddenRefined[i])
				}
			}
			if !withMask && unmaskedShapes == 0 {
				t.Errorf("%s without a mask: no bug shape in %d cases; the check cannot tell the mask works", arch, seeds*perSeed)
			}
		}
	}
}

// TestMaskedConversionOfScope: a pattern rooted at a conversion
// (uextend.i128 of an icmp, as a campaign loop's cliff-locate wrote for
// finding 10's shape) holds for the conversions materialize makes of
// what scope offers, not only for the instructions emit picks: seed 2028
// of a compat campaign made one in its 15th case.
func TestMaskedConversionOfScope(t *testing.T) {
	mask, err := profile.ParseMask("m", []byte("uextend i128:i8 riscv64 x=icmp\n"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := profile.Load(profile.CompatName)
	if err != nil {
		t.Fatal(err)
	}
	p = p.Without(mask)
	g, err := New(DefaultOptions(p, 2028, 5))
	if err != nil {
		t.Fatal(err)
	}
	for i := range uint64(300) {
		_, mod, err := g.Unprinted(i)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range mod.Funcs {
			if err := p.Patterns().CheckFunc(f); err != nil {
				t.Fatalf("case %d: %v", i, err)
			}
		}
	}
}
