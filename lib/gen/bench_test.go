package gen

import (
	"testing"

	"cliff/lib/profile"
)

// BenchmarkCase measures generation alone (IR and printed record, no
// verifier or metrics) as cliff-gen runs it (Options.Reuse): cliff-gen |
// cliff-refine must keep above 2,000 cases/s on one core. On the 2-core
// test machine with -cpu 1 (November 2026): about 85 µs, 33 KB and 400
// allocations per case of 270 instructions at depth 5, 180 µs at depth 10
// (170 µs, 290 KB and 950 allocations at depth 5 before the arena and the
// per-profile caches; 110 µs without Reuse). Printing the CLIF takes 30%
// of it, the inputs 15% (half of that printer.DataValue), ir.Builder 15%;
// what is left is spread thin over the generator.
//
// depth5-corpus fills blocks from the sample corpus as well (the snippet
// path, whose every operand is checked against the profile): about a
// third more CPU time per case than depth5, the same before and after
// that check (issue 13).
//
// edge_constants-on and -off force the feature in every case (the swarm
// draws it in half): constants cost no more than the operands they
// replace.
// depth5-crossover adds crossover (testFunctions, every case's crossover
// features on): parents re-instantiated instead of some leaves' fills.
func BenchmarkCase(b *testing.B) {
	corpus, err := LoadCorpus(testCorpus)
	if err != nil {
		b.Fatal(err)
	}
	parents := loadParents(b, testFunctions)
	crossOn := map[string]bool{"crossover": true, "crossover_chain": true, "crossover_graft": true, "crossover_call": true}
	for _, bench := range []struct {
		name     string
		depth    int
		corpus   *Corpus
		parents  *Parents
		features map[string]bool
	}{
		{"depth5", 5, nil, nil, nil}, {"depth10", 10, nil, nil, nil}, {"depth5-corpus", 5, corpus, nil, nil},
		{"depth5-edge_constants-on", 5, nil, nil, map[string]bool{edgeConstantsFeature: true}},
		{"depth5-edge_constants-off", 5, nil, nil, map[string]bool{edgeConstantsFeature: false}},
		{"depth5-crossover", 5, corpus, parents, crossOn},
	} {
		b.Run(bench.name, func(b *testing.B) {
			p, err := profile.Load("compat")
			if err != nil {
				b.Fatal(err)
			}
			opts := DefaultOptions(p, 1, bench.depth)
			opts.Reuse, opts.Corpus, opts.Parents, opts.Features = true, bench.corpus, bench.parents, bench.features
			g, err := New(opts)
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
