package refinterp

import (
	"fmt"

	"cliff/lib/ir"
)

// Control flow, calls and traps.

func init() {
	shapes["jump"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		fr.dest = &d.Dests[0]
		return flowJump, nil
	})
	shapes["brif"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		c, _ := fr.arg(d, 0)
		if c.IsZero() {
			fr.dest = &d.Dests[1]
		} else {
			fr.dest = &d.Dests[0]
		}
		return flowJump, nil
	})
	shapes["br_table"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		x, _ := fr.arg(d, 0)
		// Dests: the default, then the table's entries.
		if i := x.Lo; i < uint64(len(d.Dests)-1) {
			fr.dest = &d.Dests[i+1]
		} else {
			fr.dest = &d.Dests[0]
		}
		return flowJump, nil
	})
	shapes["trap"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		return 0, trap(d.Trap)
	})
	shapes["trapz"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		if c, _ := fr.arg(d, 0); c.IsZero() {
			return 0, trap(d.Trap)
		}
		return flowNext, nil
	})
	shapes["trapnz"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		if c, _ := fr.arg(d, 0); !c.IsZero() {
			return 0, trap(d.Trap)
		}
		return flowNext, nil
	})
	shapes["return"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		fr.rets = fr.args(d.Args)
		return flowReturn, nil
	})
	shapes["call"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		callee, err := t.funcRef(fr, d.Func)
		if err != nil {
			return 0, err
		}
		return fr.callAndSet(t, d, callee, d.Args)
	})
	shapes["call_indirect"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		callee, err := t.funcAt(fr, d)
		if err != nil {
			return 0, err
		}
		return fr.callAndSet(t, d, callee, d.Args[1:])
	})
	shapes["return_call"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		callee, err := t.funcRef(fr, d.Func)
		if err != nil {
			return 0, err
		}
		fr.tailFn, fr.tailArgs = callee, fr.args(d.Args)
		return flowTail, nil
	})
	shapes["return_call_indirect"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		callee, err := t.funcAt(fr, d)
		if err != nil {
			return 0, err
		}
		fr.tailFn, fr.tailArgs = callee, fr.args(d.Args[1:])
		return flowTail, nil
	})
	shapes["func_addr"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) {
		callee, err := t.funcRef(fr, d.Func)
		if err != nil {
			return 0, err
		}
		fr.set(d, 0, u64(funcBase+uint64(callee.index)*funcStep))
		return flowNext, nil
	})
	shapes["nop"] = only(func(t *thread, fr *frame, d *ir.InstData) (flow, error) { return flowNext, nil })
}

// only is the builder of a shape that takes no kernel.
func only(fn semFn) func(string) semFn {
	return func(kernel string) semFn {
		if kernel != "" {
			return nil
		}
		return fn
	}
}

// args reads the values vs into the frame's argument buffer: the slice
// is valid until the frame's next call or return.
func (fr *frame) args(vs []ir.Value) []Value {
	out := fr.argBuf[:0]
	for _, v := range vs {
		out = append(out, fr.val(v))
	}
	fr.argBuf = out
	return out
}

// callAndSet calls callee on args and sets d's results.
func (fr *frame) callAndSet(t *thread, d *ir.InstData, callee *function, args []ir.Value) (flow, error) {
	rets, err := t.call(callee, fr.args(args), fr.depth+1)
	if err != nil {
		return 0, err
	}
	if len(rets) != len(d.Results) {
		return 0, fmt.Errorf("%s returned %d values to a call expecting %d", callee.f.Name, len(rets), len(d.Results))
	}
	for i := range d.Results {
		fr.set(d, i, rets[i])
	}
	return flowNext, nil
}

// funcRef finds the module function a preamble function reference names.
func (t *thread) funcRef(fr *frame, ref ir.FuncRef) (*function, error) {
	if int(ref) < len(fr.fn.callees) && fr.fn.callees[ref] != nil {
		return fr.fn.callees[ref], nil
	}
	callee, err := t.lookupFuncRef(fr, ref)
	if err == nil && ref < 1<<16 {
		for len(fr.fn.callees) <= int(ref) {
			fr.fn.callees = append(fr.fn.callees, nil)
		}
		fr.fn.callees[ref] = callee
	}
	return callee, err
}

func (t *thread) lookupFuncRef(fr *frame, ref ir.FuncRef) (*function, error) {
	for i := range fr.fn.f.FuncRefs {
		decl := &fr.fn.f.FuncRefs[i]
		if decl.Num != ref {
			continue
		}
		callee := t.in.funcs[decl.Name]
		if callee == nil {
			callee = t.in.libcallFunction(decl.Name, t.sigOf(fr, decl.Sig))
		}
		if callee == nil {
			return nil, fmt.Errorf("%w: call to %s, which is not in the module", ErrUnsupported, decl.Name)
		}
		return callee, nil
	}
	return nil, fmt.Errorf("%s: %s is not declared", fr.fn.f.Name, ref)
}

// funcAt finds the function at the address operand 0 of d holds and
// checks that its signature is the one the call names.
func (t *thread) funcAt(fr *frame, d *ir.InstData) (*function, error) {
	a, _ := fr.arg(d, 0)
	i := (a.Lo - funcBase) / funcStep
	if a.Lo < funcBase || (a.Lo-funcBase)%funcStep != 0 || i >= uint64(len(t.in.byIdx)) || a.Hi != 0 {
		return nil, fmt.Errorf("%w: call_indirect to %#x, which is no function", ErrUndefined, a.Lo)
	}
	callee := t.in.byIdx[i]
	for _, s := range fr.fn.f.Sigs {
		if s.Num == d.Sig && !sameTypes(s.Sig, callee.f.Sig) {
			return nil, fmt.Errorf("%w: call_indirect through %s to %s, whose signature differs", ErrUndefined, d.Sig, callee.f.Name)
		}
	}
	return callee, nil
}

func sameTypes(a, b ir.Signature) bool {
	if len(a.Params) != len(b.Params) || len(a.Returns) != len(b.Returns) {
		return false
	}
	for i := range a.Params {
		if a.Params[i].Type != b.Params[i].Type {
			return false
		}
	}
	for i := range a.Returns {
		if a.Returns[i].Type != b.Returns[i].Type {
			return false
		}
	}
	return true
}

// sigOf returns the signature a preamble signature reference names.
func (t *thread) sigOf(fr *frame, ref ir.SigRef) ir.Signature {
	for _, s := range fr.fn.f.Sigs {
		if s.Num == ref {
			return s.Sig
		}
	}
	return ir.Signature{}
}
