package iredit

import (
	"slices"

	"cliff/lib/ir"
	"cliff/lib/ub"
)

// RemoveBlockParam drops param k of block b, which must not be the entry
// block: its uses see the constant x instead, defined at the top of b, and
// every branch to b stops passing the arg.
func RemoveBlockParam(f *ir.Function, u Uses, b ir.Block, k int) bool {
	if len(f.Layout) > 0 && f.Layout[0] == b {
		return false
	}
	return removeParam(f, u, b, k)
}

func removeParam(f *ir.Function, u Uses, b ir.Block, k int) bool {
	bd := &f.Blocks[b]
	if k >= len(bd.Params) {
		return false
	}
	p := bd.Params[k]
	if u.Used(f, p) {
		if !Replaceable(f, u, p) && !(len(f.Layout) > 0 && f.Layout[0] == b) {
			return false
		}
		nv := ir.Value(len(f.Values))
		f.Values = append(f.Values, ir.ValueData{Type: f.Values[p].Type})
		if DefineConst(f, b, 0, nv, 0) == 0 {
			return false
		}
		ReplaceUses(f, p, nv)
	}
	bd.Params = slices.Delete(slices.Clone(bd.Params), k, k+1)
	for j, q := range bd.Params {
		f.Values[q].Index = j
	}
	for _, blk := range f.Layout {
		t := Terminator(f, blk)
		if t == ir.NoInst {
			continue
		}
		d := &f.Insts[t]
		for di := range d.Dests {
			if d.Dests[di].Block == b {
				if k >= len(d.Dests[di].Args) {
					return false
				}
				d.Dests[di].Args = slices.Delete(slices.Clone(d.Dests[di].Args), k, k+1)
			}
		}
		for hi := range d.Handlers {
			if d.Handlers[hi].Kind != ir.HandlerContext && d.Handlers[hi].Dest.Block == b {
				return false
			}
		}
	}
	return true
}

// directCallers finds, in every function of m other than the callee, the
// function references to name and checks that they are only called
// directly (no func_addr) through signatures of their own. It returns the
// callers' functions with their references, or false.
func directCallers(m *ir.Module, name string) (map[*ir.Function][]ir.FuncRefDecl, bool) {
	out := map[*ir.Function][]ir.FuncRefDecl{}
	for _, g := range m.Funcs {
		var refs []ir.FuncRefDecl
		for _, fr := range g.FuncRefs {
			if fr.Name == name {
				refs = append(refs, fr)
			}
		}
		if len(refs) == 0 {
			continue
		}
		for _, fr := range refs {
			for _, other := range g.FuncRefs {
				if other.Sig == fr.Sig && other.Name != name {
					return nil, false
				}
			}
		}
		for _, b := range g.Layout {
			for _, i := range g.Blocks[b].Insts {
				d := &g.Insts[i]
				for _, fr := range refs {
					if hasImm(d.Op, ir.ImmSigRef) && d.Sig == fr.Sig {
						return nil, false // an indirect call through the same signature
					}
					if hasImm(d.Op, ir.ImmFuncRef) && d.Func == fr.Num && d.Op != ir.OpCall {
						return nil, false // func_addr, return_call, try_call
					}
				}
			}
		}
		out[g] = refs
	}
	return out, true
}

func sigDecl(g *ir.Function, s ir.SigRef) *ir.Signature {
	for k := range g.Sigs {
		if g.Sigs[k].Num == s {
			return &g.Sigs[k].Sig
		}
	}
	return nil
}

// RemoveFuncParam drops param k of function name: its uses inside see the
// constant 0 instead (a function computes defined results for any
// argument, so any value is safe), and every direct call stops passing the
// arg. The caller adjusts the inputs when name is the entry function.
func RemoveFuncParam(m *ir.Module, name string, k int) bool {
	f := m.Func(name)
	if f == nil || len(f.Layout) == 0 || k >= len(f.Sig.Params) || f.Sig.Params[k].Purpose != "" {
		return false
	}
	callers, ok := directCallers(m, name)
	if !ok {
		return false
	}
	if !removeParam(f, IndexUses(f), f.Layout[0], k) {
		return false
	}
	f.Sig.Params = slices.Delete(slices.Clone(f.Sig.Params), k, k+1)
	for g, refs := range callers {
		for _, fr := range refs {
			sig := sigDecl(g, fr.Sig)
			if sig == nil || k >= len(sig.Params) {
				return false
			}
			sig.Params = slices.Delete(slices.Clone(sig.Params), k, k+1)
			for _, b := range g.Layout {
				for _, i := range g.Blocks[b].Insts {
					d := &g.Insts[i]
					if d.Op == ir.OpCall && d.Func == fr.Num {
						d.Args = slices.Delete(slices.Clone(d.Args), k, k+1)
					}
				}
			}
		}
	}
	return true
}

