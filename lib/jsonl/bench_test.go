package jsonl

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

// benchRecord looks like a generated test case: some metadata and a CLIF
// module of about 1.5 KiB that varies from record to record.
type benchRecord struct {
	Kind    string     `json:"kind"`
	V       int        `json:"v"`
	ID      string     `json:"id"`
	Seed    uint64     `json:"seed"`
	CLIF    string     `json:"clif"`
	Inputs  [][]string `json:"inputs"`
	Metrics map[string]int
}

func benchRecords(n int) []benchRecord {
	rs := make([]benchRecord, n)
	for i := range rs {
		var clif strings.Builder
		fmt.Fprintf(&clif, "function %%f%d(i32, i64) -> i32 {\nblock0(v0: i32, v1: i64):\n", i)
		for j := range 40 {
			fmt.Fprintf(&clif, "    v%d = iadd_imm.i32 v0, %d\n", j+2, (i*31+j*7)%1000)
		}
		clif.WriteString("    return v2\n}\n")
		rs[i] = benchRecord{
			Kind: "case", V: 1, ID: fmt.Sprintf("%016x", uint64(i)*0x9E3779B97F4A7C15),
			Seed: uint64(i), CLIF: clif.String(),
			Inputs:  [][]string{{"i32 1", "i64 2"}, {"i32 0x7fffffff", "i64 -1"}},
			Metrics: map[string]int{"blocks": 1, "insts": 41},
		}
	}
	return rs
}

func encodeAll(b *testing.B, rs []benchRecord, compressed bool) []byte {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	if compressed {
		var err error
		if w, err = NewZstdWriter(&buf); err != nil {
			b.Fatal(err)
		}
	}
	for _, r := range rs {
		if err := w.Write(r); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// The throughput (MB/s) counts uncompressed JSON bytes.
func BenchmarkWrite(b *testing.B) {
	rs := benchRecords(1000)
	size := len(encodeAll(b, rs, false))
	for _, compressed := range []bool{false, true} {
		b.Run(map[bool]string{false: "plain", true: "zstd"}[compressed], func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				var w *Writer
				if compressed {
					w, _ = NewZstdWriter(io.Discard)
				} else {
					w = NewWriter(io.Discard)
				}
				for _, r := range rs {
					w.Write(r)
				}
				w.Close()
			}
		})
	}
}

// BenchmarkRead decodes every record; BenchmarkReadRaw only splits lines,
// which separates the cost of JSON from that of the stream.
func BenchmarkRead(b *testing.B)    { benchmarkRead(b, true) }
func BenchmarkReadRaw(b *testing.B) { benchmarkRead(b, false) }

func benchmarkRead(b *testing.B, decode bool) {
	rs := benchRecords(1000)
	size := len(encodeAll(b, rs, false))
	for _, compressed := range []bool{false, true} {
		data := encodeAll(b, rs, compressed)
		b.Run(map[bool]string{false: "plain", true: "zstd"}[compressed], func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				r := NewReader("bench", bytes.NewReader(data))
				n := 0
				for {
					var err error
					if decode {
						var v benchRecord
						err = r.Next(&v)
					} else {
						_, err = r.NextRaw()
					}
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					n++
				}
				r.Close()
				if n != len(rs) {
					b.Fatalf("read %d records, want %d", n, len(rs))
				}
			}
			b.ReportMetric(float64(size)/float64(len(data)), "ratio")
		})
	}
}

// BenchmarkReadLongLine reads one 20 MiB line: the accumulation path.
func BenchmarkReadLongLine(b *testing.B) {
	line := append(bytes.Repeat([]byte("x"), 20<<20), '\n')
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		r := NewReader("long", bytes.NewReader(line))
		if _, err := r.NextRaw(); err != nil {
			b.Fatal(err)
		}
	}
}
