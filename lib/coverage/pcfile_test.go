package coverage

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Two driver processes loaded at different addresses: their PCs merge into
// one set of link-time addresses.
func TestMergePCFiles(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "1-1.cov", "cliff-sancov 1\nanchor 7f0000001000\nexe 10 20\n7f0000002000\n7f0000002010\n")
	b := writeFile(t, dir, "2-1.cov", "cliff-sancov 1\nanchor 5500000001000\nexe 10 20\n5500000002010\n5500000002020\n")
	set := map[uint64]bool{}
	for _, path := range []string{a, b} {
		f, err := ReadPCFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f.AddTo(set, 0x1000) // the anchor symbol's link-time address
	}
	var got []uint64
	for pc := range set {
		got = append(got, pc)
	}
	slices.Sort(got)
	if want := []uint64{0x2000, 0x2010, 0x2020}; !slices.Equal(got, want) {
		t.Errorf("merged %x, want %x", got, want)
	}
	// coveredPCs merges a step directory the same way, skipping the
	// temporary files a driver renames into place.
	writeFile(t, dir, "3-1.tmp", "garbage")
	step, err := coveredPCs(dir, 0x1000, "10 20")
	if err != nil {
		t.Fatal(err)
	}
	if len(step) != 3 || !step[0x2020] {
		t.Errorf("coveredPCs = %v, want the 3 PCs", step)
	}
	// A file of another build of the driver would map to the wrong code:
	// refused, naming the file.
	if _, err := coveredPCs(dir, 0x1000, "10 21"); err == nil || !strings.Contains(err.Error(), "another build of the driver") {
		t.Errorf("coveredPCs with another build: error %v, want one about another build", err)
	}
}

func TestReadPCFileErrors(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"header", "cliff-sancov 2\nanchor 10\nexe 1 2\n", "bad.cov:1: want \"cliff-sancov 1\""},
		{"anchor", "cliff-sancov 1\n10\nexe 1 2\n", "bad.cov:2: want an anchor line"},
		{"zero anchor", "cliff-sancov 1\nanchor 0\nexe 1 2\n", "bad.cov:2: bad anchor"},
		{"exe", "cliff-sancov 1\nanchor 10\n20\n", "bad.cov:3: want an exe line"},
		{"pc", "cliff-sancov 1\nanchor 10\nexe 1 2\n20\nxyz\n", "bad.cov:5: bad PC \"xyz\""},
		{"truncated", "cliff-sancov 1\nanchor 10\n", "truncated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, t.TempDir(), "bad.cov", tt.text)
			_, err := ReadPCFile(path)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}
