package gen

import (
	"encoding/binary"
	"slices"
	"testing"

	"cliff/lib/ir"
	"cliff/lib/profile"
	"cliff/lib/ub"
)

// TestConstEdges: the constants' edge values hold the NaNs with payloads
// and the rounding edges the issue asks for, bit for bit (a wrong exponent
// or an off-by-one precision moves them off the edge).
func TestConstEdges(t *testing.T) {
	tests := []struct {
		lane ir.Type
		want uint64
		what string
	}{
		{ir.F32, 0x7f800001, "signalling NaN, smallest payload"},
		{ir.F32, 0xffbfffff, "-signalling NaN, largest payload"},
		{ir.F32, 0x7fc00015, "quiet NaN with a payload"},
		{ir.F32, 0x3f800001, "the next f32 above 1"},
		{ir.F32, 0x4b800000, "2^24, where adding 1 rounds"},
		{ir.F32, 0x3f801000, "1+2^-11: an f16 tie, rounds down"},
		{ir.F64, 0x3ff0000010000000, "1+2^-24: an f32 tie, rounds down"},
		{ir.F64, 0x3ff0000030000000, "1+3*2^-24: an f32 tie, rounds up to even"},
		{ir.F64, 0x47effffff0000000, "a tie above f32's largest: rounds to infinity"},
		{ir.F64, 0x40effe0000000000, "65520: a tie above f16's largest"},
		{ir.F64, 0x3e60000000000000, "2^-25: half f16's smallest subnormal, rounds to 0"},
		{ir.F16, 0x7c01, "f16 signalling NaN"},
		{ir.F16, 0x3c01, "the next f16 above 1"},
	}
	for _, tt := range tests {
		found := false
		for _, e := range constEdges(tt.lane) {
			var b [8]byte
			copy(b[:], e)
			if binary.LittleEndian.Uint64(b[:]) == tt.want {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: constEdges lacks %#x (%s)", tt.lane, tt.want, tt.what)
		}
	}
	// f128: 1+2^-53, an f64 tie: sign 0, exponent 0x3fff, fraction 2^59
	// (bit 112-53 = 59) in the low 64 bits.
	if !slices.ContainsFunc(constEdges(ir.F128), func(e []byte) bool {
		return binary.LittleEndian.Uint64(e[:8]) == 1<<59 && binary.LittleEndian.Uint64(e[8:]) == 0x3fff<<48
	}) {
		t.Errorf("f128: constEdges lacks 1+2^-53")
	}
}

// TestEdgeConstantsMakeFoldableCode: with the feature on, cases of every
// profile have float and vector constant operands and instructions whose
// operands are all constants, and are still valid, inside their profile
// and canonical where NaN bits show.
func TestEdgeConstantsMakeFoldableCode(t *testing.T) {
	features := map[string]bool{edgeConstantsFeature: true, "floats": true, "vectors": true, "snippets": false}
	for _, prof := range append([]string{"compat"}, profile.Arches...) {
		t.Run(prof, func(t *testing.T) {
			p := masked(t, prof)
			opts := DefaultOptions(p, 42, 4)
			opts.Features = features
			g, err := New(opts)
			if err != nil {
				t.Fatal(err)
			}
			var floatConsts, vectorConsts, allConst int
			for i := range uint64(20) {
				_, mod := checkedCase(t, g, p, i)
				f, v, a := countConstOperands(mod)
				floatConsts, vectorConsts, allConst = floatConsts+f, vectorConsts+v, allConst+a
			}
			if floatConsts == 0 || vectorConsts == 0 || allConst == 0 {
				t.Errorf("20 cases: %d float constant operands, %d vector ones, %d all-constant instructions; want some of each", floatConsts, vectorConsts, allConst)
			}
		})
	}
}

// countConstOperands counts, over the instructions that are neither
// constants nor scaffold, the operands that are float and vector
// constants, and the instructions of two operands or more that are all
// constants.
func countConstOperands(mod *ir.Module) (floats, vectors, allConst int) {
	for _, f := range mod.Funcs {
		isConst := func(v ir.Value) bool {
			vd := &f.Values[f.Resolve(v)]
			if vd.Kind != ir.DefResult {
				return false
			}
			d := &f.Insts[vd.Inst]
			switch d.Op {
			case ir.OpIconst, ir.OpF16const, ir.OpF32const, ir.OpF64const, ir.OpF128const, ir.OpVconst:
				return true
			case ir.OpSplat, ir.OpIconcat, ir.OpSextend:
				return len(d.Args) > 0 && isConstArgs(f, d.Args)
			}
			return false
		}
		for _, blk := range f.Layout {
			for _, inst := range f.Blocks[blk].Insts {
				d := &f.Insts[inst]
				if ub.IsScaffold(d) || len(d.Args) == 0 || d.Op.Info().Flags.Has(ir.FlagTerminator) {
					continue
				}
				all := len(d.Args) >= 2
				for _, a := range d.Args {
					t := f.Values[a].Type
					c := isConst(a)
					all = all && c
					switch {
					case c && t.IsVector():
						vectors++
					case c && !t.IsInt():
						floats++
					}
				}
				if all && d.Op != ir.OpIconcat && d.Op != ir.OpSplat {
					allConst++
				}
			}
		}
	}
	return floats, vectors, allConst
}

// isConstArgs: every arg is an iconst or a float constant.
func isConstArgs(f *ir.Function, args []ir.Value) bool {
	for _, a := range args {
		vd := &f.Values[f.Resolve(a)]
		if vd.Kind != ir.DefResult {
			return false
		}
		switch f.Insts[vd.Inst].Op {
		case ir.OpIconst, ir.OpF16const, ir.OpF32const, ir.OpF64const, ir.OpF128const:
		default:
			return false
		}
	}
	return true
}

// TestEdgeConstantsOffKeepsTheSkeleton: the feature draws from a stream
// of its own, so switching it off leaves each case's control flow and its
// other features as they were.
func TestEdgeConstantsOffKeepsTheSkeleton(t *testing.T) {
	on := newGen(t, "compat", 5, map[string]bool{edgeConstantsFeature: true})
	off := newGen(t, "compat", 5, map[string]bool{edgeConstantsFeature: false})
	for i := range uint64(20) {
		a, b := on.caseFeatures(i), off.caseFeatures(i)
		for name := range a {
			if name != edgeConstantsFeature && a[name] != b[name] {
				t.Fatalf("case %d: %s is %v with edge constants on, %v off", i, name, a[name], b[name])
			}
		}
		_, ma, err := on.Case(i)
		if err != nil {
			t.Fatal(err)
		}
		_, mb, err := off.Case(i)
		if err != nil {
			t.Fatal(err)
		}
		if len(ma.Funcs) != len(mb.Funcs) {
			t.Fatalf("case %d: %d functions on, %d off", i, len(ma.Funcs), len(mb.Funcs))
		}
		for k := range ma.Funcs {
			if !slices.Equal(ma.Funcs[k].Sig.Params, mb.Funcs[k].Sig.Params) {
				t.Fatalf("case %d: %s's params differ: %v on, %v off", i, ma.Funcs[k].Name, ma.Funcs[k].Sig.Params, mb.Funcs[k].Sig.Params)
			}
		}
	}
}
