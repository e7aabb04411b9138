package ir_test

import (
	"bytes"
	"os"
	"testing"

	"cliff/lib/ir/internal/opgen/gen"
)

// TestOpcodesGenIsCurrent regenerates opcodes_gen.go in memory and fails when
// the checked-in file differs, i.e. when opcodes.txt or the generator changed
// without `go generate`.
func TestOpcodesGenIsCurrent(t *testing.T) {
	src, err := os.ReadFile("opcodes.txt")
	if err != nil {
		t.Fatal(err)
	}
	want, err := gen.Generate("opcodes.txt", src)
	if err != nil {
		t.Fatalf("opcodes.txt does not generate: %v", err)
	}
	got, err := os.ReadFile("opcodes_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("opcodes_gen.go is stale: run go generate ./lib/ir (first difference at line %d)", firstDiffLine(got, want))
	}
}

func firstDiffLine(a, b []byte) int {
	line := 1
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return line
		}
		if a[i] == '\n' {
			line++
		}
	}
	return line
}
