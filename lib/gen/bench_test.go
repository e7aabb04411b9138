package gen

import (
	"testing"

	"cliff/lib/profile"
)

// BenchmarkCase measures generation alone (IR and printed record, no
// verifier or metrics) at the default depth: cliff-gen | cliff-refine
// must keep above 2,000 cases/s on one core.
func BenchmarkCase(b *testing.B) {
	for _, depth := range []int{5, 10} {
		b.Run(map[int]string{5: "depth5", 10: "depth10"}[depth], func(b *testing.B) {
			p, err := profile.Load("compat")
			if err != nil {
				b.Fatal(err)
			}
			g, err := New(Options{Seed: 1, Profile: p, Depth: depth, Funcs: DefaultFuncs, Mutation: DefaultMutation, Inputs: DefaultInputs})
			if err != nil {
				b.Fatal(err)
			}
			insts := 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				_, mod, err := g.Case(uint64(i))
				if err != nil {
					b.Fatal(err)
				}
				for _, f := range mod.Funcs {
					insts += len(f.Insts)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "cases/s")
			b.ReportMetric(float64(insts)/float64(b.N), "insts/case")
		})
	}
}
