package verify

import (
	"strconv"

	"cliff/lib/ir"
)

// Branches: each block call names a block of the layout other than the
// entry and passes args matching its params. try_call's block calls may
// also pass retN (the callee's N-th return, to the normal-return block) and
// exnN (the N-th exception payload, to a handler).

// callTarget says which kind of destination a block call is.
type callTarget uint8

const (
	targetNormal    callTarget = iota // jump, brif, br_table
	targetNormalRet                   // try_call's normal return
	targetHandler                     // try_call's exception handler
)

// checkBranches checks every block call of inst and the block of
// get_exception_handler_address.
func (v *verifier) checkBranches(inst ir.Inst, d *ir.InstData, r *opRules) {
	if got := len(d.Dests); got < r.dests || got > r.dests && !r.moreDests {
		v.instErr(inst, "expected %d branch destinations, found %d", r.dests, got)
	}
	isTry := r.tryCall
	if !isTry && len(d.Handlers) > 0 {
		v.instErr(inst, "exception handlers on an instruction without an exception table")
	}
	for k := range d.Dests {
		target := targetNormal
		if isTry {
			target = targetNormalRet
		}
		v.checkBlockCall(inst, &d.Dests[k], target, isTry)
	}
	for k := range d.Handlers {
		if h := &d.Handlers[k]; h.Kind != ir.HandlerContext {
			v.checkBlockCall(inst, &h.Dest, targetHandler, isTry)
		}
	}
	for range r.rawBlocks {
		v.checkHandlerAddress(inst, d)
	}
}

// checkBlockRef reports a reference to a block outside the layout or to
// the entry block; ok is false when the block has no params to check
// against.
func (v *verifier) checkBlockRef(inst ir.Inst, b ir.Block) bool {
	if !v.cfg.InLayout(b) || !v.f.Blocks[b].Used {
		v.instErr(inst, "invalid block reference %s", b)
		return false
	}
	if b == v.cfg.Entry() {
		v.instErr(inst, "invalid reference to entry block %s", b)
	}
	return true
}

func (v *verifier) checkBlockCall(inst ir.Inst, bc *ir.BlockCall, target callTarget, isTry bool) {
	if !v.checkBlockRef(inst, bc.Block) {
		return
	}
	params := v.f.Blocks[bc.Block].Params
	if len(bc.Args) != len(params) {
		v.instErr(inst, "mismatched argument count for `%s`: got %d, expected %d",
			describeInst(v.f, inst), len(bc.Args), len(params))
		return
	}
	for k, a := range bc.Args {
		got, ok := v.blockArgType(inst, a, target, isTry)
		if !ok {
			continue
		}
		if want := v.valueType(params[k]); want != ir.Invalid && got != want {
			v.instErr(inst, "arg %s has type %s, expected %s", blockArgString(a), got, want)
		}
	}
}

// blockArgType is the type a block-call arg passes; ok is false when it is
// unknown (an undefined value, or exnN without a target) or the arg is
// misplaced (reported here).
func (v *verifier) blockArgType(inst ir.Inst, a ir.BlockArg, target callTarget, isTry bool) (ir.Type, bool) {
	if a.Kind == ir.ArgValue {
		t := v.valueType(a.Value)
		return t, t != ir.Invalid
	}
	name := "retN"
	if a.Kind == ir.ArgExn {
		name = "exnN"
	}
	if !isTry {
		v.instErr(inst, "`%s` block argument in block-call not on `try_call` instruction", name)
		return ir.Invalid, false
	}
	sig := v.sig(v.f.Insts[inst].Sig)
	if sig == nil {
		return ir.Invalid, false
	}
	switch {
	case a.Kind == ir.ArgRet && target == targetNormalRet:
		if int(a.Index) < len(sig.Returns) {
			return sig.Returns[a.Index].Type, true
		}
		v.instErr(inst, "out-of-bounds `retN` block argument")
	case a.Kind == ir.ArgExn && target == targetHandler:
		if v.opts.PointerType == ir.Invalid {
			return ir.Invalid, false
		}
		payload := exceptionPayloadTypes(v.callConv(sig.CallConv), v.opts.PointerType)
		if int(a.Index) < len(payload) {
			return payload[a.Index], true
		}
		v.instErr(inst, "out-of-bounds `exnN` block argument")
	default:
		// Cranelift words both cases alike.
		v.instErr(inst, "`%s` block argument used outside normal-return target of `try_call`", name)
	}
	return ir.Invalid, false
}

func blockArgString(a ir.BlockArg) string {
	switch a.Kind {
	case ir.ArgRet:
		return "ret" + strconv.FormatUint(uint64(a.Index), 10)
	case ir.ArgExn:
		return "exn" + strconv.FormatUint(uint64(a.Index), 10)
	}
	return a.Value.String()
}

// checkHandlerAddress checks get_exception_handler_address: the block ends
// in a try_call and the index selects one of its exception handlers.
func (v *verifier) checkHandlerAddress(inst ir.Inst, d *ir.InstData) {
	b := d.RawBlock
	if !v.checkBlockRef(inst, b) {
		return
	}
	if d.Imm < 0 {
		v.instErr(inst, "exception handler index %d cannot be negative", d.Imm)
		return
	}
	insts := v.f.Blocks[b].Insts
	if len(insts) == 0 || int(insts[len(insts)-1]) >= len(v.f.Insts) {
		v.instErr(inst, "referenced block %s does not have a terminator", b)
		return
	}
	term := &v.f.Insts[insts[len(insts)-1]]
	if !rulesOf(term.Op).tryCall {
		v.instErr(inst, "referenced block %s does not end in a try_call", b)
		return
	}
	handlers := 0
	for _, h := range term.Handlers {
		if h.Kind != ir.HandlerContext {
			handlers++
		}
	}
	if d.Imm >= int64(handlers) {
		v.instErr(inst, "exception handler index %d is out-of-range", d.Imm)
	}
}
