package verify

import (
	"cliff/lib/internal/reuse"
	"cliff/lib/ir"
)

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
	if int(val) < len(v.values) {
		return v.values[val].typ
	}
	return ir.Invalid
}

// valueInfo is what the checks of every instruction ask about a value,
// worked out once per function (indexValues) rather than for each
// question: the type checks want the type of every operand and result,
// often more than once, and the use checks where each operand is defined.
type valueInfo struct {
	typ ir.Type // after resolving aliases; Invalid when not defined
	// block is where the value is defined, if it is a block param or an
	// instruction result that is sound: attached to its definition, which
	// is in the layout. NoBlock for others (aliases too): checkOddUse then
	// says what is wrong with them.
	block ir.Block
	inst  ir.Inst // the defining instruction; NoInst for a block param
	index int32   // inst's index in block; -1 for a block param
}

// indexValues works out the valueInfo of every value.
func (v *verifier) indexValues() {
	vals := v.f.Values
	infos := reuse.Zeroed(v.values, len(vals))
	for k := range vals {
		val, d, info := ir.Value(k), &vals[k], &infos[k]
		info.typ, info.block, info.inst, info.index = d.Type, ir.NoBlock, ir.NoInst, -1
		switch d.Kind {
		case ir.DefNone:
			info.typ = ir.Invalid
		case ir.DefAlias:
			info.typ = ir.Invalid
			if r, ok := v.resolve(val); ok {
				info.typ = vals[r].Type
			}
		case ir.DefResult:
			if int(d.Inst) < len(v.f.Insts) && isAt(v.f.Insts[d.Inst].Results, d.Index, val) {
				info.block, info.inst, info.index = v.cfg.InstBlock(d.Inst), d.Inst, int32(v.cfg.InstIndex(d.Inst))
			}
		case ir.DefParam:
			if v.cfg.InLayout(d.Block) && isAt(v.f.Blocks[d.Block].Params, d.Index, val) {
				info.block = d.Block
			}
		}
	}
	v.values = infos
}

// isAt reports whether vals[k] is val.
func isAt(vals []ir.Value, k int, val ir.Value) bool {
	return k >= 0 && k < len(vals) && vals[k] == val
}

// user is an instruction whose uses are checked, with where it is.
type user struct {
	inst  ir.Inst
	block ir.Block
	index int32
	// checkDom: the block is reachable, so uses must be dominated.
	checkDom bool
}

// checkUses checks every value inst, at index k of block b, uses: those
// ir.InstData.ForEachUse lists, in its order (spelled out here, as calling
// a closure per use was a tenth of the verifier's time).
func (v *verifier) checkUses(inst ir.Inst, d *ir.InstData, b ir.Block, k int) {
	u := user{inst: inst, block: b, index: int32(k), checkDom: v.cfg.Reachable(b)}
	for _, a := range d.Args {
		v.checkUse(&u, a)
	}
	for k := range d.Dests {
		v.checkBlockArgUses(&u, d.Dests[k].Args)
	}
	for k := range d.Handlers {
		h := &d.Handlers[k]
		if h.Kind == ir.HandlerContext {
			v.checkUse(&u, h.Context)
			continue
		}
		v.checkBlockArgUses(&u, h.Dest.Args)
	}
}

func (v *verifier) checkBlockArgUses(u *user, args []ir.BlockArg) {
	for _, a := range args {
		if a.Kind == ir.ArgValue {
			v.checkUse(u, a.Value)
		}
	}
}

// checkUse checks that val is defined where u can see it: by a sound
// definition (see valueInfo) that dominates u. As in Cranelift, dominance
// is checked only in reachable code; unreachable code may use anything
// defined.
func (v *verifier) checkUse(u *user, val ir.Value) {
	var def *valueInfo
	if int(val) < len(v.values) && v.values[val].block != ir.NoBlock {
		def = &v.values[val]
	} else if def = v.checkOddUse(u, val); def == nil {
		return
	}
	switch {
	case !u.checkDom:
	case def.inst == u.inst:
		v.instErr(u.inst, "uses value %s from itself", val)
	case def.block == u.block:
		// Within one block text order decides; params come first.
		if def.index > u.index {
			v.instErr(u.inst, "uses value %s from non-dominating %s `%s`", val, def.inst, describeInst(v.f, def.inst))
		}
	case v.dom.Dominates(def.block, u.block):
	case def.inst == ir.NoInst:
		v.instErr(u.inst, "uses value arg from non-dominating %s (%s)", def.block, val)
	default:
		v.instErr(u.inst, "uses value %s from non-dominating %s `%s`", val, def.inst, describeInst(v.f, def.inst))
	}
}

// checkOddUse checks a use of a value that is not itself a sound result or
// param: it reports what is wrong with the value, or returns the sound
// definition of the value an alias stands for (nil for values of no kind,
// about which there is nothing to say).
func (v *verifier) checkOddUse(u *user, val ir.Value) *valueInfo {
	inst := u.inst
	r, ok := v.resolve(val)
	if !ok {
		if r == ir.NoValue && int(val) < len(v.f.Values) {
			v.instErr(inst, "value %s is an alias in a cycle", val)
		} else {
			v.instErr(inst, "invalid value reference %s", val)
		}
		return nil
	}
	if def := &v.values[r]; def.block != ir.NoBlock {
		return def
	}
	switch d := &v.f.Values[r]; d.Kind {
	case ir.DefResult:
		switch {
		case int(d.Inst) >= len(v.f.Insts):
			v.instErr(inst, "%s is defined by invalid instruction %s", val, d.Inst)
		case !isAt(v.f.Insts[d.Inst].Results, d.Index, r):
			v.instErr(inst, "argument %s is not attached: %s does not list it among its results", val, d.Inst)
		default:
			v.instErr(inst, "%s is defined by %s which has no block", val, d.Inst)
		}
	case ir.DefParam:
		if !v.cfg.InLayout(d.Block) {
			v.instErr(inst, "%s is defined by %s which is not in the layout", val, d.Block)
		} else {
			v.instErr(inst, "argument %s is not attached: %s does not list it among its params", val, d.Block)
		}
	}
	return nil
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
		case !validType(d.Type):
			v.blockErr(b, "param %s has an invalid type", p)
		}
	}
}

// checkResultDefs checks that each result of inst is defined as that
// result.
func (v *verifier) checkResultDefs(inst ir.Inst, d *ir.InstData) {
	for k, r := range d.Results {
		if int(r) >= len(v.f.Values) {
			v.instErr(inst, "invalid value reference %s", r)
			continue
		}
		def := &v.f.Values[r]
		if def.Kind != ir.DefResult || def.Inst != inst || def.Index != k {
			v.instErr(inst, "instruction result %s is not defined by the instruction", r)
		} else if !validType(def.Type) {
			v.instErr(inst, "result %s has an invalid type", r)
		}
	}
}
