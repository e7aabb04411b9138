package gen

import (
	"strings"

	"cliff/lib/ir"
	"cliff/lib/printer"
	"cliff/lib/profile/universe"
	"cliff/lib/record"
)

// censusConstants follows CensusIDPrefix in the ID of a census case in
// constant form (CensusConstCase): the combination is the same, the
// operands are not, so its results join no parameter form's and its rows
// are a census section of their own.
const censusConstants = "const:"

// CensusConstCase builds the constant form of one combination of the
// census universe: the instruction of CensusCase with constant operands,
// so that the mid-end folds it at the opt levels that optimise, on the
// same edge-value tuples as the parameter form's input vectors. One
// block per tuple computes the instruction on that tuple's constants;
// %main takes one i32, the tuple's index, dispatches to its block with a
// br_table and returns the results. The case's input vectors are the
// indices, so that its i-th output is the parameter form's i-th: opt
// level none (no folding), the folds and the reference must all agree.
// Immediates are the parameter form's.
//
// Memory accesses have no constant form (an address is not a constant),
// and neither do combinations CensusCase cannot show: it reports false.
func CensusConstCase(c universe.Combo, seed uint64, settings []string, pointer ir.Type) (*record.Case, *ir.Module, bool) {
	key := universe.Key(c)
	cs := derive(seed, tag("census "+key))
	paramForm, memory, ok := censusModule(c, cs, pointer)
	if !ok || memory {
		return nil, nil, false
	}
	pf := paramForm.Funcs[0]
	params := pf.Sig.Params
	if len(params) == 0 {
		return nil, nil, false // nothing to make constant
	}
	inst := censusInstruction(pf)
	vectors := censusVectors(c, params, cs)

	sig := ir.Signature{CallConv: ir.CallConvSystemV, Params: []ir.AbiParam{{Type: ir.I32}}, Returns: pf.Sig.Returns}
	f := ir.NewFunction("%main", sig)
	b := ir.NewBuilder(f)
	entry := b.CreateBlock()
	b.SwitchToBlock(entry)
	which := b.AppendBlockParam(entry, ir.I32)
	tuples := make([]ir.Block, len(vectors))
	for i := range tuples {
		tuples[i] = b.CreateBlock()
	}
	join := b.CreateBlock()
	var joined []ir.Value
	for _, r := range sig.Returns {
		joined = append(joined, b.AppendBlockParam(join, r.Type))
	}
	// Every index beyond the table is the last tuple's.
	var table []ir.BlockCall
	for _, blk := range tuples[:len(tuples)-1] {
		table = append(table, ir.NewBlockCall(blk))
	}
	b.BrTable(which, ir.NewBlockCall(tuples[len(tuples)-1]), table)
	for i, blk := range tuples {
		b.SwitchToBlock(blk)
		d := inst
		d.Results = nil
		d.Args = make([]ir.Value, len(params))
		for k, p := range params {
			d.Args[k] = constOf(b, p.Type, vectors[i][k])
		}
		b.Jump(join, b.Results(b.Append(d))...)
	}
	b.SwitchToBlock(join)
	b.Return(joined...)
	mod := &ir.Module{Funcs: []*ir.Function{f}}

	rec := &record.Case{ID: CensusIDPrefix + censusConstants + key, Seed: seed, Settings: settings}
	rec.Options.Mode = "census"
	for i := range vectors {
		rec.Inputs = append(rec.Inputs, record.InputVector{censusValue(ir.I32, []byte{byte(i), byte(i >> 8), 0, 0})})
	}
	rec.Options.Inputs = len(rec.Inputs)
	rec.Stamp()
	if err := SetCLIF(rec, mod); err != nil {
		return nil, nil, false
	}
	return rec, mod, true
}

// censusInstruction is the combination's instruction in a parameter
// form without memory: the entry block's first.
func censusInstruction(f *ir.Function) ir.InstData {
	return f.Insts[f.Blocks[f.Layout[0]].Insts[0]]
}

// constOf appends the constant of type t with the little-endian bytes le:
// an iconst (an i128 as the iconcat of its halves), a float constant of
// its width, or a vconst.
func constOf(b *ir.Builder, t ir.Type, le []byte) ir.Value {
	switch {
	case t.IsVector():
		return b.Vconst(t, append([]byte(nil), le...))
	case t == ir.I128:
		lo := b.Iconst(ir.I64, int64(leUint64(le[:8])))
		hi := b.Iconst(ir.I64, int64(leUint64(le[8:])))
		return b.Ins(ir.OpIconcat, ir.Invalid, lo, hi)
	case t.IsInt():
		return b.Iconst(t, int64(leUint64(le)))
	case t == ir.F16:
		return b.F16const(uint16(leUint64(le)))
	case t == ir.F32:
		return b.F32const(uint32(leUint64(le)))
	case t == ir.F64:
		return b.F64const(leUint64(le))
	}
	return b.F128const(append([]byte(nil), le...))
}

// CensusConstantForm reports whether a census case ID is of a constant
// form (CensusConstCase).
func CensusConstantForm(id string) bool {
	return strings.HasPrefix(id, CensusIDPrefix+censusConstants)
}

// censusValue is a value of type t as an input vector holds it.
func censusValue(t ir.Type, le []byte) record.Value {
	return record.Value{Type: typeName(t), Value: printer.DataValue(ir.DataValue{Type: t, Bytes: le})}
}
