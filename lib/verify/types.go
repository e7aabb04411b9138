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
func (v *verifier) ctrlType(inst ir.Inst) (t ir.Type, ok bool) {
	d := &v.f.Insts[inst]
	info := d.Op.Info()
	resultIsCtrl := len(info.Outs) > 0 && info.Outs[0].Kind == ir.OperandTypeVar &&
		info.Outs[0].TypeVar == 0 && info.Outs[0].Derive == ir.DeriveNone
	switch {
	case resultIsCtrl && len(d.Results) > 0:
		t = v.valueType(d.Results[0])
	case info.CtrlOperand >= 0 && info.CtrlOperand < len(d.Args):
		t = v.valueType(d.Args[info.CtrlOperand])
	case len(d.Results) > 0:
		t = v.valueType(d.Results[0])
	default:
		t = d.CtrlType
	}
	return t, t != ir.Invalid
}

// checkTypes checks the controlling type, the results and the fixed value
// operands against the opcode table.
func (v *verifier) checkTypes(inst ir.Inst) {
	info := v.f.Insts[inst].Op.Info()
	ctrl, ctrlOK := ir.Invalid, true
	if info.Polymorphic && len(info.TypeVars) > 0 {
		ctrl, ctrlOK = v.ctrlType(inst)
		if set := info.TypeVars[0].Set; ctrlOK && !set.Contains(ctrl) {
			v.instErr(inst, "has an invalid controlling type %s (allowed set is %s)", ctrl, set)
			ctrlOK = false
		}
	}
	v.checkResultTypes(inst, ctrl, ctrlOK)
	v.checkFixedArgTypes(inst, ctrl, ctrlOK)
}

// constraint is what an operand's type must be: exactly want, or (when
// want is Invalid) a member of set or admitted by derive.
type constraint struct {
	want   ir.Type
	set    *ir.TypeSet // a free type variable
	derive ir.Derive   // DeriveNarrower or DeriveWider of the controlling type
	known  bool        // false: nothing to check
}

// resolveOperand turns a table operand into a constraint for controlling
// type ctrl. Derived types of an invalid controlling type are unknown.
func resolveOperand(info *ir.OpcodeInfo, o *ir.Operand, ctrl ir.Type, ctrlOK bool) constraint {
	switch o.Kind {
	case ir.OperandFixed:
		return constraint{want: o.Type, known: true}
	case ir.OperandTypeVar:
		if o.TypeVar < 0 || o.TypeVar >= len(info.TypeVars) {
			return constraint{}
		}
		if o.TypeVar != 0 || !info.Polymorphic {
			return constraint{set: &info.TypeVars[o.TypeVar].Set, known: true}
		}
		if !ctrlOK {
			return constraint{}
		}
		if o.Derive == ir.DeriveNarrower || o.Derive == ir.DeriveWider {
			return constraint{derive: o.Derive, known: true}
		}
		if t := o.Derive.Apply(ctrl); t != ir.Invalid {
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
		return c.set.Contains(got)
	}
	return c.derive.Admits(ctrl, got)
}

// describeSet spells the set a free or narrower/wider operand must be in.
func (c constraint) describeSet(ctrl ir.Type) string {
	if c.set != nil {
		return c.set.String()
	}
	return fmt.Sprintf("%s than %s", c.derive, ctrl)
}

// resultCount is the number of results inst must have and whether it is
// known (calls take theirs from a signature that may be undeclared).
func (v *verifier) resultCount(inst ir.Inst) (int, bool) {
	n := 0
	for _, o := range v.f.Insts[inst].Op.Info().Outs {
		if o.Kind != ir.OperandVarargs {
			n++
			continue
		}
		sig := v.calleeSig(inst)
		if sig == nil {
			return 0, false
		}
		n += len(sig.Returns)
	}
	return n, true
}

func (v *verifier) checkResultTypes(inst ir.Inst, ctrl ir.Type, ctrlOK bool) {
	d := &v.f.Insts[inst]
	info := d.Op.Info()
	if want, ok := v.resultCount(inst); ok && want != len(d.Results) {
		v.instErr(inst, "expected %d result values, found %d", want, len(d.Results))
	}
	k := 0 // index into d.Results
	for oi := range info.Outs {
		o := &info.Outs[oi]
		if o.Kind == ir.OperandVarargs {
			sig := v.calleeSig(inst)
			if sig == nil {
				return
			}
			for _, p := range sig.Returns {
				if k >= len(d.Results) {
					return
				}
				v.checkResultType(inst, k, constraint{want: p.Type, known: true}, ctrl)
				k++
			}
			continue
		}
		if k >= len(d.Results) {
			return
		}
		v.checkResultType(inst, k, resolveOperand(info, o, ctrl, ctrlOK), ctrl)
		k++
	}
}

func (v *verifier) checkResultType(inst ir.Inst, k int, c constraint, ctrl ir.Type) {
	r := v.f.Insts[inst].Results[k]
	got := v.valueType(r)
	if got == ir.Invalid || c.admits(ctrl, got) {
		return
	}
	if c.want != ir.Invalid {
		v.instErr(inst, "expected result %d (%s) to have type %s, found %s", k, r, c.want, got)
	} else {
		v.instErr(inst, "result %d (%s) with type %s failed to satisfy type set %s", k, r, got, c.describeSet(ctrl))
	}
}

func (v *verifier) checkFixedArgTypes(inst ir.Inst, ctrl ir.Type, ctrlOK bool) {
	d := &v.f.Insts[inst]
	info := d.Op.Info()
	n := min(d.Op.Format().Values, len(d.Args), len(info.Ins))
	for k := 0; k < n; k++ {
		o := &info.Ins[k]
		if o.Kind == ir.OperandVarargs {
			break
		}
		arg := d.Args[k]
		got := v.valueType(arg)
		c := resolveOperand(info, o, ctrl, ctrlOK)
		if got == ir.Invalid || c.admits(ctrl, got) {
			continue
		}
		if c.want != ir.Invalid {
			v.instErr(inst, "arg %d (%s) has type %s, expected %s", k, arg, got, c.want)
		} else {
			v.instErr(inst, "arg %d (%s) with type %s failed to satisfy type set %s", k, arg, got, c.describeSet(ctrl))
		}
	}
}

// checkOperandCount compares the value operands with the format: the fixed
// ones are all there, and more only when the format takes varargs. Later
// checks index the fixed operands, so they are skipped when it fails.
func (v *verifier) checkOperandCount(inst ir.Inst) bool {
	d := &v.f.Insts[inst]
	fi := d.Op.Format()
	n := len(d.Args)
	switch {
	case n < fi.Values:
		v.instErr(inst, "expected %d value operands, found %d", fi.Values, n)
		return false
	case n > fi.Values && !fi.Varargs:
		v.instErr(inst, "expected %d value operands, found %d", fi.Values, n)
	}
	return true
}
