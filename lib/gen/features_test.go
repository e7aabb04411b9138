package gen

import (
	"slices"
	"testing"

	"cliff/lib/ir"
	"cliff/lib/profile"
)

// TestSwarmHotFeatures checks that the features a swarm keeps as fields
// (asked per instruction rather than looked up in the map) say what its
// map says: for drawn swarms, with and without crossover and overrides,
// and for a swarm made from a map directly.
func TestSwarmHotFeatures(t *testing.T) {
	hot := func(s swarm) map[string]bool {
		return map[string]bool{"constants": s.constants, edgeConstantsFeature: s.edgeConstants,
			"crossover": s.crossover, "snippets": s.snippets}
	}
	for _, tc := range []struct {
		name      string
		overrides map[string]bool
		crossover bool
	}{
		{"drawn", nil, false},
		{"drawn-crossover", nil, true},
		{"overrides-on", map[string]bool{"constants": true, edgeConstantsFeature: true, "crossover": true, "snippets": true}, true},
		{"overrides-off", map[string]bool{"constants": false, edgeConstantsFeature: false, "crossover": false, "snippets": false}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seen := map[string]map[bool]bool{}
			for seed := range uint64(64) {
				s := drawSwarm(seed, tc.overrides, nil, tc.crossover)
				for name, got := range hot(s) {
					if got != s.on[name] {
						t.Fatalf("seed %d: %s is %v, the map says %v", seed, name, got, s.on[name])
					}
					if seen[name] == nil {
						seen[name] = map[bool]bool{}
					}
					seen[name][got] = true
				}
			}
			if tc.name == "drawn-crossover" {
				for name, vals := range seen {
					if !vals[true] || !vals[false] {
						t.Errorf("%s never varied over the seeds: %v", name, vals)
					}
				}
			}
		})
	}
	on := map[string]bool{"constants": true, "snippets": true}
	if got := hot(newSwarm(on, nil)); !got["constants"] || !got["snippets"] || got["crossover"] || got[edgeConstantsFeature] {
		t.Errorf("newSwarm(%v) keeps %v", on, got)
	}
}

// TestTypeOK checks typeOK, a test of the case's type bits, against the
// case's list of types, for every type code, over cases with the type
// features drawn and forced on or off.
func TestTypeOK(t *testing.T) {
	p, err := profile.Load("compat")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		features map[string]bool
	}{
		{"drawn", nil},
		{"all-on", map[string]bool{"floats": true, "vectors": true, "i128": true, "f16": true, "f128": true}},
		{"all-off", map[string]bool{"floats": false, "vectors": false, "i128": false, "f16": false, "f128": false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := DefaultOptions(p, 1, 3)
			opts.Features = tc.features
			g, err := New(opts)
			if err != nil {
				t.Fatal(err)
			}
			for seed := range uint64(32) {
				c := newCaseGen(g, seed)
				for code := range 1 << 16 {
					ty := ir.Type(code)
					want := ty == ir.Invalid || slices.Contains(c.types, ty)
					if got := c.typeOK(ty); got != want {
						t.Fatalf("seed %d: typeOK(%s) = %v, the case's types %v say %v", seed, ty, got, c.types, want)
					}
				}
			}
		})
	}
}

// TestChooseTypes checks chooseTypes, which asks the swarm once per type
// feature, against asking it about every feature of every candidate type,
// over profiles and cases with the type features drawn, on and off.
func TestChooseTypes(t *testing.T) {
	for _, name := range []string{"compat", "x86_64", "riscv64", "pulley32"} {
		p, err := profile.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, features := range []map[string]bool{
			nil,
			{"floats": true, "vectors": true, "i128": true, "f16": true, "f128": true},
			{"floats": false, "vectors": true, "i128": false, "f16": true, "f128": false},
		} {
			g, err := New(DefaultOptions(p, 1, 3))
			if err != nil {
				t.Fatal(err)
			}
			g.opts.Features = features
			for seed := range uint64(64) {
				c := newCaseGen(g, seed)
				var types, abiTypes []ir.Type
				var set candidateSet
				for i, ty := range candidateTypes {
					ok := g.tab.usable&(1<<i) != 0
					for _, f := range typeFeatures(ty) {
						ok = ok && c.sw.on[f]
					}
					if ok {
						types, set = append(types, ty), set|1<<i
						if g.tab.abi[ty] {
							abiTypes = append(abiTypes, ty)
						}
					}
				}
				if !slices.Equal(c.types, types) || !slices.Equal(c.abiTypes, abiTypes) || c.typeSet != set {
					t.Fatalf("%s %v seed %d: types %v, ABI %v, set %b; want %v, %v, %b",
						name, features, seed, c.types, c.abiTypes, c.typeSet, types, abiTypes, set)
				}
			}
		}
	}
}
