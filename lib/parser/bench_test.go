package parser_test

import (
	"testing"

	"cliff/lib/gen"
	"cliff/lib/parser"
)

// BenchmarkParseGenerated parses 64 cases as cliff-gen makes them (default
// depth, compat profile; about 10 KB and 300 instructions each), the text
// cliff-refine reads per case. lib/refine's BenchmarkParse measures the
// same; this one lets the parser be profiled on its own.
//
// On the 2-core test machine with -cpu 1 (November 2026): about 130 µs,
// 235 KB and 71 allocations per case (230 µs, 240 KB and 320 before the
// lexer and the parser were tuned). Some 40% of it is the allocator and
// the collector, mostly for the instruction table that reserve sizes (155
// KB per case), a fifth is lexing.
func BenchmarkParseGenerated(b *testing.B) {
	sample, _, err := gen.Sample(64)
	if err != nil {
		b.Fatal(err)
	}
	var cases [][]byte
	size := 0
	for _, c := range sample {
		cases = append(cases, []byte(c.CLIF))
		size += len(c.CLIF)
	}
	b.SetBytes(int64(size / len(cases)))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := parser.ParseModule("clif", cases[i%len(cases)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseRecycled is BenchmarkParseGenerated with a Recycler, as
// cliff-refine parses (through refine.Case). On the same machine
// (November 2026): about half the time, with some 1 KB and 13
// allocations per case once the Recycler has seen a few. Timings on that
// shared machine vary by a quarter from run to run; instructions do not:
// under cachegrind (GOGC=off, 1001 runs less 1) a case took 998,000 of
// them, and 724,000 once the lexer and the path of an instruction were
// tuned again (late November 2026).
func BenchmarkParseRecycled(b *testing.B) {
	sample, _, err := gen.Sample(64)
	if err != nil {
		b.Fatal(err)
	}
	size := 0
	for _, c := range sample {
		size += len(c.CLIF)
	}
	b.SetBytes(int64(size / len(sample)))
	b.ReportAllocs()
	var r parser.Recycler
	for i := 0; b.Loop(); i++ {
		if _, err := r.ParseModuleString("clif", sample[i%len(sample)].CLIF); err != nil {
			b.Fatal(err)
		}
	}
}
