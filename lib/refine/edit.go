package refine

import (
	"slices"

	"cliff/lib/ir"
	"cliff/lib/ub"
)

// insertBefore runs emit, which appends instructions through b, and moves
// what it appended in front of the instruction at index at of blk. The
// Builder only appends; passes insert before terminators and split blocks.
func insertBefore(b *ir.Builder, blk ir.Block, at int, emit func()) {
	f := b.Func()
	tail := slices.Clone(f.Blocks[blk].Insts[at:])
	f.Blocks[blk].Insts = f.Blocks[blk].Insts[:at]
	b.SwitchToBlock(blk)
	emit()
	f.Blocks[blk].Insts = append(f.Blocks[blk].Insts, tail...)
}

// appendBlockArg adds v to the args of a block call. The args slice is
// copied first: block calls built or parsed together may share a backing
// array, and appending in place would overwrite a neighbour's args.
func appendBlockArg(call *ir.BlockCall, v ir.Value) {
	call.Args = append(call.Args[:len(call.Args):len(call.Args)], ir.ValueArg(v))
}

// passTo appends v to every block call of the terminator term that goes
// to dest (a brif or br_table may name dest several times).
func passTo(f *ir.Function, term ir.Inst, dest ir.Block, v ir.Value) {
	d := &f.Insts[term]
	for k := range d.Dests {
		if d.Dests[k].Block == dest {
			appendBlockArg(&d.Dests[k], v)
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

// useCounts returns the number of uses of each value (aliases resolved)
// by the instructions of the layout: operands, block-call args and
// exception-handler contexts.
func useCounts(f *ir.Function) []int32 {
	uses := make([]int32, len(f.Values))
	count := func(v ir.Value) {
		if v = f.Resolve(v); int(v) < len(uses) {
			uses[v]++
		}
	}
	for _, b := range f.Layout {
		for _, inst := range f.Blocks[b].Insts {
			d := &f.Insts[inst]
			for _, v := range d.Args {
				count(v)
			}
			for _, dest := range d.Dests {
				for _, a := range dest.Args {
					if a.Kind == ir.ArgValue {
						count(a.Value)
					}
				}
			}
			for _, h := range d.Handlers {
				if h.Kind == ir.HandlerContext {
					count(h.Context)
				}
				for _, a := range h.Dest.Args {
					if a.Kind == ir.ArgValue {
						count(a.Value)
					}
				}
			}
		}
	}
	return uses
}

// choosable reports whether v may flow anywhere a pass wants it: any
// value but an address (its bits differ between runs and targets) and a
// special-purpose function param (sret, vmctx: addresses too).
func choosable(f *ir.Function, v ir.Value) bool {
	vd := &f.Values[v]
	switch vd.Kind {
	case ir.DefResult:
		return !ub.IsAddress(f, v)
	case ir.DefParam:
		if len(f.Layout) > 0 && vd.Block == f.Layout[0] && vd.Index < len(f.Sig.Params) {
			return f.Sig.Params[vd.Index].Purpose == ""
		}
		return true
	}
	return false
}

// candidate reports whether a pass should pick v when it chooses a value
// to bind: a choosable value that is neither a constant (binding one
// hands the optimiser a value to fold) nor a scaffold result (a guard, a
// canonical NaN, an opaque condition's parts: chosen for safety, and
// sometimes a constant the optimiser cannot see, such as OpaqueTrue's
// band, which is always 1).
func candidate(f *ir.Function, v ir.Value) bool {
	if !choosable(f, v) {
		return false
	}
	vd := &f.Values[v]
	if vd.Kind != ir.DefResult {
		return true
	}
	d := &f.Insts[vd.Inst]
	return !ub.IsScaffold(d) && !isConstant(d)
}

// isConstant reports whether d computes a constant: a result from no
// operands, without reading memory or other effects (iconst, f64const,
// vconst, ...).
func isConstant(d *ir.InstData) bool {
	const effects = ir.FlagCanLoad | ir.FlagSideEffects | ir.FlagCall
	return len(d.Args) == 0 && len(d.Results) > 0 && d.Op.Info().Flags&effects == 0
}

// hasHandlers reports whether blk ends in a try_call, whose exception
// edges pass values no pass knows how to extend.
func hasHandlers(f *ir.Function, blk ir.Block) bool {
	term := terminator(f, blk)
	return term != ir.NoInst && len(f.Insts[term].Handlers) > 0
}
