package gen

import (
	"cliff/lib/ir"
	"cliff/lib/ub"
)

// A slot is a stack slot of the function being generated.
type slot struct {
	ss   ir.StackSlot
	size int
}

// slotAlign is the alignment of every slot: enough for any access cliff
// makes, so an access at an offset that is a multiple of its size is
// aligned and may say so.
const slotAlign = 16

// memAccess is a memory opcode the profile allows, with the type of the
// value it moves and the bytes it touches.
type memAccess struct {
	ot     opType
	value  ir.Type
	size   int
	atomic bool
}

// addressed reports whether op is a memory access through an address
// operand "p" with nothing but values besides: a load, store or atomic
// that cliff can place on a stack slot.
func addressed(op ir.Opcode) bool {
	info := op.Info()
	if info.Flags&(ir.FlagCanLoad|ir.FlagCanStore) == 0 || info.Format.Info().Varargs {
		return false
	}
	for _, in := range info.Ins {
		if in.Name == "p" {
			return true
		}
	}
	return false
}

// memAccesses lists the profile's memory opcodes that addressed accepts.
func memAccesses(types func(ir.Opcode) []ir.Type, ops []ir.Opcode) []memAccess {
	var out []memAccess
	for _, op := range ops {
		info := op.Info()
		if !addressed(op) {
			continue
		}
		for _, ctrl := range types(op) {
			value := ctrl
			if len(info.Outs) == 1 && info.Outs[0].Kind == ir.OperandFixed {
				value = info.Outs[0].Type
			}
			size := value.Bytes()
			if n := info.AccessBytes; n > 0 { // uload8: the table's access column
				size = n
			}
			atomic := info.Flags.Has(ir.FlagSideEffects)
			out = append(out, memAccess{ot: opType{op, ctrl}, value: value, size: size, atomic: atomic})
		}
	}
	return out
}

// declareSlots gives the function its stack slots and zero-fills them at
// entry, so that no load reads uninitialised memory.
func (fg *funcGen) declareSlots() {
	r := newRng(derive(fg.seed, tag("stack")))
	if !fg.c.sw.on["stack"] || !fg.c.tab.prof.Allows(ir.OpStore, ir.I64) {
		return
	}
	for range r.between(1, 2) {
		s := slot{size: 16 * r.between(1, 4)}
		s.ss = fg.b.DeclareStackSlot(uint32(s.size), slotAlign)
		fg.slots = append(fg.slots, s)
		ub.Scaffold(fg.b, func() ir.Inst {
			addr := fg.b.StackAddr(fg.c.tab.prof.Pointer, s.ss, 0)
			zero := fg.b.Iconst(ir.I64, 0)
			var last ir.Inst
			for off := 0; off < s.size; off += 8 {
				last = fg.b.Store(memFlags(true), zero, addr, int32(off))
			}
			return last
		})
	}
}

func memFlags(aligned bool) ir.MemFlags {
	return ir.MemFlags{NoTrap: true, Aligned: aligned, Endian: ir.EndianLittle}
}

// byteOrder draws an explicit byte order the profile allows: little,
// or big where the target lowers it (s390x). Either means the same bytes
// on every target; native would not.
func (fg *funcGen) byteOrder(r *rng) ir.Endianness {
	orders := fg.c.tab.prof.ByteOrders
	if len(orders) < 2 {
		return ir.EndianLittle
	}
	return orders[r.intn(len(orders))]
}

// memory appends a load, store or atomic access inside one of the slots.
// Every access names its byte order (byteOrder), so the bytes are the
// same on every target, and says aligned only when it is.
func (fg *funcGen) memory(r *rng) {
	cands := fg.c.memAccesses()
	if len(cands) == 0 {
		return
	}
	fg.memoryAccess(r, cands[r.intn(len(cands))])
}

// memoryAccess appends access a at a random place in a random slot and
// returns its results (nil when it appends nothing).
func (fg *funcGen) memoryAccess(r *rng, a memAccess) []ir.Value {
	res, mark := fg.access(r, a, nil)
	if len(res) == 1 && !a.atomic && r.chance(0.5) {
		fg.consume(r, scoped{pos: mark, v: res[0]})
	}
	return res
}

