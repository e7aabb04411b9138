// Package reuse resizes slices in the memory they already have: the
// analyses and refinement passes rebuild their tables for every function
// of every case, and allocating them afresh each time was a large part of
// cliff-refine's time.
package reuse

import "slices"

// Zeroed returns s with length n and every element zero, reusing its
// memory when it has room.
func Zeroed[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// Filled returns s with length n and every element x.
func Filled[T any](s []T, n int, x T) []T {
	if cap(s) < n {
		s = make([]T, n)
	}
	s = s[:n]
	for i := range s {
		s[i] = x
	}
	return s
}

// Extended returns s with length n (at least its own), the elements added
// zero.
func Extended[T any](s []T, n int) []T {
	if n <= len(s) {
		return s
	}
	s = slices.Grow(s, n-len(s))
	add := s[len(s):n]
	clear(add)
	return s[:n]
}
