package refine

import "cliff/lib/ir"

// scope holds the values that dominate the point a dominator-tree walk has
// reached, by type, most recent last. Entering a block pushes its values;
// leaving it undoes the pushes, so at every instruction the scope holds
// exactly the values whose definitions dominate it.
type scope struct {
	types  []ir.Type // type of each stack; few per function, so searched linearly
	stacks [][]ir.Value
	log    []pushed // every push in order, for undo and for "values defined since"
}

type pushed struct {
	stack int32
	v     ir.Value
}

func (s *scope) stackOf(t ir.Type) int {
	for i, st := range s.types {
		if st == t {
			return i
		}
	}
	s.types = append(s.types, t)
	s.stacks = append(s.stacks, nil)
	return len(s.types) - 1
}

// push adds v, of type t, as the most recent value.
func (s *scope) push(t ir.Type, v ir.Value) {
	i := s.stackOf(t)
	s.stacks[i] = append(s.stacks[i], v)
	s.log = append(s.log, pushed{int32(i), v})
}

// mark returns the point to undo to.
func (s *scope) mark() int { return len(s.log) }

// undo removes the values pushed since mark m.
func (s *scope) undo(m int) {
	for _, p := range s.log[m:] {
		s.stacks[p.stack] = s.stacks[p.stack][:len(s.stacks[p.stack])-1]
	}
	s.log = s.log[:m]
}

// of returns the values of type t, most recent last. The slice belongs to
// the scope and changes with it.
func (s *scope) of(t ir.Type) []ir.Value {
	for i, st := range s.types {
		if st == t {
			return s.stacks[i]
		}
	}
	return nil
}

// since returns the values pushed since mark m, oldest first.
func (s *scope) since(m int) []pushed { return s.log[m:] }
