package refine

import (
	"fmt"
	"math/rand/v2"

	"cliff/lib/ir"
	"cliff/lib/ub"
)

// randomModule builds a module in the shape cliff-gen makes, following the
// rules of lib/ub, for the passes to be tested on until generator-based
// tests exist: functions that call later ones (directly, through
// func_addr, or as a tail call), nested sequences, if-else diamonds,
// scaffold-counted loops and br_table switches to the given depth, over
// integer, float and vector values, with guarded divisions, canonical
// NaNs before bit reads and stores, and a zero-filled stack slot.
func randomModule(seed uint64, depth int) *ir.Module {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	nf := 1 + r.IntN(3)
	tail := r.IntN(3) == 0
	sigs := make([]ir.Signature, nf)
	rets := randomTypes(r, 1+r.IntN(2), sigTypes)
	for i := range sigs {
		sigs[i] = ir.Signature{Params: abi(randomTypes(r, 1+r.IntN(4), sigTypes)), CallConv: ir.CallConvFast}
		switch {
		case tail:
			sigs[i].CallConv = ir.CallConvTail
			sigs[i].Returns = abi(rets)
		case i > 0 && r.IntN(4) == 0:
			// a callee that returns nothing
		default:
			sigs[i].Returns = abi(randomTypes(r, 1+r.IntN(2), sigTypes))
		}
	}
	mod := &ir.Module{}
	for i := range nf {
		f := ir.NewFunction(fmt.Sprintf("%%f%d", i), sigs[i])
		if i == 0 {
			f.Name = "%main"
		}
		g := &modGen{r: r, f: f, b: ir.NewBuilder(f)}
		for j := i + 1; j < nf; j++ {
			name := fmt.Sprintf("%%f%d", j)
			sig := g.b.DeclareSig(sigs[j])
			g.callees = append(g.callees, callee{g.b.DeclareFuncRef(name, sig), sig, sigs[j]})
		}
		g.body(depth, tail)
		mod.Funcs = append(mod.Funcs, f)
	}
	return mod
}

var (
	intTypes   = []ir.Type{ir.I8, ir.I16, ir.I32, ir.I64}
	floatTypes = []ir.Type{ir.F32, ir.F64}
	sigTypes   = []ir.Type{ir.I8, ir.I16, ir.I32, ir.I64, ir.I64, ir.I32, ir.F32, ir.F64, ir.I32X4}
	bodyTypes  = []ir.Type{ir.I8, ir.I16, ir.I32, ir.I64, ir.I128, ir.F32, ir.F64, ir.I32X4, ir.F64X2}
)

func randomTypes(r *rand.Rand, n int, from []ir.Type) []ir.Type {
	out := make([]ir.Type, n)
	for i := range out {
		out[i] = from[r.IntN(len(from))]
	}
	return out
}

func abi(ts []ir.Type) []ir.AbiParam {
	out := make([]ir.AbiParam, len(ts))
	for i, t := range ts {
		out[i] = ir.AbiParam{Type: t}
	}
	return out
}

type callee struct {
	fn  ir.FuncRef
	ref ir.SigRef
	sig ir.Signature
}

type modGen struct {
	r       *rand.Rand
	f       *ir.Function
	b       *ir.Builder
	avail   []ir.Value // values dominating the current point
	addr    ir.Value   // the stack slot's address
	callees []callee
}

const slotSize = 32

func (g *modGen) body(depth int, tail bool) {
	b := g.b
	entry := b.CreateBlock()
	b.SwitchToBlock(entry)
	for _, p := range g.f.Sig.Params {
		g.avail = append(g.avail, b.AppendBlockParam(entry, p.Type))
	}
	ss := b.DeclareStackSlot(slotSize, 0)
	ub.Scaffold(b, func() ir.Value {
		g.addr = b.StackAddr(ir.I64, ss, 0)
		zero := b.Iconst(ir.I64, 0)
		for off := int32(0); off < slotSize; off += 8 {
			b.Store(ir.MemFlags{Endian: ir.EndianLittle}, zero, g.addr, off)
		}
		return zero
	})
	g.region(depth)
	if tail && len(g.callees) > 0 && g.r.IntN(2) == 0 {
		c := g.callees[g.r.IntN(len(g.callees))]
		b.Append(ir.InstData{Op: ir.OpReturnCall, Func: c.fn, Args: g.args(c.sig)})
		return
	}
	var rets []ir.Value
	for _, p := range g.f.Sig.Returns {
		rets = append(rets, g.pick(p.Type))
	}
	b.Return(rets...)
}

func (g *modGen) args(sig ir.Signature) []ir.Value {
	var out []ir.Value
	for _, p := range sig.Params {
		out = append(out, g.pick(p.Type))
	}
	return out
}

