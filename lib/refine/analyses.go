package refine

import (
	"cliff/lib/analysis"
	"cliff/lib/ir"
)

// analyses hands a pass the CFG and dominator tree of its function,
// computed once and kept for the next pass when the pass kept them valid
// (Pass.keepsCFG: it changed no branch target and moved no instruction).
// Merge and operands only add params and args and rebind operands, so
// operands and sink reuse merge's; decoy adds blocks, sink inserts
// instructions, and after them the next user computes afresh.
type analyses struct {
	f   *ir.Function
	cfg *analysis.CFG
	dt  *analysis.DomTree
}

func newAnalyses(f *ir.Function) *analyses { return &analyses{f: f} }

// drop forgets what a pass invalidated.
func (a *analyses) drop() { a.cfg, a.dt = nil, nil }

func (a *analyses) CFG() *analysis.CFG {
	if a.cfg == nil {
		a.cfg = analysis.NewCFG(a.f)
	}
	return a.cfg
}

func (a *analyses) DomTree() *analysis.DomTree {
	if a.dt == nil {
		a.dt = analysis.NewDomTree(a.CFG())
	}
	return a.dt
}
