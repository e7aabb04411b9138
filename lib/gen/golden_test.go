package gen

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"

	"cliff/lib/profile"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestDefaultCasesGolden pins the cases of the default options: the
// xxhash of each case record, per profile, with and without the test
// corpus. A change to the generator that shifts the choices of cases it
// should leave alone (a new option that is off) fails it; one that means
// to change cases rewrites the file with -update, and the diff says which.
func TestDefaultCasesGolden(t *testing.T) {
	corpus, err := LoadCorpus(testCorpus)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, name := range []string{"compat", "x86_64", "aarch64", "riscv64", "s390x"} {
		p, err := profile.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, withCorpus := range []bool{false, true} {
			opts := DefaultOptions(p, 7, DefaultDepth)
			if withCorpus {
				opts.Corpus = corpus
			}
			g, err := New(opts)
			if err != nil {
				t.Fatal(err)
			}
			for i := uint64(0); i < 12; i++ {
				fmt.Fprintf(&b, "%s corpus=%v case %d %016x\n", name, withCorpus, i, xxhash.Sum64(caseJSON(t, g, i)))
			}
		}
	}
	golden := filepath.Join("testdata", "default-cases.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("the default options' cases differ from %s (run with -update if intended):\n%s", golden, diffLines(string(want), got))
	}
}

// diffLines lists the lines of got that want does not have at the same
// place.
func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := range max(len(w), len(g)) {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "- %s\n+ %s\n", wl, gl)
		}
	}
	return b.String()
}
