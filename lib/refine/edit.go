package refine

import "cliff/lib/ir"

// edits makes the changes to a function that passes share. The lists it
// gives the function (instruction lists, params, block-call args) are
// carved from arenas: passes extend hundreds of them per case, and one
// allocation each was a good part of their work.
type edits struct {
	insts   arena[ir.Inst]
	values  arena[ir.Value]
	args    arena[ir.BlockArg]
	emitted []ir.Inst // insertBefore's scratch
}

// insertBefore runs emit, which appends instructions to blk through b,
// and moves what it appended in front of the instruction at index at of
// blk. The Builder only appends; passes insert before terminators and
// split blocks.
func (e *edits) insertBefore(b *ir.Builder, blk ir.Block, at int, emit func()) {
	f := b.Func()
	insts := f.Blocks[blk].Insts
	f.Blocks[blk].Insts = e.emitted[:0]
	b.SwitchToBlock(blk)
	emit()
	emitted := f.Blocks[blk].Insts
	e.emitted = emitted[:0]
	// A new list: others may hold the old one, and emitted is reused.
	out := e.insts.take(len(insts) + len(emitted))
	out = append(out, insts[:at]...)
	out = append(out, emitted...)
	f.Blocks[blk].Insts = append(out, insts[at:]...)
}

// roomForParams makes room for n more params of blk, so that appending
// them does not grow the list step by step.
func (e *edits) roomForParams(f *ir.Function, blk ir.Block, n int) {
	if params := f.Blocks[blk].Params; len(params)+n > cap(params) {
		f.Blocks[blk].Params = append(e.values.take(len(params)+n), params...)
	}
}

// passTo appends vs to the args of every block call of the terminator
// term that goes to dest (a brif or br_table may name dest several times)
// and returns how many it extended. The args are copied to a new list
// first: block calls built or parsed together may share a backing array,
// and appending in place would overwrite a neighbour's args.
func (e *edits) passTo(f *ir.Function, term ir.Inst, dest ir.Block, vs ...ir.Value) int {
	d := &f.Insts[term]
	n := 0
	for k := range d.Dests {
		if call := &d.Dests[k]; call.Block == dest {
			args := append(e.args.take(len(call.Args)+len(vs)), call.Args...)
			for _, v := range vs {
				args = append(args, ir.ValueArg(v))
			}
			call.Args = args
			n++
		}
	}
	return n
}

// recycle hands the arenas' memory out again, for a Case done with the
// module that holds every list they handed out.
func (e *edits) recycle() {
	e.insts.recycle()
	e.values.recycle()
	e.args.recycle()
}

// arena hands out lists carved from shared blocks, as ir.ValueArena does.
// A list's capacity is capped, so appending past it copies rather than
// overwriting a neighbour.
type arena[T any] struct {
	free  []T
	taken int // elements handed out since the last recycle
}

// take returns an empty list with room for n elements.
func (a *arena[T]) take(n int) []T {
	a.taken += n
	if cap(a.free)-len(a.free) < n {
		a.free = make([]T, 0, max(n, 256))
	}
	start := len(a.free)
	a.free = a.free[:start+n]
	return a.free[start : start : start+n]
}

// recycle hands the arena's memory out again from the start, as
// ir.ValueArena.Recycle does: the current block, made large enough for all
// that was taken since the last recycle.
func (a *arena[T]) recycle() {
	if cap(a.free) < a.taken {
		a.free = make([]T, 0, a.taken)
	}
	a.free, a.taken = a.free[:0], 0
}

// terminator returns the last instruction of blk, or NoInst.
func terminator(f *ir.Function, blk ir.Block) ir.Inst {
	insts := f.Blocks[blk].Insts
	if len(insts) == 0 {
		return ir.NoInst
	}
	return insts[len(insts)-1]
}

// hasHandlers reports whether blk ends in a try_call, whose exception
// edges pass values no pass knows how to extend.
func hasHandlers(f *ir.Function, blk ir.Block) bool {
	term := terminator(f, blk)
	return term != ir.NoInst && len(f.Insts[term].Handlers) > 0
}

// withRoom returns s with room to append n elements: s itself when it has
// room, else a copy with just that much.
func withRoom[T any](s []T, n int) []T {
	if len(s)+n <= cap(s) {
		return s
	}
	return append(make([]T, 0, len(s)+n), s...)
}
