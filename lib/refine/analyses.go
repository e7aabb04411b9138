package refine

import (
	"cliff/lib/analysis"
	"cliff/lib/internal/reuse"
	"cliff/lib/ir"
	"cliff/lib/profile"
)

// analyses hands a pass what it needs to know of its function: the CFG,
// the dominator tree and the use counts, computed once and kept for the
// next pass when the pass kept them valid, and the scratch memory of the
// run. Recomputing reuses the memory of what went stale.
//
// The CFG and dominator tree stay valid when a pass changes no branch
// target and moves no instruction, or updates them as it goes
// (Pass.keepsCFG). Decoy splits blocks, which CFG.SplitBlock and
// DomTree.Update follow; merge and operands only add params and args and
// rebind operands: so the CFG and tree decoy computes serve every pass up
// to sink, which inserts instructions. The use counts stay valid when the
// pass counts the uses it adds and removes (Pass.keepsUses): merge and
// operands do, so they are counted once after decoy, by merge's liveness
// scan (liveness).
type analyses struct {
	f               *ir.Function
	cfg             *analysis.CFG
	dt              *analysis.DomTree
	uses            []int32
	haveCFG, haveDT bool
	haveUses        bool
	// candidates holds candidate by value, for the values there were when
	// it was last extended: whether a value is a candidate is fixed by its
	// definition, which no pass changes, and the passes ask about nearly
	// every value, some many times.
	candidates []bool
	scratch    *scratch
	// mask holds the operand-producer mask entries the case was
	// generated under (Options.Mask): a pass never makes an instruction
	// they match.
	mask *profile.Patterns
	// prof is Options.Profile: what the target lowers, nil for anything.
	prof *profile.Profile
}

// reset readies a for f, keeping its memory.
func (a *analyses) reset(f *ir.Function, s *scratch) {
	a.f, a.scratch = f, s
	a.haveCFG, a.haveDT, a.haveUses = false, false, false
	a.candidates = a.candidates[:0]
}

// forget drops what pass p invalidated.
func (a *analyses) forget(p *Pass) {
	if !p.keepsCFG {
		a.haveCFG, a.haveDT = false, false
	}
	if !p.keepsUses {
		a.haveUses = false
	}
}

func (a *analyses) CFG() *analysis.CFG {
	if !a.haveCFG {
		if a.cfg == nil {
			a.cfg = new(analysis.CFG)
		}
		a.cfg.Recompute(a.f)
		a.haveCFG = true
	}
	return a.cfg
}

func (a *analyses) DomTree() *analysis.DomTree {
	if !a.haveDT {
		if a.dt == nil {
			a.dt = new(analysis.DomTree)
		}
		a.dt.Recompute(a.CFG())
		a.haveDT = true
	}
	return a.dt
}

// Uses returns the number of uses of each value (useCounts), by value. A
// pass that keeps them (Pass.keepsUses) updates the slice as it adds and
// removes uses, and calls newValues after adding values.
func (a *analyses) Uses() []int32 {
	if !a.haveUses {
		a.uses = useCounts(a.f, a.uses)
		a.haveUses = true
	}
	return a.uses
}

// liveness recomputes live as the liveness of the function over its CFG
// and, when the use counts are not known, takes them from the same scan of
// the instructions (Liveness.RecomputeCounting). Its counts are useCounts'
// when the scan saw every listing of every instruction (whole); otherwise
// Uses counts afresh.
func (a *analyses) liveness(live *analysis.Liveness) {
	if a.haveUses {
		live.Recompute(a.f, a.CFG())
		return
	}
	a.uses, a.haveUses = live.RecomputeCounting(a.f, a.CFG(), a.uses)
}

// newValues extends the use counts to the values added since they were
// computed, which have no uses yet.
func (a *analyses) newValues() {
	if a.haveUses {
		a.uses = reuse.Extended(a.uses, len(a.f.Values))
	}
}

// candidate reports whether v is a candidate (candidate(f, v)). It is
// small enough to inline: the passes ask it of nearly every value.
func (a *analyses) candidate(v ir.Value) bool {
	if int(v) < len(a.candidates) {
		return a.candidates[v]
	}
	return a.extendCandidates(v)
}

// extendCandidates extends the table of candidates to every value and
// returns whether v is one.
func (a *analyses) extendCandidates(v ir.Value) bool {
	for w := len(a.candidates); w < len(a.f.Values); w++ {
		a.candidates = append(a.candidates, candidate(a.f, ir.Value(w)))
	}
	return a.candidates[v]
}

// allows reports whether the case's profile allows op with controlling
// type t (everything, without a profile).
func (a *analyses) allows(op ir.Opcode, t ir.Type) bool {
	return a.prof == nil || a.prof.Allows(op, t)
}
