package gen

import "testing"

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
