package parser

import (
	"slices"
	"testing"
)

func TestArenaClone(t *testing.T) {
	var a arena[int]
	if got := a.clone(nil); got != nil {
		t.Errorf("clone(nil) = %v, want nil", got)
	}
	if got := a.clone([]int{}); got != nil {
		t.Errorf("clone([]) = %v, want nil", got)
	}
	// Enough lists to fill several blocks, one longer than any block.
	var want, got [][]int
	for n := range 60 {
		list := make([]int, n%23+1)
		if n == 50 {
			list = make([]int, 3*maxArenaBlock)
		}
		for i := range list {
			list[i] = n*10000 + i
		}
		want = append(want, slices.Clone(list))
		c := a.clone(list)
		if cap(c) != len(c) {
			t.Fatalf("clone of %d elements has capacity %d", len(c), cap(c))
		}
		list[0] = -1 // the clone is a copy
		got = append(got, c)
	}
	// Appending to one list must not write into its neighbour.
	got[3] = append(got[3], -2)
	want[3] = append(want[3], -2)
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Fatalf("list %d = %v, want %v", i, got[i], want[i])
		}
	}
}
