package refinterp

import (
	"os"
	"path/filepath"
	"testing"

	"cliff/lib/parser"
	"cliff/lib/verify"
)

// TestSemantics runs the `; run:` lines of testdata/sem/*.clif: one file
// per opcode family, each line an edge case whose expectation was
// written from Cranelift's documentation. Every line must pass.
func TestSemantics(t *testing.T) {
	files, err := filepath.Glob("testdata/sem/*.clif")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, err := parser.ParseFile(path, src)
			if err != nil {
				t.Fatal(err)
			}
			if errs := verify.Module(&f.Module); errs != nil {
				t.Fatal(errs)
			}
			n := 0
			for _, r := range CheckFile(f, DefaultLimits) {
				n++
				if r.Status != LinePass {
					t.Errorf("%s:%d: %s: %s %s%s", path, r.Line, r.Text, r.Status, r.Got, r.Reason)
				}
			}
			if n == 0 {
				t.Errorf("%s has no run lines", path)
			}
		})
	}
}
