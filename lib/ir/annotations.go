package ir

import (
	"strconv"
)

// Annotations an instruction carries besides its operation: a source
// location, debug tags and a user stack map. None of them changes what the
// instruction computes; Cranelift carries them through compilation into
// its debug info and GC stack maps.

// SourceLoc is an instruction's source location, written `@0019` in front
// of it: an opaque 32-bit number chosen by whoever made the IR (wasmtime
// uses the offset of the wasm instruction), printed in hex.
//
// The zero SourceLoc is "none", so IR built without locations has none.
// Cranelift's own "none" is the all-ones number, which is therefore never a
// location: SrcLoc(0xffffffff) is none, as Cranelift's parser reads
// `@ffffffff`. Make one with SrcLoc.
type SourceLoc struct {
	plus1 uint32 // the location plus one (wrapping), so that zero is none
}

// SrcLoc is the source location with the given bits; 0xffffffff gives none.
func SrcLoc(bits uint32) SourceLoc { return SourceLoc{bits + 1} }

// IsSet reports whether s is a location rather than none.
func (s SourceLoc) IsSet() bool { return s.plus1 != 0 }

// Bits returns the location's number, or 0xffffffff (Cranelift's encoding
// of none) when s is none.
func (s SourceLoc) Bits() uint32 { return s.plus1 - 1 }

// String spells s as write.rs does: `@0019` (at least four hex digits), or
// `@-` for none.
func (s SourceLoc) String() string {
	if !s.IsSet() {
		return "@-"
	}
	buf := []byte{'@'}
	bits := s.Bits()
	for shift := 12; shift > 0 && bits < 1<<shift; shift -= 4 {
		buf = append(buf, '0')
	}
	return string(strconv.AppendUint(buf, uint64(bits), 16))
}

// DebugTagKind tells a user tag from a stack slot tag.
type DebugTagKind uint8

const (
	TagUser      DebugTagKind = iota // `7`: a number opaque to Cranelift
	TagStackSlot                     // `ss0`: a stack slot
)

// DebugTag is one entry of the `<ss0, 1, 0>` list in front of a call or a
// sequence_point. Cranelift reports the tags of each such instruction with
// the code offset it compiles to, for debuggers and profilers.
type DebugTag struct {
	Kind DebugTagKind
	User uint32    // TagUser
	Slot StackSlot // TagStackSlot
}

// Debug tags, with the unused fields set as the parser sets them.

// UserTag is the debug tag `n`.
func UserTag(n uint32) DebugTag { return DebugTag{Kind: TagUser, User: n, Slot: NoStackSlot} }

// SlotTag is the debug tag naming stack slot ss.
func SlotTag(ss StackSlot) DebugTag { return DebugTag{Kind: TagStackSlot, Slot: ss} }

// String spells t as CLIF does: "7" or "ss0".
func (t DebugTag) String() string {
	switch t.Kind {
	case TagUser:
		return strconv.FormatUint(uint64(t.User), 10)
	case TagStackSlot:
		return t.Slot.String()
	}
	return "<bad debug tag>"
}

// StackMapEntry is one entry of a call's user stack map,
// `, stack_map=[i64 @ ss0+8]`: during the call, a GC-managed value of type
// Type lives Offset bytes into Slot, and the collector may read or update
// it there.
type StackMapEntry struct {
	Type   Type
	Slot   StackSlot
	Offset uint32
}

// String spells e as CLIF does: "i64 @ ss0+8".
func (e StackMapEntry) String() string {
	return e.Type.String() + " @ " + e.Slot.String() + "+" + strconv.FormatUint(uint64(e.Offset), 10)
}
