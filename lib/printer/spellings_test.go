package printer

import (
	"testing"

	"cliff/lib/ir"
)

// The append forms must write exactly what the ir String methods return.

func TestAppendSourceLocMatchesString(t *testing.T) {
	for _, bits := range []uint32{0, 1, 0xf, 0x10, 0x19, 0xfff, 0x1000, 0xc1ff, 0xffff, 0x10000, 0x12345,
		0xfffff, 0x100000, 0xabcdef1, 0x7fffffff, 0xfffffffe, 0xffffffff} {
		loc := ir.SrcLoc(bits)
		if got, want := string(appendSourceLoc(nil, loc)), loc.String(); got != want {
			t.Errorf("appendSourceLoc(%#x) = %q, want %q", bits, got, want)
		}
	}
}

func TestAppendMemFlagsMatchesString(t *testing.T) {
	traps := []ir.TrapCode{ir.TrapNone, ir.TrapHeapOutOfBounds, ir.TrapIntegerOverflow, ir.TrapUser + 1,
		ir.TrapUser + 255, ir.TrapUser}
	for _, trap := range traps {
		for bits := range 1 << 5 {
			for _, endian := range []ir.Endianness{ir.EndianNative, ir.EndianLittle, ir.EndianBig} {
				f := ir.MemFlags{
					NoTrap: bits&1 != 0, Trap: trap, Aligned: bits&2 != 0, Readonly: bits&4 != 0,
					CanMove: bits&8 != 0, Endian: endian, HasRegion: bits&16 != 0, Region: ir.AliasRegion(bits * 7),
				}
				if got, want := string(appendMemFlags(nil, f)), f.String(); got != want {
					t.Errorf("appendMemFlags(%+v) = %q, want %q", f, got, want)
				}
			}
		}
	}
}

func TestAppendTrapCodeMatchesString(t *testing.T) {
	for c := range ir.TrapUser + 300 {
		if got, want := string(appendTrapCode(nil, c)), c.String(); got != want {
			t.Errorf("appendTrapCode(%d) = %q, want %q", c, got, want)
		}
	}
}

func TestAppendEntityNumMatchesString(t *testing.T) {
	for _, n := range []uint32{0, 1, 9, 10, 99, 100, 999, 1000, 12345, 1<<32 - 2, 1<<32 - 1} {
		if got, want := "v"+string(appendEntityNum(nil, n)), ir.Value(n).String(); got != want {
			t.Errorf("appendEntityNum(%d) = %q, want %q", n, got, want)
		}
	}
}