// pick returns a recent value of type t, making one when there is none.
func (g *modGen) pick(t ir.Type) ir.Value {
	var of []ir.Value
	for _, v := range g.avail {
		if g.f.Values[v].Type == t {
			of = append(of, v)
		}
	}
	if len(of) > 0 {
		return of[len(of)-1-g.r.IntN(min(len(of), 4))]
	}
	b := g.b
	var v ir.Value
	switch {
	case t.IsVector():
		v = b.Ins(ir.OpSplat, t, g.pick(t.LaneType()))
	case t == ir.F32 || t == ir.F64:
		v = b.Ins(ir.OpFcvtFromSint, t, g.pick(ir.I32))
	case t == ir.I128:
		v = b.Ins(ir.OpUextend, t, g.pick(ir.I64))
	default:
		v = b.Iconst(t, g.r.Int64N(200)-100)
	}
	g.avail = append(g.avail, v)
	return v
}

func (g *modGen) intType() ir.Type {
	if g.r.IntN(8) == 0 {
		return ir.I128
	}
	return intTypes[g.r.IntN(len(intTypes))]
}

var (
	intBinary   = []ir.Opcode{ir.OpIadd, ir.OpIsub, ir.OpImul, ir.OpBand, ir.OpBor, ir.OpBxor, ir.OpIshl, ir.OpUshr, ir.OpSshr, ir.OpRotl, ir.OpRotr, ir.OpUmin, ir.OpSmax}
	intUnary    = []ir.Opcode{ir.OpPopcnt, ir.OpClz, ir.OpCtz, ir.OpBnot, ir.OpIneg}
	floatBinary = []ir.Opcode{ir.OpFadd, ir.OpFsub, ir.OpFmul, ir.OpFdiv, ir.OpFmin, ir.OpFmax}
	vecBinary   = []ir.Opcode{ir.OpIadd, ir.OpIsub, ir.OpImul, ir.OpBxor}
)

// inst appends one instruction (or a short guarded sequence).
func (g *modGen) inst() {
	b, r := g.b, g.r
	var v ir.Value
	switch r.IntN(16) {
	case 0, 1, 2, 3, 4:
		t, ops := g.intType(), intBinary
		if t == ir.I128 {
			ops = ops[:6] // what every target lowers for i128
		}
		v = b.Ins(ops[r.IntN(len(ops))], ir.Invalid, g.pick(t), g.pick(t))
	case 5:
		t, ops := g.intType(), intUnary
		if t == ir.I128 {
			ops = ops[3:]
		}
		v = b.Ins(ops[r.IntN(len(ops))], ir.Invalid, g.pick(t))
	case 6:
		// No i128 compares: Cranelift 0.135's mid-end turns
		// select(icmp ult x y, x, y) into umin.i128, which x86_64 cannot
		// lower and aarch64 panics on, and operand selection makes that
		// pattern from any i128 compare and select.
		t := intTypes[r.IntN(len(intTypes))]
		c := b.Icmp(ir.IntCC(r.IntN(10)), g.pick(t), g.pick(t))
		g.avail = append(g.avail, c)
		u := bodyTypes[r.IntN(len(bodyTypes))]
		v = b.Ins(ir.OpSelect, ir.Invalid, c, g.pick(u), g.pick(u))
	case 7:
		from, to := intTypes[r.IntN(4)], intTypes[r.IntN(4)]
		switch {
		case from.Bits() < to.Bits():
			v = b.Ins([]ir.Opcode{ir.OpUextend, ir.OpSextend}[r.IntN(2)], to, g.pick(from))
		case from.Bits() > to.Bits():
			v = b.Ins(ir.OpIreduce, to, g.pick(from))
		default:
			return
		}
	case 8: // a division guarded against zero
		t := intTypes[r.IntN(4)]
		d := g.pick(t)
		safe := ub.Scaffold(b, func() ir.Value {
			isZero := b.Icmp(ir.IntEq, d, b.Iconst(t, 0))
			return b.Ins(ir.OpSelect, ir.Invalid, isZero, b.Iconst(t, 1), d)
		})
		v = b.Ins([]ir.Opcode{ir.OpUdiv, ir.OpUrem}[r.IntN(2)], ir.Invalid, g.pick(t), safe)
	case 9, 10:
		t := floatTypes[r.IntN(2)]
		v = b.Ins(floatBinary[r.IntN(len(floatBinary))], ir.Invalid, g.pick(t), g.pick(t))
	case 11:
		t := floatTypes[r.IntN(2)]
		switch r.IntN(3) {
		case 0:
			v = b.Ins(ir.OpFcvtFromSint, t, g.pick(intTypes[2+r.IntN(2)]))
		case 1:
			v = b.Ins(ir.OpFcvtToSintSat, intTypes[2+r.IntN(2)], g.pick(t))
		default: // read a float's bits: canonical NaN first
			x := g.pick(t)
			v = bitcast(b, ir.IntOfWidth(t.Bits()), ub.CanonNaN(b, x))
		}
	case 12:
		switch r.IntN(4) {
		case 0:
			v = b.Ins(ir.OpSplat, ir.I32X4, g.pick(ir.I32))
		case 1:
			v = extractlane(b, g.pick(ir.I32X4), r.IntN(4))
		case 2:
			v = b.Ins(ir.OpFadd, ir.Invalid, g.pick(ir.F64X2), g.pick(ir.F64X2))
		default:
			v = b.Ins(vecBinary[r.IntN(len(vecBinary))], ir.Invalid, g.pick(ir.I32X4), g.pick(ir.I32X4))
		}
	case 13: // memory: little-endian access inside the zero-filled slot
		t := intTypes[r.IntN(4)]
		if r.IntN(4) == 0 {
			t = floatTypes[r.IntN(2)]
		}
		off := int32(r.IntN(slotSize/t.Bytes())) * int32(t.Bytes())
		flags := ir.MemFlags{Endian: ir.EndianLittle}
		if r.IntN(2) == 0 {
			b.Store(flags, ub.CanonNaN(b, g.pick(t)), g.addr, off)
			return
		}
		v = b.Load(t, flags, g.addr, off)
	case 14, 15:
		if len(g.callees) == 0 {
			return
		}
		c := g.callees[r.IntN(len(g.callees))]
		var res []ir.Value
		if r.IntN(3) == 0 {
			fa := b.FuncAddr(ir.I64, c.fn)
			res = b.CallIndirect(c.ref, fa, g.args(c.sig)...)
		} else {
			res = b.Call(c.fn, g.args(c.sig)...)
		}
		g.avail = append(g.avail, res...)
		return
	}
	g.avail = append(g.avail, v)
}

