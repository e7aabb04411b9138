package verify

import (
	"testing"

	"cliff/lib/ir"
)

// The rules precompute what the opcode table says; these tests hold them to
// the table itself.

// validTypeList lists every valid type.
func validTypeList() []ir.Type {
	var ts []ir.Type
	for t := range typeSpace {
		if ir.Type(t).Valid() {
			ts = append(ts, ir.Type(t))
		}
	}
	return ts
}

// TestTypeSpace: no type at or past typeSpace is valid, so the bitmaps and
// tables by type that stop there miss no type.
func TestTypeSpace(t *testing.T) {
	for x := 0; x < 1<<16; x++ {
		if ty := ir.Type(x); ty.Valid() != (x < typeSpace && validType(ty)) {
			t.Fatalf("type %#x: Valid %v, validType %v", x, ty.Valid(), validType(ty))
		}
	}
}

// TestRulesFollowTable: each opcode's rules say what its table row says:
// its flags and format, the sets its type variables take, and the
// operands its value operands and results are.
func TestRulesFollowTable(t *testing.T) {
	if r := rulesOf(ir.OpInvalid); r.info != nil {
		t.Errorf("OpInvalid has rules")
	}
	if r := rulesOf(ir.Opcode(len(ir.Opcodes()) + 1)); r.info != nil {
		t.Errorf("an opcode past the table has rules")
	}
	for _, op := range ir.Opcodes() {
		info, r := op.Info(), rulesOf(op)
		if r.info != info || r.format != op.Format() || r.flags != info.Flags {
			t.Errorf("%s: rules of another opcode", op)
			continue
		}
		var sets []*typeSet
		if r.ctrlSet != nil {
			sets = append(sets, r.ctrlSet)
			if r.ctrlSet.set != info.TypeVars[0].Set {
				t.Errorf("%s: controlling set %s, table says %s", op, r.ctrlSet.set, info.TypeVars[0].Set)
			}
		}
		for _, rules := range [][]typeRule{r.ins, r.outs} {
			for _, tr := range rules {
				if tr.set != nil {
					sets = append(sets, tr.set)
				}
				if tr.kind == fixedRule && !tr.want.Valid() {
					// admits compares with want alone, which is right
					// only for a type.
					t.Errorf("%s: fixed operand of invalid type %s", op, tr.want)
				}
			}
		}
		for _, s := range sets {
			for x := 0; x < 1<<16; x++ {
				if ty := ir.Type(x); s.contains(ty) != s.set.Contains(ty) {
					t.Fatalf("%s: set %s: contains(%s) = %v", op, s.set, ty, s.contains(ty))
				}
			}
		}
		if want := min(r.format.Values, len(info.Ins)); len(r.ins) > want {
			t.Errorf("%s: %d operand rules for %d operands", op, len(r.ins), want)
		}
		if len(r.outs) != len(info.Outs) || r.fixedOuts+r.sigOuts != len(info.Outs) {
			t.Errorf("%s: %d result rules (%d fixed, %d by signature) for %d results",
				op, len(r.outs), r.fixedOuts, r.sigOuts, len(info.Outs))
		}
	}
}

// tableConstraint reads the constraint on operand o of an opcode for
// controlling type ctrl straight from the table, as Cranelift's operand
// constraints do: fixed types, free type variables, and types derived from
// the controlling type (unknown when that is invalid).
func tableConstraint(info *ir.OpcodeInfo, o *ir.Operand, ctrl ir.Type, ctrlOK bool) (c constraint, set *ir.TypeSet) {
	switch o.Kind {
	case ir.OperandFixed:
		return constraint{want: o.Type, known: true}, nil
	case ir.OperandTypeVar:
		if o.TypeVar < 0 || o.TypeVar >= len(info.TypeVars) {
			return constraint{}, nil
		}
		if o.TypeVar != 0 || !info.Polymorphic {
			return constraint{known: true}, &info.TypeVars[o.TypeVar].Set
		}
		if !ctrlOK {
			return constraint{}, nil
		}
		if o.Derive == ir.DeriveNarrower || o.Derive == ir.DeriveWider {
			return constraint{derive: o.Derive, known: true}, nil
		}
		if t := o.Derive.Apply(ctrl); t != ir.Invalid {
			return constraint{want: t, known: true}, nil
		}
	}
	return constraint{}, nil
}

// TestAdmits: for every operand and result of every opcode and every
// controlling type, a rule gives the constraint the table does, admits
// answers as that constraint does, and surelyAdmits admits nothing admits
// does not.
func TestAdmits(t *testing.T) {
	types := validTypeList()
	ctrls := append([]ir.Type{ir.Invalid}, types...)
	for _, op := range ir.Opcodes() {
		info, r := op.Info(), rulesOf(op)
		for _, side := range []struct {
			rules    []typeRule
			operands []ir.Operand
		}{{r.ins, info.Ins}, {r.outs, info.Outs}} {
			for k := range side.rules {
				tr, o := &side.rules[k], &side.operands[k]
				if tr.kind == sigRule {
					continue
				}
				for _, ctrl := range ctrls {
					for _, ctrlOK := range []bool{true, false} {
						c := tr.constraint(ctrl, ctrlOK)
						want, wantSet := tableConstraint(info, o, ctrl, ctrlOK)
						if gotSet := c.set; c.want != want.want || c.known != want.known || c.derive != want.derive ||
							(gotSet == nil) != (wantSet == nil) || gotSet != nil && gotSet.set != *wantSet {
							t.Fatalf("%s operand %s, ctrl %s (ok %v): constraint %+v, table says %+v (set %v)",
								op, o.Name, ctrl, ctrlOK, c, want, wantSet)
						}
						for _, got := range types {
							admits := tr.admits(ctrl, ctrlOK, got)
							if want := c.admits(ctrl, got); admits != want {
								t.Fatalf("%s operand %s, ctrl %s (ok %v), %s: admits %v, constraint %v",
									op, o.Name, ctrl, ctrlOK, got, admits, want)
							}
							if tr.surelyAdmits(ctrl, got) && !admits {
								t.Fatalf("%s operand %s, ctrl %s (ok %v): surelyAdmits %s, admits not",
									op, o.Name, ctrl, ctrlOK, got)
							}
						}
					}
				}
			}
		}
	}
}
