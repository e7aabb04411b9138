package gen

import (
	"cliff/lib/ir"
	"cliff/lib/profile/universe"
	"cliff/lib/record"
	"cliff/lib/ub"
	"encoding/binary"
	"strings"
)

// CensusIDPrefix starts the ID of every census case; the rest is the
// combination's key (universe.Key), the same on every target, so that
// cliff-diff joins one combination's results from several targets.
const CensusIDPrefix = "census-"

// censusPointer32 follows CensusIDPrefix in the ID of a census case whose
// scaffold addresses are i32 (pulley32): its CLIF differs from the same
// combination's elsewhere, so it must not join their results.
const censusPointer32 = "p32:"

// censusSlotBytes is the stack slot a census memory access works in:
// room for the widest value (i128, 128-bit vectors) at offset 0.
const censusSlotBytes = 16

// CensusCase builds the minimal case of one combination of the census
// universe (lib/profile/universe): %main takes the instruction's operands
// as params and returns its results; nothing else is in it but the
// scaffold a memory access needs (a stack slot filled from two more i64
// params, its address, and after a store the slot's bytes loaded back as
// i64 and returned).
// Nothing is guarded and no NaN made canonical: the operands are the
// inputs themselves, so a NaN's bits are the input's on every target, and
// the inputs of a partial operation are chosen in its domain
// (censusInputs). Settings and seed go into the record as given; the case
// depends on the seed and the combination only, not on the target.
//
// Addresses have the target's pointer type (i64, or i32 on pulley32).
//
// It reports false for a combination a single instruction cannot show
// (an operand that is neither a value nor an address).
func CensusCase(c universe.Combo, seed uint64, settings []string, pointer ir.Type) (*record.Case, *ir.Module, bool) {
	key := universe.Key(c)
	cs := derive(seed, tag("census "+key))
	mod, memory, ok := censusModule(c, cs, pointer)
	if !ok {
		return nil, nil, false
	}
	id := CensusIDPrefix + key
	if memory && pointer != ir.I64 {
		id = CensusIDPrefix + censusPointer32 + key
	}
	rec := &record.Case{ID: id, Seed: seed, Settings: settings}
	rec.Options.Mode = "census"
	rec.Inputs = censusInputs(c, mod.Funcs[0], cs)
	rec.Options.Inputs = len(rec.Inputs)
	rec.Stamp()
	if err := SetCLIF(rec, mod); err != nil {
		return nil, nil, false
	}
	return rec, mod, true
}

// censusModule builds %main around one instance of c.
func censusModule(c universe.Combo, seed uint64, pointer ir.Type) (*ir.Module, bool, bool) {
	info := c.Op.Info()
	types := make([]ir.Type, len(info.Ins)) // Invalid: the address
	var sig ir.Signature
	sig.CallConv = ir.CallConvSystemV
	memory := false
	for k, in := range info.Ins {
		switch {
		case in.Kind == ir.OperandFixed:
			types[k] = in.Type
		case in.Kind != ir.OperandTypeVar:
			return nil, false, false // varargs: calls, not computations
		case info.TypeVars[in.TypeVar].Name == "iAddr":
			types[k], memory = ir.Invalid, true
			continue
		case in.TypeVar == 0 && (in.Derive == ir.DeriveNarrower || in.Derive == ir.DeriveWider):
			types[k] = c.Free
		case in.TypeVar == 0:
			types[k] = in.Derive.Apply(c.Ctrl)
		default:
			types[k] = in.Derive.Apply(c.Free)
		}
		if !types[k].Valid() {
			return nil, false, false
		}
		sig.Params = append(sig.Params, ir.AbiParam{Type: types[k]})
	}
	if memory {
		// The slot's initial bytes: two i64 inputs, so that a load
		// reads values the compiler cannot see.
		sig.Params = append(sig.Params, ir.AbiParam{Type: ir.I64}, ir.AbiParam{Type: ir.I64})
	}
	f := ir.NewFunction("%main", sig)
	b := ir.NewBuilder(f)
	entry := b.CreateBlock()
	b.SwitchToBlock(entry)
	var params []ir.Value
	for _, p := range sig.Params {
		params = append(params, b.AppendBlockParam(entry, p.Type))
	}
	var addr ir.Value
	var ss ir.StackSlot
	if memory {
		ss = b.DeclareStackSlot(censusSlotBytes, slotAlign)
		addr = ub.Scaffold(b, func() ir.Value {
			a := b.StackAddr(pointer, ss, 0)
			init := params[len(params)-2:]
			for i, off := 0, 0; off < censusSlotBytes; i, off = i+1, off+8 {
				b.Store(memFlags(true), init[i], a, int32(off))
			}
			return a
		})
	}
	d := ir.InstData{Op: c.Op, CtrlType: c.Ctrl}
	next := 0
	for _, t := range types {
		if t == ir.Invalid {
			d.Args = append(d.Args, addr)
			continue
		}
		d.Args = append(d.Args, params[next])
		next++
	}
	r := newRng(derive(seed, tag("imms")))
	if !censusImmediates(&r, &d, c) {
		return nil, false, false
	}
	inst := b.Append(d)
	res := append([]ir.Value(nil), f.Insts[inst].Results...)
	if memory && info.Flags.Has(ir.FlagCanStore) {
		// What the store wrote, as the bytes of the slot.
		ub.Scaffold(b, func() ir.Value {
			a := b.StackAddr(pointer, ss, 0)
			for off := 0; off < censusSlotBytes; off += 8 {
				res = append(res, b.Load(ir.I64, memFlags(true), a, int32(off)))
			}
			return a
		})
	}
	for _, v := range res {
		f.Sig.Returns = append(f.Sig.Returns, ir.AbiParam{Type: f.Values[v].Type})
	}
	b.Return(res...)
	return &ir.Module{Funcs: []*ir.Function{f}}, memory, true
}

