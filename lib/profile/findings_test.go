package profile_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cliff/lib/parser"
)

// TestFindings: every reduced finding under data/findings is a CLIF file
// that cliff reads, and its header says what was seen and the verdict, so
// that a finding can be reported (or re-checked on a newer Cranelift)
// from the file alone.
func TestFindings(t *testing.T) {
	files, err := filepath.Glob("data/findings/*.clif")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no findings under data/findings")
	}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		file, err := parser.ParseFile(name, src)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if len(file.Funcs) == 0 {
			t.Errorf("%s: no function", name)
		}
		header := string(src[:strings.Index(string(src), "\nfunction")+1])
		for _, want := range []string{"Verdict", "Symptom"} {
			if !strings.Contains(header, want) {
				t.Errorf("%s: the header has no %q", name, want)
			}
		}
	}
}
