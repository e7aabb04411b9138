// Package uint128 is just enough unsigned 128-bit arithmetic for CLIF
// immediates (i128 constants, f128 bit patterns), which Go lacks: shifts,
// masks, bitwise and/or, negation, digit-by-digit accumulation, and
// conversion to little-endian bytes and hexadecimal text.
//
// All operations wrap modulo 2^128 unless they say otherwise; shifts by 128
// or more give zero.
package uint128

import "math/bits"

// Uint128 is an unsigned 128-bit integer: Hi*2^64 + Lo, its halves in
// memory order (little-endian: Lo first). The zero value is 0. lib/refinterp
// holds every integer lane as one.
type Uint128 struct{ Lo, Hi uint64 }

// From64 returns x as a Uint128.
func From64(x uint64) Uint128 { return Uint128{Lo: x} }

// FromBytesLE reads up to 16 little-endian bytes; missing high bytes are
// zero and bytes past the 16th are ignored.
func FromBytesLE(b []byte) Uint128 {
	var x Uint128
	for i := min(len(b), 16) - 1; i >= 0; i-- {
		x = x.Shl(8)
		x.Lo |= uint64(b[i])
	}
	return x
}

// Mask returns the value with the n low bits set (all bits for n >= 128).
func Mask(n uint) Uint128 {
	switch {
	case n >= 128:
		return Uint128{Hi: ^uint64(0), Lo: ^uint64(0)}
	case n >= 64:
		return Uint128{Hi: 1<<(n-64) - 1, Lo: ^uint64(0)}
	}
	return Uint128{Hi: 0, Lo: 1<<n - 1}
}

// IsZero reports whether x is 0.
func (x Uint128) IsZero() bool { return x.Hi == 0 && x.Lo == 0 }

// BitLen returns the number of bits needed to represent x (0 for 0).
func (x Uint128) BitLen() int {
	if x.Hi != 0 {
		return 64 + bits.Len64(x.Hi)
	}
	return bits.Len64(x.Lo)
}

// Shl returns x << n.
func (x Uint128) Shl(n uint) Uint128 {
	switch {
	case n == 0:
		return x
	case n >= 128:
		return Uint128{}
	case n >= 64:
		return Uint128{Hi: x.Lo << (n - 64), Lo: 0}
	}
	return Uint128{Hi: x.Hi<<n | x.Lo>>(64-n), Lo: x.Lo << n}
}

// Shr returns x >> n (logical shift).
func (x Uint128) Shr(n uint) Uint128 {
	switch {
	case n == 0:
		return x
	case n >= 128:
		return Uint128{}
	case n >= 64:
		return Uint128{Hi: 0, Lo: x.Hi >> (n - 64)}
	}
	return Uint128{Hi: x.Hi >> n, Lo: x.Lo>>n | x.Hi<<(64-n)}
}

// Or returns x | y.
func (x Uint128) Or(y Uint128) Uint128 { return Uint128{Hi: x.Hi | y.Hi, Lo: x.Lo | y.Lo} }

// And returns x & y.
func (x Uint128) And(y Uint128) Uint128 { return Uint128{Hi: x.Hi & y.Hi, Lo: x.Lo & y.Lo} }

// Neg returns -x modulo 2^128, the two's complement negation.
func (x Uint128) Neg() Uint128 {
	lo, borrow := bits.Sub64(0, x.Lo, 0)
	hi, _ := bits.Sub64(0, x.Hi, borrow)
	return Uint128{Hi: hi, Lo: lo}
}

// MulAdd returns x*base + d, the step of reading one more digit. When the
// exact result does not fit in 128 bits it reports overflow and the value is
// zero.
func (x Uint128) MulAdd(base, d uint64) (_ Uint128, overflow bool) {
	carryLo, lo := bits.Mul64(x.Lo, base)
	carryHi, hi := bits.Mul64(x.Hi, base)
	if carryHi != 0 {
		return Uint128{}, true
	}
	hi, c := bits.Add64(hi, carryLo, 0)
	if c != 0 {
		return Uint128{}, true
	}
	lo, c = bits.Add64(lo, d, 0)
	hi, c = bits.Add64(hi, 0, c)
	if c != 0 {
		return Uint128{}, true
	}
	return Uint128{Hi: hi, Lo: lo}, false
}

// BytesLE returns the low n bytes of x, little-endian; bytes past the 16th
// are zero.
func (x Uint128) BytesLE(n int) []byte {
	b := make([]byte, n)
	for i := range min(n, 16) {
		if i < 8 {
			b[i] = byte(x.Lo >> (8 * i))
		} else {
			b[i] = byte(x.Hi >> (8 * (i - 8)))
		}
	}
	return b
}

// AppendHex appends x in lower-case hexadecimal without a prefix, with
// leading zeros up to at least minDigits digits (0 is written as "0" when
// minDigits < 1).
func (x Uint128) AppendHex(buf []byte, minDigits int) []byte {
	const digits = "0123456789abcdef"
	n := max((x.BitLen()+3)/4, minDigits, 1)
	for i := n - 1; i >= 0; i-- {
		nibble := x.Shr(4*uint(i)).Lo & 0xf
		buf = append(buf, digits[nibble])
	}
	return buf
}
