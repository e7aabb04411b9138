package refine

import (
	"encoding/json"
	"slices"
	"testing"

	"cliff/lib/gen"
	"cliff/lib/ir"
	"cliff/lib/metrics"
	"cliff/lib/record"
)

// benchCases returns 64 cases as cliff-gen makes them at its default
// depth (5) with the compat profile.
func benchCases(tb testing.TB) []record.Case {
	cases, _, err := gen.Sample(64)
	if err != nil {
		tb.Fatal(err)
	}
	out := make([]record.Case, len(cases))
	for i, c := range cases {
		out[i] = *c
	}
	return out
}

// BenchmarkCase measures what cliff-refine does per case, without the
// JSON: parse, every pass, print, metrics. cliff-gen | cliff-refine must
// reach 2,000 cases/s on one core together. On the 2-core test machine
// with -cpu 1 and GOGC=1000 (November 2026): about 0.3 ms per case of 300
// instructions, with 30 KB and 123 allocations, most of the bytes the
// printed CLIF. Before Case built each case in the memory of the case
// before (caseMemory) it took 0.4 ms, 340 KB and 384 allocations, of which
// parsing took 0.12 ms, the passes 0.16, printing 0.04 and the metrics
// most of the rest (BenchmarkParse and BenchmarkPass/all less its
// copy-only still measure new memory; BenchmarkPrint). In the passes no
// one function stands out: the analyses (CFG, dominator tree, liveness,
// use counts) take about a fifth and ir.Builder appending instructions a
// tenth; copying the instruction and value tables into room for what sink
// adds took another tenth, which recycled tables have already.
func BenchmarkCase(b *testing.B) {
	cases := benchCases(b)
	insts := 0
	for _, c := range cases {
		insts += metrics.Of(parse(b, c.CLIF)).Insts
	}
	for i := 0; b.Loop(); i++ {
		c := cases[i%len(cases)]
		if err := Case(&c, Options{Passes: Passes()}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(insts)/float64(len(cases)), "insts/case")
}

// BenchmarkPass measures each pass alone, and all four, on copies of
// parsed modules (the copy is timed too: copy-only measures it alone).
func BenchmarkPass(b *testing.B) {
	cases := benchCases(b)
	mods := make([]*ir.Module, len(cases))
	for i, c := range cases {
		mods[i] = parse(b, c.CLIF)
	}
	sets := append([][]Pass{}, nil)
	for _, p := range Passes() {
		sets = append(sets, []Pass{p})
	}
	sets = append(sets, Passes())
	for _, set := range sets {
		name := "copy-only"
		switch {
		case len(set) == 1:
			name = set[0].Name
		case len(set) > 1:
			name = "all"
		}
		b.Run(name, func(b *testing.B) {
			var s scratch
			for i := 0; b.Loop(); i++ {
				mod := cloneModule(mods[i%len(mods)])
				if err := runPasses(mod, 1, 2, Options{Passes: set}, maskEachPass, &s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// cloneModule copies what the passes change, with the spare capacity the
// parser leaves for them (so that the benchmark grows tables as often as
// cliff-refine does).
func cloneModule(m *ir.Module) *ir.Module {
	out := &ir.Module{Funcs: make([]*ir.Function, len(m.Funcs))}
	for i, f := range m.Funcs {
		g := *f
		g.Layout = slices.Clone(f.Layout)
		g.Values = append(make([]ir.ValueData, 0, cap(f.Values)), f.Values...)
		g.Blocks = slices.Clone(f.Blocks)
		for k := range g.Blocks {
			g.Blocks[k].Params = slices.Clone(g.Blocks[k].Params)
			g.Blocks[k].Insts = slices.Clone(g.Blocks[k].Insts)
		}
		g.Insts = append(make([]ir.InstData, 0, cap(f.Insts)), f.Insts...)
		for k := range g.Insts {
			d := &g.Insts[k]
			d.Args = slices.Clone(d.Args)
			d.Dests = slices.Clone(d.Dests)
			for j := range d.Dests {
				d.Dests[j].Args = slices.Clone(d.Dests[j].Args)
			}
		}
		out.Funcs[i] = &g
	}
	return out
}

func BenchmarkParse(b *testing.B) {
	cases := benchCases(b)
	size := 0
	for _, c := range cases {
		size += len(c.CLIF)
	}
	for i := 0; b.Loop(); i++ {
		parse(b, cases[i%len(cases)].CLIF)
	}
	b.ReportMetric(float64(size)/float64(len(cases)), "bytes/case")
}

func BenchmarkPrint(b *testing.B) {
	cases := benchCases(b)
	var mods = make([]*ir.Module, len(cases))
	for i, c := range cases {
		mods[i] = parse(b, c.CLIF)
	}
	for i := 0; b.Loop(); i++ {
		text(mods[i%len(mods)])
	}
}

// BenchmarkRecord adds what cliff-refine does around Case: decoding the
// case record from its JSON line (record.Decode, as cliff-refine) and
// encoding it again (Case.AppendJSON, as jsonl.Writer).
func BenchmarkRecord(b *testing.B) {
	var lines [][]byte
	for _, c := range benchCases(b) {
		c.Stamp()
		line, err := json.Marshal(&c)
		if err != nil {
			b.Fatal(err)
		}
		lines = append(lines, line)
	}
	for i := 0; b.Loop(); i++ {
		r, err := record.Decode(lines[i%len(lines)])
		if err != nil {
			b.Fatal(err)
		}
		c := r.(*record.Case)
		if err := Case(c, Options{Passes: Passes()}); err != nil {
			b.Fatal(err)
		}
		if _, err := c.AppendJSON(nil); err != nil {
			b.Fatal(err)
		}
	}
}
