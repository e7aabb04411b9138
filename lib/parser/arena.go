package parser

import "cliff/lib/ir"

// arena hands out short lists carved from shared blocks, as ir.ValueArena
// does for value lists: a case has dozens of branches, and one allocation
// per destination list and per argument list was a good part of parsing.
// The zero value is ready to use.
type arena[T any] struct {
	free  []T // the current block; len is what was handed out
	taken int // elements handed out since the last recycle
}

// The arena's blocks double in size, from a few lists' worth: a case
// needs a few dozen of each kind of element, a large file thousands.
const (
	firstArenaBlock = 16
	maxArenaBlock   = 1024
)

// clone returns a copy of list carved from the arena, or nil when list is
// empty. Its capacity is capped, so appending to it copies rather than
// overwriting a neighbour.
func (a *arena[T]) clone(list []T) []T {
	if len(list) == 0 {
		return nil
	}
	a.taken += len(list)
	if cap(a.free)-len(a.free) < len(list) {
		block := min(max(2*cap(a.free), firstArenaBlock), maxArenaBlock)
		a.free = make([]T, 0, max(len(list), block))
	}
	start := len(a.free)
	a.free = append(a.free, list...)
	return a.free[start:len(a.free):len(a.free)]
}

// recycle hands the arena's memory out again from the start, for a
// Recycler whose last text is dead: the current block, made large enough
// for all that text took, so that a text of that size takes every list
// from it.
func (a *arena[T]) recycle() {
	if cap(a.free) < a.taken {
		a.free = make([]T, 0, a.taken)
	}
	a.free, a.taken = a.free[:0], 0
}

// memory is what a parser allocates from, besides the tables of each
// function (see funcParser): made per text, or kept by a Recycler.
type memory struct {
	// Branch destinations and their arguments, and signatures' parameters
	// and returns, for all functions.
	blockCalls arena[ir.BlockCall]
	blockArgs  arena[ir.BlockArg]
	abiParams  arena[ir.AbiParam]

	scratch scratch
}

// scratch holds lists that the parser fills while reading one construct
// and then copies out at their final length, reused from one construct to
// the next so that reading them does not allocate.
type scratch struct {
	results   []token        // an instruction line's results
	params    []ir.Value     // a block header's parameters
	values    []ir.Value     // an instruction's value list
	dests     []ir.BlockCall // an instruction's destinations
	blockArgs []ir.BlockArg  // one destination's arguments
	abi       []ir.AbiParam  // a signature's parameters or returns
}
