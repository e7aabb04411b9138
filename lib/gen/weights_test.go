package gen

import (
	"testing"

	"cliff/lib/ir"
	"cliff/lib/profile"
	"cliff/lib/verify"
	"cliff/lib/weights"
)

func newWeightedGen(t *testing.T, w weights.Weights) *Generator {
	t.Helper()
	p, err := profile.Load("compat")
	if err != nil {
		t.Fatal(err)
	}
	opts := DefaultOptions(p, 42, 4)
	opts.Weights = w
	g, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestWeightsMoveOnlyWhatTheyName: a weights file raises the chance of
// what it names (and a weight below 1 lowers it), keeps it off in some
// cases (the swarm), and leaves every other switch of every case as it
// was: each is drawn from its own stream with its own threshold.
func TestWeightsMoveOnlyWhatTheyName(t *testing.T) {
	const n = 600
	tests := []struct {
		name    string
		w       weights.Weights
		touched []string // the switches the file may move
		up      string   // one that must be on more often
		down    string   // one that must be on less often
	}{
		{"family", weights.Weights{Families: map[string]float64{"lanes": 8, "float": 0.25}}, []string{"ops:lanes", "ops:float"}, "ops:lanes", "ops:float"},
		{"type", weights.Weights{Types: map[string]float64{"i8x16": 8, "f128": 0.25}}, []string{"vectors", "f128"}, "vectors", "f128"},
		{"f32 raises floats", weights.Weights{Types: map[string]float64{"f32": 4}}, []string{"floats"}, "floats", ""},
	}
	plain := newGen(t, "compat", 4, nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newWeightedGen(t, tt.w)
			touched := map[string]bool{}
			for _, s := range tt.touched {
				touched[s] = true
			}
			var plainUp, weightedUp, plainDown, weightedDown int
			for i := uint64(0); i < n; i++ {
				a, b := plain.caseFeatures(i), g.caseFeatures(i)
				for name, on := range a {
					if !touched[name] && b[name] != on {
						t.Fatalf("case %d: %s moved from %v to %v, which the file does not name", i, name, on, b[name])
					}
				}
				plainUp, weightedUp = plainUp+b2i(a[tt.up]), weightedUp+b2i(b[tt.up])
				if tt.down != "" {
					plainDown, weightedDown = plainDown+b2i(a[tt.down]), weightedDown+b2i(b[tt.down])
				}
			}
			if weightedUp <= plainUp || weightedUp == n {
				t.Errorf("%s on in %d of %d cases weighted, %d unweighted: want more, and not all", tt.up, weightedUp, n, plainUp)
			}
			if tt.down != "" && (weightedDown >= plainDown || weightedDown == 0) {
				t.Errorf("%s on in %d of %d cases weighted, %d unweighted: want fewer, and not none", tt.down, weightedDown, n, plainDown)
			}
		})
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestWeightsShiftTheInstructions: a family's weight makes more of its
// instructions, a type's more instructions of that controlling type; the
// cases still verify.
func TestWeightsShiftTheInstructions(t *testing.T) {
	count := func(g *Generator, want func(ir.Opcode, ir.Type) bool) (hits, all int) {
		for i := uint64(0); i < 150; i++ {
			_, mod, err := g.Case(i)
			if err != nil {
				t.Fatal(err)
			}
			if errs := verify.Module(mod); len(errs) > 0 {
				t.Fatalf("case %d: %v", i, errs)
			}
			for _, f := range mod.Funcs {
				for _, d := range f.Insts {
					all++
					if want(d.Op, d.CtrlType) {
						hits++
					}
				}
			}
		}
		return hits, all
	}
	plain := newGen(t, "compat", 4, nil)
	for _, tc := range []struct {
		name string
		w    weights.Weights
		want func(ir.Opcode, ir.Type) bool
	}{
		{"family shifts", weights.Weights{Families: map[string]float64{"shifts": 8}}, func(op ir.Opcode, _ ir.Type) bool { return op.Info().Family == "shifts" }},
		{"type i16x8", weights.Weights{Types: map[string]float64{"i16x8": 8}}, func(_ ir.Opcode, t ir.Type) bool { return t == ir.I16X8 }},
	} {
		hp, ap := count(plain, tc.want)
		hw, aw := count(newWeightedGen(t, tc.w), tc.want)
		if float64(hw)/float64(aw) < 1.5*float64(hp)/float64(ap) {
			t.Errorf("%s: %d of %d instructions weighted, %d of %d unweighted: want at least 1.5 times the share", tc.name, hw, aw, hp, ap)
		}
	}
}

// TestWeightsUnknownFamily: a family lib/weights knows from the opcode
// table but cliff-gen does not draw is an error, not ignored.
func TestWeightsUnknownFamily(t *testing.T) {
	p, err := profile.Load("compat")
	if err != nil {
		t.Fatal(err)
	}
	opts := DefaultOptions(p, 1, 3)
	opts.Weights = weights.Weights{Families: map[string]float64{"nosuch": 2}}
	if _, err := New(opts); err == nil {
		t.Fatal("New accepted a family cliff-gen does not have")
	}
}
