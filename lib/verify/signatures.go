package verify

import (
	"strings"

	"cliff/lib/ir"
)

// Signatures: the function's own signature and every declared one are
// well formed; calls pass what the callee's signature takes; return and
// tail calls give what the function's signature returns.

// callConv resolves an unwritten calling convention to the default.
func (v *verifier) callConv(cc ir.CallConv) ir.CallConv {
	if cc == ir.CallConvNone {
		return v.opts.DefaultCallConv
	}
	return cc
}

// supportsTailCalls follows Cranelift's CallConv::supports_tail_calls.
func supportsTailCalls(cc ir.CallConv) bool { return cc == ir.CallConvTail }

// supportsExceptions follows Cranelift's CallConv::supports_exceptions.
func supportsExceptions(cc ir.CallConv) bool {
	switch cc {
	case ir.CallConvTail, ir.CallConvSystemV, ir.CallConvWinch, ir.CallConvPreserveAll, ir.CallConvAppleAarch64:
		return true
	}
	return false
}

// exceptionPayloadTypes follows Cranelift's
// CallConv::exception_payload_types: two pointer-sized values for the
// conventions that carry payloads.
func exceptionPayloadTypes(cc ir.CallConv, ptr ir.Type) []ir.Type {
	switch cc {
	case ir.CallConvTail, ir.CallConvSystemV, ir.CallConvPreserveAll, ir.CallConvAppleAarch64:
		return []ir.Type{ptr, ptr}
	}
	return nil
}

// calleeSig is the signature that types a call's varargs: the function
// reference's for call and return_call, the named one for indirect calls,
// the exception table's for try_call. Nil for other instructions and for
// undeclared references (reported by checkEntityRefs).
func (v *verifier) calleeSig(d *ir.InstData) *ir.Signature {
	switch d.Op.Info().Format {
	case ir.FormatCall:
		if fr := v.funcRef(d.Func); fr != nil {
			return v.sig(fr.Sig)
		}
	case ir.FormatCallIndirect, ir.FormatTryCall, ir.FormatTryCallIndirect:
		return v.sig(d.Sig)
	}
	return nil
}

// hasSignature reports the instructions checkCallSignature checks: those
// calleeSig finds a signature for, and return, which the function's own
// signature types.
func hasSignature(info *ir.OpcodeInfo) bool {
	switch info.Format {
	case ir.FormatCall, ir.FormatCallIndirect, ir.FormatTryCall, ir.FormatTryCallIndirect:
		return true
	}
	return info.Format == ir.FormatMultiAry && info.Flags.Has(ir.FlagReturn)
}

// checkSignatures checks the function's own signature, then the signature
// of each function reference and each signature declaration. A problem of
// a signature is reported once: at the first function reference using it,
// or at its declaration (an inline signature has no line of its own).
func (v *verifier) checkSignatures() {
	v.checkFuncSignature()
	if msg := signatureProblem(&v.f.Sig); msg != "" {
		v.funcErr("%s", msg)
	}
	var reported map[ir.SigRef]bool
	for k := range v.f.FuncRefs {
		fr := &v.f.FuncRefs[k]
		sig := v.sig(fr.Sig)
		if sig == nil || reported[fr.Sig] {
			continue
		}
		if msg := signatureProblem(sig); msg != "" {
			v.entityErr(fr.Num.String(), "%s", msg)
			if reported == nil {
				reported = make(map[ir.SigRef]bool)
			}
			reported[fr.Sig] = true
		}
	}
	for k := range v.f.Sigs {
		s := &v.f.Sigs[k]
		if reported[s.Num] {
			continue
		}
		if msg := signatureProblem(&s.Sig); msg != "" {
			v.entityErr(s.Num.String(), "%s", msg)
		}
	}
}

// signatureProblem is Cranelift's verify_signature: what any signature,
// the function's or a callee's, must satisfy.
func signatureProblem(sig *ir.Signature) string {
	if sig.CallConv == ir.CallConvPreserveAll && len(sig.Returns) > 0 {
		return "Signature with `preserve_all` ABI cannot have return values"
	}
	return ""
}

// checkFuncSignature checks the params and returns of the function's own
// signature, in Cranelift's words.
func (v *verifier) checkFuncSignature() {
	check := func(item string, ps []ir.AbiParam, isReturn bool) {
		for k, p := range ps {
			if !p.Type.Valid() {
				v.funcErr("%s at position %d has an invalid type", item, k)
			}
			if isReturn && strings.HasPrefix(string(p.Purpose), "sarg") {
				v.funcErr("%s at position %d can't be an struct argument", item, k)
			}
			if p.Ext != ir.ExtNone && !isScalarInt(p.Type) {
				v.funcErr("%s at position %d has invalid extension %s", item, k, extName(p.Ext))
			}
		}
	}
	check("Parameter", v.f.Sig.Params, false)
	check("Return value", v.f.Sig.Returns, true)
}

// extName spells an extension as Cranelift's Debug does.
func extName(e ir.Extension) string {
	switch e {
	case ir.ExtSext:
		return "Sext"
	case ir.ExtUext:
		return "Uext"
	}
	return "None"
}

