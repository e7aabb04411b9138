package ir

// ValueArena hands out short value lists (instructions' operands and
// results) carved from shared blocks: a case has hundreds of them, and one
// allocation each was a good part of parsing and building. The zero value
// is ready to use.
type ValueArena struct {
	free []Value // the current block; len is what was handed out
}

// Reserve makes room for n values in one block.
func (a *ValueArena) Reserve(n int) {
	if cap(a.free)-len(a.free) < n {
		a.free = make([]Value, 0, n)
	}
}

// Take returns an empty list with room for n values. The capacity is
// capped, so appending past n copies rather than overwriting a neighbour.
func (a *ValueArena) Take(n int) []Value {
	if cap(a.free)-len(a.free) < n {
		a.free = make([]Value, 0, max(n, 256))
	}
	start := len(a.free)
	a.free = a.free[:start+n]
	return a.free[start : start : start+n]
}
