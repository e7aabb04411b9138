package parser

import (
	"errors"
	"math/bits"
	"strconv"
	"strings"

	"cliff/lib/internal/uint128"
)

// Number syntax, as Cranelift's immediates accept it. The lexer hands over
// raw text that merely looks like a number; these functions check it against
// the rules of the expected kind of immediate. Errors carry Cranelift's
// wording.

func digitVal(c byte) (uint64, bool) {
	switch {
	case '0' <= c && c <= '9':
		return uint64(c - '0'), true
	case 'a' <= c && c <= 'f':
		return uint64(c-'a') + 10, true
	case 'A' <= c && c <= 'F':
		return uint64(c-'A') + 10, true
	}
	return 0, false
}

// digitValues is digitVal as a table, 0xff for non-digits.
var digitValues = func() (t [256]uint8) {
	for c := range t {
		d, ok := digitVal(byte(c))
		t[c] = 0xff
		if ok {
			t[c] = uint8(d)
		}
	}
	return t
}()

// parseUnsigned reads digits of the given base (no sign, no prefix, no
// separators) into a value of at most width bits.
func parseUnsigned(s string, base uint64, width uint) (uint128.Uint128, bool) {
	if s == "" {
		return uint128.Uint128{}, false
	}
	if len(s) <= 15 && width <= 64 {
		// Fifteen digits of base 16 or less fit in 64 bits, so most
		// numbers (source locations, entity numbers) need no 128-bit
		// arithmetic.
		var v uint64
		for i := 0; i < len(s); i++ {
			d := digitValues[s[i]]
			if uint64(d) >= base {
				return uint128.Uint128{}, false
			}
			v = v*base + uint64(d)
		}
		if bits.Len64(v) > int(width) {
			return uint128.Uint128{}, false
		}
		return uint128.From64(v), true
	}
	var v uint128.Uint128
	for i := 0; i < len(s); i++ {
		d, ok := digitVal(s[i])
		if !ok || d >= base {
			return uint128.Uint128{}, false
		}
		var overflow bool
		if v, overflow = v.MulAdd(base, d); overflow {
			return uint128.Uint128{}, false
		}
	}
	if width < 128 && v.BitLen() > int(width) {
		return uint128.Uint128{}, false
	}
	return v, true
}

// parseSizedImm reads a signed integer immediate of the given width the way
// Cranelift's match_imm! does (i8, i16, i32 and i128 immediates): an optional
// sign, then hex (0x..., '_' separators allowed) or plain decimal digits read
// as an unsigned number of that width, negated when signed. The result is the
// two's complement bit pattern, masked to width.
func parseSizedImm(text string, width uint) (uint128.Uint128, error) {
	negative := strings.HasPrefix(text, "-")
	if negative || strings.HasPrefix(text, "+") {
		text = text[1:]
	}
	var v uint128.Uint128
	if hex, ok := strings.CutPrefix(text, "0x"); ok {
		hex = strings.ReplaceAll(hex, "_", "")
		var ok bool
		if v, ok = parseUnsigned(hex, 16, width); !ok {
			return uint128.Uint128{}, errors.New("unable to parse '" + hex + "' value as a hexadecimal u" + strconv.Itoa(int(width)) + " immediate")
		}
	} else {
		var ok bool
		if v, ok = parseUnsigned(text, 10, width); !ok {
			return uint128.Uint128{}, errors.New("expected decimal immediate")
		}
	}
	if negative {
		v = v.Neg().And(uint128.Mask(width))
		// The negated value must be negative (or zero) as a signed number.
		if !v.IsZero() && v.Shr(width-1).Lo&1 == 0 {
			return uint128.Uint128{}, errors.New("negative number too small")
		}
	}
	return v, nil
}

