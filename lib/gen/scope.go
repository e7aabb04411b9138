package gen

import (
	"math/bits"

	"cliff/lib/ir"
)

// scope holds the values that dominate the current position, newest last.
// Entering a region that does not dominate what follows it (an arm of an
// if-else, a loop body) marks the scope, leaving it pops back to the mark:
// the structured control flow makes this exactly dominance.
type scope struct {
	stack []ir.Value
	types []ir.Type
	// byType holds the values of each type in scope, newest last, indexed
	// by type: the generator makes values of fixed-width types only, whose
	// codes are below fixedTypeCodes.
	byType [fixedTypeCodes][]ir.Value
	// typed has bit t set when byType[t] may hold values: reset empties
	// those lists only, not all 256 for each function.
	typed [fixedTypeCodes / 64]uint64
}

// fixedTypeCodes bounds the ir.Type codes of scalars and fixed vectors.
const fixedTypeCodes = 0x100

// reset empties the scope for the next function, keeping its storage.
func (s *scope) reset() *scope {
	s.stack, s.types = s.stack[:0], s.types[:0]
	for w, set := range s.typed {
		for ; set != 0; set &= set - 1 {
			t := w*64 + bits.TrailingZeros64(set)
			s.byType[t] = s.byType[t][:0]
		}
		s.typed[w] = 0
	}
	return s
}

// values returns the values of type t, newest last.
func (s *scope) values(t ir.Type) []ir.Value { return s.byType[t] }

func (s *scope) push(v ir.Value, t ir.Type) {
	s.stack = append(s.stack, v)
	s.types = append(s.types, t)
	s.byType[t] = append(s.byType[t], v)
	s.typed[t/64] |= 1 << (t % 64)
}

func (s *scope) mark() int { return len(s.stack) }

func (s *scope) pop(mark int) {
	for len(s.stack) > mark {
		n := len(s.stack) - 1
		t := s.types[n]
		s.byType[t] = s.byType[t][:len(s.byType[t])-1]
		s.stack, s.types = s.stack[:n], s.types[:n]
	}
}

// pick draws a value of type t, the recent ones likelier.
func (s *scope) pick(r *rng, t ir.Type) (ir.Value, bool) {
	vs := s.values(t)
	if len(vs) == 0 {
		return ir.NoValue, false
	}
	return vs[r.recent(len(vs))], true
}

// anyOf draws a recent value whose type satisfies ok.
func (s *scope) anyOf(r *rng, ok func(ir.Type) bool) (ir.Value, ir.Type, bool) {
	for tries := 0; tries < 8 && len(s.stack) > 0; tries++ {
		i := r.recent(len(s.stack))
		if ok(s.types[i]) {
			return s.stack[i], s.types[i], true
		}
	}
	for i := len(s.stack) - 1; i >= 0; i-- {
		if ok(s.types[i]) {
			return s.stack[i], s.types[i], true
		}
	}
	return ir.NoValue, ir.Invalid, false
}

// holds reports whether v, pushed at position i, is still in scope.
func (s *scope) holds(i int, v ir.Value) bool { return i < len(s.stack) && s.stack[i] == v }

// unmasked returns x, the first operand of an instruction op x, y that
// control flow is about to append, or when a mask pattern would match
// that instruction (band.i32 of a ushr by an i128 amount, on riscv64),
// another value of x's type in scope that it does not match with, or
// failing that a constant.
func (fg *funcGen) unmasked(r *rng, op ir.Opcode, x, y ir.Value) ir.Value {
	mask := fg.c.tab.prof.Patterns()
	if !mask.Roots(op) {
		return x
	}
	t := fg.f.Values[x].Type
	probe := ir.InstData{Op: op, CtrlType: t, Args: []ir.Value{x, y}}
	for tries := 0; tries < 4; tries++ {
		if _, masked := mask.Match(fg.f, &probe); !masked {
			return probe.Args[0]
		}
		probe.Args[0] = fg.operand(r, t)
	}
	return fg.b.Iconst(t, 0)
}
