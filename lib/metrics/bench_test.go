package metrics

import (
	"context"
	"strings"
	"testing"
	"time"

	"cliff/lib/analysis"
	"cliff/lib/driver/drivertest"
	"cliff/lib/ir"
	"cliff/lib/printer"
	"cliff/lib/verify"
)

// benchModules are the modules BenchmarkOf runs on: three functions at
// depth 4, 200-400 instructions each, like a cliff-gen case.
func benchModules() []*ir.Module {
	var mods []*ir.Module
	for seed := uint64(1); len(mods) < 8; seed++ {
		m := benchModule(seed, 3, 4)
		if n := analysis.ComputeModule(m).Insts; n >= 200 && n <= 400 {
			mods = append(mods, m)
		}
	}
	return mods
}

// TestBenchModulesAreRealistic keeps the benchmark honest: its modules are
// valid CLIF of the size the issue names, with loops and merges.
func TestBenchModulesAreRealistic(t *testing.T) {
	for i, m := range benchModules() {
		if errs := verify.Module(m); errs != nil {
			t.Fatalf("bench module %d does not verify: %v", i, errs)
		}
		got := Of(m)
		if got.Cyclomatic < 5 || got.DomDepth < 3 || len(got.Opcodes) < 10 {
			t.Errorf("bench module %d is too simple: %+v", i, got)
		}
	}
}

func BenchmarkOf(b *testing.B) {
	mods := benchModules()
	insts := 0
	for _, m := range mods {
		insts += analysis.ComputeModule(m).Insts
	}
	i := 0
	for b.Loop() {
		Of(mods[i%len(mods)])
		i++
	}
	b.ReportMetric(float64(insts)/float64(len(mods)), "insts/case")
}

// BenchmarkComputeModule is the part of Of that lib/analysis does, for
// comparison.
func BenchmarkComputeModule(b *testing.B) {
	mods := benchModules()
	i := 0
	for b.Loop() {
		analysis.ComputeModule(mods[i%len(mods)])
		i++
	}
}

// BenchmarkSurvival is one driver round trip per case: what --survival
// costs cliff-gen or cliff-refine.
func BenchmarkSurvival(b *testing.B) {
	s := NewSurvival(drivertest.Client(b), "x86_64", time.Minute)
	var texts []string
	for _, m := range benchModules() {
		var buf strings.Builder
		if err := printer.Module(&buf, m); err != nil {
			b.Fatal(err)
		}
		texts = append(texts, buf.String())
	}
	i := 0
	for b.Loop() {
		if _, err := s.Measure(context.Background(), texts[i%len(texts)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