// checkCallSignature checks the varargs of calls and returns against their
// signatures, and the rules of tail calls, patchable calls and exceptions.
func (v *verifier) checkCallSignature(inst ir.Inst, d *ir.InstData, r *opRules) {
	format := r.info.Format
	isReturn := r.flags.Has(ir.FlagReturn)
	if format == ir.FormatMultiAry && isReturn {
		v.checkReturnTypes(inst, v.argTypes(d.Args), "arguments of return must match function signature")
		return
	}
	sig := v.calleeSig(d)
	if format == ir.FormatTryCall {
		v.checkTryCallSig(inst, d)
	}
	if sig == nil {
		return
	}
	v.checkArgs(inst, d.Args[r.format.Values:], sig.Params)
	if isReturn {
		v.checkTailCall(inst, sig)
	}
	if format == ir.FormatCall {
		v.checkPatchable(inst, d, sig)
	}
	if format == ir.FormatTryCall || format == ir.FormatTryCallIndirect {
		if cc := v.callConv(sig.CallConv); !supportsExceptions(cc) {
			v.instErr(inst, "calling convention `%s` of callee does not support exceptions", cc)
		}
	}
}

// argTypes are the types of args, in the verifier's scratch memory (valid
// until the next call): every return instruction asks.
func (v *verifier) argTypes(args []ir.Value) []ir.Type {
	ts := v.typeList[:0]
	for _, a := range args {
		ts = append(ts, v.valueType(a))
	}
	v.typeList = ts
	return ts
}

// checkArgs compares a call's args with the callee's params.
func (v *verifier) checkArgs(inst ir.Inst, args []ir.Value, params []ir.AbiParam) {
	if len(args) != len(params) {
		v.instErr(inst, "mismatched argument count for `%s`: got %d, expected %d",
			describeInst(v.f, inst), len(args), len(params))
	}
	for k := range min(len(args), len(params)) {
		got := v.valueType(args[k])
		if got != ir.Invalid && got != params[k].Type {
			v.instErr(inst, "arg %d (%s) has type %s, expected %s", k, args[k], got, params[k].Type)
		}
	}
}

// checkReturnTypes compares the types an instruction returns with the
// function's returns.
func (v *verifier) checkReturnTypes(inst ir.Inst, got []ir.Type, countMsg string) {
	want := v.f.Sig.Returns
	if len(got) != len(want) {
		v.instErr(inst, "%s", countMsg)
		return
	}
	for k, t := range got {
		if t != ir.Invalid && t != want[k].Type {
			v.instErr(inst, "result %d has type %s, must match function signature of %s", k, t, abiParamString(want[k]))
		}
	}
}

// checkTailCall checks return_call and return_call_indirect: the callee
// uses the tail convention, the same as the caller, and returns what the
// caller returns.
func (v *verifier) checkTailCall(inst ir.Inst, sig *ir.Signature) {
	cc := v.callConv(sig.CallConv)
	if !supportsTailCalls(cc) {
		v.instErr(inst, "calling convention `%s` does not support tail calls", cc)
	}
	if cc != v.callConv(v.f.Sig.CallConv) {
		v.instErr(inst, "callee's calling convention must match caller")
	}
	ts := v.typeList[:0]
	for _, p := range sig.Returns {
		ts = append(ts, p.Type)
	}
	v.typeList = ts
	v.checkReturnTypes(inst, ts, "results of callee must match caller")
}

// checkPatchable checks a direct call to a patchable function reference.
func (v *verifier) checkPatchable(inst ir.Inst, d *ir.InstData, sig *ir.Signature) {
	fr := v.funcRef(d.Func)
	if fr == nil || !fr.Patchable {
		return
	}
	if d.Op.IsReturn() {
		v.instErr(inst, "patchable funcref cannot be used in a return_call")
	}
	if !fr.Colocated {
		v.instErr(inst, "patchable call to non-colocated function")
	}
	if len(sig.Returns) > 0 {
		v.instErr(inst, "patchable call cannot occur to a function with return values")
	}
}

// checkTryCallSig checks that a try_call's exception table signature is
// the callee's (compared by value, as any equal signature will do).
func (v *verifier) checkTryCallSig(inst ir.Inst, d *ir.InstData) {
	fr := v.funcRef(d.Func)
	sig := v.sig(d.Sig)
	if fr == nil || sig == nil {
		return
	}
	if want := v.sig(fr.Sig); want != nil && !v.sameSignature(sig, want) {
		v.instErr(inst, "exception table signature %s did not match function %s's signature %s", d.Sig, d.Func, fr.Sig)
	}
}

func (v *verifier) sameSignature(a, b *ir.Signature) bool {
	return v.callConv(a.CallConv) == v.callConv(b.CallConv) &&
		sameParams(a.Params, b.Params) && sameParams(a.Returns, b.Returns)
}

func sameParams(a, b []ir.AbiParam) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

// isScalarInt is Cranelift's Type::is_int: a scalar integer, not a vector.
func isScalarInt(t ir.Type) bool { return t.IsScalar() && t.IsInt() }

// abiParamString spells a param as Cranelift's AbiParam Display does:
// "i64", "i32 uext", "i64 vmctx".
func abiParamString(p ir.AbiParam) string {
	s := p.Type.String()
	if p.Ext != ir.ExtNone {
		s += " " + p.Ext.String()
	}
	if p.Purpose != "" {
		s += " " + string(p.Purpose)
	}
	return s
}
