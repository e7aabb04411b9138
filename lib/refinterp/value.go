package refinterp

import (
	"encoding/binary"
	"fmt"

	"cliff/lib/ir"
)

// Value is the bits of one CLIF value, little-endian: byte i of the value
// is byte i of Lo then Hi; lane k of a vector with w-bit lanes is bits
// k*w to k*w+w-1. Bits above the type's width are zero.
type Value = u128

// maxValueBits is the widest value the interpreter holds.
const maxValueBits = 128

// lane returns lane k of v when lanes are w bits wide, zero-extended.
func lane(v Value, k int, w uint) u128 {
	if w == 128 {
		return v
	}
	return mask(shr128(v, uint(k)*w), w)
}

// setLane returns v with lane k (w bits wide) replaced by x.
func setLane(v Value, k int, w uint, x u128) Value {
	if w == 128 {
		return x
	}
	s := uint(k) * w
	m := shl128(mask(u128{Lo: ^uint64(0), Hi: ^uint64(0)}, w), s)
	v = u128{Lo: v.Lo &^ m.Lo, Hi: v.Hi &^ m.Hi}
	x = shl128(mask(x, w), s)
	return u128{Lo: v.Lo | x.Lo, Hi: v.Hi | x.Hi}
}

// checkType reports an error for a type the interpreter cannot hold.
func checkType(t ir.Type) error {
	if !t.Valid() || t.IsDynamic() || t.Bits() > maxValueBits {
		return fmt.Errorf("%w: values of type %s", ErrUnsupported, t)
	}
	return nil
}

// FromBytes makes a value of the little-endian bytes b (at most 16).
func FromBytes(b []byte) Value {
	var buf [16]byte
	copy(buf[:], b)
	return u128{Lo: binary.LittleEndian.Uint64(buf[:8]), Hi: binary.LittleEndian.Uint64(buf[8:])}
}

// Bytes appends the n low bytes of v, little-endian, to dst.
func Bytes(dst []byte, v Value, n int) []byte {
	var buf [16]byte
	binary.LittleEndian.PutUint64(buf[:8], v.Lo)
	binary.LittleEndian.PutUint64(buf[8:], v.Hi)
	return append(dst, buf[:n]...)
}

// FromDataValue converts a run command's value.
func FromDataValue(d ir.DataValue) (Value, error) {
	if err := checkType(d.Type); err != nil {
		return Value{}, err
	}
	if len(d.Bytes) != d.Type.Bytes() {
		return Value{}, fmt.Errorf("a %s value of %d bytes", d.Type, len(d.Bytes))
	}
	return FromBytes(d.Bytes), nil
}

// ToDataValue converts v of type t.
func ToDataValue(t ir.Type, v Value) ir.DataValue {
	return ir.DataValue{Type: t, Bytes: Bytes(nil, v, t.Bytes())}
}
