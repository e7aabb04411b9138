package refine

import (
	"fmt"

	"cliff/lib/interp"
	"cliff/lib/ir"
	"cliff/lib/parser"
	"cliff/lib/prune"
	"cliff/lib/record"
	"cliff/lib/ub"
)

// pruneName is the pass table's case-level step: lib/prune, after every
// other pass, on the cases whose swarm has the feature of that name on.
const pruneName = "prune"

// PruneFeature is the swarm feature (lib/gen) that asks for pruning.
const PruneFeature = "prune"

// Prune runs the prune step on mod, the refined module of case c (whose
// inputs, entry and features it reads), when opts.Passes holds it and
// c's swarm has PruneFeature on. It reports whether it ran, and what it
// did. A case whose inputs do not fit its entry is an InputError.
func Prune(mod *ir.Module, c *record.Case, opts Options) (bool, prune.Counts, error) {
	if !c.Features[PruneFeature] || !hasPass(opts.Passes, pruneName) {
		return false, prune.Counts{}, nil
	}
	entry := c.Entry
	if entry == "" && len(mod.Funcs) > 0 {
		entry = mod.Funcs[0].Name
	}
	f := mod.Func(entry)
	if f == nil {
		return false, prune.Counts{}, &InputError{fmt.Errorf("entry %s is not in the module", entry)}
	}
	inputs := make([][]ir.DataValue, len(c.Inputs))
	for i, vec := range c.Inputs {
		if len(vec) != len(f.Sig.Params) {
			return false, prune.Counts{}, &InputError{fmt.Errorf("inputs[%d]: %d values for %s, which takes %d", i, len(vec), entry, len(f.Sig.Params))}
		}
		inputs[i] = make([]ir.DataValue, len(vec))
		for k, v := range vec {
			t := f.Sig.Params[k].Type
			if v.Type != t.String() {
				return false, prune.Counts{}, &InputError{fmt.Errorf("inputs[%d]: value %d is %s, %s takes %s", i, k, v.Type, entry, t)}
			}
			dv, err := parser.ParseDataValue(t, v.Value)
			if err != nil {
				return false, prune.Counts{}, &InputError{fmt.Errorf("inputs[%d]: value %d: %w", i, k, err)}
			}
			inputs[i][k] = dv
		}
	}
	cnt, err := prune.Module(mod, entry, inputs, interp.DefaultLimits)
	return true, cnt, err
}

func hasPass(passes []Pass, name string) bool {
	for _, p := range passes {
		if p.Name == name {
			return true
		}
	}
	return false
}

// checkNotPruned refuses a case that was pruned: its pruned operations
// are safe only for its inputs, and a pass rewriting the code that
// computes their operands could make them trap (lib/prune).
func checkNotPruned(mod *ir.Module) error {
	for _, f := range mod.Funcs {
		for k := range f.Insts {
			if ub.IsPruned(&f.Insts[k]) {
				return &InputError{fmt.Errorf("%s holds pruned instructions (%s): a pruned case is not refined again; refine the case before pruning", f.Name, ub.PrunedLoc)}
			}
		}
	}
	return nil
}
