package parser

import (
	"fmt"
	"sync/atomic"

	"cliff/lib/ir"
)

// Type inference, driven by the opcode table: the controlling type of a
// polymorphic instruction is its `.T` suffix or the type of the operand at
// OpcodeInfo.CtrlOperand; result types follow from OpcodeInfo.Outs (derived
// from the controlling type, fixed, or a callee signature's returns).

// calleeSig returns the signature whose returns are the varargs results of
// d: the declared function's for formats with a function reference, else
// the referenced signature; nil when there is none.
func (fp *funcParser) calleeSig(d *ir.InstData) *ir.Signature {
	sigRef := ir.NoSigRef
	for _, k := range d.Op.Format().Imms {
		switch k {
		case ir.ImmFuncRef:
			if i, ok := fp.funcs[d.Func]; ok {
				sigRef = fp.f.FuncRefs[i].Sig
			}
		case ir.ImmSigRef:
			sigRef = d.Sig
		}
		if sigRef != ir.NoSigRef {
			break
		}
	}
	if i, ok := fp.sigs[sigRef]; ok {
		return &fp.f.Sigs[i].Sig
	}
	return nil
}

// fixedResults holds, per opcode, its number of results, or -1 when some
// follow a callee's signature: most opcodes have a fixed number, which
// resultCount need not count.
var fixedResults = func() []int8 {
	counts := make([]int8, len(ir.Opcodes())+1)
	for op := range counts {
		for _, out := range ir.Opcode(op).Info().Outs {
			if out.Kind == ir.OperandVarargs {
				counts[op] = -1
				break
			}
			counts[op]++
		}
	}
	return counts
}()

// resultCount is the number of results d produces.
func (fp *funcParser) resultCount(d *ir.InstData) (int, error) {
	if int(d.Op) < len(fixedResults) && fixedResults[d.Op] >= 0 {
		return int(fixedResults[d.Op]), nil
	}
	n := 0
	outs := d.Op.Info().Outs
	for i := range outs {
		if outs[i].Kind != ir.OperandVarargs {
			n++
			continue
		}
		sig := fp.calleeSig(d)
		if sig == nil {
			return 0, fmt.Errorf("cannot tell the results of %s: no signature", d.Op)
		}
		n += len(sig.Returns)
	}
	return n, nil
}

// valueType returns the type of v through aliases, or Invalid when v is
// undefined or not typed yet.
func (fp *funcParser) valueType(v ir.Value) ir.Type {
	r := fp.f.Resolve(v)
	if int(r) >= len(fp.f.Values) {
		return ir.Invalid
	}
	return fp.f.Values[r].Type
}

// typeInst sets the controlling type and the result types of d. It
// returns false, and no error, when the controlling type comes from an
// operand whose type is not known yet.
func (fp *funcParser) typeInst(d *ir.InstData, explicit bool, opTok *token) (bool, error) {
	info := d.Op.Info()
	ctrl := ir.Invalid
	if info.Polymorphic {
		switch {
		case explicit:
			ctrl = d.CtrlType
		case info.CtrlOperand >= 0 && info.CtrlOperand < len(d.Args):
			if ctrl = fp.valueType(d.Args[info.CtrlOperand]); ctrl == ir.Invalid {
				return false, nil
			}
		default:
			return false, fp.errAt(*opTok, "type variable required for polymorphic opcode, e.g. '%s.%s'", d.Op, exampleType(info))
		}
		if len(info.TypeVars) > 0 && !validCtrl(d.Op, &info.TypeVars[0].Set, ctrl) {
			return false, fp.errAt(*opTok, "%s is not a valid typevar for %s", ctrl, d.Op)
		}
	}
	d.CtrlType = ctrl

	// The result types, in order; results past those given are not set.
	values, results := fp.f.Values, d.Results
	k := 0
	for i := range info.Outs {
		out := &info.Outs[i]
		var t ir.Type
		switch out.Kind {
		case ir.OperandFixed:
			t = out.Type
		case ir.OperandTypeVar:
			if out.TypeVar != 0 {
				return false, fp.errAt(*opTok, "cannot infer the type of result %s of %s: it is not derived from the controlling type", out.Name, d.Op)
			}
			if t = out.Derive.Apply(ctrl); t == ir.Invalid {
				return false, fp.errAt(*opTok, "cannot derive the type of result %s of %s from %s", out.Name, d.Op, ctrl)
			}
		case ir.OperandVarargs:
			if sig := fp.calleeSig(d); sig != nil {
				for _, r := range sig.Returns {
					if k < len(results) {
						values[results[k]].Type = r.Type
					}
					k++
				}
			}
			continue
		default:
			continue
		}
		if k < len(results) {
			values[results[k]].Type = t
		}
		k++
	}
	return true, nil
}

