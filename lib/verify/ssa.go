package verify

import "cliff/lib/ir"

// SSA form: every value is defined once, as the block param or instruction
// result its ValueData says it is; every value an instruction uses is
// defined in the layout, and its definition dominates the use. As in
// Cranelift, dominance is checked only for uses in reachable blocks:
// unreachable code may use anything that is defined.

// resolve follows aliases to the value they stand for; ok is false for
// IDs out of range, unused slots and alias cycles.
func (v *verifier) resolve(val ir.Value) (ir.Value, bool) {
	r := v.f.Resolve(val)
	if int(r) >= len(v.f.Values) || v.f.Values[r].Kind == ir.DefNone {
		return r, false
	}
	return r, true
}

// valueType is the type of val after resolving aliases, Invalid when val
// is not defined.
func (v *verifier) valueType(val ir.Value) ir.Type {
	r, ok := v.resolve(val)
	if !ok {
		return ir.Invalid
	}
	return v.f.Values[r].Type
}

// checkUses checks every value inst uses.
func (v *verifier) checkUses(inst ir.Inst) {
	v.f.Insts[inst].ForEachUse(func(val ir.Value) { v.checkUse(inst, val) })
}

// checkUse checks that val is defined where inst can see it.
func (v *verifier) checkUse(inst ir.Inst, val ir.Value) {
	r, ok := v.resolve(val)
	if !ok {
		if r == ir.NoValue && int(val) < len(v.f.Values) {
			v.instErr(inst, "value %s is an alias in a cycle", val)
		} else {
			v.instErr(inst, "invalid value reference %s", val)
		}
		return
	}
	d := &v.f.Values[r]
	userBlock := v.cfg.InstBlock(inst)
	checkDom := v.cfg.Reachable(userBlock)
	switch d.Kind {
	case ir.DefResult:
		if int(d.Inst) >= len(v.f.Insts) {
			v.instErr(inst, "%s is defined by invalid instruction %s", val, d.Inst)
			return
		}
		if res := v.f.Insts[d.Inst].Results; d.Index < 0 || d.Index >= len(res) || res[d.Index] != r {
			v.instErr(inst, "argument %s is not attached: %s does not list it among its results", val, d.Inst)
			return
		}
		defBlock := v.cfg.InstBlock(d.Inst)
		if defBlock == ir.NoBlock {
			v.instErr(inst, "%s is defined by %s which has no block", val, d.Inst)
			return
		}
		if !checkDom {
			return
		}
		if d.Inst == inst {
			v.instErr(inst, "uses value %s from itself", val)
			return
		}
		if !v.dom.Dominates(defBlock, userBlock) ||
			defBlock == userBlock && v.cfg.InstIndex(d.Inst) > v.cfg.InstIndex(inst) {
			v.instErr(inst, "uses value %s from non-dominating %s `%s`", val, d.Inst, describeInst(v.f, d.Inst))
		}
	case ir.DefParam:
		if !v.cfg.InLayout(d.Block) {
			v.instErr(inst, "%s is defined by %s which is not in the layout", val, d.Block)
			return
		}
		if ps := v.f.Blocks[d.Block].Params; d.Index < 0 || d.Index >= len(ps) || ps[d.Index] != r {
			v.instErr(inst, "argument %s is not attached: %s does not list it among its params", val, d.Block)
			return
		}
		if checkDom && !v.dom.Dominates(d.Block, userBlock) {
			v.instErr(inst, "uses value arg from non-dominating %s (%s)", d.Block, val)
		}
	}
}

// checkParamDefs checks that each param of b is defined as that param, so
// that no value is defined twice.
func (v *verifier) checkParamDefs(b ir.Block) {
	for k, p := range v.f.Blocks[b].Params {
		if int(p) >= len(v.f.Values) {
			v.blockErr(b, "invalid value reference %s", p)
			continue
		}
		d := &v.f.Values[p]
		switch {
		case d.Kind == ir.DefResult:
			v.blockErr(b, "%s: expected an argument, found a result", p)
		case d.Kind != ir.DefParam:
			v.blockErr(b, "param %s is not defined as a block param", p)
		case d.Block != b || d.Index != k:
			v.blockErr(b, "%s does not belong to %s as param %d", p, b, k)
		case !d.Type.Valid():
			v.blockErr(b, "param %s has an invalid type", p)
		}
	}
}

// checkResultDefs checks that each result of inst is defined as that
// result.
func (v *verifier) checkResultDefs(inst ir.Inst) {
	for k, r := range v.f.Insts[inst].Results {
		if int(r) >= len(v.f.Values) {
			v.instErr(inst, "invalid value reference %s", r)
			continue
		}
		d := &v.f.Values[r]
		if d.Kind != ir.DefResult || d.Inst != inst || d.Index != k {
			v.instErr(inst, "instruction result %s is not defined by the instruction", r)
		} else if !d.Type.Valid() {
			v.instErr(inst, "result %s has an invalid type", r)
		}
	}
}
