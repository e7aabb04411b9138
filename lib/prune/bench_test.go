package prune

import (
	"testing"

	"cliff/lib/gen"
	"cliff/lib/ir"
	"cliff/lib/parser"
	"cliff/lib/printer"
	"cliff/lib/refinterp"
)

// A sampleCase is a generated case (gen.Sample) as pruning takes it: its
// CLIF text, to parse afresh for each run (pruning rewrites the module),
// entry and parsed inputs.
type sampleCase struct {
	text   string
	entry  string
	inputs [][]ir.DataValue
}

func sampleCases(tb testing.TB, n int) []sampleCase {
	tb.Helper()
	cases, mods, err := gen.Sample(n)
	if err != nil {
		tb.Fatal(err)
	}
	out := make([]sampleCase, n)
	for i, c := range cases {
		entry := c.Entry
		if entry == "" {
			entry = mods[i].Funcs[0].Name
		}
		inputs, err := Inputs(mods[i].Func(entry), c.Inputs)
		if err != nil {
			tb.Fatal(err)
		}
		out[i] = sampleCase{text: printer.Options{}.ModuleString(mods[i]), entry: entry, inputs: inputs}
	}
	return out
}

func (c sampleCase) module(tb testing.TB) *ir.Module {
	mod, err := parser.ParseModuleString("sample", c.text)
	if err != nil {
		tb.Fatal(err)
	}
	return mod
}

// BenchmarkModule measures pruning generated cases (gen.Sample), from
// parsed modules and inputs, as cliff-refine's last step does.
//
//	go test ./lib/prune -run '^$' -bench Module
func BenchmarkModule(b *testing.B) {
	cases := sampleCases(b, 200)
	mods := make([]*ir.Module, len(cases))
	for i := 0; i < b.N; i++ {
		k := i % len(cases)
		if k == 0 {
			b.StopTimer()
			for j, c := range cases {
				mods[j] = c.module(b)
			}
			b.StartTimer()
		}
		if _, err := Module(mods[k], cases[k].entry, cases[k].inputs, refinterp.DefaultLimits); err != nil {
			b.Fatal(err)
		}
	}
}
