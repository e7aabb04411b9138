package refine

import (
	"slices"

	"cliff/lib/ir"
)

// insertBefore runs emit, which appends instructions through b, and moves
// what it appended in front of the instruction at index at of blk. The
// Builder only appends; passes insert before terminators and split blocks.
func insertBefore(b *ir.Builder, blk ir.Block, at int, emit func()) {
	f := b.Func()
	tail := slices.Clone(f.Blocks[blk].Insts[at:])
	f.Blocks[blk].Insts = f.Blocks[blk].Insts[:at:at] // a new array: others may hold the old one
	b.SwitchToBlock(blk)
	emit()
	f.Blocks[blk].Insts = append(f.Blocks[blk].Insts, tail...)
}

// passTo appends vs to the args of every block call of the terminator
// term that goes to dest (a brif or br_table may name dest several times).
// The args are copied first: block calls built or parsed together may
// share a backing array, and appending in place would overwrite a
// neighbour's args.
func passTo(f *ir.Function, term ir.Inst, dest ir.Block, vs ...ir.Value) {
	d := &f.Insts[term]
	for k := range d.Dests {
		if call := &d.Dests[k]; call.Block == dest {
			args := make([]ir.BlockArg, len(call.Args), len(call.Args)+len(vs))
			copy(args, call.Args)
			for _, v := range vs {
				args = append(args, ir.ValueArg(v))
			}
			call.Args = args
		}
	}
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
