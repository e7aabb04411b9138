package refine

import (
	"cliff/lib/internal/reuse"
	"cliff/lib/ir"
	"cliff/lib/ub"
)

// useCounts returns the number of uses of each value (aliases resolved)
// by the instructions of the layout: operands, block-call args and
// exception-handler contexts. The counts go in buf's memory when it has
// room.
func useCounts(f *ir.Function, buf []int32) []int32 {
	uses := reuse.Zeroed(buf, len(f.Values))
	// The loops are ir.InstData.ForEachUse's, written out: a call of a
	// closure for every operand was most of their work.
	count := func(args []ir.BlockArg) {
		for _, a := range args {
			if a.Kind == ir.ArgValue {
				countUse(f, uses, a.Value)
			}
		}
	}
	for _, b := range f.Layout {
		for _, inst := range f.Blocks[b].Insts {
			d := &f.Insts[inst]
			for _, v := range d.Args {
				countUse(f, uses, v)
			}
			for k := range d.Dests {
				count(d.Dests[k].Args)
			}
			for k := range d.Handlers {
				if h := &d.Handlers[k]; h.Kind == ir.HandlerContext {
					countUse(f, uses, h.Context)
				} else {
					count(h.Dest.Args)
				}
			}
		}
	}
	return uses
}

// countUse counts a use of v (aliases resolved) in uses.
func countUse(f *ir.Function, uses []int32, v ir.Value) {
	if v = f.Resolve(v); int(v) < len(uses) {
		uses[v]++
	}
}

// hasAliases reports whether some value of f is an alias. Passes make
// none (ir.Builder makes params and results), so a function without stays
// without; and in it f.Resolve(v) is v.
func hasAliases(f *ir.Function) bool {
	for i := range f.Values {
		if f.Values[i].Kind == ir.DefAlias {
			return true
		}
	}
	return false
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
	if vd := &f.Values[v]; vd.Kind == ir.DefResult {
		// choosable's test for results last: it looks v up again.
		d := &f.Insts[vd.Inst]
		return !ub.IsScaffold(d) && !isConstant(d) && !ub.IsAddress(f, v)
	}
	return choosable(f, v)
}

// isConstant reports whether d computes a constant: a result from no
// operands, without reading memory or other effects (iconst, f64const,
// vconst, ...).
func isConstant(d *ir.InstData) bool {
	const effects = ir.FlagCanLoad | ir.FlagSideEffects | ir.FlagCall
	return len(d.Args) == 0 && len(d.Results) > 0 && d.Op.Info().Flags&effects == 0
}
