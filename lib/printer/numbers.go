package printer

import (
	"math/big"
	"math/bits"
	"strconv"
)

// Number spellings of Cranelift's immediates (cranelift-codegen
// ir/immediates.rs and ir/constant.rs). Each append function writes one
// immediate the way Cranelift's Display impl does.

// appendImm64 writes an Imm64: decimal below 10000 (so every negative number
// is decimal), otherwise hexadecimal in groups of four digits.
func appendImm64(buf []byte, x int64) []byte {
	if x < 10_000 {
		return strconv.AppendInt(buf, x, 10)
	}
	return appendGroupedHex(buf, uint64(x))
}

// appendGroupedHex writes x (>= 1) as 0x with a multiple of four hex
// digits and an underscore between groups: 0x2710, 0x0001_0000.
func appendGroupedHex(buf []byte, x uint64) []byte {
	const digits = "0123456789abcdef"
	pos := uint(63-bits.LeadingZeros64(x)) & 0xf0
	buf = append(buf, "0x"...)
	for {
		g := (x >> pos) & 0xffff
		buf = append(buf, digits[g>>12], digits[g>>8&0xf], digits[g>>4&0xf], digits[g&0xf])
		if pos == 0 {
			return buf
		}
		pos -= 16
		buf = append(buf, '_')
	}
}

// appendOffset32 writes an Offset32: nothing for 0, otherwise always a sign,
// then the magnitude as an Imm64 would print it (+8, -0x2710). Values outside
// the i32 range (malformed IR) are written the same way, so they stay visible.
func appendOffset32(buf []byte, x int64) []byte {
	switch {
	case x == 0:
		return buf
	case x < 0:
		buf = append(buf, '-')
		mag := uint64(-x) // two's complement handles MinInt64
		if mag < 10_000 {
			return strconv.AppendUint(buf, mag, 10)
		}
		return appendGroupedHex(buf, mag)
	default:
		buf = append(buf, '+')
		return appendImm64(buf, x)
	}
}

// appendLEHex writes little-endian bytes as one big-endian hex number, the
// way Cranelift prints ConstantData: 0x then two digits per byte, most
// significant byte first. Empty data writes nothing.
func appendLEHex(buf []byte, data []byte) []byte {
	const digits = "0123456789abcdef"
	if len(data) == 0 {
		return buf
	}
	buf = append(buf, "0x"...)
	for i := len(data) - 1; i >= 0; i-- {
		buf = append(buf, digits[data[i]>>4], digits[data[i]&0xf])
	}
	return buf
}

// u128 is just enough 128-bit arithmetic to format f128.
type u128 struct{ hi, lo uint64 }

func (x u128) rsh(n uint) u128 {
	switch {
	case n == 0:
		return x
	case n >= 128:
		return u128{}
	case n >= 64:
		return u128{0, x.hi >> (n - 64)}
	}
	return u128{x.hi >> n, x.lo>>n | x.hi<<(64-n)}
}

func (x u128) lsh(n uint) u128 {
	switch {
	case n == 0:
		return x
	case n >= 128:
		return u128{}
	case n >= 64:
		return u128{x.lo << (n - 64), 0}
	}
	return u128{x.hi<<n | x.lo>>(64-n), x.lo << n}
}

func (x u128) and(y u128) u128 { return u128{x.hi & y.hi, x.lo & y.lo} }
func (x u128) isZero() bool    { return x.hi == 0 && x.lo == 0 }

// lowBits is the mask of the n low bits.
func lowBits(n uint) u128 {
	switch {
	case n >= 128:
		return u128{^uint64(0), ^uint64(0)}
	case n >= 64:
		return u128{1<<(n-64) - 1, ^uint64(0)}
	}
	return u128{0, 1<<n - 1}
}

