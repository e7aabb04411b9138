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
// invalid sentinel, as the ir String methods do (`v12`, `v?`). Numbers
// below 1000, nearly all of them in a function, take a path that is
// quicker than strconv's.
func appendEntityNum(buf []byte, n uint32) []byte {
	switch {
	case n < 10:
		return append(buf, byte('0'+n))
	case n < 100:
		return append(buf, byte('0'+n/10), byte('0'+n%10))
	case n < 1000:
		return append(buf, byte('0'+n/100), byte('0'+n/10%10), byte('0'+n%10))
	case n == ^uint32(0):
		return append(buf, '?')
	}
	return strconv.AppendUint(buf, uint64(n), 10)
}
