package printer

import (
	"math/bits"
	"strconv"

	"cliff/lib/ir"
)

// Append forms of String methods of lib/ir that the printer calls for many
// instructions: each writes exactly what the String method returns (the
// tests compare them), without building a string first.

// appendSourceLoc writes `@0019` (at least four hex digits), or `@-` for
// none, as ir.SourceLoc.String does.
func appendSourceLoc(buf []byte, s ir.SourceLoc) []byte {
	if !s.IsSet() {
		return append(buf, "@-"...)
	}
	const digits = "0123456789abcdef"
	x := s.Bits()
	if x <= 0xffff { // the usual four digits, in one append
		return append(buf, '@', digits[x>>12&0xf], digits[x>>8&0xf], digits[x>>4&0xf], digits[x&0xf])
	}
	buf = append(buf, '@')
	for shift := 4 * (max(4, (bits.Len32(x)+3)/4) - 1); shift >= 0; shift -= 4 {
		buf = append(buf, digits[x>>shift&0xf])
	}
	return buf
}

// appendMemFlags writes the flags with a leading space each,
// ` notrap aligned little region0`, as ir.MemFlags.String does.
func appendMemFlags(buf []byte, f ir.MemFlags) []byte {
	switch {
	case f.NoTrap:
		buf = append(buf, " notrap"...)
	case f.Trap != ir.TrapNone && f.Trap != ir.TrapHeapOutOfBounds:
		buf = append(buf, ' ')
		buf = appendTrapCode(buf, f.Trap)
	}
	if f.Aligned {
		buf = append(buf, " aligned"...)
	}
	if f.Readonly {
		buf = append(buf, " readonly"...)
	}
	if f.CanMove {
		buf = append(buf, " can_move"...)
	}
	switch f.Endian {
	case ir.EndianBig:
		buf = append(buf, " big"...)
	case ir.EndianLittle:
		buf = append(buf, " little"...)
	}
	if f.HasRegion {
		buf = append(buf, " region"...)
		buf = appendEntityNum(buf, uint32(f.Region))
	}
	return buf
}

// appendTrapCode writes a trap code as ir.TrapCode.String does; only user
// codes (`user1`) would build a string there.
func appendTrapCode(buf []byte, t ir.TrapCode) []byte {
	if t > ir.TrapUser {
		buf = append(buf, "user"...)
		return strconv.AppendUint(buf, uint64(t-ir.TrapUser), 10)
	}
	return append(buf, t.String()...)
}

// appendEntityNum writes the number of an entity reference, or `?` for the
// invalid sentinel, as the ir String methods do (`v12`, `v?`).
func appendEntityNum(buf []byte, n uint32) []byte {
	if n < smallNums {
		d := &smallDigits[n]
		buf = append(buf, d[0], d[1], d[2])
		return buf[:len(buf)-3+int(d[3])]
	}
	if n == ^uint32(0) {
		return append(buf, '?')
	}
	return strconv.AppendUint(buf, uint64(n), 10)
}

// smallDigits spells the numbers below smallNums, which are nearly all the
// entity numbers of a function: the digits, padded to three bytes, then
// their count. Appending all three bytes and cutting the padding off again
// is cheaper than dividing digit by digit or copying a varying length.
const smallNums = 1000

var smallDigits = func() (t [smallNums][4]byte) {
	for n := range t {
		s := strconv.Itoa(n)
		copy(t[n][:3], s)
		t[n][3] = byte(len(s))
	}
	return t
}()

// valueNames spells the values numbered below smallValues.
var valueNames = func() (t [smallValues]valueSpellings) {
	for n := range t {
		s := "v" + strconv.Itoa(n)
		t[n].name = newValueName(s)
		t[n].comma = newValueName(", " + s)
		t[n].result = newValueName(s + " = ")
	}
	return t
}()

// valueSpellings are the ways a value is written: its name alone, after
// the comma of a list, and as an instruction's single result. Each comes
// in one append, separator included.
type valueSpellings struct {
	name   valueName // v12
	comma  valueName // , v12
	result valueName // v12 =
}

func newValueName(s string) valueName {
	var t valueName
	if len(s) > len(t.b) {
		panic("printer: value spelling too long: " + s)
	}
	t.n = uint8(copy(t.b[:], s))
	return t
}

// smallValues is the number of value names in valueNames: a power of
// two, so that appendValue indexes it without a bounds check.
const smallValues = 1024

// valueName is a shortText of 8 bytes, enough for the value spellings
// below smallValues (`, v1023`, `v1023 = `): appending one is a single
// 8-byte copy.
type valueName struct {
	b [8]byte
	n uint8
}

func (t *valueName) appendTo(buf []byte) []byte {
	buf = append(buf, t.b[:]...)
	return buf[:len(buf)-len(t.b)+int(t.n)]
}

// shortText holds a spelling of up to 15 bytes so that appending it copies
// a fixed 16 bytes, which the compiler does with two moves, and then cuts
// the padding off: cheaper than copying a string of varying length, which
// calls memmove.
type shortText struct {
	b [15]byte
	n uint8 // length; 0 for no text
}

// newShortText returns s as a shortText, or the empty one when s is too
// long.
func newShortText(s string) shortText {
	var t shortText
	if len(s) <= len(t.b) {
		t.n = uint8(copy(t.b[:], s))
	}
	return t
}

func (t *shortText) appendTo(buf []byte) []byte {
	buf = append(buf, t.b[:]...)
	return buf[:len(buf)-len(t.b)+int(t.n)]
}
