package refinterp

import "cliff/lib/ir"

// Helpers that apply a per-lane kernel to every lane of a value. A scalar
// is a vector of one lane.

// kernel1 computes one w-bit lane from one operand lane.
type kernel1 func(x u128, w uint) u128

// kernel2 computes one w-bit lane from two operand lanes of the same width.
type kernel2 func(x, y u128, w uint) u128

func map1(t ir.Type, a Value, k kernel1) Value {
	w := uint(t.LaneBits())
	if t.Lanes() == 1 {
		return mask(k(a, w), w)
	}
	var r Value
	for i := 0; i < t.Lanes(); i++ {
		r = setLane(r, i, w, k(lane(a, i, w), w))
	}
	return r
}

func map2(t ir.Type, a, b Value, k kernel2) Value {
	w := uint(t.LaneBits())
	if t.Lanes() == 1 {
		return mask(k(a, b, w), w)
	}
	var r Value
	for i := 0; i < t.Lanes(); i++ {
		r = setLane(r, i, w, k(lane(a, i, w), lane(b, i, w), w))
	}
	return r
}

// unaryLanes is the semFn of a lane-wise one-operand kernel typed by its result.
func unaryLanes(k kernel1) semFn {
	return func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		x, _ := fr.arg(d, 0)
		fr.set(d, 0, map1(fr.resType(d, 0), x, k))
		return flowNext, nil
	}
}

// binaryLanes is the semFn of a lane-wise two-operand kernel typed by its result.
func binaryLanes(k kernel2) semFn {
	return func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		x, _ := fr.arg(d, 0)
		y, _ := fr.arg(d, 1)
		fr.set(d, 0, map2(fr.resType(d, 0), x, y, k))
		return flowNext, nil
	}
}

// kernelShape is the builder of a shape whose kernels are in a table.
func kernelShape[K any](table map[string]K, wrap func(K) semFn) func(string) semFn {
	return func(kernel string) semFn {
		k, ok := table[kernel]
		if !ok {
			return nil
		}
		return wrap(k)
	}
}

func boolLane(b bool, w uint) u128 {
	if b {
		return mask(u128{Lo: ^uint64(0), Hi: ^uint64(0)}, w)
	}
	return u128{}
}

// truthy is a comparison's result: 1 in a scalar (i8), all ones in a
// vector lane.
func truthy(b bool, vector bool, w uint) u128 {
	if !b {
		return u128{}
	}
	if !vector {
		return u64(1)
	}
	return boolLane(true, w)
}
