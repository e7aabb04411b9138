package analysis

import (
	"math/rand/v2"
	"testing"
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