// censusImmediates fills d's immediates: the combination's keyword where
// it has one, an edge value or a drawn one otherwise. It reports false for
// an immediate a census case cannot hold (a trap code, an entity).
func censusImmediates(r *rng, d *ir.InstData, c universe.Combo) bool {
	for _, k := range d.Op.Format().Imms {
		switch k {
		case ir.ImmInt64:
			d.Imm = intEdge(r, d.CtrlType.Bits())
			if bits := d.CtrlType.Bits(); bits > 0 && bits < 64 {
				d.Imm &= 1<<bits - 1
			}
		case ir.ImmUint8:
			d.Imm = int64(r.intn(max(d.CtrlType.Lanes(), 1))) // the vector's lanes
		case ir.ImmIeee16, ir.ImmIeee32, ir.ImmIeee64:
			bits := map[ir.ImmKind]int{ir.ImmIeee16: 16, ir.ImmIeee32: 32, ir.ImmIeee64: 64}[k]
			d.FloatBits = floatEdge(r, bits)
		case ir.ImmIntCC:
			cc, ok := ir.ParseIntCC(c.Imm)
			if !ok {
				return false
			}
			d.IntCC = cc
		case ir.ImmFloatCC:
			cc, ok := ir.ParseFloatCC(c.Imm)
			if !ok {
				return false
			}
			d.FloatCC = cc
		case ir.ImmAtomicRmwOp:
			op, ok := ir.ParseAtomicRmwOp(c.Imm)
			if !ok {
				return false
			}
			d.RmwOp = op
		case ir.ImmMemFlags:
			d.Flags = memFlags(true)
			if d.Op == ir.OpBitcast {
				d.Flags = ir.MemFlags{Endian: ir.EndianLittle}
			}
		case ir.ImmOffset32:
			d.Imm = 0
		case ir.ImmShuffleMask:
			d.Bytes = make([]byte, 16)
			for i := range d.Bytes {
				d.Bytes[i] = byte(r.intn(32))
			}
		case ir.ImmConstant:
			n := 16
			if d.CtrlType != ir.Invalid {
				n = d.CtrlType.Bytes()
			}
			d.Bytes = make([]byte, (n+7)/8*8)
			for i := 0; i < len(d.Bytes); i += 8 {
				binary.LittleEndian.PutUint64(d.Bytes[i:], uint64(intEdge(r, 64)))
			}
			d.Bytes = d.Bytes[:n]
		default:
			return false
		}
	}
	return true
}

// CensusKey returns the combination key of a census case ID, of either
// form (CensusConstantForm tells them apart), and whether the ID is one.
func CensusKey(id string) (string, bool) {
	if len(id) <= len(CensusIDPrefix) || id[:len(CensusIDPrefix)] != CensusIDPrefix {
		return "", false
	}
	key := strings.TrimPrefix(id[len(CensusIDPrefix):], censusConstants)
	key = strings.TrimPrefix(key, censusPointer32)
	return key, key != ""
}
