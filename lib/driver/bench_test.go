package driver

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"testing"
	"time"
)

// benchInterp is what the interpreter benchmarks run: a counted loop (4
// instructions an iteration), a doubly recursive Fibonacci (calls) and a
// function that returns at once (the cost of a request).
const benchInterp = `
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

function %id(i64) -> i64 {
block0(v0: i64):
    return v0
}
`

func i64Value(n uint64) Value {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], n)
	return Value{Type: "i64", Hex: hex.EncodeToString(b[:])}
}

// BenchmarkInterpret measures the interpreter's throughput through the
// driver: instructions per second on a loop and on calls, and the cost of
// a request that does nothing.
//
//	go test ./lib/driver -run '^$' -bench Interpret
func BenchmarkInterpret(b *testing.B) {
	c := realDriver(b)
	cases := []struct {
		name  string
		fn    string
		arg   uint64
		insts float64 // instructions one call executes
	}{
		{"loop", "%loop", 1_000_000, 3 + 3*1_000_000 + 1},
		// fib(22) makes 57,313 calls.
		{"fib", "%fib", 22, 0},
		{"request", "%id", 1, 0},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			req := &InterpretRequest{CLIF: benchInterp, Func: tc.fn, Args: []Value{i64Value(tc.arg)}, Fuel: 1 << 40}
			start := time.Now()
			for b.Loop() {
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				a, err := c.Interpret(ctx, req)
				cancel()
				if err != nil || len(a.Results) != 1 {
					b.Fatalf("%s: %+v, %v", tc.fn, a, err)
				}
			}
			if tc.insts > 0 {
				b.ReportMetric(tc.insts*float64(b.N)/time.Since(start).Seconds()/1e6, "Minsts/s")
			}
		})
	}
}
