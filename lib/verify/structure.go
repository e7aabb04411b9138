package verify

import (
	"cliff/lib/internal/reuse"
	"cliff/lib/ir"
)

// Structure: the layout lists each declared block once, every block holds
// instructions that exist, each in one place, and ends with its only
// terminator; the entry block matches the signature and is not cold.

// checkLayout checks the block order itself.
func (v *verifier) checkLayout() {
	f := v.f
	if len(f.Layout) == 0 {
		v.funcErr("function has no blocks")
		return
	}
	seen := reuse.Zeroed(v.seen, len(f.Blocks))
	v.seen = seen
	for _, b := range f.Layout {
		switch {
		case int(b) >= len(f.Blocks) || !f.Blocks[b].Used:
			v.blockErr(b, "%s is in the layout but not declared", b)
		case seen[b]:
			v.blockErr(b, "%s appears more than once in the layout", b)
		default:
			seen[b] = true
		}
	}
}

// checkEntryBlock compares the entry block with the function signature.
func (v *verifier) checkEntryBlock() {
	b := v.cfg.Entry()
	if b == ir.NoBlock {
		return
	}
	bd := &v.f.Blocks[b]
	if bd.Cold {
		v.blockErr(b, "entry block cannot be marked as cold")
	}
	want := v.f.Sig.Params
	if len(bd.Params) != len(want) {
		v.blockErr(b, "entry block parameters (%d) must match function signature (%d)", len(bd.Params), len(want))
		return
	}
	for k, p := range bd.Params {
		if got := v.valueType(p); got != ir.Invalid && got != want[k].Type {
			v.blockErr(b, "entry block parameter %d expected to have type %s, got %s", k, abiParamString(want[k]), got)
		}
	}
}

// checkBlock checks one block of the layout: its params are its own, its
// instructions exist and are listed nowhere else, and exactly its last
// instruction is a terminator.
func (v *verifier) checkBlock(b ir.Block) {
	bd := &v.f.Blocks[b]
	v.checkParamDefs(b)
	if len(bd.Insts) == 0 {
		v.blockErr(b, "%s cannot be empty", b)
		return
	}
	last := len(bd.Insts) - 1
	for k, i := range bd.Insts {
		if int(i) >= len(v.f.Insts) {
			v.blockErr(b, "%s lists %s, which does not exist", b, i)
			continue
		}
		if !v.placed(i, b, k) {
			v.blockErr(b, "%s lists %s, which already appears in %s", b, i, v.cfg.InstBlock(i))
			continue
		}
		term := rulesOf(v.f.Insts[i].Op).flags.Has(ir.FlagTerminator)
		if term && k != last {
			v.instErr(i, "a terminator instruction was encountered before the end of %s", b)
		}
		if !term && k == last {
			v.blockErr(b, "block does not end in a terminator instruction")
		}
	}
}
