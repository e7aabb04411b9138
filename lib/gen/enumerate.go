package gen

import (
	"fmt"

	"cliff/lib/ir"
	"cliff/lib/record"
)

// Enumerate calls emit with one minimal case per opcode and controlling
// type the profile allows (computations and memory accesses): %main takes
// the operands as params and returns the results, so the instruction is
// lowered on values the compiler cannot see. A combination whose operand
// or result types cannot cross a function boundary in the profile is
// skipped (reported by the count Enumerate returns).
func (g *Generator) Enumerate(emit func(*record.Case, *ir.Module) error) (skipped int, err error) {
	all := map[string]bool{}
	for _, n := range FeatureNames() {
		if !isCrossoverFeature(n) { // no parents to cross
			all[n] = true
		}
	}
	for _, op := range g.Opcodes() {
		if !computation(op, g.opts.CrashOnly) && !g.isMemory(op) {
			continue
		}
		types := []ir.Type{ir.Invalid}
		if op.Info().Polymorphic {
			types = g.opts.Profile.Types(op)
		}
		for _, ctrl := range types {
			g.arena.reset()
			c := &caseGen{g: g, tab: g.tab, seed: derive(g.opts.Seed, tag(op.String()+"."+ctrl.String()))}
			weights := make([]int, len(families))
			for i := range weights {
				weights[i] = 1
			}
			c.setSwarm(newSwarm(all, weights))
			c.chooseTypes()
			mod, ok := c.minimal(opType{op, ctrl})
			if !ok {
				skipped++
				continue
			}
			name := op.String()
			if ctrl != ir.Invalid {
				name += "." + ctrl.String()
			}
			opts := g.opts.Record
			opts.Mode, opts.Profile, opts.Inputs = "enumerate", g.opts.ProfileName, g.opts.Inputs
			rec := &record.Case{ID: "enum-" + name, Seed: g.opts.Seed, Options: opts,
				Settings: g.opts.Profile.Settings, Inputs: c.inputs(mod.Funcs[0])}
			rec.Stamp()
			if err := SetCLIF(rec, mod); err != nil {
				return skipped, err
			}
			if err := emit(rec, mod); err != nil {
				return skipped, err
			}
		}
	}
	return skipped, nil
}

func (g *Generator) isMemory(op ir.Opcode) bool {
	for _, a := range g.tab.mem {
		if a.ot.op == op {
			return true
		}
	}
	return false
}

// minimal builds %main around one instance of ot.
func (c *caseGen) minimal(ot opType) (*ir.Module, bool) {
	fg := &funcGen{c: c, trip: 1, seed: c.seed, sc: &scope{}}
	r := newRng(c.seed)
	info := ot.op.Info()
	var sig ir.Signature
	sig.CallConv = ir.CallConvSystemV
	var memAcc *memAccess
	for i, a := range c.tab.mem {
		if a.ot == ot {
			memAcc = &c.tab.mem[i]
		}
	}
	var argTypes []ir.Type
	if memAcc == nil {
		for k := range info.Ins {
			t := fg.operandType(&r, ot, k)
			if t == ir.Invalid || !c.tab.abi[t] {
				return nil, false
			}
			argTypes = append(argTypes, t)
		}
	} else if memAcc.value != ir.Invalid && info.Flags.Has(ir.FlagCanStore) {
		if !c.tab.abi[memAcc.value] {
			return nil, false
		}
		argTypes = append(argTypes, memAcc.value)
	}
	for _, t := range argTypes {
		sig.Params = append(sig.Params, ir.AbiParam{Type: t})
	}
	fg.f = ir.NewFunction("%main", sig)
	fg.b = ir.NewBuilder(fg.f)
	entry := fg.newBlock()
	fg.b.SwitchToBlock(entry)
	var params []ir.Value
	for _, t := range argTypes {
		v := fg.b.AppendBlockParam(entry, t)
		params = append(params, v)
		fg.sc.push(v, t)
	}
	var res []ir.Value
	if memAcc != nil {
		c.sw.on["stack"] = true
		fg.declareSlots()
		if len(fg.slots) == 0 {
			return nil, false
		}
		before := len(fg.f.Insts)
		fg.memoryAccess(&r, *memAcc)
		if len(fg.f.Insts) == before {
			return nil, false
		}
		if last := fg.f.Insts[len(fg.f.Insts)-1]; len(last.Results) > 0 {
			res = last.Results
		}
	} else {
		res = fg.emit(&r, ot, params, nil)
		if res == nil && len(info.Outs) > 0 {
			return nil, false
		}
	}
	for _, v := range res {
		t := fg.f.Values[v].Type
		if !c.tab.abi[t] {
			return nil, false
		}
		fg.f.Sig.Returns = append(fg.f.Sig.Returns, ir.AbiParam{Type: t})
	}
	fg.b.Return(res...)
	return &ir.Module{Funcs: []*ir.Function{fg.f}}, true
}

// String names an opType as CLIF writes it: "iadd.i32", "nop".
func (ot opType) String() string {
	if ot.ctrl == ir.Invalid {
		return ot.op.String()
	}
	return fmt.Sprintf("%s.%s", ot.op, ot.ctrl)
}
