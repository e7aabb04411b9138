package ir

import (
	"fmt"
	"strings"
)

// TypeSet is the set of types a type variable may take, in Cranelift's
// parametrised form: integer lane widths, float lane widths, fixed lane
// counts, dynamic lane counts. Bit i of Ints is 8<<i bits (i8..i128); bit i
// of Floats is 16<<i bits (f16..f128); bit i of Lanes and DynLanes is 1<<i
// lanes (1..256). Lanes bit 0 means scalars are included.
type TypeSet struct {
	Ints     uint8
	Floats   uint8
	Lanes    uint16
	DynLanes uint16
}

// Contains reports whether t is in the set.
func (s TypeSet) Contains(t Type) bool {
	if !t.Valid() {
		return false
	}
	lanes := s.Lanes
	if t.IsDynamic() {
		lanes = s.DynLanes
	}
	if lanes&(1<<t.log2Lanes()) == 0 {
		return false
	}
	switch {
	case t.IsInt():
		return s.Ints&(1<<(t.LaneKind()-LaneI8)) != 0
	case t.IsFloat():
		return s.Floats&(1<<(t.LaneKind()-LaneF16)) != 0
	}
	return false
}

// Types lists every member of the set, scalars first, in a fixed order;
// generators draw from it.
func (s TypeSet) Types() []Type {
	var out []Type
	for _, dyn := range []bool{false, true} {
		for log2 := 0; log2 <= 8; log2++ {
			for _, lane := range ScalarTypes {
				t := Vector(lane, 1<<log2)
				if dyn {
					t = DynamicOf(t)
				}
				if t != Invalid && t.Bits() <= 128*8 && s.Contains(t) {
					out = append(out, t)
				}
			}
		}
	}
	return out
}

// IsEmpty reports the empty set.
func (s TypeSet) IsEmpty() bool {
	return (s.Ints == 0 && s.Floats == 0) || (s.Lanes == 0 && s.DynLanes == 0)
}

// String spells the set in the notation of opcodes.txt.
func (s TypeSet) String() string {
	var parts []string
	add := func(name string, mask uint16, base int) {
		if mask == 0 {
			return
		}
		lo, hi := -1, -1
		for i := 0; i < 16; i++ {
			if mask&(1<<i) != 0 {
				if lo < 0 {
					lo = i
				}
				hi = i
			}
		}
		parts = append(parts, fmt.Sprintf("%s(%d..%d)", name, base<<lo, base<<hi))
	}
	add("ints", uint16(s.Ints), 8)
	add("floats", uint16(s.Floats), 16)
	add("lanes", s.Lanes, 1)
	add("dynlanes", s.DynLanes, 1)
	return strings.Join(parts, " ")
}
