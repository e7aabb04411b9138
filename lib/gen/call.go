package gen

import (
	"cliff/lib/ir"
	"cliff/lib/ub"
)

// calleeRef is a callee's func_ref and sig_ref in the function being
// generated, once declared.
type calleeRef struct {
	declared bool
	fn       ir.FuncRef
	sig      ir.SigRef
}

// ref declares callee j in the function being generated (once) and
// returns its func_ref and sig_ref.
func (fg *funcGen) ref(j int) (ir.FuncRef, ir.SigRef) {
	if fg.refs == nil {
		fg.refs = make([]calleeRef, len(fg.c.funcs))
	}
	ref := &fg.refs[j]
	if !ref.declared {
		ref.sig = fg.b.DeclareSig(fg.c.funcs[j].f.Sig)
		ref.fn = fg.b.DeclareFuncRef(fg.c.funcs[j].f.Name, ref.sig)
		// Half the references are colocated: the callee is in the same
		// object, so calls and func_addr are PC-relative (the backends'
		// RelocDistance.Near rules) instead of through an absolute address.
		r := newRng(derive(derive(fg.seed, tag("colocated")), uint64(j)))
		fg.f.FuncRefs[ref.fn].Colocated = r.chance(0.5)
		ref.declared = true
	}
	return ref.fn, ref.sig
}

// callee draws a function this one may call (a later one: the call graph
// stays acyclic) whose cost, times the enclosing loops' trips, fits the
// budget; -1 when none does.
func (fg *funcGen) callee(r *rng) int {
	n := len(fg.c.funcs)
	for tries := 0; tries < 3; tries++ {
		j := fg.idx + 1 + r.intn(n-fg.idx-1)
		if fg.cost+fg.trip*(fg.c.funcs[j].cost+1) <= maxDynamic {
			return j
		}
	}
	return -1
}

func (fg *funcGen) args(r *rng, j int) []ir.Value {
	var args []ir.Value
	for _, p := range fg.c.funcs[j].f.Sig.Params {
		args = append(args, fg.operand(r, p.Type))
	}
	return args
}

// call appends a direct call, or an indirect one through func_addr; the
// results go first in line for operands, so they get used.
func (fg *funcGen) call(r *rng) {
	indirect := fg.c.sw.on["indirect_calls"] && r.chance(0.4)
	if !indirect && !fg.c.sw.on["calls"] {
		return
	}
	j := fg.callee(r)
	if j < 0 {
		return
	}
	fr, sig := fg.ref(j)
	args := fg.args(r, j)
	var inst ir.Inst
	if indirect {
		addr := ub.Scaffold(fg.b, func() ir.Value { return fg.b.FuncAddr(fg.c.tab.prof.Pointer, fr) })
		inst = fg.b.Append(ir.InstData{Op: ir.OpCallIndirect, Sig: sig, Args: append([]ir.Value{addr}, args...)})
	} else {
		inst = fg.b.Append(ir.InstData{Op: ir.OpCall, Func: fr, Args: args})
	}
	fg.cost += fg.trip * fg.c.funcs[j].cost
	base := fg.sc.mark()
	for k, v := range fg.define(inst) {
		fg.unused = append(fg.unused, scoped{pos: base + k, v: v})
	}
}

// tailCall ends the function with a return_call (or return_call_indirect)
// to function j, which has the same returns.
func (fg *funcGen) tailCall(r *rng, j int) {
	fr, sig := fg.ref(j)
	args := fg.args(r, j)
	if fg.c.sw.on["indirect_calls"] && r.chance(0.4) {
		addr := ub.Scaffold(fg.b, func() ir.Value { return fg.b.FuncAddr(fg.c.tab.prof.Pointer, fr) })
		fg.b.Append(ir.InstData{Op: ir.OpReturnCallIndirect, Sig: sig, Args: append([]ir.Value{addr}, args...)})
		return
	}
	fg.b.Append(ir.InstData{Op: ir.OpReturnCall, Func: fr, Args: args})
}
