package splitmix

import "testing"

// TestStream pins the first words of SplitMix64 from seed 0 (the values
// of the reference implementation): every generated case depends on them.
func TestStream(t *testing.T) {
	s := Stream{}
	for i, want := range []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f} {
		if got := s.Next(); got != want {
			t.Errorf("word %d: %#x, want %#x", i, got, want)
		}
	}
}

// TestIndex: each x falls in the span of the weight that covers it, and
// zero weights are never chosen.
func TestIndex(t *testing.T) {
	weights := []int{2, 0, 3, 1}
	want := []int{0, 0, 2, 2, 2, 3}
	if Sum(weights) != len(want) {
		t.Fatalf("Sum = %d, want %d", Sum(weights), len(want))
	}
	for x, w := range want {
		if got := Index(weights, x); got != w {
			t.Errorf("Index(%v, %d) = %d, want %d", weights, x, got, w)
		}
	}
}
