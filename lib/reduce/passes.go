package reduce

import (
	"slices"

	"cliff/lib/analysis"
	"cliff/lib/ir"
	"cliff/lib/iredit"
	"cliff/lib/parser"
	"cliff/lib/printer"
	"cliff/lib/record"
)

// A pass proposes edits of one kind on a base candidate. The edits are
// independent of each other, so that any subset of them can be applied
// together; the reducer (reducer.run, reduce.go) decides which subset
// survives.
type pass struct {
	name string
	plan func(base *Candidate) []Edit
}

// passes are the reduction passes in the order a round runs them: the
// ones that remove most at once first (whole input vectors, calls,
// branches with the code only they reach), then instructions, then the
// finer ones (params, slots, immediates, input values, settings).
var passes = []pass{
	{"inputs", planInputs},
	{"calls", planCalls},
	{"functions", planFuncs},
	{"branches", func(b *Candidate) []Edit { return planBranches(b, false) }},
	{"branches-then", func(b *Candidate) []Edit { return planBranches(b, true) }},
	{"loops", planLoops},
	{"expose", planExpose},
	{"substitute-param", planSubstituteParam},
	{"substitute", planSubstitute},
	{"dead", planDead},
	{"forward", planForward},
	{"merge-blocks", planMerge},
	{"block-params", planBlockParams},
	{"func-params", planFuncParams},
	{"returns", planReturns},
	{"slots", planSlots},
	{"immediates-0", func(b *Candidate) []Edit { return planImmediates(b, 0) }},
	{"immediates-1", func(b *Candidate) []Edit { return planImmediates(b, 1) }},
	{"input-values-0", func(b *Candidate) []Edit { return planInputValues(b, 0) }},
	{"input-values-1", func(b *Candidate) []Edit { return planInputValues(b, 1) }},
	{"settings", planSettings},
	{"flags", planFlags},
}

// instEdit is an edit of the instruction i of function fn, found again
// in the variant (the variant's module is a parse of the same text, so
// instruction IDs agree).
func instEdit(fn string, i ir.Inst, do func(f *ir.Function, b ir.Block, k int) bool) Edit {
	return func(v *Candidate) bool {
		f := v.Module.Func(fn)
		if f == nil {
			return false
		}
		p, ok := iredit.Places(f)[i]
		if !ok {
			// An earlier edit of the same chunk took it (edits on one
			// instruction clash; the first one wins).
			return true
		}
		return do(f, p.Block, p.Index)
	}
}

// forInsts calls fn for every instruction of every function of base.
func forInsts(base *Candidate, fn func(f *ir.Function, u iredit.Uses, b ir.Block, k int, i ir.Inst)) {
	for _, f := range base.Module.Funcs {
		u := iredit.IndexUses(f)
		for _, b := range f.Layout {
			for k, i := range f.Blocks[b].Insts {
				fn(f, u, b, k, i)
			}
		}
	}
}

// withDCE wraps an instruction edit so that it also removes the
// instructions it left without uses (and only those).
func withDCE(do func(f *ir.Function, b ir.Block, k int) bool) func(f *ir.Function, b ir.Block, k int) bool {
	return func(f *ir.Function, b ir.Block, k int) bool {
		before := iredit.Dead(f)
		if !do(f, b, k) {
			return false
		}
		iredit.RemoveDead(f, before)
		return true
	}
}

func planInputs(base *Candidate) []Edit {
	if len(base.Inputs) < 2 {
		return nil
	}
	var edits []Edit
	for k := range base.Inputs {
		drop := base.Inputs[k]
		edits = append(edits, func(v *Candidate) bool {
			for j, in := range v.Inputs {
				if slices.Equal(in, drop) && len(v.Inputs) > 1 {
					v.Inputs = slices.Delete(v.Inputs, j, j+1)
					return true
				}
			}
			return false
		})
	}
	return edits
}

// replaceable reports whether every used result of instruction i may be
// replaced (and has a constant).
func replaceable(f *ir.Function, u iredit.Uses, i ir.Inst) bool {
	for _, r := range f.Insts[i].Results {
		if u.Used(f, r) && (!iredit.Replaceable(f, u, r) || !iredit.CanConst(f.Values[r].Type)) {
			return false
		}
	}
	return true
}

