package gen

import (
	"testing"

	"cliff/lib/profile"
)

// TestCaseAllocations bounds the allocations of a case as cliff-gen makes
// it (Options.Reuse, depth 5): most of what is left is the printed input
// values and the record. Each slot of a leaf draws from a stream of its
// own, on the stack as long as nothing it is handed to lets it escape;
// when one did (shuffleMask handed it to a shape called through a func
// value), every slot allocated its stream: about 300 allocations a case
// instead of about 200 at depth 5 (211 instead of 169 at depth 3).
func TestCaseAllocations(t *testing.T) {
	p, err := profile.Load("compat")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		depth int
		most  float64 // allocations per case
	}{
		{"depth3", 3, 185},
		{"depth5", 5, 230},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := DefaultOptions(p, 1, tc.depth)
			opts.Reuse = true
			g, err := New(opts)
			if err != nil {
				t.Fatal(err)
			}
			const cases = 200
			for i := range uint64(cases) { // warm the arena's chunks
				if _, _, err := g.Case(i); err != nil {
					t.Fatal(err)
				}
			}
			i := uint64(0)
			got := testing.AllocsPerRun(cases, func() {
				if _, _, err := g.Case(i); err != nil {
					t.Fatal(err)
				}
				i++
			})
			t.Logf("%.0f allocations per case", got)
			if got > tc.most {
				t.Errorf("%.0f allocations per case, want at most %.0f", got, tc.most)
			}
		})
	}
}