// parseU64 reads an unsigned 64-bit number: decimal or 0x-hex, with '_'
// separators anywhere after the prefix (Cranelift's parse_u64).
func parseU64(s string) (uint64, error) {
	var v uint64
	digits := 0
	if strings.HasPrefix(s, "-0x") {
		return 0, errors.New("invalid character in hexadecimal number")
	}
	if hex, ok := strings.CutPrefix(s, "0x"); ok {
		for i := 0; i < len(hex); i++ {
			d, ok := digitVal(hex[i])
			if !ok {
				if hex[i] != '_' {
					return 0, errors.New("invalid character in hexadecimal number")
				}
				continue
			}
			digits++
			if digits > 16 {
				return 0, errors.New("too many hexadecimal digits")
			}
			v = v<<4 | d
		}
	} else {
		for i := 0; i < len(s); i++ {
			c := s[i]
			if !isDigit(c) {
				if c != '_' {
					return 0, errors.New("invalid character in decimal number")
				}
				continue
			}
			digits++
			hi, lo := bits.Mul64(v, 10)
			sum, carry := bits.Add64(lo, uint64(c-'0'), 0)
			if hi != 0 || carry != 0 {
				return 0, errors.New("too large decimal number")
			}
			v = sum
		}
	}
	if digits == 0 {
		return 0, errors.New("no digits in number")
	}
	return v, nil
}

// parseI64 reads a signed 64-bit number with an optional sign; the range is
// -2^63 .. 2^64-1, large positive numbers wrapping (Cranelift's Imm64).
func parseI64(s string) (int64, error) {
	negative := strings.HasPrefix(s, "-")
	if negative || strings.HasPrefix(s, "+") {
		s = s[1:]
	}
	v, err := parseU64(s)
	if err != nil {
		return 0, err
	}
	if negative {
		v = -v
		if int64(v) > 0 {
			return 0, errors.New("negative number too small")
		}
	}
	return int64(v), nil
}

// parseOffset32 reads a signed offset: it must start with a sign and fit in
// 32 bits.
func parseOffset32(s string) (int32, error) {
	if !strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "+") {
		return 0, errors.New("offset must begin with sign")
	}
	v, err := parseI64(s)
	if err != nil {
		return 0, err
	}
	if v < -1<<31 || v > 1<<31-1 {
		return 0, errors.New("offset out of range")
	}
	return int32(v), nil
}

// parseUimm32 reads an unsigned 32-bit number (decimal or hex).
func parseUimm32(s string) (uint32, error) {
	v, err := parseI64(s)
	if err != nil {
		return 0, err
	}
	if v < 0 || v > 1<<32-1 {
		return 0, errors.New("Uimm32 out of range")
	}
	return uint32(v), nil
}

// parseUimm8 reads a lane index: 0x-hex or decimal, 0..255.
func parseUimm8(s string) (uint8, error) {
	if hex, ok := strings.CutPrefix(s, "0x"); ok {
		v, err := strconv.ParseUint(hex, 16, 8)
		if err != nil {
			return 0, errors.New("unable to parse u8 as a hexadecimal immediate")
		}
		return uint8(v), nil
	}
	v, err := strconv.ParseUint(s, 10, 8)
	if err != nil {
		return 0, errors.New("expected u8 decimal immediate")
	}
	return uint8(v), nil
}

// parseHexConstant reads a 0x... constant into bytes, little-endian (the
// last two digits are byte 0), at most 16 bytes.
func parseHexConstant(s string) ([]byte, error) {
	if len(s) <= 2 || s[:2] != "0x" {
		return nil, errors.New("expected a hexadecimal string, e.g. 0x1234")
	}
	digits := strings.ReplaceAll(s[2:], "_", "")
	switch {
	case digits == "":
		return nil, errors.New("hexadecimal string must have some digits")
	case len(digits)%2 != 0:
		return nil, errors.New("hexadecimal string must have an even number of digits")
	case len(digits) > 32:
		return nil, errors.New("hexadecimal string has too many digits to fit in a 128-bit vector")
	}
	out := make([]byte, len(digits)/2)
	for i := range out {
		hi, ok1 := digitVal(digits[2*i])
		lo, ok2 := digitVal(digits[2*i+1])
		if !ok1 || !ok2 {
			return nil, errors.New("unable to parse as hexadecimal")
		}
		out[len(out)-1-i] = byte(hi<<4 | lo)
	}
	return out, nil
}

// floatFormat is an IEEE 754 binary format: exponent and trailing
// significand widths.
type floatFormat struct{ w, t uint }

var (
	formatF16  = floatFormat{5, 10}
	formatF32  = floatFormat{8, 23}
	formatF64  = floatFormat{11, 52}
	formatF128 = floatFormat{15, 112}
)

