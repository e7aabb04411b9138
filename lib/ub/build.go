package ub

import (
	"encoding/binary"

	"cliff/lib/ir"
)

// Scaffold appends the instructions emit appends through b as scaffold
// instructions, and returns what emit returns. Appending resumes without a
// source location afterwards.
func Scaffold[T any](b *ir.Builder, emit func() T) T {
	b.SetSrcLoc(ScaffoldLoc)
	defer b.SetSrcLoc(ir.SourceLoc{})
	return emit()
}

// The bits of the canonical NaNs of f16, f32 and f64: sign 0, exponent
// all ones, the top fraction bit alone set (a quiet NaN, payload 0).
const (
	canonicalNaN16 = 0x7e00
	canonicalNaN32 = 0x7fc00000
	canonicalNaN64 = 0x7ff8000000000000
)

// CanonicalNaN returns the bytes (little-endian) of the quiet NaN with
// sign 0 and payload 0 of the float lane type t, the NaN cliff's
// canonical output form uses too.
func CanonicalNaN(t ir.Type) []byte { return appendCanonicalNaN(nil, t) }

// appendCanonicalNaN appends CanonicalNaN(t) to b.
func appendCanonicalNaN(b []byte, t ir.Type) []byte {
	switch t.LaneType() {
	case ir.F16:
		return binary.LittleEndian.AppendUint16(b, canonicalNaN16)
	case ir.F32:
		return binary.LittleEndian.AppendUint32(b, canonicalNaN32)
	case ir.F64:
		return binary.LittleEndian.AppendUint64(b, canonicalNaN64)
	case ir.F128:
		var nan [16]byte // 0x7fff8000...0: sign 0, exponent all ones, top fraction bit
		nan[13], nan[14], nan[15] = 0x80, 0xff, 0x7f
		return append(b, nan[:]...)
	}
	return b
}

// CanonNaN appends scaffold instructions that replace v by the canonical
// NaN when v is a NaN (per lane for vectors) and returns the result; a
// value without float lanes is returned as is. Needs fcmp and select (a
// scalar) or vconst, bitcast and bitselect (a vector) of v's type.
func CanonNaN(b *ir.Builder, v ir.Value) ir.Value {
	f := b.Func()
	t := f.Values[f.Resolve(v)].Type
	if !HasFloatLanes(t) {
		return v
	}
	return Scaffold(b, func() ir.Value {
		isNaN := b.Fcmp(ir.FloatUno, v, v)
		nan := floatConst(b, t)
		if !t.IsVector() {
			return b.Ins(ir.OpSelect, ir.Invalid, isNaN, nan, v)
		}
		mask := b.Results(b.Append(ir.InstData{Op: ir.OpBitcast, CtrlType: t, Args: []ir.Value{isNaN},
			Flags: ir.MemFlags{Endian: ir.EndianLittle}}))[0]
		return b.Ins(ir.OpBitselect, ir.Invalid, mask, nan, v)
	})
}

// floatConst appends the canonical NaN of t: a float constant, or a
// vconst of it in every lane.
func floatConst(b *ir.Builder, t ir.Type) ir.Value {
	if t.IsVector() {
		lanes := make([]byte, 0, t.Bytes())
		for range t.Lanes() {
			lanes = appendCanonicalNaN(lanes, t)
		}
		return b.Vconst(t, lanes)
	}
	switch t {
	case ir.F16:
		return b.F16const(canonicalNaN16)
	case ir.F32:
		return b.F32const(canonicalNaN32)
	case ir.F64:
		return b.F64const(canonicalNaN64)
	}
	return b.F128const(CanonicalNaN(t))
}

// OpaqueTrue appends scaffold instructions computing an i8 that is 1 for
// every value of the integer scalar x, in a way Cranelift's optimiser does
// not see through: the square of an odd number is 1 modulo 8. Decoy
// branches and hidden loop bounds are built on it.
func OpaqueTrue(b *ir.Builder, x ir.Value) ir.Value {
	f := b.Func()
	t := f.Values[f.Resolve(x)].Type
	return Scaffold(b, func() ir.Value {
		one := b.Iconst(t, 1)
		odd := b.Ins(ir.OpBor, ir.Invalid, x, one)
		sq := b.Ins(ir.OpImul, ir.Invalid, odd, odd)
		low := b.Ins(ir.OpBand, ir.Invalid, sq, b.Iconst(t, 7))
		return b.Icmp(ir.IntEq, low, one)
	})
}
