package refinterp

import (
	"math"

	"cliff/lib/ir"
)

// Cranelift's libcalls that compute values: a call to an external
// function of one of these names (as %CeilF32) runs the operation the
// name says, when the declared signature is the libcall's. Other external
// functions are unsupported.

type libcall struct {
	params []ir.Type
	ret    ir.Type
	run    func(args []Value) Value
}

func unaryLibcall(t ir.Type, k func(float64) float64) libcall {
	w := uint(t.Bits())
	return libcall{params: []ir.Type{t}, ret: t, run: func(a []Value) Value {
		return encodeFloat(k(decodeFloat(a[0], w)), w)
	}}
}

func fmaLibcall(t ir.Type) libcall {
	w := uint(t.Bits())
	return libcall{params: []ir.Type{t, t, t}, ret: t, run: func(a []Value) Value {
		return fma(decodeFloat(a[0], w), decodeFloat(a[1], w), decodeFloat(a[2], w), w)
	}}
}

// libcalls are the libcalls ir.Libcalls gives an operation (Op), which
// the interpreter computes.
var libcalls = func() map[string]libcall {
	kernels := map[string]func(float64) float64{
		"ceil": math.Ceil, "floor": math.Floor, "trunc": math.Trunc, "nearest": math.RoundToEven,
	}
	out := map[string]libcall{}
	for _, l := range ir.Libcalls() {
		switch {
		case l.Op == "":
		case l.Op == "fma":
			out[l.Name] = fmaLibcall(l.Type)
		case kernels[l.Op] != nil:
			out[l.Name] = unaryLibcall(l.Type, kernels[l.Op])
		default:
			panic("interp: ir.Libcalls gives " + l.Name + " the operation " + l.Op + ", which the interpreter does not have")
		}
	}
	return out
}()

// libcallFunction returns the function standing for the libcall name
// with signature sig, or nil when there is none. Each libcall has one
// function per interpreter, with an address (func_addr) like any other.
func (in *Interp) libcallFunction(name string, sig ir.Signature) *function {
	lc, ok := libcalls[name]
	if !ok || len(sig.Params) != len(lc.params) || len(sig.Returns) != 1 || sig.Returns[0].Type != lc.ret {
		return nil
	}
	for i, p := range sig.Params {
		if p.Type != lc.params[i] {
			return nil
		}
	}
	if fn := in.funcs[name]; fn != nil {
		return fn
	}
	fn := &function{f: &ir.Function{Name: name, Sig: sig}, index: len(in.byIdx), native: lc.run, ready: true}
	in.byIdx = append(in.byIdx, fn)
	in.funcs[name] = fn
	return fn
}
