package refine

import (
	"fmt"

	"cliff/lib/ir"
	"cliff/lib/prune"
	"cliff/lib/record"
	"cliff/lib/refinterp"
	"cliff/lib/ub"
)

// PruneStep is the name of the pass table's case-level step (lib/prune,
// after every other pass), as Case.Refined lists it.
const PruneStep = "prune"

// PruneFeature is the swarm feature (lib/gen) that asks for pruning.
const PruneFeature = "prune"

// Prune runs the prune step on mod, the refined module of case c (whose
// inputs, entry and features it reads), when opts.Passes holds it and
// c's swarm has PruneFeature on. It reports whether it ran, and what it
// did. A case whose inputs do not fit its entry is an InputError.
func Prune(mod *ir.Module, c *record.Case, opts Options) (bool, prune.Counts, error) {
	if !c.Features[PruneFeature] || !hasPass(opts.Passes, PruneStep) {
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
	inputs, err := prune.Inputs(f, c.Inputs)
	if err != nil {
		return false, prune.Counts{}, &InputError{err}
	}
	cnt, err := prune.Module(mod, entry, inputs, refinterp.DefaultLimits)
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
	if prune.Pruned(mod) {
		return &InputError{fmt.Errorf("a pruned case (its instructions at %s are safe only for its inputs) is not refined again: refine it before pruning", ub.PrunedLoc)}
	}
	return nil
}
