package printer_test

import (
	"testing"

	"cliff/lib/gen"
	"cliff/lib/printer"
)

// BenchmarkCase prints generated cases (64 modules of about 300
// instructions, 10 KB compact, cliff-gen's defaults) compact, as the
// generator and cliff-refine do, and in full, as people read them. On the
// 2-core test machine with -cpu 1 (November 2026): about 19 µs per case
// compact and 28 µs in full, the string being the only allocation. Before
// the print plans (plan.go) and the fixed-size appends of names from
// tables it took 29 and 40 µs (1.44x and 1.43x the instructions).
func BenchmarkCase(b *testing.B) {
	_, mods, err := gen.Sample(64)
	if err != nil {
		b.Fatal(err)
	}
	size := 0
	for _, m := range mods {
		size += len(printer.Options{Compact: true}.ModuleString(m))
	}
	for _, bc := range []struct {
		name string
		opts printer.Options
	}{
		{"compact", printer.Options{Compact: true}},
		{"full", printer.Options{}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				bc.opts.ModuleString(mods[i%len(mods)])
			}
			b.ReportMetric(float64(size)/float64(len(mods)), "compact-bytes/case")
		})
	}
}
