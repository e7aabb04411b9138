package analysis

// The Recompute methods rebuild an analysis in the memory it has; these
// size its slices.

// zeroed returns s with length n and every element zero, reusing its
// memory when it has room.
func zeroed[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// filled returns s with length n and every element x.
func filled[T any](s []T, n int, x T) []T {
	if cap(s) < n {
		s = make([]T, n)
	}
	s = s[:n]
	for i := range s {
		s[i] = x
	}
	return s
}
