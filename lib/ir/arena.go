package ir

// ValueArena hands out short value lists (instructions' operands and
// results) carved from shared blocks: a case has hundreds of them, and one
// allocation each was a good part of parsing and building. The zero value
// is ready to use.
type ValueArena struct {
	free []Value // the current block; len is what was handed out
	// asked is the block that would have held every list handed out and
	// every room reserved since the last Recycle (see Recycle).
	asked int
	taken int // values handed out since the last Recycle
}

// Reserve makes room for n values in one block.
func (a *ValueArena) Reserve(n int) {
	a.asked = max(a.asked, a.taken+n)
	if cap(a.free)-len(a.free) < n {
		a.free = make([]Value, 0, n)
	}
}

// Take returns an empty list with room for n values. The capacity is
// capped, so appending past n copies rather than overwriting a neighbour.
func (a *ValueArena) Take(n int) []Value {
	a.taken += n
	a.asked = max(a.asked, a.taken)
	if cap(a.free)-len(a.free) < n {
		a.free = make([]Value, 0, max(n, 256))
	}
	start := len(a.free)
	a.free = a.free[:start+n]
	return a.free[start : start : start+n]
}

// Recycle hands the arena's memory out again from the start, for a caller
// done with every list it handed out (one that parses or builds a function
// in the memory of the one before). Only the current block is kept, made
// large enough for all that was asked of the arena since the last
// Recycle: the next function of that size takes every list from it.
//
// The lists Take returns then hold old values: the callers write every
// element they use, as they do of new memory.
func (a *ValueArena) Recycle() {
	if cap(a.free) < a.asked {
		a.free = make([]Value, 0, a.asked)
	}
	a.free, a.asked, a.taken = a.free[:0], 0, 0
}