func planCalls(base *Candidate) []Edit {
	var edits []Edit
	forInsts(base, func(f *ir.Function, u iredit.Uses, b ir.Block, k int, i ir.Inst) {
		d := &f.Insts[i]
		if d.Op.IsCall() && d.Op.IsTerminator() && d.Op.IsReturn() {
			// A tail call: return current values instead.
			edits = append(edits, instEdit(f.Name, i, withDCE(func(f *ir.Function, b ir.Block, k int) bool {
				return iredit.EarlyReturn(f, b, k)
			})))
			return
		}
		if !d.Op.IsCall() || d.Op.IsTerminator() || !replaceable(f, u, i) {
			return
		}
		edits = append(edits, instEdit(f.Name, i, withDCE(func(f *ir.Function, b ir.Block, k int) bool {
			return iredit.SubstituteConst(f, iredit.IndexUses(f), b, k, 0)
		})))
	})
	return edits
}

func planFuncs(base *Candidate) []Edit {
	var edits []Edit
	for _, f := range base.Module.Funcs {
		if f.Name == base.Entry {
			continue
		}
		name := f.Name
		edits = append(edits, func(v *Candidate) bool { return iredit.DropFunc(v.Module, name) })
	}
	return edits
}

func planBranches(base *Candidate, then bool) []Edit {
	var edits []Edit
	for _, f := range base.Module.Funcs {
		for _, b := range f.Layout {
			t := iredit.Terminator(f, b)
			if t == ir.NoInst {
				continue
			}
			d := &f.Insts[t]
			var arms []int
			switch {
			case d.Op == ir.OpBrif && then:
				arms = []int{0}
			case d.Op == ir.OpBrif:
				arms = []int{1}
			case d.Op == ir.OpBrTable && !then:
				arms = []int{0} // the default
			case d.Op == ir.OpBrTable:
				seen := map[ir.Block]bool{d.Dests[0].Block: true}
				for k, bc := range d.Dests {
					if !seen[bc.Block] {
						seen[bc.Block] = true
						arms = append(arms, k)
					}
				}
			}
			for _, arm := range arms {
				name, blk := f.Name, b
				edits = append(edits, func(v *Candidate) bool {
					g := v.Module.Func(name)
					if g == nil {
						return false
					}
					if t := iredit.Terminator(g, blk); t != ir.NoInst && g.Insts[t].Op == ir.OpJump {
						return true // an earlier edit of the chunk collapsed it
					}
					return iredit.CollapseBranch(g, blk, arm)
				})
			}
		}
	}
	return edits
}

func planLoops(base *Candidate) []Edit {
	var edits []Edit
	for _, f := range base.Module.Funcs {
		cfg := analysis.NewCFG(f)
		dom := analysis.NewDomTree(cfg)
		for _, b := range f.Layout {
			if t := iredit.Terminator(f, b); t == ir.NoInst || f.Insts[t].Op != ir.OpBrif {
				continue
			}
			if !slices.ContainsFunc(cfg.Preds(b), func(p ir.Block) bool { return dom.Dominates(b, p) }) {
				continue
			}
			name, blk := f.Name, b
			edits = append(edits, func(v *Candidate) bool {
				g := v.Module.Func(name)
				if g == nil {
					return false
				}
				before := iredit.Dead(g)
				if !iredit.RunLoopOnce(g, blk) {
					return false
				}
				iredit.RemoveDead(g, before) // the trip counter
				return true
			})
		}
	}
	return edits
}

func planSubstitute(base *Candidate) []Edit {
	var edits []Edit
	forInsts(base, func(f *ir.Function, u iredit.Uses, b ir.Block, k int, i ir.Inst) {
		d := &f.Insts[i]
		if iredit.IsConstForm(f, d) || d.Op.IsTerminator() || len(d.Results) == 0 || !replaceable(f, u, i) {
			return
		}
		used := false
		for _, r := range d.Results {
			used = used || u.Used(f, r)
		}
		if !used {
			return // dead already: the dead pass takes it
		}
		edits = append(edits, instEdit(f.Name, i, withDCE(func(f *ir.Function, b ir.Block, k int) bool {
			return iredit.SubstituteConst(f, iredit.IndexUses(f), b, k, 0)
		})))
	})
	return edits
}

// planSubstituteParam replaces results by a param of the function's entry
// block of the same type: the instruction goes and nothing is added, and
// the value stays opaque to the optimiser (a constant may be folded).
func planSubstituteParam(base *Candidate) []Edit {
	var edits []Edit
	forInsts(base, func(f *ir.Function, u iredit.Uses, b ir.Block, k int, i ir.Inst) {
		d := &f.Insts[i]
		if iredit.IsConstForm(f, d) || d.Op.IsTerminator() || d.Op.IsCall() || len(d.Results) != 1 ||
			!u.Used(f, d.Results[0]) || !replaceable(f, u, i) || paramOf(f, f.Values[d.Results[0]].Type) == ir.NoValue {
			return
		}
		edits = append(edits, instEdit(f.Name, i, withDCE(func(f *ir.Function, b ir.Block, k int) bool {
			r := f.Insts[f.Blocks[b].Insts[k]].Results[0]
			p := paramOf(f, f.Values[r].Type)
			if p == ir.NoValue {
				return false
			}
			iredit.ReplaceUses(f, r, p)
			iredit.RemoveInst(f, b, k)
			return true
		})))
	})
	return edits
}

