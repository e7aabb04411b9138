package refinterp

import (
	"testing"
	"time"

	"cliff/lib/gen"
	"cliff/lib/ir"
	"cliff/lib/parser"
)

// benchCase is one generated case ready to run: its module, entry and
// parsed input vectors.
type benchCase struct {
	mod   *ir.Module
	entry string
	args  [][]ir.DataValue
}

func benchCases(b *testing.B, n int) []benchCase {
	b.Helper()
	cases, mods, err := gen.Sample(n)
	if err != nil {
		b.Fatal(err)
	}
	out := make([]benchCase, n)
	for i, c := range cases {
		bc := benchCase{mod: mods[i], entry: entryOf(c, mods[i])}
		for _, vec := range c.Inputs {
			args, err := caseArgs(mods[i].Func(bc.entry), vec)
			if err != nil {
				b.Fatal(err)
			}
			bc.args = append(bc.args, args)
		}
		out[i] = bc
	}
	return out
}

// BenchmarkCases measures generated compat cases (gen.Sample, as the
// other benchmarks) per second: a case is its module run on each of its
// input vectors, from parsed IR and parsed inputs, as cliff-run would.
//
//	go test ./lib/refinterp -run '^$' -bench Cases
func BenchmarkCases(b *testing.B) {
	cases := benchCases(b, 200)
	n := 0
	start := time.Now()
	for b.Loop() {
		c := &cases[n%len(cases)]
		in := New(c.mod, DefaultLimits)
		for _, args := range c.args {
			if _, err := in.Call(c.entry, args); err != nil {
				b.Fatal(err)
			}
		}
		n++
	}
	b.ReportMetric(float64(n)/time.Since(start).Seconds(), "cases/s")
}

// benchLoop is lib/driver's benchmark program for Cranelift's
// interpreter (a counted loop and a recursive Fibonacci), for comparing
// instructions per second.
const benchLoop = `
function %loop(i64) -> i64 {
block0(v0: i64):
    v1 = iconst.i64 0
    v10 = iconst.i64 -1
    jump block1(v1, v0)
block1(v2: i64, v3: i64):
    v4 = iadd v2, v3
    v5 = iadd v3, v10
    brif v5, block1(v4, v5), block2(v4)
block2(v6: i64):
    return v6
}

function %fib(i64) -> i64 {
    fn0 = %fib(i64) -> i64
block0(v0: i64):
    v8 = iconst.i64 2
    v1 = icmp ult v0, v8
    brif v1, block2(v0), block1
block1:
    v9 = iconst.i64 1
    v2 = isub v0, v9
    v3 = call fn0(v2)
    v4 = isub v0, v8
    v5 = call fn0(v4)
    v6 = iadd v3, v5
    jump block2(v6)
block2(v7: i64):
    return v7
}
`

// BenchmarkInstructions runs lib/driver's BenchmarkInterpret programs:
// compare Minsts/s with its loop case.
func BenchmarkInstructions(b *testing.B) {
	m, err := parser.ParseModule("bench.clif", []byte(benchLoop))
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name, fn string
		arg      int64
		insts    float64
	}{
		{"loop", "%loop", 1_000_000, 3 + 3*1_000_000 + 1},
		{"fib", "%fib", 22, 0}, // 57,313 calls
	} {
		b.Run(tc.name, func(b *testing.B) {
			in := New(m, Limits{Fuel: 1 << 40, MaxDepth: 1000, MaxStackBytes: 1 << 20})
			start := time.Now()
			for b.Loop() {
				if _, err := in.Call(tc.fn, []ir.DataValue{i64(tc.arg)}); err != nil {
					b.Fatal(err)
				}
			}
			if tc.insts > 0 {
				b.ReportMetric(tc.insts*float64(b.N)/time.Since(start).Seconds()/1e6, "Minsts/s")
			}
		})
	}
}
