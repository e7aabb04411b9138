package gen

import (
	"math"
	"testing"
)

// TestGeometric checks geometric against the floating-point formula it
// replaces, floor(-log2(1 - u)), where the count changes (a run of
// leading ones ends) and on random words: a difference would change
// every case generated after it.
func TestGeometric(t *testing.T) {
	float := func(x uint64) int {
		u := float64(x>>11) / (1 << 53)
		return int(math.Floor(-math.Log2(1 - u)))
	}
	check := func(x uint64) {
		if got, want := geometric(x), float(x); got != want {
			t.Fatalf("geometric(%#x) = %d, want %d", x, got, want)
		}
	}
	for j := 0; j <= 64; j++ {
		edge := ^uint64(0) << j // top 64-j bits one
		if j == 64 {
			edge = 0
		}
		for d := range uint64(1 << 12) {
			check(edge + d<<11) // r.float drops the low 11 bits
			check(edge - d<<11)
		}
	}
	r := newRng(1)
	for range 1_000_000 {
		check(r.next())
	}
}
