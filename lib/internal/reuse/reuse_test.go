package reuse

import (
	"slices"
	"testing"
)

// TestResize: each function gives the length and contents it promises,
// in the old memory when it has room and in new memory when not; stale
// elements past the old length are cleared.
func TestResize(t *testing.T) {
	// roomy is [7 8 9] with room for 8, and stale values behind it.
	roomy := func() []int { return []int{7, 8, 9, 4, 5, 6, 7, 8}[:3] }
	for _, tc := range []struct {
		name    string
		resize  func([]int) []int
		in      []int
		want    []int
		sameMem bool
	}{
		{"Zeroed in room", func(s []int) []int { return Zeroed(s, 5) }, roomy(), []int{0, 0, 0, 0, 0}, true},
		{"Zeroed too big", func(s []int) []int { return Zeroed(s, 9) }, roomy(), make([]int, 9), false},
		{"Filled in room", func(s []int) []int { return Filled(s, 4, -1) }, roomy(), []int{-1, -1, -1, -1}, true},
		{"Filled too big", func(s []int) []int { return Filled(s, 10, 2) }, roomy(), slices.Repeat([]int{2}, 10), false},
		{"Extended in room", func(s []int) []int { return Extended(s, 5) }, roomy(), []int{7, 8, 9, 0, 0}, true},
		{"Extended shorter", func(s []int) []int { return Extended(s, 2) }, roomy(), []int{7, 8, 9}, true},
		{"Extended too big", func(s []int) []int { return Extended(s, 10) }, roomy(), []int{7, 8, 9, 0, 0, 0, 0, 0, 0, 0}, false},
	} {
		got := tc.resize(tc.in)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
		if same := &got[:1][0] == &tc.in[:1][0]; same != tc.sameMem {
			t.Errorf("%s: in the old memory = %v, want %v", tc.name, same, tc.sameMem)
		}
	}
}
