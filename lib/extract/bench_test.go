package extract

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkExtractFiletests extracts the whole filetests tree into a
// compressed corpus, as scripts/setup.sh does, and reports records/s and
// input MB/s.
func BenchmarkExtractFiletests(b *testing.B) {
	if _, err := os.Stat(filetests); err != nil {
		b.Skipf("no filetests: %v", err)
	}
	srcs, err := Expand([]string{filetests})
	if err != nil {
		b.Fatal(err)
	}
	var size int64
	for _, s := range srcs {
		st, err := os.Stat(s.Path)
		if err != nil {
			b.Fatal(err)
		}
		size += st.Size()
	}
	out := filepath.Join(b.TempDir(), "corpus.jsonl.zst")
	b.SetBytes(size)
	b.ResetTimer()
	var records int
	for range b.N {
		sum, err := Run(context.Background(), Options{Sources: srcs, Output: out, Functions: true})
		if err != nil {
			b.Fatal(err)
		}
		records = sum.Snippets + sum.FunctionRecords
	}
	b.ReportMetric(float64(records)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
	b.ReportMetric(float64(records), "records")
}
