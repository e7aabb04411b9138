package refine

import "cliff/lib/ir"

// scope holds the values that dominate the point a dominator-tree walk has
// reached, by type, most recent last. Entering a block pushes its values;
// leaving it undoes the pushes, so at every instruction the scope holds
// exactly the values whose definitions dominate it.
type scope struct {
	stacks byType
	log    []pushed // every push in order, for undo and for "values defined since"
}

type pushed struct {
	stack int32
	v     ir.Value
}

// reset empties the scope for a new walk, keeping its memory.
func (s *scope) reset() {
	s.stacks.reset()
	s.log = s.log[:0]
}

// push adds v, of type t, as the most recent value.
func (s *scope) push(t ir.Type, v ir.Value) {
	i := s.stacks.find(t) // index, with find inlined: push is hot
	if i < 0 {
		i = s.stacks.addType(t)
	}
	s.stacks.lists[i] = append(s.stacks.lists[i], v)
	s.log = append(s.log, pushed{int32(i), v})
}

// mark returns the point to undo to.
func (s *scope) mark() int { return len(s.log) }

// undo removes the values pushed since mark m.
func (s *scope) undo(m int) {
	for _, p := range s.log[m:] {
		st := s.stacks.lists[p.stack]
		s.stacks.lists[p.stack] = st[:len(st)-1]
	}
	s.log = s.log[:m]
}

// of returns the values of type t, most recent last. The slice belongs to
// the scope and changes with it.
func (s *scope) of(t ir.Type) []ir.Value { return s.stacks.of(t) }

// since returns the values pushed since mark m, oldest first.
func (s *scope) since(m int) []pushed { return s.log[m:] }

// byType holds a list of values for each type. Passes look lists up for
// every value and operand, so a table indexed by type finds them; reset
// keeps the lists' memory for the next use.
type byType struct {
	types []ir.Type
	lists [][]ir.Value
	slot  [typeSlots]int32 // by type: 1 + its index in types, 0 for none
}

// typeSlots bounds ir.Type: a lane kind, log2 of the lane count and the
// dynamic bit take 9 bits.
const typeSlots = 1 << 9

// find returns the position of t's list, or -1.
func (l *byType) find(t ir.Type) int {
	if int(t) < typeSlots {
		return int(l.slot[t]) - 1
	}
	return l.search(t)
}

// search is find for a type past the slots.
func (l *byType) search(t ir.Type) int {
	for i, lt := range l.types {
		if lt == t {
			return i
		}
	}
	return -1
}

// index returns the position of t's list, adding an empty one if needed.
func (l *byType) index(t ir.Type) int {
	if i := l.find(t); i >= 0 {
		return i
	}
	return l.addType(t)
}

// addType adds an empty list for t, a type without one, and returns its
// position.
func (l *byType) addType(t ir.Type) int {
	l.types = append(l.types, t)
	if len(l.lists) < cap(l.lists) {
		l.lists = l.lists[:len(l.lists)+1] // an emptied list of an earlier type
		l.lists[len(l.lists)-1] = l.lists[len(l.lists)-1][:0]
	} else {
		l.lists = append(l.lists, nil)
	}
	if int(t) < typeSlots {
		l.slot[t] = int32(len(l.types))
	}
	return len(l.types) - 1
}

// add appends v to the list of type t.
func (l *byType) add(t ir.Type, v ir.Value) {
	i := l.index(t)
	l.lists[i] = append(l.lists[i], v)
}

// of returns the list of type t, nil when there is none.
func (l *byType) of(t ir.Type) []ir.Value {
	if i := l.find(t); i >= 0 {
		return l.lists[i]
	}
	return nil
}

// reset removes every type and its list.
func (l *byType) reset() {
	for _, t := range l.types {
		if int(t) < typeSlots {
			l.slot[t] = 0
		}
	}
	l.types = l.types[:0]
	l.lists = l.lists[:0]
}
