package main

// scale is small enough for the compiler to inline into probe: its code
// then is probe's, its lines this file's, and the call's line probe.go's.
func scale(v, by int) int {
	if by > 100 {
		return v << 7
	}
	return v * by
}
