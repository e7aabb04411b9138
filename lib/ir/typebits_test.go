package ir

import "testing"

// TestTypeBitsAgreeWithContains: for every type set of the opcode table,
// and every 16-bit code (valid types, invalid ones, codes past
// TypeSpace), Bits holds exactly what Contains admits.
func TestTypeBitsAgreeWithContains(t *testing.T) {
	sets := map[TypeSet]bool{{Ints: 0xff, Floats: 0xff, Lanes: 0xffff, DynLanes: 0xffff}: true}
	for _, op := range Opcodes() {
		for _, v := range op.Info().TypeVars {
			sets[v.Set] = true
		}
	}
	for s := range sets {
		b := s.Bits()
		for code := range 1 << 16 {
			ty := Type(code)
			if got, want := b.Has(ty), s.Contains(ty); got != want {
				t.Fatalf("%s: type code %#x: Bits has it %v, Contains %v", s, code, got, want)
			}
		}
	}
	var b TypeBits
	b.Add(TypeSpace) // not a type: left out
	if b != (TypeBits{}) {
		t.Error("Add of a code past TypeSpace changed the set")
	}
}