// appendHex128 writes x in lower-case hex without prefix, zero-padded to at
// least width digits.
func appendHex128(buf []byte, x u128, width int) []byte {
	var s string
	if x.hi != 0 {
		lo := strconv.FormatUint(x.lo, 16)
		s = strconv.FormatUint(x.hi, 16) + zeros(16-len(lo)) + lo
	} else {
		s = strconv.FormatUint(x.lo, 16)
	}
	buf = append(buf, zeros(width-len(s))...)
	return append(buf, s...)
}

func zeros(n int) string {
	const z = "00000000000000000000000000000000"
	if n <= 0 {
		return ""
	}
	if n > len(z) {
		return z + zeros(n-len(z))
	}
	return z[:n]
}

// appendFloat writes an IEEE float of w exponent bits and t trailing
// significand bits the way Cranelift's format_float does: C99 hex floats
// (0x1.800000p0, subnormals 0x0.004p-14), 0.0 and -0.0, +Inf/-Inf, and NaNs
// with their payload (+NaN, -NaN:0x1, +sNaN:0x1).
func appendFloat(buf []byte, x u128, w, t uint) []byte {
	tBits := x.and(lowBits(t))
	eBits := x.rsh(t).lo & (1<<w - 1)
	sign := x.rsh(w+t).lo & 1
	maxE := uint64(1)<<w - 1
	bias := int64(1)<<(w-1) - 1
	digits := (t + 3) / 4
	left := tBits.lsh(4*digits - t)
	if sign != 0 {
		buf = append(buf, '-')
	}
	switch {
	case eBits == 0 && tBits.isZero():
		return append(buf, "0.0"...)
	case eBits == 0:
		buf = append(buf, "0x0."...)
		buf = appendHex128(buf, left, int(digits))
		buf = append(buf, 'p')
		return strconv.AppendInt(buf, 1-bias, 10)
	case eBits == maxE:
		if sign == 0 {
			buf = append(buf, '+')
		}
		if tBits.isZero() {
			return append(buf, "Inf"...)
		}
		payload := tBits.and(lowBits(t - 1))
		if !tBits.rsh(t - 1).isZero() { // quiet bit
			if payload.isZero() {
				return append(buf, "NaN"...)
			}
			buf = append(buf, "NaN:0x"...)
		} else {
			buf = append(buf, "sNaN:0x"...)
		}
		return appendHex128(buf, payload, 1)
	}
	buf = append(buf, "0x1."...)
	buf = appendHex128(buf, left, int(digits))
	buf = append(buf, 'p')
	return strconv.AppendInt(buf, int64(eBits)-bias, 10)
}

// Float layouts: exponent and trailing significand widths.
func appendF16(buf []byte, x uint64) []byte { return appendFloat(buf, u128{0, x & 0xffff}, 5, 10) }
func appendF32(buf []byte, x uint64) []byte {
	return appendFloat(buf, u128{0, x & 0xffff_ffff}, 8, 23)
}
func appendF64(buf []byte, x uint64) []byte { return appendFloat(buf, u128{0, x}, 11, 52) }

// appendF128 writes a 16-byte little-endian f128.
func appendF128(buf []byte, le []byte) []byte {
	var x u128
	for i := 15; i >= 0; i-- {
		x = x.lsh(8)
		if i < len(le) {
			x.lo |= uint64(le[i])
		}
	}
	return appendFloat(buf, x, 15, 112)
}

// appendSignedLE writes little-endian two's complement bytes as a signed
// decimal number (DataValue's i8..i128 spelling).
func appendSignedLE(buf []byte, le []byte) []byte {
	if len(le) <= 8 {
		var x uint64
		for i := len(le) - 1; i >= 0; i-- {
			x = x<<8 | uint64(le[i])
		}
		shift := uint(64 - 8*len(le))
		return strconv.AppendInt(buf, int64(x<<shift)>>shift, 10)
	}
	be := make([]byte, len(le))
	for i, b := range le {
		be[len(le)-1-i] = b
	}
	n := new(big.Int).SetBytes(be)
	if le[len(le)-1]&0x80 != 0 {
		n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(8*len(le))))
	}
	return n.Append(buf, 10)
}
