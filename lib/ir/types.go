package ir

import (
	"fmt"
	"strconv"
	"strings"
)

// LaneKind is the element kind of a type: an integer or float width.
type LaneKind uint8

const (
	LaneInvalid LaneKind = iota
	LaneI8
	LaneI16
	LaneI32
	LaneI64
	LaneI128
	LaneF16
	LaneF32
	LaneF64
	LaneF128
	numLaneKinds
)

var laneNames = [numLaneKinds]string{"", "i8", "i16", "i32", "i64", "i128", "f16", "f32", "f64", "f128"}
var laneBits = [numLaneKinds]uint16{0, 8, 16, 32, 64, 128, 16, 32, 64, 128}

// Type is a CLIF value type: a scalar (i8..i128, f16..f128), a fixed vector
// (i32x4, 64- or 128-bit and wider), or a dynamic vector (i32x4xN). The zero
// Type is invalid and stands for "no type".
//
// Layout: bits 0-3 the lane kind, bits 4-7 log2 of the lane count, bit 8
// dynamic. Comparing Types with == compares types.
type Type uint16

const (
	typeLaneMask   = 0x0f
	typeLog2Shift  = 4
	typeLog2Mask   = 0xf0
	typeDynamicBit = 0x100
)

// Invalid is the absent type.
const Invalid Type = 0

// Scalar types.
const (
	I8   = Type(LaneI8)
	I16  = Type(LaneI16)
	I32  = Type(LaneI32)
	I64  = Type(LaneI64)
	I128 = Type(LaneI128)
	F16  = Type(LaneF16)
	F32  = Type(LaneF32)
	F64  = Type(LaneF64)
	F128 = Type(LaneF128)
)

// Common vector types.
var (
	I8X16 = Vector(I8, 16)
	I16X8 = Vector(I16, 8)
	I32X4 = Vector(I32, 4)
	I64X2 = Vector(I64, 2)
	F32X4 = Vector(F32, 4)
	F64X2 = Vector(F64, 2)
)

// ScalarTypes lists every scalar type in width order, integers first.
var ScalarTypes = []Type{I8, I16, I32, I64, I128, F16, F32, F64, F128}

// MaxLanes is the largest lane count a CLIF vector may have.
const MaxLanes = 256

// Vector returns the vector of n lanes of the scalar lane, or Invalid when n
// is not a power of two in 1..MaxLanes (n == 1 gives the scalar).
func Vector(lane Type, n int) Type {
	if !lane.IsScalar() || n < 1 || n > MaxLanes || n&(n-1) != 0 {
		return Invalid
	}
	log2 := 0
	for 1<<log2 < n {
		log2++
	}
	return Type(uint16(lane.LaneKind()) | uint16(log2)<<typeLog2Shift)
}

// MaxDynamicBits is the widest fixed vector (in bits) that has a dynamic
// form; Cranelift's vector_to_dynamic refuses wider ones.
const MaxDynamicBits = 256

// DynamicOf returns the dynamic vector type "lane x n x N", or Invalid when
// fixed is not a vector of at most MaxDynamicBits bits.
func DynamicOf(fixed Type) Type {
	if !fixed.IsVector() || fixed.Bits() > MaxDynamicBits {
		return Invalid
	}
	return fixed | typeDynamicBit
}

// LaneKind is the element kind.
func (t Type) LaneKind() LaneKind { return LaneKind(t & typeLaneMask) }

// Valid reports whether t names a type. A dynamic vector has at least 2
// lanes and at most MaxDynamicBits bits (minimum size).
func (t Type) Valid() bool {
	k := t.LaneKind()
	if k == LaneInvalid || k >= numLaneKinds || t>>9 != 0 {
		return false
	}
	return !t.IsDynamic() || (t.log2Lanes() > 0 && t.Bits() <= MaxDynamicBits)
}

func (t Type) log2Lanes() uint { return uint(t&typeLog2Mask) >> typeLog2Shift }

// Lanes is the number of lanes (1 for scalars; the minimum for dynamic types).
func (t Type) Lanes() int { return 1 << t.log2Lanes() }

// LaneType is the scalar type of one lane (lane_of).
func (t Type) LaneType() Type { return Type(t.LaneKind()) }

// LaneBits is the width of one lane in bits.
func (t Type) LaneBits() int { return int(laneBits[t.LaneKind()%numLaneKinds]) }

// Bits is the total width in bits (the minimum width for dynamic vectors).
func (t Type) Bits() int { return t.LaneBits() * t.Lanes() }

// Bytes is the total width in bytes.
func (t Type) Bytes() int { return t.Bits() / 8 }

// IsScalar reports a single-lane, non-dynamic type.
func (t Type) IsScalar() bool { return t.Valid() && t.log2Lanes() == 0 && !t.IsDynamic() }

// IsVector reports a fixed vector with more than one lane.
func (t Type) IsVector() bool { return t.Valid() && t.log2Lanes() > 0 && !t.IsDynamic() }

// IsDynamic reports a dynamic vector (i32x4xN).
func (t Type) IsDynamic() bool { return t&typeDynamicBit != 0 }

// IsInt reports integer lanes (scalar or vector).
func (t Type) IsInt() bool { k := t.LaneKind(); return k >= LaneI8 && k <= LaneI128 }

// IsFloat reports float lanes (scalar or vector).
func (t Type) IsFloat() bool { k := t.LaneKind(); return k >= LaneF16 && k <= LaneF128 }

