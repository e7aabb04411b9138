package verify

import (
	"fmt"

	"cliff/lib/ir"
)

// Types: the controlling type is in its type variable's set, and each
// fixed operand and result satisfies its constraint in the opcode table.
// Operands and results typed by a signature (calls, return) are checked in
// signatures.go, block-call args in branches.go.

// ctrlType finds the controlling type as Cranelift does (DataFlowGraph::
// ctrl_typevar): from the first result when the table types it with the
// controlling type variable itself, else from the operand that carries the
// controlling type, else from the first result, else from the written
// `.type`. ok is false when it comes from an undefined value (reported as
// such).
func (v *verifier) ctrlType(d *ir.InstData, r *opRules) (t ir.Type, ok bool) {
	switch ctrlOperand := r.info.CtrlOperand; {
	case r.resultIsCtrl && len(d.Results) > 0:
		t = v.valueType(d.Results[0])
	case ctrlOperand >= 0 && ctrlOperand < len(d.Args):
		t = v.valueType(d.Args[ctrlOperand])
	case len(d.Results) > 0:
		t = v.valueType(d.Results[0])
	default:
		t = d.CtrlType
	}
	return t, t != ir.Invalid
}

// checkTypes checks the controlling type, then the number and types of
// the results, then the types of the fixed value operands, against the
// opcode table.
func (v *verifier) checkTypes(inst ir.Inst, d *ir.InstData, r *opRules) {
	ctrl, ctrlOK := ir.Invalid, true
	if set := r.ctrlSet; set != nil {
		ctrl, ctrlOK = v.ctrlType(d, r)
		if ctrlOK && !set.contains(ctrl) {
			v.instErr(inst, "has an invalid controlling type %s (allowed set is %s)", ctrl, set.set)
			ctrlOK = false
		}
	}
	if r.sigOuts > 0 {
		v.checkCallResultTypes(inst, d, r, ctrl, ctrlOK)
	} else {
		if len(d.Results) != r.fixedOuts {
			v.instErr(inst, "expected %d result values, found %d", r.fixedOuts, len(d.Results))
		}
		for k := range min(len(r.outs), len(d.Results)) {
			tr := &r.outs[k]
			got := v.valueType(d.Results[k])
			if got != ir.Invalid && !tr.surelyAdmits(ctrl, got) && !tr.admits(ctrl, ctrlOK, got) {
				v.resultTypeErr(inst, k, tr.constraint(ctrl, ctrlOK), ctrl, got)
			}
		}
	}
	for k := range min(len(r.ins), len(d.Args)) {
		tr := &r.ins[k]
		got := v.valueType(d.Args[k])
		if got == ir.Invalid || tr.surelyAdmits(ctrl, got) || tr.admits(ctrl, ctrlOK, got) {
			continue
		}
		arg := d.Args[k]
		if c := tr.constraint(ctrl, ctrlOK); c.want != ir.Invalid {
			v.instErr(inst, "arg %d (%s) has type %s, expected %s", k, arg, got, c.want)
		} else {
			v.instErr(inst, "arg %d (%s) with type %s failed to satisfy type set %s", k, arg, got, c.describeSet(ctrl))
		}
	}
}

// surelyAdmits reports the common cases of admits, in a form the compiler
// inlines: got is the one type the table fixes, or the type derived from
// the controlling type, or in the set of a free type variable. The type
// checks ask it first, which spares most operands and results a call.
// (got is never Invalid here, and want is Invalid but for fixedRule.)
func (tr *typeRule) surelyAdmits(ctrl, got ir.Type) bool {
	return got == tr.want ||
		tr.derived != nil && ctrl < typeSpace && got == tr.derived[ctrl] ||
		tr.set != nil && tr.set.contains(got)
}

// admits reports whether got satisfies tr for controlling type ctrl (a
// rule on an invalid controlling type admits anything). It is
// tr.constraint(ctrl, ctrlOK).admits(ctrl, got) without making the
// constraint, which only messages need.
func (tr *typeRule) admits(ctrl ir.Type, ctrlOK bool, got ir.Type) bool {
	switch tr.kind {
	case fixedRule:
		return got == tr.want
	case setRule:
		return tr.set.contains(got)
	case ctrlRule:
		switch {
		case !ctrlOK:
			return true
		case tr.derive == ir.DeriveNone:
			return got == ctrl || ctrl == ir.Invalid
		case tr.derive == ir.DeriveNarrower || tr.derive == ir.DeriveWider:
			return tr.derive.Admits(ctrl, got)
		}
		want := tr.derive.Apply(ctrl)
		return want == ir.Invalid || got == want
	}
	return true
}

