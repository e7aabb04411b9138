package refinterp

import (
	"cliff/lib/internal/uint128"
	"math/big"
	"math/bits"
)

// u128 is a 128-bit two's complement integer; every integer lane is held
// as one, zero-extended from its width w (the bits above w are zero).
// Kernels take the width and interpret the bits as signed where needed.
type u128 = uint128.Uint128

func mask(x u128, w uint) u128 {
	switch {
	case w >= 128:
		return x
	case w > 64:
		return u128{Lo: x.Lo, Hi: x.Hi & (1<<(w-64) - 1)}
	case w == 64:
		return u128{Lo: x.Lo, Hi: 0}
	}
	return u128{Lo: x.Lo & (1<<w - 1), Hi: 0}
}

// sext sign-extends the low w bits of x to 128 bits.
func sext(x u128, w uint) u128 {
	if w >= 128 {
		return x
	}
	if w > 64 {
		s := 128 - w
		return u128{Lo: x.Lo, Hi: uint64(int64(x.Hi<<s) >> s)}
	}
	s := 64 - w
	lo := uint64(int64(x.Lo<<s) >> s)
	return u128{Lo: lo, Hi: uint64(int64(lo) >> 63)}
}

// neg128 reports whether x, sign-extended, is negative.
func neg128(x u128) bool { return int64(x.Hi) < 0 }

func add128(a, b u128) u128 {
	lo, c := bits.Add64(a.Lo, b.Lo, 0)
	hi, _ := bits.Add64(a.Hi, b.Hi, c)
	return u128{Lo: lo, Hi: hi}
}

func sub128(a, b u128) u128 {
	lo, c := bits.Sub64(a.Lo, b.Lo, 0)
	hi, _ := bits.Sub64(a.Hi, b.Hi, c)
	return u128{Lo: lo, Hi: hi}
}

func mul128(a, b u128) u128 {
	hi, lo := bits.Mul64(a.Lo, b.Lo)
	hi += a.Lo*b.Hi + a.Hi*b.Lo
	return u128{Lo: lo, Hi: hi}
}

func not128(a u128) u128 { return u128{Lo: ^a.Lo, Hi: ^a.Hi} }

func shl128(a u128, n uint) u128 {
	switch {
	case n == 0:
		return a
	case n >= 128:
		return u128{}
	case n >= 64:
		return u128{Lo: 0, Hi: a.Lo << (n - 64)}
	}
	return u128{Lo: a.Lo << n, Hi: a.Hi<<n | a.Lo>>(64-n)}
}

func shr128(a u128, n uint) u128 {
	switch {
	case n == 0:
		return a
	case n >= 128:
		return u128{}
	case n >= 64:
		return u128{Lo: a.Hi >> (n - 64), Hi: 0}
	}
	return u128{Lo: a.Lo>>n | a.Hi<<(64-n), Hi: a.Hi >> n}
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
		return u128{Lo: uint64(int64(a.Hi) >> (n - 64)), Hi: uint64(int64(a.Hi) >> 63)}
	}
	return u128{Lo: a.Lo>>n | a.Hi<<(64-n), Hi: uint64(int64(a.Hi) >> n)}
}

func ult128(a, b u128) bool { return a.Hi < b.Hi || a.Hi == b.Hi && a.Lo < b.Lo }

func slt128(a, b u128) bool {
	if a.Hi != b.Hi {
		return int64(a.Hi) < int64(b.Hi)
	}
	return a.Lo < b.Lo
}

// big128 converts x, taken as signed when signed, to a big.Int.
func big128(x u128, signed bool) *big.Int {
	v := new(big.Int).SetUint64(x.Hi)
	v.Lsh(v, 64).Or(v, new(big.Int).SetUint64(x.Lo))
	if signed && neg128(x) {
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
	return u128{Lo: lo, Hi: hi}
}

func leadingZeros128(x u128) uint {
	if x.Hi != 0 {
		return uint(bits.LeadingZeros64(x.Hi))
	}
	return 64 + uint(bits.LeadingZeros64(x.Lo))
}

func trailingZeros128(x u128) uint {
	if x.Lo != 0 {
		return uint(bits.TrailingZeros64(x.Lo))
	}
	return 64 + uint(bits.TrailingZeros64(x.Hi))
}

func u64(x uint64) u128 { return u128{Lo: x, Hi: 0} }
