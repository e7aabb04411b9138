package metrics

import (
	"math/rand/v2"

	"cliff/lib/ir"
)

// benchModule builds a module shaped like cliff-gen's output, to measure
// Of on: funcs functions, each a random nest (to depth) of the four
// structures cliff-gen substitutes (sequence, if-else, counted loop,
// br_table switch) over blocks of 2-6 integer instructions whose operands
// dominate them; each function but the last calls the next.
func benchModule(seed uint64, funcs, depth int) *ir.Module {
	r := rand.New(rand.NewPCG(seed, seed))
	sig := ir.Signature{
		Params:   []ir.AbiParam{{Type: ir.I64}, {Type: ir.I64}, {Type: ir.I64}},
		Returns:  []ir.AbiParam{{Type: ir.I64}},
		CallConv: ir.CallConvFast,
	}
	mod := &ir.Module{}
	for i := range funcs {
		f := ir.NewFunction(funcName(i), sig)
		g := &funcGen{r: r, b: ir.NewBuilder(f)}
		if i+1 < funcs {
			g.callee = g.b.DeclareFuncRef(funcName(i+1), g.b.DeclareSig(sig))
			g.hasCallee = true
		}
		entry := g.b.CreateBlock()
		g.b.SwitchToBlock(entry)
		for range sig.Params {
			g.avail = append(g.avail, g.b.AppendBlockParam(entry, ir.I64))
		}
		g.region(depth)
		g.b.Return(g.pick())
		mod.Funcs = append(mod.Funcs, f)
	}
	return mod
}

func funcName(i int) string { return "%f" + string(rune('0'+i)) }

type funcGen struct {
	r         *rand.Rand
	b         *ir.Builder
	avail     []ir.Value // i64 values dominating the current point
	callee    ir.FuncRef
	hasCallee bool
}

var benchBinaryOps = []ir.Opcode{ir.OpIadd, ir.OpIsub, ir.OpImul, ir.OpBand, ir.OpBor, ir.OpBxor, ir.OpIshl, ir.OpUshr, ir.OpRotl, ir.OpUmulhi}
var benchUnaryOps = []ir.Opcode{ir.OpPopcnt, ir.OpClz, ir.OpBnot, ir.OpIneg}

// pick returns a recent available value, as priority operand selection
// would.
func (g *funcGen) pick() ir.Value {
	n := len(g.avail)
	return g.avail[n-1-g.r.IntN(min(n, 4))]
}

// straight appends 2-6 instructions to the current block.
func (g *funcGen) straight() {
	for range 2 + g.r.IntN(5) {
		var v ir.Value
		switch k := g.r.IntN(10); {
		case k < 5:
			v = g.b.Ins(benchBinaryOps[g.r.IntN(len(benchBinaryOps))], ir.Invalid, g.pick(), g.pick())
		case k < 7:
			v = g.b.Ins(benchUnaryOps[g.r.IntN(len(benchUnaryOps))], ir.Invalid, g.pick())
		case k < 8:
			v = g.b.Iconst(ir.I64, g.r.Int64N(1000))
		case k < 9:
			c := g.b.Icmp(ir.IntCC(g.r.IntN(10)), g.pick(), g.pick())
			v = g.b.Ins(ir.OpSelect, ir.Invalid, c, g.pick(), g.pick())
		default:
			if g.hasCallee {
				v = g.b.Call(g.callee, g.pick(), g.pick(), g.pick())[0]
			} else {
				v = g.b.Ins(ir.OpUextend, ir.I64, g.b.Ins(ir.OpIreduce, ir.I32, g.pick()))
			}
		}
		g.avail = append(g.avail, v)
	}
}

// region emits a single-entry single-exit structure into the current
// block, leaving the builder in its exit block with one more value
// available.
func (g *funcGen) region(depth int) {
	g.straight()
	if depth == 0 {
		return
	}
	scope := len(g.avail)
	switch g.r.IntN(4) {
	case 0: // sequence
		g.region(depth - 1)
		g.region(depth - 1)
	case 1: // if-else
		then, els, join := g.b.CreateBlock(), g.b.CreateBlock(), g.b.CreateBlock()
		g.b.Brif(g.pick(), then, nil, els, nil)
		for _, arm := range []ir.Block{then, els} {
			g.b.SwitchToBlock(arm)
			g.region(depth - 1)
			g.b.Jump(join, g.pick())
			g.avail = g.avail[:scope]
		}
		g.b.SwitchToBlock(join)
		g.avail = append(g.avail, g.b.AppendBlockParam(join, ir.I64))
	case 2: // counted loop
		header, body, exit := g.b.CreateBlock(), g.b.CreateBlock(), g.b.CreateBlock()
		g.b.Jump(header, g.b.Ins(ir.OpBand, ir.Invalid, g.pick(), g.b.Iconst(ir.I64, 15)))
		g.b.SwitchToBlock(header)
		trip := g.b.AppendBlockParam(header, ir.I64)
		g.b.Brif(trip, body, nil, exit, nil)
		g.b.SwitchToBlock(body)
		g.avail = append(g.avail, trip)
		g.region(depth - 1)
		g.b.Jump(header, g.b.Ins(ir.OpIsub, ir.Invalid, trip, g.b.Iconst(ir.I64, 1)))
		g.avail = g.avail[:scope]
		g.b.SwitchToBlock(exit)
		g.avail = append(g.avail, trip)
	default: // switch
		join := g.b.CreateBlock()
		arms := []ir.Block{g.b.CreateBlock(), g.b.CreateBlock(), g.b.CreateBlock()}
		idx := g.b.Ins(ir.OpIreduce, ir.I32, g.pick())
		targets := []ir.BlockCall{ir.NewBlockCall(arms[1]), ir.NewBlockCall(arms[2])}
		g.b.BrTable(idx, ir.NewBlockCall(arms[0]), targets)
		for _, arm := range arms {
			g.b.SwitchToBlock(arm)
			g.region(depth - 1)
			g.b.Jump(join, g.pick())
			g.avail = g.avail[:scope]
		}
		g.b.SwitchToBlock(join)
		g.avail = append(g.avail, g.b.AppendBlockParam(join, ir.I64))
	}
}
