package iredit

import (
	"cliff/lib/ir"
	"cliff/lib/ub"
)

// A Use is one place an instruction uses a value: operand Operand of Inst;
// or, with Operand -1, arg Arg of its block call Dest; or, with Operand -2,
// an exception handler's arg or context.
type Use struct {
	Inst      ir.Inst
	Operand   int
	Dest, Arg int
}

// Uses indexes the uses of every value of a function's layout (aliases
// resolved), and knows which block params may take any value.
type Uses struct {
	by map[ir.Value][]Use
	// freeParams are the block params whose every use is free, counting
	// a scaffold branch's arg free when the param it passes to is (see
	// free).
	freeParams map[ir.Value]bool
}

// IndexUses lists the uses of every value in f's layout.
func IndexUses(f *ir.Function) Uses {
	u := Uses{by: make(map[ir.Value][]Use), freeParams: map[ir.Value]bool{}}
	add := func(v ir.Value, use Use) {
		v = f.Resolve(v)
		u.by[v] = append(u.by[v], use)
	}
	for _, b := range f.Layout {
		if b != f.Layout[0] {
			for _, p := range f.Blocks[b].Params {
				u.freeParams[p] = true
			}
		}
		for _, i := range f.Blocks[b].Insts {
			d := &f.Insts[i]
			for k, a := range d.Args {
				add(a, Use{Inst: i, Operand: k})
			}
			for di, bc := range d.Dests {
				for k, a := range bc.Args {
					if a.Kind == ir.ArgValue {
						add(a.Value, Use{Inst: i, Operand: -1, Dest: di, Arg: k})
					}
				}
			}
			for _, h := range d.Handlers {
				if h.Kind == ir.HandlerContext {
					add(h.Context, Use{Inst: i, Operand: -2})
					continue
				}
				for _, a := range h.Dest.Args {
					if a.Kind == ir.ArgValue {
						add(a.Value, Use{Inst: i, Operand: -2})
					}
				}
			}
		}
	}
	// The greatest set of params whose uses are free: drop a param with a
	// use that is not, until none is dropped.
	for changed := true; changed; {
		changed = false
		for p := range u.freeParams {
			for _, use := range u.by[p] {
				if !u.free(f, use) {
					delete(u.freeParams, p)
					changed = true
					break
				}
			}
		}
	}
	return u
}

// Of returns the uses of v.
func (u Uses) Of(f *ir.Function, v ir.Value) []Use { return u.by[f.Resolve(v)] }

// Used reports whether v has a use.
func (u Uses) Used(f *ir.Function, v ir.Value) bool { return len(u.by[f.Resolve(v)]) > 0 }

// free reports whether a use may see another value under lib/ub's rules:
// a free operand; an arg of a branch that is not scaffold; or an arg of a
// scaffold branch (cliff-refine appends merge args to loop branches)
// passed to a param that may take any value itself.
func (u Uses) free(f *ir.Function, use Use) bool {
	switch {
	case use.Operand >= 0:
		return ub.FreeOperand(f, use.Inst, use.Operand)
	case use.Operand == -1:
		if ub.FreeBlockArgs(f, use.Inst) {
			return true
		}
		bc := f.Insts[use.Inst].Dests[use.Dest]
		params := f.Blocks[bc.Block].Params
		return use.Arg < len(params) && u.freeParams[params[use.Arg]]
	}
	return false // an exception table's
}

// Replaceable reports whether v may be replaced by any other value of its
// type (a constant, or one that dominates every use) under lib/ub's rules:
// every use of it is free (see free). An address never is: its uses are
// memory accesses and calls.
func Replaceable(f *ir.Function, u Uses, v ir.Value) bool {
	v = f.Resolve(v)
	if ub.IsAddress(f, v) || f.Values[v].Type.IsDynamic() {
		return false
	}
	for _, use := range u.by[v] {
		if !u.free(f, use) {
			return false
		}
	}
	return true
}

// ReplaceUses makes every use of old in f's layout a use of new.
func ReplaceUses(f *ir.Function, old, new ir.Value) {
	old = f.Resolve(old)
	swap := func(v *ir.Value) {
		if f.Resolve(*v) == old {
			*v = new
		}
	}
	for _, b := range f.Layout {
		for _, i := range f.Blocks[b].Insts {
			d := &f.Insts[i]
			for k := range d.Args {
				swap(&d.Args[k])
			}
			for _, bc := range d.Dests {
				for k := range bc.Args {
					if bc.Args[k].Kind == ir.ArgValue {
						swap(&bc.Args[k].Value)
					}
				}
			}
			for h := range d.Handlers {
				swap(&d.Handlers[h].Context)
				for k := range d.Handlers[h].Dest.Args {
					if d.Handlers[h].Dest.Args[k].Kind == ir.ArgValue {
						swap(&d.Handlers[h].Dest.Args[k].Value)
					}
				}
			}
		}
	}
}
