package iredit

import (
	"cliff/lib/ir"
	"cliff/lib/ub"
	"slices"
)

// ReturnOnly makes function name of m return the value r alone, in place
// of what it returned, when nothing in m refers to the function (the
// entry, or a function Cranelift compiles but nobody calls): no caller's
// signature to mend. r must dominate every return, which the verifier
// checks on the variant. Instructions only the old return values needed
// go (RemoveDead). It reports whether it could.
func ReturnOnly(m *ir.Module, name string, r ir.Value) bool {
	f := m.Func(name)
	if f == nil || int(r) >= len(f.Values) || f.Values[r].Kind != ir.DefResult || ub.IsAddress(f, r) {
		return false // an address differs between targets by nature
	}
	for _, g := range m.Funcs {
		for _, fr := range g.FuncRefs {
			if fr.Name == name {
				return false
			}
		}
	}
	t := f.Values[r].Type
	if !t.Valid() || t.IsDynamic() {
		return false
	}
	if returnsOnly(f, r) {
		return false
	}
	f.Sig.Returns = []ir.AbiParam{{Type: t}}
	for _, b := range f.Layout {
		if term := Terminator(f, b); term != ir.NoInst && f.Insts[term].Op == ir.OpReturn {
			f.Insts[term].Args = []ir.Value{r}
		}
	}
	RemoveDead(f, nil)
	return true
}

// returnsOnly reports whether f returns r alone, everywhere, already.
func returnsOnly(f *ir.Function, r ir.Value) bool {
	if len(f.Sig.Returns) != 1 || f.Sig.Returns[0] != (ir.AbiParam{Type: f.Values[r].Type}) {
		return false
	}
	for _, b := range f.Layout {
		term := Terminator(f, b)
		if term == ir.NoInst || f.Insts[term].Op != ir.OpReturn {
			continue
		}
		if args := f.Insts[term].Args; len(args) != 1 || f.Resolve(args[0]) != f.Resolve(r) {
			return false
		}
	}
	return true
}

// ReturnThroughCaller shows the value r of a callee in the entry's output:
// function name returns r alone, and the entry, its only caller, returns
// what its one direct call of name returns, cut right after that call
// (its other returns give a zero of r's type). A miscompiled value inside
// a callee can then be compared on its own, as ReturnOnly does for the
// entry's values. It reports whether it could: name is called once, by a
// plain call in the entry, and returns normally (no tail calls).
func ReturnThroughCaller(m *ir.Module, entry, name string, r ir.Value) bool {
	f, g := m.Func(entry), m.Func(name)
	if f == nil || g == nil || f == g || int(r) >= len(g.Values) || g.Values[r].Kind != ir.DefResult || ub.IsAddress(g, r) {
		return false
	}
	t := g.Values[r].Type
	if !CanConst(t) {
		return false
	}
	callers, ok := directCallers(m, name)
	if !ok || len(callers) != 1 || len(callers[f]) != 1 {
		return false
	}
	ref := callers[f][0]
	b, k, found := ir.NoBlock, -1, 0
	for _, blk := range f.Layout {
		for pos, i := range f.Blocks[blk].Insts {
			if d := &f.Insts[i]; d.Op == ir.OpCall && d.Func == ref.Num {
				b, k = blk, pos
				found++
			}
		}
	}
	sig := sigDecl(f, ref.Sig)
	if found != 1 || sig == nil {
		return false
	}
	for _, blk := range g.Layout {
		if term := Terminator(g, blk); term != ir.NoInst && g.Insts[term].Op != ir.OpReturn && g.Insts[term].Op.Info().Flags&ir.FlagReturn != 0 {
			return false // a tail call returns what another function returns
		}
	}
	// The callee returns r alone.
	g.Sig.Returns = []ir.AbiParam{{Type: t}}
	for _, blk := range g.Layout {
		if term := Terminator(g, blk); term != ir.NoInst && g.Insts[term].Op == ir.OpReturn {
			g.Insts[term].Args = []ir.Value{r}
		}
	}
	RemoveDead(g, nil)
	// The call gives one value of r's type, which the entry returns at once.
	sig.Returns = []ir.AbiParam{{Type: t}}
	call := f.Blocks[b].Insts[k]
	res := ir.Value(len(f.Values))
	f.Values = append(f.Values, ir.ValueData{Type: t, Kind: ir.DefResult, Inst: call})
	f.Insts[call].Results = []ir.Value{res}
	f.Sig.Returns = []ir.AbiParam{{Type: t}}
	for _, blk := range f.Layout {
		if term := Terminator(f, blk); blk != b && term != ir.NoInst && f.Insts[term].Op == ir.OpReturn {
			insts := f.Blocks[blk].Insts
			f.Blocks[blk].Insts = slices.Clone(insts[:len(insts)-1])
			if !endWithReturn(f, blk, len(insts)-1, []ir.Value{ir.NoValue}) {
				return false
			}
		}
	}
	f.Blocks[b].Insts = slices.Clone(f.Blocks[b].Insts[:k+1])
	return endWithReturn(f, b, k+1, []ir.Value{res})
}
