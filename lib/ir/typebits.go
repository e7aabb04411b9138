package ir

// TypeSpace bounds the type codes: a Type is 9 bits (lane kind, log2 of
// the lanes, dynamic), and no larger value is a valid type.
const TypeSpace = 1 << 9

// TypeBits is a set of types as one bit per type code, for membership
// tests on hot paths (the parser, the verifier, mask matching), where
// TypeSet.Contains, which decodes the type, cost more than the rest of
// the check. Codes from TypeSpace up are never members.
type TypeBits [TypeSpace / 64]uint64

// Add puts t in the set; a code beyond TypeSpace is left out.
func (b *TypeBits) Add(t Type) {
	if t < TypeSpace {
		b[t/64] |= 1 << (t % 64)
	}
}

// Has reports whether t is in the set.
func (b *TypeBits) Has(t Type) bool {
	return t < TypeSpace && b[t/64]&(1<<(t%64)) != 0
}

// Bits returns the members of s as TypeBits: b.Has(t) == s.Contains(t)
// for every t.
func (s TypeSet) Bits() TypeBits {
	var b TypeBits
	for t := range Type(TypeSpace) {
		if s.Contains(t) {
			b.Add(t)
		}
	}
	return b
}