// parseFloat reads a float in Cranelift's exact notation: hexadecimal
// (0x1.8p3, -0x0.4p-34), or 0.0, Inf, NaN, NaN:0xPAYLOAD, sNaN:0xPAYLOAD,
// each with an optional sign. Decimal numbers other than 0.0 are rejected:
// they could not be represented exactly. It returns the bit pattern.
func parseFloat(s string, f floatFormat) (uint128.Uint128, error) {
	w, t := f.w, f.t
	var sign uint128.Uint128
	if rest, ok := strings.CutPrefix(s, "-"); ok {
		sign, s = uint128.From64(1).Shl(t+w), rest
	} else if rest, ok := strings.CutPrefix(s, "+"); ok {
		s = rest
	}
	if !strings.HasPrefix(s, "0x") {
		maxE := uint128.Mask(w).Shl(t)
		quiet := uint128.From64(1).Shl(t - 1)
		lessThanQuiet := func(p uint128.Uint128) bool { return p.BitLen() <= int(t-1) }
		switch {
		case s == "0.0":
			return sign, nil
		case s == "Inf":
			return sign.Or(maxE), nil
		case s == "NaN":
			return sign.Or(maxE).Or(quiet), nil
		case strings.HasPrefix(s, "NaN:0x"):
			p, ok := parseUnsigned(s[len("NaN:0x"):], 16, 128)
			if !ok || !lessThanQuiet(p) {
				return uint128.Uint128{}, errors.New("invalid NaN payload")
			}
			return sign.Or(maxE).Or(quiet).Or(p), nil
		case strings.HasPrefix(s, "sNaN:0x"):
			p, ok := parseUnsigned(s[len("sNaN:0x"):], 16, 128)
			if !ok || p.IsZero() || !lessThanQuiet(p) {
				return uint128.Uint128{}, errors.New("invalid sNaN payload")
			}
			return sign.Or(maxE).Or(p), nil
		}
		return uint128.Uint128{}, errors.New("float must be hexadecimal")
	}
	s = s[2:]
	digits, digitsBeforePoint := 0, -1
	var significand uint128.Uint128
	exponent := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '.' {
			if digitsBeforePoint >= 0 {
				return uint128.Uint128{}, errors.New("multiple radix points")
			}
			digitsBeforePoint = digits
			continue
		}
		if c == 'p' {
			e, err := strconv.ParseInt(s[i+1:], 10, 16)
			if err != nil {
				return uint128.Uint128{}, errors.New("bad exponent")
			}
			exponent = int(e)
			break
		}
		d, ok := digitVal(c)
		if !ok {
			return uint128.Uint128{}, errors.New("invalid character")
		}
		digits++
		if digits > 32 {
			return uint128.Uint128{}, errors.New("too many digits")
		}
		significand = significand.Shl(4).Or(uint128.From64(d))
	}
	if digits == 0 {
		return uint128.Uint128{}, errors.New("no digits")
	}
	if significand.IsZero() {
		return sign, nil
	}
	if digitsBeforePoint >= 0 {
		exponent -= 4 * (digits - digitsBeforePoint)
	}
	// Normalize to t+1 significant bits.
	sigBits := uint(significand.BitLen())
	if sigBits > t+1 {
		adjust := sigBits - (t + 1)
		if !significand.And(uint128.Mask(adjust)).IsZero() {
			return uint128.Uint128{}, errors.New("too many significant bits")
		}
		significand = significand.Shr(adjust)
		exponent += int(adjust)
	} else {
		adjust := t + 1 - sigBits
		significand = significand.Shl(adjust)
		exponent -= int(adjust)
	}
	trailing := significand.And(uint128.Mask(t))
	maxExp := 1<<w - 2
	bias := 1<<(w-1) - 1
	exponent += bias + int(t)
	switch {
	case exponent > maxExp:
		return uint128.Uint128{}, errors.New("magnitude too large")
	case exponent > 0:
		return sign.Or(uint128.From64(uint64(exponent)).Shl(t)).Or(trailing), nil
	case 1-exponent <= int(t):
		adjust := uint(1 - exponent)
		if !significand.And(uint128.Mask(adjust)).IsZero() {
			return uint128.Uint128{}, errors.New("subnormal underflow")
		}
		return sign.Or(significand.Shr(adjust)), nil
	}
	return uint128.Uint128{}, errors.New("magnitude too small")
}
