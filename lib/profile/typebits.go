package profile

import (
	"math/bits"

	"cliff/lib/ir"
)

// typeBits is a set of fixed (non-dynamic) types, indexed by the low byte
// of ir.Type (lane kind and log2 of the lane count). Index 0, ir.Invalid,
// stands for "no controlling type": a monomorphic opcode is allowed when
// its set holds ir.Invalid. Dynamic vectors never belong to a profile.
type typeBits [4]uint64

func typeIndex(t ir.Type) (int, bool) {
	if t > 0xff {
		return 0, false
	}
	return int(t), true
}

func (b *typeBits) add(t ir.Type) {
	if i, ok := typeIndex(t); ok {
		b[i/64] |= 1 << (i % 64)
	}
}

func (b *typeBits) remove(t ir.Type) {
	if i, ok := typeIndex(t); ok {
		b[i/64] &^= 1 << (i % 64)
	}
}

func (b *typeBits) has(t ir.Type) bool {
	i, ok := typeIndex(t)
	return ok && b[i/64]&(1<<(i%64)) != 0
}

func (b typeBits) empty() bool { return b == typeBits{} }

func (b typeBits) and(c typeBits) typeBits {
	for i := range b {
		b[i] &= c[i]
	}
	return b
}

func (b typeBits) len() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

// types lists the members in index order: ir.Invalid first, then the
// scalars, then vectors by lane count (the order of ir.TypeSet.Types).
func (b typeBits) types() []ir.Type {
	out := make([]ir.Type, 0, b.len())
	for w, word := range b {
		for word != 0 {
			i := bits.TrailingZeros64(word)
			out = append(out, ir.Type(w*64+i))
			word &= word - 1
		}
	}
	return out
}
