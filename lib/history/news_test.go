package history

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"cliff/lib/record"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs; if the change is intended, run go test -update and review the diff. Got:\n%s", path, got)
	}
}

// The nightly's mail, reviewed as golden files: a first run, a night
// with nothing new, and one with new clusters (a known finding among
// them, after the mask was let go) beside one back and one gone.
func TestNews(t *testing.T) {
	unmasked := night(3, "0.137.1", "a=2", "back=1", "compile_crash x86_64/*: put_in_xmm_mem_32=4", "divergent riscv64/*: i8x16 one lane=1")
	unmasked.Mask = ""
	unmasked.Clusters[2].Known = "known: known.mask: band f16 x86_64"
	resumed := night(2, "0.137.1", "a=1")
	resumed.Resumed = true
	for _, tc := range []struct {
		name   string
		runs   []*record.Run
		report string
	}{
		{"news-first.golden", []*record.Run{night(1, "0.137.1", "a=3")}, "/h/report"},
		{"news-nothing.golden", []*record.Run{night(1, "0.137.1", "a=3"), resumed}, "/h/report"},
		{"news-new.golden", []*record.Run{night(1, "0.137.1", "a=3", "back=1", "gone=1"), night(2, "0.137.1", "a=1", "gone=2"), unmasked}, "/h/report"},
		{"news-noreport.golden", []*record.Run{night(1, "0.137.1"), night(2, "0.138.0", "x=1")}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteNews(&b, Compare(tc.runs), tc.report); err != nil {
				t.Fatal(err)
			}
			golden(t, tc.name, b.Bytes())
		})
	}
	var b bytes.Buffer
	if err := WriteNews(&b, Compare(nil), "/h/report"); err != nil || b.Len() != 0 {
		t.Errorf("no runs: %q, %v; want nothing", b.String(), err)
	}
}
