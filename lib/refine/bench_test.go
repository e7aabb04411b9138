package refine

import (
	"testing"

	"cliff/lib/ir"
	"cliff/lib/metrics"
	"cliff/lib/record"
)

// benchCases returns cases of random modules of about 200-400
// instructions, the size cliff-gen makes at --depth 5.
func benchCases(tb testing.TB) []record.Case {
	var out []record.Case
	for seed := uint64(0); len(out) < 64; seed++ {
		mod := randomModule(seed, 4)
		if n := metrics.Of(mod).Insts; n < 200 || n > 400 {
			continue
		}
		out = append(out, record.Case{ID: "bench", Seed: seed, CLIF: text(mod)})
	}
	return out
}

// BenchmarkCase measures what cliff-refine does per case, without the
// JSON: parse, every pass, print, metrics. cliff-gen | cliff-refine must
// reach 2,000 cases/s on one core, so this should stay well under
// 0.3 ms.
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

// BenchmarkPass measures each pass alone on parsed modules (parsed in
// batches with the timer stopped).
func BenchmarkPass(b *testing.B) {
	cases := benchCases(b)
	for _, p := range Passes() {
		b.Run(p.Name, func(b *testing.B) {
			var batch []*ir.Module
			for i := 0; b.Loop(); i++ {
				if len(batch) == 0 {
					b.StopTimer()
					for k := range 16 {
						batch = append(batch, parse(b, cases[(i+k)%len(cases)].CLIF))
					}
					b.StartTimer()
				}
				mod := batch[len(batch)-1]
				batch = batch[:len(batch)-1]
				for k, f := range mod.Funcs {
					p.run(f, newRNG(1, 2, p.Name, k))
				}
			}
		})
	}
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
