package printer

import (
	"math/big"
	"math/bits"
	"strconv"

	"cliff/lib/internal/uint128"
)

// Number spellings of Cranelift's immediates (cranelift-codegen
// ir/immediates.rs and ir/constant.rs). Each append function writes one
// immediate the way Cranelift's Display impl does.

// appendImm64 writes an Imm64: decimal below 10000 (so every negative number
// is decimal), otherwise hexadecimal in groups of four digits.
func appendImm64(buf []byte, x int64) []byte {
	if 0 <= x && x < smallNums { // most constants: from the table
		return appendEntityNum(buf, uint32(x))
	}
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

// appendFloat writes an IEEE float of w exponent bits and t trailing
// significand bits the way Cranelift's format_float does: C99 hex floats
// (0x1.800000p0, subnormals 0x0.004p-14), 0.0 and -0.0, +Inf/-Inf, and NaNs
// with their payload (+NaN, -NaN:0x1, +sNaN:0x1).
func appendFloat(buf []byte, x uint128.Uint128, w, t uint) []byte {
	tBits := x.And(uint128.Mask(t))
	eBits := x.Shr(t).Lo & (1<<w - 1)
	sign := x.Shr(w+t).Lo & 1
	maxE := uint64(1)<<w - 1
	bias := int64(1)<<(w-1) - 1
	digits := (t + 3) / 4
	left := tBits.Shl(4*digits - t)
	if sign != 0 {
		buf = append(buf, '-')
	}
	switch {
	case eBits == 0 && tBits.IsZero():
		return append(buf, "0.0"...)
	case eBits == 0:
		buf = append(buf, "0x0."...)
		buf = left.AppendHex(buf, int(digits))
		buf = append(buf, 'p')
		return strconv.AppendInt(buf, 1-bias, 10)
	case eBits == maxE:
		if sign == 0 {
			buf = append(buf, '+')
		}
		if tBits.IsZero() {
			return append(buf, "Inf"...)
		}
		payload := tBits.And(uint128.Mask(t - 1))
		if !tBits.Shr(t - 1).IsZero() { // quiet bit
			if payload.IsZero() {
				return append(buf, "NaN"...)
			}
			buf = append(buf, "NaN:0x"...)
		} else {
			buf = append(buf, "sNaN:0x"...)
		}
		return payload.AppendHex(buf, 1)
	}
	buf = append(buf, "0x1."...)
	buf = left.AppendHex(buf, int(digits))
	buf = append(buf, 'p')
	return strconv.AppendInt(buf, int64(eBits)-bias, 10)
}

// Float layouts: exponent and trailing significand widths.
func appendF16(buf []byte, x uint64) []byte {
	return appendFloat(buf, uint128.From64(x&0xffff), 5, 10)
}

func appendF32(buf []byte, x uint64) []byte {
	return appendFloat(buf, uint128.From64(x&0xffff_ffff), 8, 23)
}

func appendF64(buf []byte, x uint64) []byte {
	return appendFloat(buf, uint128.From64(x), 11, 52)
}

// appendF128 writes a 16-byte little-endian f128.
func appendF128(buf []byte, le []byte) []byte {
	return appendFloat(buf, uint128.FromBytesLE(le), 15, 112)
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