// paramOf returns the first param of f's entry block of type t, or
// ir.NoValue.
func paramOf(f *ir.Function, t ir.Type) ir.Value {
	if len(f.Layout) == 0 {
		return ir.NoValue
	}
	for _, p := range f.Blocks[f.Layout[0]].Params {
		if f.Values[p].Type == t {
			return p
		}
	}
	return ir.NoValue
}

func planDead(base *Candidate) []Edit {
	var edits []Edit
	forInsts(base, func(f *ir.Function, u iredit.Uses, b ir.Block, k int, i ir.Inst) {
		if !iredit.Deletable(f, u, b, k) {
			return
		}
		edits = append(edits, instEdit(f.Name, i, func(f *ir.Function, b ir.Block, k int) bool {
			iredit.RemoveInst(f, b, k)
			return true
		}))
	})
	return edits
}

func planForward(base *Candidate) []Edit {
	var edits []Edit
	forInsts(base, func(f *ir.Function, u iredit.Uses, b ir.Block, k int, i ir.Inst) {
		d := &f.Insts[i]
		if d.Op.IsTerminator() || d.Op.IsCall() || len(d.Results) == 0 {
			return
		}
		for op, a := range d.Args {
			if f.Values[f.Resolve(a)].Type != f.Values[d.Results[0]].Type {
				continue
			}
			edits = append(edits, instEdit(f.Name, i, withDCE(func(f *ir.Function, b ir.Block, k int) bool {
				return iredit.Forward(f, iredit.IndexUses(f), b, k, op)
			})))
		}
	})
	return edits
}

func planMerge(base *Candidate) []Edit {
	var edits []Edit
	for _, f := range base.Module.Funcs {
		for _, b := range f.Layout {
			if t := iredit.Terminator(f, b); t == ir.NoInst || f.Insts[t].Op != ir.OpJump {
				continue
			}
			name, blk := f.Name, b
			edits = append(edits, func(v *Candidate) bool {
				g := v.Module.Func(name)
				return g != nil && iredit.MergeJump(g, blk)
			})
		}
	}
	return edits
}

func planBlockParams(base *Candidate) []Edit {
	var edits []Edit
	for _, f := range base.Module.Funcs {
		for _, b := range f.Layout[min(1, len(f.Layout)):] {
			// Last param first: removing one renumbers the later ones, so
			// each edit names its param by value.
			for _, p := range f.Blocks[b].Params {
				name, blk, param := f.Name, b, p
				edits = append(edits, func(v *Candidate) bool {
					g := v.Module.Func(name)
					if g == nil {
						return false
					}
					k := slices.Index(g.Blocks[blk].Params, param)
					if k < 0 {
						return false
					}
					before := iredit.Dead(g)
					if !iredit.RemoveBlockParam(g, iredit.IndexUses(g), blk, k) {
						return false
					}
					iredit.RemoveDead(g, before)
					return true
				})
			}
		}
	}
	return edits
}

// planFuncParams proposes dropping each unused param of a function's entry
// block, found again by value in the variant (earlier edits may have
// removed others), and the entry's input column with it.
func planFuncParams(base *Candidate) []Edit {
	var edits []Edit
	for _, f := range base.Module.Funcs {
		if len(f.Layout) == 0 {
			continue
		}
		u := iredit.IndexUses(f)
		for _, p := range f.Blocks[f.Layout[0]].Params {
			// A used param stays: it would become a constant, one more
			// instruction, and one the optimiser may fold.
			if u.Used(f, p) {
				continue
			}
			name, param := f.Name, p
			edits = append(edits, func(v *Candidate) bool {
				g := v.Module.Func(name)
				if g == nil || len(g.Layout) == 0 {
					return false
				}
				k := slices.Index(g.Blocks[g.Layout[0]].Params, param)
				if k < 0 || !iredit.RemoveFuncParam(v.Module, name, k) {
					return false
				}
				if name == v.Entry {
					for j := range v.Inputs {
						if k >= len(v.Inputs[j]) {
							return false
						}
						v.Inputs[j] = slices.Delete(v.Inputs[j], k, k+1)
					}
				}
				return true
			})
		}
	}
	return edits
}

