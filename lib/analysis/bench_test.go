package analysis

import (
	"math/rand/v2"
	"testing"

	"cliff/lib/gen"
	"cliff/lib/ir"
)

const benchBlocks = 10_000

// benchGraphs are the 10,000-block graphs the benchmarks run on: "code"
// looks like compiled code (fall-through, short forward branches, loops,
// switches); "random" has up to four successors anywhere, so it is highly
// irreducible.
func benchGraphs() []struct {
	name  string
	succs [][]int
} {
	r := rand.New(rand.NewPCG(42, 42))
	return []struct {
		name  string
		succs [][]int
	}{
		{"code", randomCFG(r, benchBlocks)},
		{"random", randomSuccs(r, benchBlocks)},
	}
}

func BenchmarkNewCFG(b *testing.B) {
	for _, g := range benchGraphs() {
		b.Run(g.name, func(b *testing.B) {
			f := graph(g.succs)
			for b.Loop() {
				NewCFG(f)
			}
		})
	}
}

func BenchmarkNewDomTree(b *testing.B) {
	for _, g := range benchGraphs() {
		b.Run(g.name, func(b *testing.B) {
			c := NewCFG(graph(g.succs))
			for b.Loop() {
				NewDomTree(c)
			}
			b.ReportMetric(float64(len(c.RPO())), "reachable")
		})
	}
}

// BenchmarkNewLiveness runs on a random SSA function over the graph, with
// 0-2 params and 0-4 instructions per block.
func BenchmarkNewLiveness(b *testing.B) {
	for _, g := range benchGraphs() {
		b.Run(g.name, func(b *testing.B) {
			idom, rpo := domInfo(NewDomTree(NewCFG(graph(g.succs))))
			f := randomSSA(rand.New(rand.NewPCG(1, 1)), g.succs, idom, rpo)
			c := NewCFG(f)
			var l *Liveness
			for b.Loop() {
				l = NewLiveness(f, c)
			}
			b.ReportMetric(float64(len(f.Values)), "values")
			b.ReportMetric(float64(len(l.values)), "nonlocal")
		})
	}
}

func BenchmarkCompute(b *testing.B) {
	for _, g := range benchGraphs() {
		b.Run(g.name, func(b *testing.B) {
			idom, rpo := domInfo(NewDomTree(NewCFG(graph(g.succs))))
			f := randomSSA(rand.New(rand.NewPCG(1, 1)), g.succs, idom, rpo)
			for b.Loop() {
				Compute(f)
			}
		})
	}
}

// sampleFuncs are the functions of the first n cases the other packages'
// benchmarks measure (gen.Sample; 64 modules hold 156 functions of about
// 25 blocks and 120 instructions): the sizes cliff-gen and cliff-refine
// analyse, for which the fixed cost of each Recompute matters as much as
// its loops.
func sampleFuncs(tb testing.TB, n int) []*ir.Function {
	_, mods, err := gen.Sample(n)
	if err != nil {
		tb.Fatal(err)
	}
	var fs []*ir.Function
	for _, m := range mods {
		fs = append(fs, m.Funcs...)
	}
	return fs
}

// BenchmarkRecomputeGenerated recomputes each analysis for one sample
// function per iteration, in the memory of the one before, as the
// verifier and the refinement passes do. On the 2-core test machine with
// -cpu 1 (November 2026), per function: the CFG about 1.0 µs and 9.4k
// instructions, the dominator tree 0.35 µs and 4.1k, liveness 3.9 µs and
// 29k (callgrind, the difference of two -test.benchtime counts under
// GOGC=off).
func BenchmarkRecomputeGenerated(b *testing.B) {
	fs := sampleFuncs(b, 64)
	cfgs := make([]*CFG, len(fs))
	for i, f := range fs {
		cfgs[i] = NewCFG(f)
	}
	b.Run("cfg", func(b *testing.B) {
		var c CFG
		for i := 0; b.Loop(); i++ {
			c.Recompute(fs[i%len(fs)])
		}
	})
	b.Run("domtree", func(b *testing.B) {
		var d DomTree
		for i := 0; b.Loop(); i++ {
			d.Recompute(cfgs[i%len(fs)])
		}
	})
	b.Run("liveness", func(b *testing.B) {
		var l Liveness
		for i := 0; b.Loop(); i++ {
			l.Recompute(fs[i%len(fs)], cfgs[i%len(fs)])
		}
	})
}