// constraint is what an operand's type must be: exactly want, or (when
// want is Invalid) a member of set or admitted by derive.
type constraint struct {
	want   ir.Type
	set    *typeSet  // a free type variable
	derive ir.Derive // DeriveNarrower or DeriveWider of the controlling type
	known  bool      // false: nothing to check
}

// constraint turns a table rule into a constraint for controlling type
// ctrl. Derived types of an invalid controlling type are unknown.
func (tr *typeRule) constraint(ctrl ir.Type, ctrlOK bool) constraint {
	switch tr.kind {
	case fixedRule:
		return constraint{want: tr.want, known: true}
	case setRule:
		return constraint{set: tr.set, known: true}
	case ctrlRule:
		if !ctrlOK {
			return constraint{}
		}
		if tr.derive == ir.DeriveNarrower || tr.derive == ir.DeriveWider {
			return constraint{derive: tr.derive, known: true}
		}
		if t := tr.derive.Apply(ctrl); t != ir.Invalid {
			return constraint{want: t, known: true}
		}
	}
	return constraint{}
}

// admits reports whether got satisfies c for controlling type ctrl.
func (c constraint) admits(ctrl, got ir.Type) bool {
	switch {
	case !c.known:
		return true
	case c.want != ir.Invalid:
		return got == c.want
	case c.set != nil:
		return c.set.contains(got)
	}
	return c.derive.Admits(ctrl, got)
}

// describeSet spells the set a free or narrower/wider operand must be in.
func (c constraint) describeSet(ctrl ir.Type) string {
	if c.set != nil {
		return c.set.set.String()
	}
	return fmt.Sprintf("%s than %s", c.derive, ctrl)
}

// checkCallResultTypes checks the number and types of the results of an
// instruction some of whose results the callee's signature types (calls).
// When that signature is undeclared (reported by checkEntityRefs) they
// are unknown.
func (v *verifier) checkCallResultTypes(inst ir.Inst, d *ir.InstData, r *opRules, ctrl ir.Type, ctrlOK bool) {
	results := d.Results
	sig := v.calleeSig(d)
	if sig != nil {
		if want := r.fixedOuts + r.sigOuts*len(sig.Returns); want != len(results) {
			v.instErr(inst, "expected %d result values, found %d", want, len(results))
		}
	}
	k := 0 // index into results
	for oi := range r.outs {
		tr := &r.outs[oi]
		if tr.kind == sigRule {
			if sig == nil {
				return
			}
			for _, p := range sig.Returns {
				if k >= len(results) {
					return
				}
				c := constraint{want: p.Type, known: true}
				if got := v.valueType(results[k]); got != ir.Invalid && !c.admits(ctrl, got) {
					v.resultTypeErr(inst, k, c, ctrl, got)
				}
				k++
			}
			continue
		}
		if k >= len(results) {
			return
		}
		if got := v.valueType(results[k]); got != ir.Invalid && !tr.admits(ctrl, ctrlOK, got) {
			v.resultTypeErr(inst, k, tr.constraint(ctrl, ctrlOK), ctrl, got)
		}
		k++
	}
}

// resultTypeErr reports result k of type got, which c does not admit.
func (v *verifier) resultTypeErr(inst ir.Inst, k int, c constraint, ctrl, got ir.Type) {
	r := v.f.Insts[inst].Results[k]
	if c.want != ir.Invalid {
		v.instErr(inst, "expected result %d (%s) to have type %s, found %s", k, r, c.want, got)
	} else {
		v.instErr(inst, "result %d (%s) with type %s failed to satisfy type set %s", k, r, got, c.describeSet(ctrl))
	}
}

// checkOperandCount compares the value operands with the format: the fixed
// ones are all there, and more only when the format takes varargs. Later
// checks index the fixed operands, so they are skipped when it fails.
func (v *verifier) checkOperandCount(inst ir.Inst, d *ir.InstData, r *opRules) bool {
	if len(d.Args) == r.format.Values {
		return true // the usual case, answered inline
	}
	return v.checkOddOperandCount(inst, len(d.Args), r.format)
}

func (v *verifier) checkOddOperandCount(inst ir.Inst, n int, fi *ir.FormatInfo) bool {
	switch {
	case n < fi.Values:
		v.instErr(inst, "expected %d value operands, found %d", fi.Values, n)
		return false
	case n > fi.Values && !fi.Varargs:
		v.instErr(inst, "expected %d value operands, found %d", fi.Values, n)
	}
	return true
}
