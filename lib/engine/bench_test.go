package engine

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"testing"
	"time"

	"cliff/lib/arch"
	"cliff/lib/driver/drivertest"
	"cliff/lib/extract"
	"cliff/lib/jsonl"
	"cliff/lib/record"
)

// benchCase is a case of about 40 instructions (arithmetic, a loop, a
// call, a select) with four input vectors; k varies the constants so that
// no two cases are the same.
func benchCase(k int) *record.Case {
	clif := fmt.Sprintf(`function %%mix(i64, i32) -> i64, i32 {
    fn0 = %%step(i64, i64) -> i64
block0(v0: i64, v1: i32):
    v2 = iconst.i64 %d
    v3 = iconst.i32 %d
    v4 = iconst.i32 7
    v5 = band v1, v4
    jump block1(v0, v5)
block1(v6: i64, v7: i32):
    v8 = call fn0(v6, v2)
    v9 = iconst.i32 1
    v10 = isub v7, v9
    brif v7, block1(v8, v10), block2(v8)
block2(v11: i64):
    v12 = ireduce.i32 v11
    v13 = imul v12, v3
    v14 = rotl v13, v1
    v15 = icmp ult v14, v3
    v16 = select v15, v12, v14
    v17 = popcnt v11
    v18 = bxor v17, v0
    return v18, v16
}

function %%step(i64, i64) -> i64 {
block0(v0: i64, v1: i64):
    v2 = imul v0, v1
    v3 = iconst.i64 13
    v4 = ushr v2, v3
    v5 = bxor v2, v4
    v6 = iadd v5, v1
    v7 = clz v6
    v8 = ishl v6, v7
    v9 = bor v8, v0
    return v9
}
`, int64(0x1e3779b97f4a7c15^k), k*31+1)
	c := &record.Case{ID: fmt.Sprintf("bench%d", k), CLIF: clif}
	for _, in := range [][2]string{{"0", "0"}, {"-1", "5"}, {"0x123456789", "-7"}, {"42", "0x7fffffff"}} {
		c.Inputs = append(c.Inputs, record.InputVector{{Type: "i64", Value: in[0]}, {Type: "i32", Value: in[1]}})
	}
	c.Stamp()
	return c
}

// BenchmarkRun measures cliff-run's throughput on one worker, per
// architecture and batch size: cases/s, and the time per case spent in
// Cranelift (compile), the linker (link) and the harness (exec), from the
// timings cliff-run writes into each result. Batches of 1 show the cost of
// linking and starting qemu per case; batches of 100, what batching saves.
//
//	go test ./lib/engine -run '^$' -bench Run -benchtime 1x
func BenchmarkRun(b *testing.B) {
	drv := drivertest.Require(b)
	const cases = 100
	dir := b.TempDir()
	input := filepath.Join(dir, "cases.jsonl")
	w, err := jsonl.Create(input)
	if err != nil {
		b.Fatal(err)
	}
	for k := range cases {
		if err := w.Write(benchCase(k)); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	for _, a := range arch.Names() {
		for _, batch := range []int{1, 10, 100} {
			b.Run(fmt.Sprintf("arch=%s/batch=%d", a, batch), func(b *testing.B) {
				var total record.Timings
				var wall time.Duration
				for i := 0; i < b.N; i++ {
					out := filepath.Join(dir, "out.jsonl")
					start := time.Now()
					e, err := New(context.Background(), Options{DriverPath: drv, Jobs: 1, Batch: batch, Timeout: 10 * time.Second, CompileTimeout: time.Minute, Fuel: 100_000_000})
					if err != nil {
						b.Fatal(err)
					}
					_, err = e.Stream(context.Background(), StreamOptions{Configs: ConfigSpec{Arches: []string{a}, Opts: []string{"speed"}}, Sources: []extract.Source{{Path: input}}, Output: out})
					e.Close()
					if err != nil {
						b.Fatal(err)
					}
					wall += time.Since(start)
					total = addTimings(b, out, total)
				}
				n := float64(b.N * cases)
				b.ReportMetric(n/wall.Seconds(), "cases/s")
				b.ReportMetric(total.CompileMS/n, "compile-ms/case")
				b.ReportMetric(total.LinkMS/n, "link-ms/case")
				b.ReportMetric(total.ExecMS/n, "exec-ms/case")
			})
		}
	}
}

// addTimings adds up the timings of every result in a file, failing on
// any result that is not ok (a benchmark of failures measures nothing).
func addTimings(b *testing.B, path string, t record.Timings) record.Timings {
	in, closer, err := jsonl.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer closer.Close()
	for {
		var c record.Case
		err := in.Next(&c)
		if err == io.EOF {
			return t
		}
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range c.Results {
			if r.Status != record.StatusOK {
				b.Fatalf("case %s: %s: %s %s", c.ID, r.Config, r.Status, r.Message)
			}
			t.CompileMS += r.Timings.CompileMS
			t.LinkMS += r.Timings.LinkMS
			t.ExecMS += r.Timings.ExecMS
		}
	}
}

// BenchmarkEngineRun measures what cliff-locate pays per re-run of a
// small case: one Engine.Run of one case on x86_64 (native) and in the
// interpreter, the drivers kept across runs.
//
//	go test ./lib/engine -run '^$' -bench EngineRun
func BenchmarkEngineRun(b *testing.B) {
	drv := drivertest.Require(b)
	e, err := New(context.Background(), Options{DriverPath: drv, Jobs: 1, Timeout: 10 * time.Second, CompileTimeout: time.Minute, Fuel: 100_000_000})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	configs, err := Configs(ConfigSpec{Arches: []string{"x86_64", "interp"}, Opts: []string{"speed"}})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		c := benchCase(1)
		if err := e.Run(context.Background(), []*record.Case{c}, configs); err != nil {
			b.Fatal(err)
		}
		if len(c.Results) != 2 || c.Results[0].Status != record.StatusOK || c.Results[0].Hash != c.Results[1].Hash {
			b.Fatalf("results: %+v", c.Results)
		}
	}
}