// access appends access a at a random place in a random slot and returns
// its results, and the scope's mark before them. values are the
// operands it stores (all but the address, in order), when the caller
// has them (a corpus store's value): one missing (NoValue) or of another
// type is drawn as for a generated access.
func (fg *funcGen) access(r *rng, a memAccess, values []ir.Value) (res []ir.Value, mark int) {
	s := fg.slots[r.intn(len(fg.slots))]
	if a.size > s.size {
		return nil, 0
	}
	off := r.intn(s.size - a.size + 1)
	if a.atomic || r.chance(0.7) {
		off -= off % a.size
	}
	aligned := off%a.size == 0 && a.size <= slotAlign
	base := off
	if !a.atomic && r.chance(0.5) {
		base = 0 // the offset in the access instead of the address
	}
	info := a.ot.op.Info()
	flags := memFlags(aligned)
	if !a.value.IsVector() {
		// Not a vector: Cranelift's interpreter, a target campaign's
		// reference, reverses a big-endian vector whole (finding 27).
		flags.Endian = fg.byteOrder(r)
	}
	d := ir.InstData{Op: a.ot.op, CtrlType: a.ot.ctrl, Flags: flags, Imm: int64(off - base),
		Args: fg.c.g.arena.valueLists.take(len(info.Ins))}
	if info.Format.Info().Imms[len(info.Format.Info().Imms)-1] != ir.ImmOffset32 {
		d.Imm = 0
	}
	k := 0 // the next of values
	for _, in := range info.Ins {
		if in.Name == "p" {
			d.Args = append(d.Args, ub.Scaffold(fg.b, func() ir.Value { return fg.b.StackAddr(fg.c.tab.prof.Pointer, s.ss, int32(base)) }))
			continue
		}
		if ub.HasFloatLanes(a.value) && !fg.canCanon(a.value) {
			return nil, 0
		}
		v := ir.NoValue
		if k < len(values) && values[k] != ir.NoValue && fg.f.Values[values[k]].Type == a.value {
			v = values[k]
		}
		k++
		if v == ir.NoValue {
			v = fg.operand(r, a.value)
		}
		// Float bits stored are read back as integers: canonical NaNs
		// only (lib/ub).
		d.Args = append(d.Args, ub.CanonNaN(fg.b, v))
	}
	if d.Op == ir.OpAtomicRmw {
		d.RmwOp = ir.AtomicRmwOp(r.intn(11))
	}
	mark = fg.sc.mark()
	return fg.define(fg.b.Append(d)), mark
}

// consume appends a computation right after a load that takes the loaded
// value as an operand, its only use so far: the shape the backends sink
// into a memory operand (x86_64's add from memory, a splat or insertlane
// of a load, s390x's and aarch64's load-and-extend), which a load whose
// value is used later, or twice, never reaches.
func (fg *funcGen) consume(r *rng, loaded scoped) {
	t := fg.f.Values[loaded.v].Type
	fg.unused = append(fg.unused, loaded) // operand takes it first
	for tries := 0; tries < 4; tries++ {
		fam := r.pickOf(fg.c.sw.weights, fg.c.sw.total)
		if fam < 0 {
			return
		}
		takers := fg.c.g.takers[:0]
		for _, ot := range fg.c.tab.takers(fam, t) {
			if fg.c.typeOK(ot.ctrl) {
				takers = append(takers, ot)
			}
		}
		fg.c.g.takers = takers
		if len(takers) > 0 {
			fg.emit(r, takers[r.intn(len(takers))], nil, nil)
			return
		}
	}
}

// takers returns the computations of family fam that take an operand of
// type t whatever else is chosen (takesType), in byFamily's order. They
// depend on the profile only: a load's consume asked takesType of every
// computation of the family each time (TestTakers).
func (tab *tables) takers(fam int, t ir.Type) []opType {
	key := takersKey{fam, t}
	if ots, ok := tab.takersOf[key]; ok {
		return ots
	}
	var ots []opType
	for _, ot := range tab.byFamily[fam] {
		if takesType(ot, t) {
			ots = append(ots, ot)
		}
	}
	tab.takersOf[key] = ots
	return ots
}

// takersKey names the computations of a family that take a type.
type takersKey struct {
	fam int
	t   ir.Type
}

// takesType reports whether an operand of ot has type t whatever else is
// chosen: the controlling type, or one the opcode derives from it (a
// splat's lane).
func takesType(ot opType, t ir.Type) bool {
	for _, in := range ot.op.Info().Ins {
		if bt, fixed := boundType(in, ot.ctrl); fixed && bt == t {
			return true
		}
	}
	return false
}

// memAccesses are the profile's memory accesses of the case's types (and
// atomics when on), computed once per case.
func (c *caseGen) memAccesses() []memAccess {
	if c.mem == nil {
		c.mem = make([]memAccess, 0, len(c.tab.mem))
		for _, a := range c.tab.mem {
			if c.typeOK(a.value) && (!a.atomic || c.sw.on["atomics"]) {
				c.mem = append(c.mem, a)
			}
		}
	}
	return c.mem
}
