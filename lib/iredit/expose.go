package iredit

import (
	"cliff/lib/ir"
	"cliff/lib/ub"
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
