package prune

import (
	"fmt"

	"cliff/lib/ir"
	"cliff/lib/parser"
	"cliff/lib/record"
	"cliff/lib/refinterp"
	"cliff/lib/ub"
)

// Pruned reports whether mod holds pruned instructions (ub.PrunedLoc).
func Pruned(mod *ir.Module) bool {
	for _, f := range mod.Funcs {
		for k := range f.Insts {
			if ub.IsPruned(&f.Insts[k]) {
				return true
			}
		}
	}
	return false
}

// Holds reports whether a pruned module still keeps what pruning
// promised on the given inputs: entry answers on every input on the
// reference under lim (a pruned division by 0 or MIN / -1, or a pruned
// conversion out of range, traps there; nothing undefined is reached),
// and no NaN reaches a NaN-sensitive float operand (ub.NaNSensitive) of a
// pruned instruction, whose bits would differ between targets. A tool
// that rewrites the code upstream of a pruned operation (a reduction,
// lib/reduce) checks its candidates with it.
func Holds(mod *ir.Module, entry string, inputs [][]ir.DataValue, lim refinterp.Limits) bool {
	if mod.Func(entry) == nil {
		return false
	}
	in := refinterp.New(mod, lim)
	nan := false
	for _, f := range mod.Funcs {
		var watch []ir.Inst
		for _, b := range f.Layout {
			for _, inst := range f.Blocks[b].Insts {
				if ub.IsPruned(&f.Insts[inst]) {
					watch = append(watch, inst)
				}
			}
		}
		err := in.Watch(f, watch, func(f *ir.Function, inst ir.Inst, ops []ir.DataValue) bool {
			op := f.Insts[inst].Op
			for k, v := range ops {
				if ub.NaNSensitive(op, k) && hasNaN(v) {
					nan = true
				}
			}
			return !nan
		})
		if err != nil {
			return false
		}
	}
	_, ok := run(in, entry, inputs)
	return ok && !nan
}

// hasNaN reports whether a float scalar or a lane of a float vector is a
// NaN: exponent all ones, fraction not zero.
func hasNaN(v ir.DataValue) bool {
	lane := v.Type.LaneType()
	if !lane.IsFloat() {
		return false
	}
	var exp, frac int
	switch lane.Bits() {
	case 16:
		exp, frac = 5, 10
	case 32:
		exp, frac = 8, 23
	case 64:
		exp, frac = 11, 52
	case 128:
		exp, frac = 15, 112
	default:
		return false
	}
	n := lane.Bytes()
	for at := 0; at+n <= len(v.Bytes); at += n {
		b := v.Bytes[at : at+n]
		bit := func(i int) bool { return b[i/8]>>(i%8)&1 != 0 }
		allOnes := true
		for i := frac; i < frac+exp; i++ {
			allOnes = allOnes && bit(i)
		}
		fracSet := false
		for i := 0; i < frac && !fracSet; i++ {
			fracSet = bit(i)
		}
		if allOnes && fracSet {
			return true
		}
	}
	return false
}

// Inputs parses a case's input vectors for its entry function f.
func Inputs(f *ir.Function, vecs []record.InputVector) ([][]ir.DataValue, error) {
	out := make([][]ir.DataValue, len(vecs))
	for i, vec := range vecs {
		if len(vec) != len(f.Sig.Params) {
			return nil, fmt.Errorf("inputs[%d]: %d values for %s, which takes %d", i, len(vec), f.Name, len(f.Sig.Params))
		}
		out[i] = make([]ir.DataValue, len(vec))
		for k, v := range vec {
			t := f.Sig.Params[k].Type
			if v.Type != t.String() {
				return nil, fmt.Errorf("inputs[%d]: value %d is %s, %s takes %s", i, k, v.Type, f.Name, t)
			}
			dv, err := parser.ParseDataValue(t, v.Value)
			if err != nil {
				return nil, fmt.Errorf("inputs[%d]: value %d: %w", i, k, err)
			}
			out[i][k] = dv
		}
	}
	return out, nil
}
