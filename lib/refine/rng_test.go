package refine

import (
	"hash/fnv"
	"testing"
)

// TestFNV64a: fnv64a is hash/fnv's FNV-1a, which seeded the streams of
// every case refined so far; a difference would change every refined case.
func TestFNV64a(t *testing.T) {
	for _, s := range append(Names(Passes()), "", "a", "\xff\x00") {
		h := fnv.New64a()
		h.Write([]byte(s))
		if got, want := fnv64a(s), h.Sum64(); got != want {
			t.Errorf("fnv64a(%q) = %#x, want %#x", s, got, want)
		}
	}
}
