package interp

import (
	"math/big"
	"math/bits"
)

// u128 is a 128-bit two's complement integer; every integer lane is held
// as one, zero-extended from its width w (the bits above w are zero).
// Kernels take the width and interpret the bits as signed where needed.
type u128 struct{ lo, hi uint64 }

func mask(x u128, w uint) u128 {
	switch {
	case w >= 128:
		return x
	case w > 64:
		return u128{x.lo, x.hi & (1<<(w-64) - 1)}
	case w == 64:
		return u128{x.lo, 0}
	}
	return u128{x.lo & (1<<w - 1), 0}
}

// sext sign-extends the low w bits of x to 128 bits.
func sext(x u128, w uint) u128 {
	if w >= 128 {
		return x
	}
	if w > 64 {
		s := 128 - w
		return u128{x.lo, uint64(int64(x.hi<<s) >> s)}
	}
	s := 64 - w
	lo := uint64(int64(x.lo<<s) >> s)
	return u128{lo, uint64(int64(lo) >> 63)}
}

func (x u128) isZero() bool { return x.lo == 0 && x.hi == 0 }

// neg128 reports whether x, sign-extended, is negative.
func (x u128) neg128() bool { return int64(x.hi) < 0 }

func add128(a, b u128) u128 {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	hi, _ := bits.Add64(a.hi, b.hi, c)
	return u128{lo, hi}
}

func sub128(a, b u128) u128 {
	lo, c := bits.Sub64(a.lo, b.lo, 0)
	hi, _ := bits.Sub64(a.hi, b.hi, c)
	return u128{lo, hi}
}

func mul128(a, b u128) u128 {
	hi, lo := bits.Mul64(a.lo, b.lo)
	hi += a.lo*b.hi + a.hi*b.lo
	return u128{lo, hi}
}

func not128(a u128) u128 { return u128{^a.lo, ^a.hi} }

func shl128(a u128, n uint) u128 {
	switch {
	case n == 0:
		return a
	case n >= 128:
		return u128{}
	case n >= 64:
		return u128{0, a.lo << (n - 64)}
	}
	return u128{a.lo << n, a.hi<<n | a.lo>>(64-n)}
}

func shr128(a u128, n uint) u128 {
	switch {
	case n == 0:
		return a
	case n >= 128:
		return u128{}
	case n >= 64:
		return u128{a.hi >> (n - 64), 0}
	}
	return u128{a.lo>>n | a.hi<<(64-n), a.hi >> n}
}

// sar128 shifts arithmetically (a is taken as a 128-bit signed number).
func sar128(a u128, n uint) u128 {
	if n >= 128 {
		n = 127
	}
	switch {
	case n == 0:
		return a
	case n >= 64:
		return u128{uint64(int64(a.hi) >> (n - 64)), uint64(int64(a.hi) >> 63)}
	}
	return u128{a.lo>>n | a.hi<<(64-n), uint64(int64(a.hi) >> n)}
}

func ult128(a, b u128) bool { return a.hi < b.hi || a.hi == b.hi && a.lo < b.lo }

func slt128(a, b u128) bool {
	if a.hi != b.hi {
		return int64(a.hi) < int64(b.hi)
	}
	return a.lo < b.lo
}

// big128 converts x, taken as signed when signed, to a big.Int.
func big128(x u128, signed bool) *big.Int {
	v := new(big.Int).SetUint64(x.hi)
	v.Lsh(v, 64).Or(v, new(big.Int).SetUint64(x.lo))
	if signed && x.neg128() {
		v.Sub(v, new(big.Int).Lsh(big.NewInt(1), 128))
	}
	return v
}

// fromBig takes the low 128 bits of v (two's complement).
func fromBig(v *big.Int) u128 {
	m := new(big.Int).Lsh(big.NewInt(1), 128)
	r := new(big.Int).Mod(v, m) // in [0, 2^128)
	lo := new(big.Int).And(r, new(big.Int).SetUint64(^uint64(0))).Uint64()
	hi := new(big.Int).Rsh(r, 64).Uint64()
	return u128{lo, hi}
}

func leadingZeros128(x u128) uint {
	if x.hi != 0 {
		return uint(bits.LeadingZeros64(x.hi))
	}
	return 64 + uint(bits.LeadingZeros64(x.lo))
}

func trailingZeros128(x u128) uint {
	if x.lo != 0 {
		return uint(bits.TrailingZeros64(x.lo))
	}
	return 64 + uint(bits.TrailingZeros64(x.hi))
}

func u64(x uint64) u128 { return u128{x, 0} }