// RemoveReturn drops return value k of function name from its signature
// and its returns; a direct caller's result k must be unused or
// replaceable, and becomes the constant 0.
func RemoveReturn(m *ir.Module, name string, k int) bool {
	f := m.Func(name)
	if f == nil || k >= len(f.Sig.Returns) {
		return false
	}
	callers, ok := directCallers(m, name)
	if !ok {
		return false
	}
	for _, b := range f.Layout {
		t := Terminator(f, b)
		if t == ir.NoInst {
			continue
		}
		d := &f.Insts[t]
		switch {
		case d.Op == ir.OpReturn:
			if k >= len(d.Args) {
				return false
			}
			d.Args = slices.Delete(slices.Clone(d.Args), k, k+1)
		case d.Op.Info().Flags&ir.FlagReturn != 0:
			return false // a tail call returns the callee's values
		}
	}
	f.Sig.Returns = slices.Delete(slices.Clone(f.Sig.Returns), k, k+1)
	for g, refs := range callers {
		u := IndexUses(g)
		for _, fr := range refs {
			sig := sigDecl(g, fr.Sig)
			if sig == nil || k >= len(sig.Returns) {
				return false
			}
			sig.Returns = slices.Delete(slices.Clone(sig.Returns), k, k+1)
			for _, b := range g.Layout {
				for pos := 0; pos < len(g.Blocks[b].Insts); pos++ {
					i := g.Blocks[b].Insts[pos]
					d := &g.Insts[i]
					if d.Op != ir.OpCall || d.Func != fr.Num {
						continue
					}
					r := d.Results[k]
					d.Results = slices.Delete(slices.Clone(d.Results), k, k+1)
					for j, x := range d.Results {
						g.Values[x].Index = j
					}
					if u.Used(g, r) {
						if !Replaceable(g, u, r) {
							return false
						}
						if DefineConst(g, b, pos+1, r, 0) == 0 {
							return false
						}
					}
				}
			}
		}
	}
	return true
}

// RemoveSlot drops stack slot s with every instruction that addresses it,
// when those are only stack_addr instructions whose addresses only stores
// use: nothing reads the slot, so its stores (zero-filling scaffold
// included) do not matter.
func RemoveSlot(f *ir.Function, s ir.StackSlot) bool {
	u := IndexUses(f)
	drop := map[ir.Inst]bool{}
	for _, b := range f.Layout {
		for _, i := range f.Blocks[b].Insts {
			d := &f.Insts[i]
			if !hasImm(d.Op, ir.ImmStackSlot) || d.Slot != s {
				continue
			}
			if d.Op != ir.OpStackAddr {
				return false
			}
			drop[i] = true
			for _, use := range u.Of(f, d.Results[0]) {
				ud := &f.Insts[use.Inst]
				if ud.Op.Info().Flags&ir.FlagCanStore == 0 || ud.Op.Info().Flags&ir.FlagCanLoad != 0 ||
					use.Operand < 1 || len(ud.Results) > 0 {
					return false // a load, an atomic, a call arg, or the stored value itself
				}
				drop[use.Inst] = true
			}
		}
	}
	for _, b := range f.Layout {
		f.Blocks[b].Insts = slices.DeleteFunc(slices.Clone(f.Blocks[b].Insts), func(i ir.Inst) bool { return drop[i] })
	}
	f.StackSlots = slices.DeleteFunc(f.StackSlots, func(d ir.StackSlotDecl) bool { return d.Num == s })
	return true
}

// Forward replaces the results of instruction k of block b by its operand
// op, which has the type of its one used result; the instruction goes.
func Forward(f *ir.Function, u Uses, b ir.Block, k, op int) bool {
	i := f.Blocks[b].Insts[k]
	d := &f.Insts[i]
	if op >= len(d.Args) || d.Op.Info().Flags&ir.FlagTerminator != 0 {
		return false
	}
	a := f.Resolve(d.Args[op])
	if ub.IsAddress(f, a) {
		return false
	}
	var used []ir.Value
	for _, r := range d.Results {
		if u.Used(f, r) {
			used = append(used, r)
		}
	}
	if len(used) != 1 || f.Values[used[0]].Type != f.Values[a].Type || !Replaceable(f, u, used[0]) {
		return false
	}
	ReplaceUses(f, used[0], a)
	RemoveInst(f, b, k)
	return true
}

// Deletable reports whether instruction k of block b may go without a
// replacement: none of its results is used, it is not a terminator, and it
// is not a scaffold store (which zero-fills memory later loads read:
// RemoveSlot drops those with their slot).
func Deletable(f *ir.Function, u Uses, b ir.Block, k int) bool {
	d := &f.Insts[f.Blocks[b].Insts[k]]
	if d.Op.Info().Flags&ir.FlagTerminator != 0 {
		return false
	}
	for _, r := range d.Results {
		if u.Used(f, r) {
			return false
		}
	}
	return !(ub.IsScaffold(d) && d.Op.Info().Flags&ir.FlagCanStore != 0)
}

// IsConst reports whether d defines a constant: iconst, the float
// constants, vconst (the opcode table's constant role).
func IsConst(d *ir.InstData) bool { return d.Op.Is(ir.RoleConstant) }

// IsConstForm reports whether d is a constant (IsConst) or the iconcat
// of constants, the form DefineConst gives i128 constants.
func IsConstForm(f *ir.Function, d *ir.InstData) bool {
	if IsConst(d) {
		return true
	}
	if d.Op != ir.OpIconcat {
		return false
	}
	for _, a := range d.Args {
		vd := f.Values[f.Resolve(a)]
		if vd.Kind != ir.DefResult || f.Insts[vd.Inst].Op != ir.OpIconst {
			return false
		}
	}
	return true
}

// SimplifyConst sets the constant of instruction k of block b (see
// IsConst) to x (0 or 1) of its type. It reports false when it already is
// that constant or is not a constant.
func SimplifyConst(f *ir.Function, b ir.Block, k int, x int64) bool {
	i := f.Blocks[b].Insts[k]
	d := &f.Insts[i]
	if !IsConst(d) {
		return false
	}
	old := *d
	RemoveInst(f, b, k)
	DefineConst(f, b, k, d.Results[0], x)
	nd := &f.Insts[f.Blocks[b].Insts[k]]
	nd.SrcLoc = old.SrcLoc
	return !(nd.Op == old.Op && nd.Imm == old.Imm && nd.FloatBits == old.FloatBits && slices.Equal(nd.Bytes, old.Bytes) && old.Const == ir.NoConstant)
}
