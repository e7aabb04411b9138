package iredit

import (
	"slices"

	"cliff/lib/analysis"
	"cliff/lib/ir"
)

// Cleanup drops what no longer matters after edits: blocks unreachable
// from their function's entry and preamble declarations nothing refers to.
// None of it changes what a function computes or what Cranelift compiles.
// Functions stay, called or not: Cranelift compiles every function of a
// module, so an uncalled one may still be where a compiler crash is
// (DropFunc drops one).
func Cleanup(m *ir.Module) {
	for _, f := range m.Funcs {
		dropUnreachable(f)
		dropUnusedDecls(f)
	}
}

// DropFunc removes function name from m when no other function refers to
// it any more, and reports whether it did.
func DropFunc(m *ir.Module, name string) bool {
	if m.Func(name) == nil {
		return false
	}
	for _, g := range m.Funcs {
		if g.Name != name && slices.Contains(callees(g), name) {
			return false
		}
	}
	m.Funcs = slices.DeleteFunc(m.Funcs, func(f *ir.Function) bool { return f.Name == name })
	return true
}

// Reachable returns the names of the functions entry reaches through
// calls and function addresses, entry included.
func Reachable(m *ir.Module, entry string) map[string]bool {
	root := EntryFunc(m, entry)
	if root == nil {
		return nil
	}
	reached := map[string]bool{root.Name: true}
	work := []*ir.Function{root}
	for len(work) > 0 {
		f := work[len(work)-1]
		work = work[:len(work)-1]
		for _, name := range callees(f) {
			if g := m.Func(name); g != nil && !reached[name] {
				reached[name] = true
				work = append(work, g)
			}
		}
	}
	return reached
}

// EntryFunc returns the function named entry, or the first function.
func EntryFunc(m *ir.Module, entry string) *ir.Function {
	if f := m.Func(entry); f != nil {
		return f
	}
	if len(m.Funcs) > 0 {
		return m.Funcs[0]
	}
	return nil
}

func dropUnreachable(f *ir.Function) {
	if len(f.Layout) == 0 {
		return
	}
	cfg := analysis.NewCFG(f)
	var layout []ir.Block
	for _, b := range f.Layout {
		if cfg.Reachable(b) {
			layout = append(layout, b)
		} else {
			f.Blocks[b] = ir.BlockData{}
		}
	}
	f.Layout = layout
}

// callees lists the names of the functions f refers to from its layout.
func callees(f *ir.Function) []string {
	used := usedFuncRefs(f)
	var names []string
	for _, fr := range f.FuncRefs {
		if used[fr.Num] {
			names = append(names, fr.Name)
		}
	}
	return names
}

func usedFuncRefs(f *ir.Function) map[ir.FuncRef]bool {
	used := map[ir.FuncRef]bool{}
	for _, b := range f.Layout {
		for _, i := range f.Blocks[b].Insts {
			d := &f.Insts[i]
			if hasImm(d.Op, ir.ImmFuncRef) {
				used[d.Func] = true
			}
		}
	}
	return used
}

func hasImm(op ir.Opcode, k ir.ImmKind) bool { return slices.Contains(op.Format().Imms, k) }

// dropUnusedDecls removes the function references, signatures, stack slots
// and constants that f's layout does not name.
func dropUnusedDecls(f *ir.Function) {
	usedFn := usedFuncRefs(f)
	f.FuncRefs = slices.DeleteFunc(f.FuncRefs, func(d ir.FuncRefDecl) bool { return !usedFn[d.Num] })
	usedSig := map[ir.SigRef]bool{}
	for _, fr := range f.FuncRefs {
		usedSig[fr.Sig] = true
	}
	usedSlot := map[ir.StackSlot]bool{}
	usedConst := map[ir.Constant]bool{}
	keepSlots := false // debug tags and stack maps may name slots
	for _, b := range f.Layout {
		for _, i := range f.Blocks[b].Insts {
			d := &f.Insts[i]
			if hasImm(d.Op, ir.ImmSigRef) || hasImm(d.Op, ir.ImmExceptionTable) {
				usedSig[d.Sig] = true
			}
			if hasImm(d.Op, ir.ImmStackSlot) {
				usedSlot[d.Slot] = true
			}
			if hasImm(d.Op, ir.ImmConstant) && len(d.Bytes) == 0 {
				usedConst[d.Const] = true
			}
			if len(d.DebugTags) > 0 || len(d.StackMap) > 0 {
				keepSlots = true
			}
		}
	}
	f.Sigs = slices.DeleteFunc(f.Sigs, func(d ir.SigDecl) bool { return !usedSig[d.Num] })
	if !keepSlots {
		f.StackSlots = slices.DeleteFunc(f.StackSlots, func(d ir.StackSlotDecl) bool { return !usedSlot[d.Num] })
	}
	f.Constants = slices.DeleteFunc(f.Constants, func(d ir.ConstantDecl) bool { return !usedConst[d.Num] })
}

// CutOutside redirects every edge from a block of keep to a block outside
// it to a new block that returns current values (EarlyReturn's barrier):
// execution ends where it would first leave keep. It reports false for
// edges it cannot cut (exception handlers).
func CutOutside(f *ir.Function, keep map[ir.Block]bool) bool {
	cfg := analysis.NewCFG(f)
	dom := analysis.NewDomTree(cfg)
	type edge struct {
		from ir.Block
		dest int
	}
	var cuts []edge
	for _, b := range f.Layout {
		if !keep[b] || !cfg.Reachable(b) {
			continue
		}
		t := Terminator(f, b)
		if t == ir.NoInst {
			continue
		}
		d := &f.Insts[t]
		for _, h := range d.Handlers {
			if h.Kind != ir.HandlerContext && !keep[h.Dest.Block] {
				return false
			}
		}
		for k, bc := range d.Dests {
			if !keep[bc.Block] {
				cuts = append(cuts, edge{b, k})
			}
		}
	}
	for _, c := range cuts {
		t := Terminator(f, c.from)
		vals := CurrentValues(f, dom, c.from, len(f.Blocks[c.from].Insts)-1)
		nb := ir.Block(len(f.Blocks))
		f.Blocks = append(f.Blocks, ir.BlockData{Used: true})
		f.Layout = append(f.Layout, nb)
		if !endWithReturn(f, nb, 0, vals) {
			return false
		}
		d := &f.Insts[t]
		d.Dests = slices.Clone(d.Dests)
		d.Dests[c.dest] = ir.BlockCall{Block: nb}
	}
	return true
}
