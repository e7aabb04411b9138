package refine

import (
	"cliff/lib/ir"
	"cliff/lib/ub"
)

// accType is the type of sink's accumulator.
const accType = ir.I64

// The conversions sink uses between values and its i64 accumulator. They
// use no opcode a target lacks for a type the case already computes in:
// extends and reductions of integers, isplit of i128, bitcasts between
// same-width types, extractlane of i64x2, splat. Floats are made
// canonical (ub.CanonNaN) before their bits are read.

// foldable reports whether toAcc can turn a value of type t into the
// accumulator's type. f16 and f128 cannot (not every target lowers their
// compares, which canonicalising needs), nor vectors other than 128 bits
// (targets lower few operations on narrower ones), nor dynamic vectors.
func foldable(t ir.Type) bool {
	switch {
	case t.IsDynamic() || !t.Valid():
		return false
	case t.IsVector():
		return t.Bits() == 128 && t.LaneType() != ir.F16 && t.LaneType() != ir.F128
	}
	return t != ir.F16 && t != ir.F128
}

func bitcast(b *ir.Builder, t ir.Type, v ir.Value) ir.Value {
	d := ins(b, ir.OpBitcast, t, v)
	d.Flags = ir.MemFlags{Endian: ir.EndianLittle}
	return d.Results[0]
}

func extractlane(b *ir.Builder, v ir.Value, lane int) ir.Value {
	d := ins(b, ir.OpExtractlane, ir.Invalid, v)
	d.Imm = int64(lane)
	return d.Results[0]
}

// ins appends op applied to args with b.Ins and returns the instruction,
// for the caller to set its immediates (the Builder reads none of them).
// Ins makes the operand list in the Builder's memory, where a list literal
// in an InstData for Append would be allocated for every instruction.
func ins(b *ir.Builder, op ir.Opcode, ctrl ir.Type, args ...ir.Value) *ir.InstData {
	f := b.Func()
	return &f.Insts[f.Values[b.Ins(op, ctrl, args...)].Inst]
}

// resize converts an integer scalar v to the integer type to, by
// extending with zeros or keeping the low bits.
func resize(b *ir.Builder, v ir.Value, to ir.Type) ir.Value {
	from := b.Func().Values[b.Func().Resolve(v)].Type
	switch {
	case from.Bits() < to.Bits():
		return b.Ins(ir.OpUextend, to, v)
	case from.Bits() > to.Bits():
		return b.Ins(ir.OpIreduce, to, v)
	}
	return v
}

// toAcc appends instructions turning v (of a foldable type) into an
// accumulator value that depends on every bit of v.
func toAcc(b *ir.Builder, v ir.Value) ir.Value {
	f := b.Func()
	t := f.Values[f.Resolve(v)].Type
	v = ub.CanonNaN(b, v)
	switch {
	case t.IsVector() && t.Bits() == 128:
		if t != ir.I64X2 {
			v = bitcast(b, ir.I64X2, v)
		}
		return b.Ins(ir.OpBxor, ir.Invalid, extractlane(b, v, 0), extractlane(b, v, 1))
	case t.IsFloat():
		v = bitcast(b, ir.IntOfWidth(t.Bits()), v) // f32 -> i32, f64 -> i64
	case t == ir.I128:
		halves := ins(b, ir.OpIsplit, ir.Invalid, v).Results
		return b.Ins(ir.OpBxor, ir.Invalid, halves[0], halves[1])
	}
	return resize(b, v, accType)
}

// accInsts returns how many instructions toAcc appends for a value of
// type t (each has one result, but isplit has two), so that sink can make
// room in the function's tables at once. TestAccInsts keeps it true.
func accInsts(t ir.Type) int {
	n := 0
	if ub.HasFloatLanes(t) { // ub.CanonNaN
		n = 3 // fcmp, the NaN, select
		if t.IsVector() {
			n = 4 // and a bitcast of the mask
		}
	}
	switch {
	case t.IsVector():
		if t != ir.I64X2 {
			n++ // bitcast
		}
		return n + 3 // two extractlanes, bxor
	case t.IsFloat():
		return n + 1 + resizeInsts(t.Bits(), accType) // bitcast
	case t == ir.I128:
		return n + 2 // isplit, bxor
	}
	return n + resizeInsts(t.Bits(), accType)
}

// foldInsts returns how many instructions foldInto appends into a value of
// type t.
func foldInsts(t ir.Type) int {
	lane := t.LaneType()
	n := 1 + resizeInsts(accType.Bits(), ir.IntOfWidth(lane.Bits())) // and the fold
	if !lane.IsInt() {
		n++ // bitcast
	}
	if t.IsVector() {
		n++ // splat
	}
	return n
}

// resizeInsts returns how many instructions resize appends to turn an
// integer of the given width into one of type to.
func resizeInsts(bits int, to ir.Type) int {
	if bits == to.Bits() {
		return 0
	}
	return 1
}

// slotRank says how good a sink a result (or tail-call argument) of type t
// is for the accumulator: 0 for an integer, 1 for an integer vector, 2 and
// 3 for f32/f64 scalars and vectors (folded in with fadd: only the NaN
// payload of the sum depends on the target, and outputs are compared with
// NaNs made canonical); -1 for types sink does not fold into.
func slotRank(t ir.Type) int {
	if t.IsDynamic() || !t.Valid() {
		return -1
	}
	lane := t.LaneType()
	switch {
	case lane.IsInt() && !t.IsVector():
		return 0
	case lane.IsInt():
		return 1
	case (lane == ir.F32 || lane == ir.F64) && !t.IsVector():
		return 2
	case lane == ir.F32 || lane == ir.F64:
		return 3
	}
	return -1
}

// foldInto appends instructions combining the accumulator acc into s, a
// value of a type slotRank accepts, and returns the result. useAdd picks
// iadd over bxor for integers.
func foldInto(b *ir.Builder, s, acc ir.Value, useAdd bool) ir.Value {
	f := b.Func()
	t := f.Values[f.Resolve(s)].Type
	lane := t.LaneType()
	var x ir.Value
	if lane.IsInt() {
		x = resize(b, acc, lane)
	} else {
		x = bitcast(b, lane, resize(b, acc, ir.IntOfWidth(lane.Bits())))
	}
	if t.IsVector() {
		x = b.Ins(ir.OpSplat, t, x)
	}
	switch {
	case !lane.IsInt():
		return b.Ins(ir.OpFadd, ir.Invalid, s, x)
	case useAdd:
		return b.Ins(ir.OpIadd, ir.Invalid, s, x)
	}
	return b.Ins(ir.OpBxor, ir.Invalid, s, x)
}
