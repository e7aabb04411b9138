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
		if special := notPlain(word(s, i)); special != 0 {
			return i + firstByte(special)
		}
	}
	for i < len(s) && plainInJSON[s[i]] {
		i++
	}
	return i
}

// word returns the eight bytes of s from i as a little-endian word (one
// load: the compiler merges the byte loads).
func word[T string | []byte](s T, i int) uint64 {
	w := s[i : i+8] // one bounds check
	return uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
		uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
}

// notPlain has the high bit set in the first byte of x that is not
// plainInJSON (below ' ', '"', '\\', or not ASCII), and zero if there is
// none. Borrows can set it in bytes above the first such byte, never
// below, so only the lowest set bit is exact (firstByte).
func notPlain(x uint64) uint64 {
	// x-' ' sets the high bit of a byte below ' ', x that of a byte from
	// 0x80, and (x^c)-1 that of a byte c (or from 0x80); the plain bytes
	// set none of them.
	return ((x - lsbs*' ') | x | ((x ^ lsbs*'"') - lsbs) | ((x ^ lsbs*'\\') - lsbs)) & msbs
}

// firstByte returns the index of the lowest byte whose high bit is set in
// the non-zero mask.
func firstByte(mask uint64) int { return bits.TrailingZeros64(mask) / 8 }
