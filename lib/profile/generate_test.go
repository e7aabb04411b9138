package profile_test

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"cliff/lib/profile"
	"cliff/lib/profile/internal/gen"
)

// TestDataIsCurrent regenerates the profiles from data/facts.txt in memory
// and fails when a checked-in file differs, i.e. when facts.txt, the
// opcode table or the generator changed without
// `go run ./lib/profile/internal/mkprofile`.
func TestDataIsCurrent(t *testing.T) {
	src, err := os.ReadFile("data/facts.txt")
	if err != nil {
		t.Fatal(err)
	}
	facts, err := gen.ParseFacts("data/facts.txt", src)
	if err != nil {
		t.Fatal(err)
	}
	files, err := gen.Generate(facts)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(profile.Arches) {
		t.Errorf("generated %d profiles, want %d (profile.Arches)", len(files), len(profile.Arches))
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		got, err := os.ReadFile(filepath.Join("data", name))
		if err != nil {
			t.Errorf("%v (run go run ./lib/profile/internal/mkprofile)", err)
			continue
		}
		if !bytes.Equal(got, files[name]) {
			t.Errorf("data/%s is stale: run go run ./lib/profile/internal/mkprofile (first difference at line %d)", name, firstDiffLine(got, files[name]))
		}
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
