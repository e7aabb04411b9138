package gen

import "cliff/lib/ir"

// scope holds the values that dominate the current position, newest last.
// Entering a region that does not dominate what follows it (an arm of an
// if-else, a loop body) marks the scope, leaving it pops back to the mark:
// the structured control flow makes this exactly dominance.
type scope struct {
	stack []ir.Value
	types []ir.Type
	// byType holds the values of each type in scope, newest last: a short
	// list searched linearly (a case uses a dozen types or so), which
	// costs less than hashing a type at every push and pop.
	byType []typeStack
}

type typeStack struct {
	t  ir.Type
	vs []ir.Value
}

func newScope() scope { return scope{} }

// of returns the stack of type t, making it when add is true (else nil).
func (s *scope) of(t ir.Type, add bool) *typeStack {
	for i := range s.byType {
		if s.byType[i].t == t {
			return &s.byType[i]
		}
	}
	if !add {
		return nil
	}
	s.byType = append(s.byType, typeStack{t: t})
	return &s.byType[len(s.byType)-1]
}

// values returns the values of type t, newest last.
func (s *scope) values(t ir.Type) []ir.Value {
	if ts := s.of(t, false); ts != nil {
		return ts.vs
	}
	return nil
}

func (s *scope) push(v ir.Value, t ir.Type) {
	s.stack = append(s.stack, v)
	s.types = append(s.types, t)
	ts := s.of(t, true)
	ts.vs = append(ts.vs, v)
}

func (s *scope) mark() int { return len(s.stack) }

func (s *scope) pop(mark int) {
	for len(s.stack) > mark {
		n := len(s.stack) - 1
		ts := s.of(s.types[n], false)
		ts.vs = ts.vs[:len(ts.vs)-1]
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

// has reports whether a value of type t is in scope.
func (s *scope) has(t ir.Type) bool { return len(s.values(t)) > 0 }

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