func (g *modGen) straight() {
	for range 2 + g.r.IntN(4) {
		g.inst()
	}
}

// region emits a single-entry single-exit structure and leaves the
// builder in its exit block.
func (g *modGen) region(depth int) {
	g.straight()
	if depth == 0 {
		return
	}
	b, r := g.b, g.r
	mark := len(g.avail)
	switch r.IntN(4) {
	case 0:
		g.region(depth - 1)
		g.region(depth - 1)
	case 1: // if-else
		then, els, join := b.CreateBlock(), b.CreateBlock(), b.CreateBlock()
		t := intTypes[r.IntN(len(intTypes))]
		c := b.Icmp(ir.IntCC(r.IntN(10)), g.pick(t), g.pick(t))
		b.Brif(c, then, nil, els, nil)
		g.arms(mark, join, []ir.Block{then, els}, depth)
	case 2: // while loop, counted by scaffold
		header, body, exit := b.CreateBlock(), b.CreateBlock(), b.CreateBlock()
		x := g.pick(ir.I32)
		var bound ir.Value
		ub.Scaffold(b, func() ir.Inst {
			bound = b.Ins(ir.OpBand, ir.Invalid, x, b.Iconst(ir.I32, 3))
			return b.Jump(header, b.Iconst(ir.I32, 0))
		})
		b.SwitchToBlock(header)
		i := b.AppendBlockParam(header, ir.I32)
		ub.Scaffold(b, func() ir.Inst {
			return b.Brif(b.Icmp(ir.IntUlt, i, bound), body, nil, exit, nil)
		})
		b.SwitchToBlock(body)
		g.avail = append(g.avail, i)
		g.region(depth - 1)
		ub.Scaffold(b, func() ir.Inst {
			return b.Jump(header, b.Ins(ir.OpIadd, ir.Invalid, i, b.Iconst(ir.I32, 1)))
		})
		g.avail = append(g.avail[:mark], i)
		b.SwitchToBlock(exit)
	default: // switch
		join := b.CreateBlock()
		arms := make([]ir.Block, 2+r.IntN(3))
		for k := range arms {
			arms[k] = b.CreateBlock()
		}
		var targets []ir.BlockCall
		for _, a := range arms[1:] {
			targets = append(targets, ir.NewBlockCall(a))
		}
		b.BrTable(g.pick(ir.I32), ir.NewBlockCall(arms[0]), targets)
		g.arms(mark, join, arms, depth)
	}
}

// arms fills each arm with a region that jumps to join, passing values
// for join's params (0-2, random types).
func (g *modGen) arms(mark int, join ir.Block, arms []ir.Block, depth int) {
	b := g.b
	params := randomTypes(g.r, g.r.IntN(3), bodyTypes)
	for _, a := range arms {
		b.SwitchToBlock(a)
		g.region(depth - 1)
		var args []ir.Value
		for _, t := range params {
			args = append(args, g.pick(t))
		}
		b.Jump(join, args...)
		g.avail = g.avail[:mark]
	}
	b.SwitchToBlock(join)
	for _, t := range params {
		g.avail = append(g.avail, b.AppendBlockParam(join, t))
	}
}
