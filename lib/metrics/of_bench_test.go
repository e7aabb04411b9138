package metrics_test

import (
	"testing"

	"cliff/lib/gen"
	"cliff/lib/ir"
	"cliff/lib/metrics"
	"cliff/lib/parser"
	"cliff/lib/refine"
)

// sampleModules returns the modules of gen.Sample(64), the cases the
// parser, printer and refine benchmarks measure; refined, the same cases
// after every refine pass, as cliff-refine computes their metrics.
func sampleModules(tb testing.TB, refined bool) []*ir.Module {
	cases, mods, err := gen.Sample(64)
	if err != nil {
		tb.Fatal(err)
	}
	if !refined {
		return mods
	}
	mods = mods[:0]
	for _, c := range cases {
		if err := refine.Case(c, refine.Options{Passes: refine.Passes()}); err != nil {
			tb.Fatal(err)
		}
		m, err := parser.ParseModuleString("refined", c.CLIF)
		if err != nil {
			tb.Fatal(err)
		}
		mods = append(mods, m)
	}
	return mods
}

// BenchmarkOfSample is Of on cliff-gen's cases (BenchmarkOf's modules are
// built here, smaller and simpler), and BenchmarkOfRefined on the same
// cases refined: larger, with many more block params and args.
func BenchmarkOfSample(b *testing.B)  { benchmarkOf(b, sampleModules(b, false)) }
func BenchmarkOfRefined(b *testing.B) { benchmarkOf(b, sampleModules(b, true)) }

func benchmarkOf(b *testing.B, mods []*ir.Module) {
	insts := 0
	for _, m := range mods {
		insts += metrics.Of(m).Insts
	}
	i := 0
	for b.Loop() {
		metrics.Of(mods[i%len(mods)])
		i++
	}
	b.ReportMetric(float64(insts)/float64(len(mods)), "insts/case")
}