// WithLane keeps the lane count and replaces the lane type (Invalid if the
// result is no type, e.g. a dynamic vector over MaxDynamicBits).
func (t Type) WithLane(lane Type) Type {
	r := Type(uint16(t)&^typeLaneMask | uint16(lane.LaneKind()))
	if !r.Valid() {
		return Invalid
	}
	return r
}

// WithLanes keeps the lane type and sets the lane count (Invalid if impossible;
// a dynamic vector keeps at least 2 lanes).
func (t Type) WithLanes(n int) Type {
	v := Vector(t.LaneType(), n)
	if v == Invalid {
		return Invalid
	}
	if r := v | t&typeDynamicBit; r.Valid() {
		return r
	}
	return Invalid
}

// IntOfWidth returns the integer scalar of the given bit width, or Invalid.
func IntOfWidth(bits int) Type {
	switch bits {
	case 8:
		return I8
	case 16:
		return I16
	case 32:
		return I32
	case 64:
		return I64
	case 128:
		return I128
	}
	return Invalid
}

// FloatOfWidth returns the float scalar of the given bit width, or Invalid.
func FloatOfWidth(bits int) Type {
	switch bits {
	case 16:
		return F16
	case 32:
		return F32
	case 64:
		return F64
	case 128:
		return F128
	}
	return Invalid
}

// String spells the type as CLIF does: i32, f64, i8x16, i32x4xN.
func (t Type) String() string {
	if t == Invalid {
		return "invalid"
	}
	if !t.Valid() {
		return fmt.Sprintf("<bad type %#x>", uint16(t))
	}
	s := laneNames[t.LaneKind()]
	if t.log2Lanes() > 0 {
		s += "x" + strconv.Itoa(t.Lanes())
	}
	if t.IsDynamic() {
		s += "xN"
	}
	return s
}

// ParseType reads a type name; ok is false when s is not one.
func ParseType(s string) (t Type, ok bool) {
	dynamic := strings.HasSuffix(s, "xN")
	if dynamic {
		s = strings.TrimSuffix(s, "xN")
	}
	lanes := 1
	if i := strings.IndexByte(s, 'x'); i >= 0 {
		n, err := strconv.Atoi(s[i+1:])
		if err != nil {
			return Invalid, false
		}
		lanes, s = n, s[:i]
	}
	var lane Type
	for k := LaneI8; k < numLaneKinds; k++ {
		if laneNames[k] == s {
			lane = Type(k)
		}
	}
	if lane == Invalid {
		return Invalid, false
	}
	t = Vector(lane, lanes)
	if t == Invalid {
		return Invalid, false
	}
	if dynamic {
		t = DynamicOf(t)
	}
	return t, t != Invalid
}

// Derived types, named as in Cranelift's type-variable functions. Each
// returns Invalid where the derivation does not exist.

// HalfWidth halves the lane width, keeping the lane kind (i32 -> i16).
func (t Type) HalfWidth() Type {
	var l Type
	if t.IsInt() {
		l = IntOfWidth(t.LaneBits() / 2)
	} else {
		l = FloatOfWidth(t.LaneBits() / 2)
	}
	if l == Invalid {
		return Invalid
	}
	return t.WithLane(l)
}

// DoubleWidth doubles the lane width, keeping the lane kind (i32 -> i64).
func (t Type) DoubleWidth() Type {
	var l Type
	if t.IsInt() {
		l = IntOfWidth(t.LaneBits() * 2)
	} else {
		l = FloatOfWidth(t.LaneBits() * 2)
	}
	if l == Invalid {
		return Invalid
	}
	return t.WithLane(l)
}

// HalfVector halves the lane count.
func (t Type) HalfVector() Type {
	if t.Lanes() < 2 {
		return Invalid
	}
	return t.WithLanes(t.Lanes() / 2)
}

// DoubleVector doubles the lane count.
func (t Type) DoubleVector() Type { return t.WithLanes(t.Lanes() * 2) }

// SplitLanes halves the lane width and doubles the lane count (same total width).
func (t Type) SplitLanes() Type {
	h := t.HalfWidth()
	if h == Invalid {
		return Invalid
	}
	return h.DoubleVector()
}

// MergeLanes doubles the lane width and halves the lane count (same total
// width; the lane count is halved first so that no wider intermediate is
// needed).
func (t Type) MergeLanes() Type {
	h := t.HalfVector()
	if h == Invalid {
		return Invalid
	}
	return h.DoubleWidth()
}

// AsTruthy is the type of a comparison result for t: the integer of the same
// lane width, per lane (f32x4 -> i32x4); for scalars it is i8. As in
// Cranelift, whose as_truthy tests is_vector, a dynamic vector counts as no
// vector here: icmp on i32x4xN gives i8.
func (t Type) AsTruthy() Type {
	if !t.Valid() {
		return Invalid
	}
	if !t.IsVector() {
		return I8
	}
	return t.AsInt()
}

// AsInt is the integer type with the same lane width and count (f64 -> i64).
func (t Type) AsInt() Type { return t.WithLane(IntOfWidth(t.LaneBits())) }

// DynamicToVector turns i32x4xN into i32x4.
func (t Type) DynamicToVector() Type {
	if !t.IsDynamic() {
		return Invalid
	}
	return t &^ typeDynamicBit
}
