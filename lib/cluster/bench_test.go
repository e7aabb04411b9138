package cluster

import (
	"fmt"
	"testing"

	"cliff/lib/record"
)

// BenchmarkClusterer adds failing verdicts the size of cliff-gen's cases
// (300 instructions in 20 blocks) from four root causes: what clustering
// a campaign's failures costs per verdict (signature, CLIF parse and
// measure), decoding aside.
func BenchmarkClusterer(b *testing.B) {
	all := []string{"x86_64/none", "x86_64/speed", "x86_64/speed_and_size"}
	var vs []*record.Verdict
	for i := range 64 {
		var v *record.Verdict
		switch i % 4 {
		case 0:
			v = failure(fmt.Sprint("a", i), record.StatusCompileCrash, stvPanic, all...)
		case 1:
			v = failure(fmt.Sprint("b", i), record.StatusCompileCrash, unwrapRegistry, "riscv64/none")
		case 2:
			v = failure(fmt.Sprint("c", i), record.StatusCompileError, umaxError2, "x86_64/speed")
		default:
			v = divergence(fmt.Sprint("d", i), "i8x16 0x65656565656565656565656565656565 @interp/none,x86_64/none",
				"i8x16 0x00000000000000000000000000000000 @riscv64/none,riscv64/speed")
			c := &record.Case{ID: v.CaseID}
			c.Stamp()
			v.Case = c
		}
		vs = append(vs, withCLIF(v, 280+i, 20))
	}
	c := NewClusterer()
	b.ResetTimer()
	n := 0
	for b.Loop() {
		if err := c.Add(vs[n%len(vs)]); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "verdicts/s")
	if len(c.Groups()) != 4 {
		b.Fatalf("%d clusters, want 4", len(c.Groups()))
	}
}

// BenchmarkSignature is the signature alone.
func BenchmarkSignature(b *testing.B) {
	v := failure("a", record.StatusCompileCrash, stvPanicCalled, "x86_64/none")
	for b.Loop() {
		SignatureOf(v)
	}
}

// BenchmarkNormalizeMessage is the normalisation of a real panic message.
func BenchmarkNormalizeMessage(b *testing.B) {
	for b.Loop() {
		NormalizeMessage(stvPanicCalled)
	}
}