// ctrlTypeSets holds, per opcode, the set of its controlling type as
// ir.TypeBits, made on first use (see validCtrl).
var ctrlTypeSets = make([]atomic.Pointer[ir.TypeBits], len(ir.Opcodes())+1)

// validCtrl reports whether t is in set, the controlling type set of op,
// as set.Contains does: by a bit of the opcode's bitmap, as the parser
// checks a type per instruction and the set's own check costs more than
// the rest of typing it.
func validCtrl(op ir.Opcode, set *ir.TypeSet, t ir.Type) bool {
	if int(op) >= len(ctrlTypeSets) {
		return set.Contains(t)
	}
	m := ctrlTypeSets[op].Load()
	if m == nil {
		// Goroutines that make it at once make the same bitmap.
		bits := set.Bits()
		m = &bits
		ctrlTypeSets[op].Store(m)
	}
	return m.Has(t)
}

// exampleType names a member of the controlling type set for messages.
func exampleType(info *ir.OpcodeInfo) string {
	if len(info.TypeVars) > 0 {
		if ts := info.TypeVars[0].Set.Types(); len(ts) > 0 {
			for _, t := range ts {
				if t == ir.I32 {
					return "i32"
				}
			}
			return ts[0].String()
		}
	}
	return "T"
}

// typeDeferred types the instructions whose controlling operand was not
// typed when they were read. An operand may itself be the result of a
// deferred instruction, so instructions wait on the value their operand
// resolves to and are typed as soon as it is. The first one left untyped,
// in text order, is an error.
func (fp *funcParser) typeDeferred() error {
	if len(fp.deferred) == 0 {
		return nil
	}
	f := fp.f
	typed := make([]bool, len(fp.deferred))
	waiting := map[ir.Value][]int{} // resolved operand -> indexes into fp.deferred
	var ready []int
	for k, di := range fp.deferred {
		d := &f.Insts[di.inst]
		r := f.Resolve(d.Args[d.Op.Info().CtrlOperand])
		switch {
		case r == ir.NoValue:
			// An alias cycle: never typed.
		case fp.valueType(r) != ir.Invalid:
			ready = append(ready, k)
		default:
			waiting[r] = append(waiting[r], k)
		}
	}
	for len(ready) > 0 {
		k := ready[len(ready)-1]
		ready = ready[:len(ready)-1]
		di := fp.deferred[k]
		ok, err := fp.typeInst(&f.Insts[di.inst], false, &di.tok)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		typed[k] = true
		for _, r := range f.Insts[di.inst].Results {
			ready = append(ready, waiting[r]...)
			delete(waiting, r)
		}
	}
	for k, di := range fp.deferred {
		if typed[k] {
			continue
		}
		d := &f.Insts[di.inst]
		info := d.Op.Info()
		v := d.Args[info.CtrlOperand]
		why := "which has no known type"
		if f.Resolve(v) == ir.NoValue {
			why = "which is an alias in a cycle"
		}
		return fp.errAt(di.tok, "type variable required for polymorphic opcode, e.g. '%s.%s'; can't infer from %s %s",
			d.Op, exampleType(info), v, why)
	}
	fp.deferred = nil
	return nil
}