func planReturns(base *Candidate) []Edit {
	var edits []Edit
	for _, f := range base.Module.Funcs {
		// Highest index first within a variant: applying a chunk removes
		// returns from the back, so the earlier indexes stay right.
		for k := len(f.Sig.Returns) - 1; k >= 0; k-- {
			name, k := f.Name, k
			edits = append(edits, func(v *Candidate) bool { return iredit.RemoveReturn(v.Module, name, k) })
		}
	}
	return edits
}

func planSlots(base *Candidate) []Edit {
	var edits []Edit
	for _, f := range base.Module.Funcs {
		for _, s := range f.StackSlots {
			name, slot := f.Name, s.Num
			edits = append(edits, func(v *Candidate) bool {
				g := v.Module.Func(name)
				return g != nil && iredit.RemoveSlot(g, slot)
			})
		}
	}
	return edits
}

func planImmediates(base *Candidate, x int64) []Edit {
	var edits []Edit
	forInsts(base, func(f *ir.Function, u iredit.Uses, b ir.Block, k int, i ir.Inst) {
		d := &f.Insts[i]
		if !iredit.IsConst(d) || !replaceable(f, u, i) || isSmall(f, d, x) {
			return
		}
		edits = append(edits, instEdit(f.Name, i, func(f *ir.Function, b ir.Block, k int) bool {
			return iredit.SimplifyConst(f, b, k, x)
		}))
	})
	return edits
}

// isSmall reports whether a constant is already x, or 0 when x is 1 (the
// passes simplify toward 0 first, then 1, never from 0 to 1).
func isSmall(f *ir.Function, d *ir.InstData, x int64) bool {
	t := f.Values[d.Results[0]].Type
	var cur []byte
	switch d.Op {
	case ir.OpIconst:
		cur = iredit.ConstBytes(t, d.Imm)
		if t.Bits() < 64 {
			cur = cur[:t.Bytes()]
		}
	case ir.OpVconst, ir.OpF128const:
		if d.Const != ir.NoConstant {
			return false
		}
		cur = d.Bytes
	default:
		cur = iredit.ConstBytes(t, 0)
		for k := range cur {
			cur[k] = byte(d.FloatBits >> (8 * k))
		}
	}
	zero, want := iredit.ConstBytes(t, 0), iredit.ConstBytes(t, x)
	return slices.Equal(cur, want) || slices.Equal(cur, zero)
}

func planInputValues(base *Candidate, x int64) []Edit {
	if len(base.Inputs) != 1 {
		return nil // values are simplified once the failing input is alone
	}
	var edits []Edit
	for k, v := range base.Inputs[0] {
		t, ok := ir.ParseType(v.Type)
		if !ok || !iredit.CanConst(t) {
			continue
		}
		text := printer.DataValue(ir.DataValue{Type: t, Bytes: iredit.ConstBytes(t, x)})
		zero := printer.DataValue(ir.DataValue{Type: t, Bytes: iredit.ConstBytes(t, 0)})
		if cur, err := parser.ParseDataValue(t, v.Value); err == nil {
			if s := printer.DataValue(cur); s == text || s == zero {
				continue
			}
		}
		k := k
		edits = append(edits, func(c *Candidate) bool {
			if len(c.Inputs) != 1 || k >= len(c.Inputs[0]) || c.Inputs[0][k].Type != v.Type {
				return false
			}
			c.Inputs[0][k] = record.Value{Type: v.Type, Value: text}
			return true
		})
	}
	return edits
}

func planSettings(base *Candidate) []Edit {
	var edits []Edit
	for _, s := range base.Settings {
		s := s
		edits = append(edits, func(v *Candidate) bool {
			k := slices.Index(v.Settings, s)
			if k < 0 {
				return false
			}
			v.Settings = slices.Delete(v.Settings, k, k+1)
			return true
		})
	}
	return edits
}

func planFlags(base *Candidate) []Edit {
	var edits []Edit
	for ci, c := range base.Configs {
		for _, fl := range c.Flags {
			ci, fl := ci, fl
			edits = append(edits, func(v *Candidate) bool {
				k := slices.Index(v.Configs[ci].Flags, fl)
				if k < 0 {
					return false
				}
				v.Configs[ci].Flags = slices.Delete(v.Configs[ci].Flags, k, k+1)
				return true
			})
		}
		for _, s := range c.Settings {
			ci, s := ci, s
			edits = append(edits, func(v *Candidate) bool {
				k := slices.Index(v.Configs[ci].Settings, s)
				if k < 0 {
					return false
				}
				v.Configs[ci].Settings = slices.Delete(v.Configs[ci].Settings, k, k+1)
				return true
			})
		}
	}
	return edits
}
