package iredit

import (
	"cliff/lib/ir"
	"cliff/lib/ub"
)

// A Use is one place an instruction uses a value: operand Operand of Inst,
// or, with Operand -1, an arg of one of its block calls or exception
// handlers.
type Use struct {
	Inst    ir.Inst
	Operand int
}

// Uses indexes the uses of every value of a function's layout, by value
// (aliases resolved).
type Uses map[ir.Value][]Use

// IndexUses lists the uses of every value in f's layout.
func IndexUses(f *ir.Function) Uses {
	u := make(Uses)
	for _, b := range f.Layout {
		for _, i := range f.Blocks[b].Insts {
			d := &f.Insts[i]
			for k, a := range d.Args {
				a = f.Resolve(a)
				u[a] = append(u[a], Use{i, k})
			}
			forEachBlockArg(d, func(a ir.Value) {
				a = f.Resolve(a)
				u[a] = append(u[a], Use{i, -1})
			})
			for _, h := range d.Handlers {
				if h.Kind == ir.HandlerContext {
					c := f.Resolve(h.Context)
					u[c] = append(u[c], Use{i, -2})
				}
			}
		}
	}
	return u
}

// forEachBlockArg calls fn with the value args of d's block calls and
// handlers.
func forEachBlockArg(d *ir.InstData, fn func(ir.Value)) {
	for _, bc := range d.Dests {
		for _, a := range bc.Args {
			if a.Kind == ir.ArgValue {
				fn(a.Value)
			}
		}
	}
	for _, h := range d.Handlers {
		if h.Kind == ir.HandlerContext {
			continue
		}
		for _, a := range h.Dest.Args {
			if a.Kind == ir.ArgValue {
				fn(a.Value)
			}
		}
	}
}

// Used reports whether v has a use.
func (u Uses) Used(f *ir.Function, v ir.Value) bool { return len(u[f.Resolve(v)]) > 0 }

// Replaceable reports whether v may be replaced by any other value of its
// type (a constant, or one that dominates every use) under lib/ub's rules:
// every use is a free operand, or an arg of a branch that is not scaffold.
// An address is never replaceable (its uses are memory accesses and calls).
func Replaceable(f *ir.Function, u Uses, v ir.Value) bool {
	v = f.Resolve(v)
	if ub.IsAddress(f, v) || f.Values[v].Type.IsDynamic() {
		return false
	}
	for _, use := range u[v] {
		switch {
		case use.Operand >= 0:
			if !ub.FreeOperand(f, use.Inst, use.Operand) {
				return false
			}
		case use.Operand == -1:
			if !ub.FreeBlockArgs(f, use.Inst) {
				return false
			}
		default:
			return false // an exception table's context
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
