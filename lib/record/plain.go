package record

import "math/bits"

// plainInJSON marks the bytes a JSON string holds as they are: ASCII
// other than control characters, '"' and '\\'.
var plainInJSON = func() (t [256]bool) {
	for c := ' '; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

const (
	lsbs = 0x0101010101010101
	msbs = 0x8080808080808080
)

// plainRun returns the index of the first byte of s at or after i that is
// not plainInJSON, or len(s). Eight bytes at a time: the CLIF text of a
// case, most of a record, is long runs of plain bytes between line breaks.
func plainRun[T string | []byte](s T, i int) int {
	for ; i+8 <= len(s); i += 8 {
		w := s[i : i+8] // one bounds check; the compiler makes the loads one
		x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		// A byte's high bit is set in special when it is below ' ', is '"'
		// or '\\', or is not ASCII. Borrows can set it in bytes above the
		// first special one, never below, so the lowest set bit is exact.
		special := (x-lsbs*' ')&^x | hasZeroByte(x^(lsbs*'"')) | hasZeroByte(x^(lsbs*'\\')) | x
		if special &= msbs; special != 0 {
			return i + bits.TrailingZeros64(special)/8
		}
	}
	for i < len(s) && plainInJSON[s[i]] {
		i++
	}
	return i
}

// hasZeroByte has the high bit set in (at least) the lowest zero byte of x.
func hasZeroByte(x uint64) uint64 { return (x - lsbs) &^ x }
