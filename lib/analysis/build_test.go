package analysis

import (
	"math/rand/v2"

	"cliff/lib/ir"
)

// Test functions are built directly as ir data. The analyses read only
// Layout, block params, instruction args, results, Dests and Handlers, so
// the opcodes need not type-check.

// fb builds a function with blocks block0..block(n-1) in layout order.
type fb struct{ f *ir.Function }

func newFB(n int) *fb {
	f := &ir.Function{Name: "%t"}
	for i := 0; i < n; i++ {
		f.Blocks = append(f.Blocks, ir.BlockData{Used: true})
		f.Layout = append(f.Layout, ir.Block(i))
	}
	return &fb{f}
}

// param adds an i32 param to block blk.
func (b *fb) param(blk int) ir.Value {
	v := ir.Value(len(b.f.Values))
	b.f.Values = append(b.f.Values, ir.ValueData{Type: ir.I32, Kind: ir.DefParam,
		Block: ir.Block(blk), Index: len(b.f.Blocks[blk].Params)})
	b.f.Blocks[blk].Params = append(b.f.Blocks[blk].Params, v)
	return v
}

// alias adds `vN -> v`.
func (b *fb) alias(v ir.Value) ir.Value {
	a := ir.Value(len(b.f.Values))
	b.f.Values = append(b.f.Values, ir.ValueData{Type: ir.I32, Kind: ir.DefAlias, AliasOf: v})
	return a
}

// add appends an instruction without results to block blk.
func (b *fb) add(blk int, data ir.InstData) ir.Inst {
	i := ir.Inst(len(b.f.Insts))
	b.f.Insts = append(b.f.Insts, data)
	b.f.Blocks[blk].Insts = append(b.f.Blocks[blk].Insts, i)
	return i
}

// op appends `vN = op args` to block blk and returns vN.
func (b *fb) op(blk int, op ir.Opcode, args ...ir.Value) ir.Value {
	i := b.add(blk, ir.InstData{Op: op, CtrlType: ir.I32, Args: args})
	v := ir.Value(len(b.f.Values))
	b.f.Values = append(b.f.Values, ir.ValueData{Type: ir.I32, Kind: ir.DefResult, Inst: i})
	b.f.Insts[i].Results = []ir.Value{v}
	return v
}

func (b *fb) iconst(blk int) ir.Value              { return b.op(blk, ir.OpIconst) }
func (b *fb) iadd(blk int, x, y ir.Value) ir.Value { return b.op(blk, ir.OpIadd, x, y) }
func (b *fb) ret(blk int, args ...ir.Value) ir.Inst {
	return b.add(blk, ir.InstData{Op: ir.OpReturn, Args: args})
}
func (b *fb) jump(blk int, to ir.BlockCall) ir.Inst {
	return b.add(blk, ir.InstData{Op: ir.OpJump, Dests: []ir.BlockCall{to}})
}
func (b *fb) brif(blk int, c ir.Value, t, e ir.BlockCall) ir.Inst {
	return b.add(blk, ir.InstData{Op: ir.OpBrif, Args: []ir.Value{c}, Dests: []ir.BlockCall{t, e}})
}
func (b *fb) brTable(blk int, idx ir.Value, def ir.BlockCall, entries ...ir.BlockCall) ir.Inst {
	return b.add(blk, ir.InstData{Op: ir.OpBrTable, Args: []ir.Value{idx}, Dests: append([]ir.BlockCall{def}, entries...)})
}
func (b *fb) tryCall(blk int, args []ir.Value, normal ir.BlockCall, handlers ...ir.ExceptionHandler) ir.Inst {
	return b.add(blk, ir.InstData{Op: ir.OpTryCall, Args: args, Dests: []ir.BlockCall{normal}, Handlers: handlers})
}

// to is a block call with value args.
func to(blk int, args ...ir.Value) ir.BlockCall {
	c := ir.BlockCall{Block: ir.Block(blk)}
	for _, a := range args {
		c.Args = append(c.Args, ir.BlockArg{Kind: ir.ArgValue, Value: a})
	}
	return c
}

func ret(n uint32) ir.BlockArg { return ir.BlockArg{Kind: ir.ArgRet, Index: n} }
func exn(n uint32) ir.BlockArg { return ir.BlockArg{Kind: ir.ArgExn, Index: n} }

// graph builds a function whose block i branches to succs[i]: return for
// none, jump for one, brif for two, br_table (default first) for more.
func graph(succs [][]int) *ir.Function {
	b := newFB(len(succs))
	for i, ss := range succs {
		switch len(ss) {
		case 0:
			b.ret(i)
		case 1:
			b.jump(i, to(ss[0]))
		case 2:
			b.brif(i, b.iconst(i), to(ss[0]), to(ss[1]))
		default:
			var entries []ir.BlockCall
			for _, s := range ss[1:] {
				entries = append(entries, to(s))
			}
			b.brTable(i, b.iconst(i), to(ss[0]), entries...)
		}
	}
	return b.f
}

// randomSuccs returns a random graph of n nodes: each node has 0 to 4
// successors anywhere (repeats allowed), so graphs are often irreducible
// and have unreachable nodes.
func randomSuccs(r *rand.Rand, n int) [][]int {
	succs := make([][]int, n)
	for i := range succs {
		k := r.IntN(5)
		if r.IntN(4) == 0 {
			k = 0
		}
		for range k {
			succs[i] = append(succs[i], r.IntN(n))
		}
	}
	return succs
}

// randomCFG returns a random graph shaped more like compiled code: mostly
// fall-through to the next block, with forward branches and some back
// edges, every block reachable unless unreachable is set.
func randomCFG(r *rand.Rand, n int) [][]int {
	succs := make([][]int, n)
	for i := 0; i < n-1; i++ {
		succs[i] = []int{i + 1}
		switch x := r.IntN(10); {
		case x < 4: // forward branch
			succs[i] = append(succs[i], i+1+r.IntN(min(n-i-1, 20)))
		case x < 6: // back edge
			succs[i] = append(succs[i], max(0, i-r.IntN(20)))
		case x < 7: // switch
			for range 3 {
				succs[i] = append(succs[i], r.IntN(n))
			}
		}
	}
	return succs
}

// randomSSA builds a function in SSA form over the graph succs: every use
// is dominated by its definition (idom gives the immediate dominator of
// each reachable block, -1 otherwise; rpo the reachable blocks in an order
// where dominators come first). Blocks have params, instructions and
// branch args at random, with aliases, try_calls passing retN and exnN, and
// handler contexts. Unreachable blocks use any values at all.
func randomSSA(r *rand.Rand, succs [][]int, idom []int, rpo []int) *ir.Function {
	n := len(succs)
	b := newFB(n)
	for i := range n {
		for range r.IntN(3) {
			b.param(i)
		}
	}
	defs := make([][]ir.Value, n) // values defined in each block so far
	for i := range n {
		defs[i] = append(defs[i], b.f.Blocks[i].Params...)
	}
	var all []ir.Value
	// pick returns a value available at the current end of block i.
	pick := func(i int) (ir.Value, bool) {
		blk := i
		if idom[i] < 0 && i != rpo[0] { // unreachable: anything
			if len(all) > 0 && r.IntN(2) == 0 {
				return all[r.IntN(len(all))], true
			}
		} else {
			for blk >= 0 && (len(defs[blk]) == 0 || r.IntN(3) == 0) {
				blk = idom[blk]
			}
		}
		if blk < 0 || len(defs[blk]) == 0 {
			return 0, false
		}
		v := defs[blk][r.IntN(len(defs[blk]))]
		if r.IntN(8) == 0 {
			v = b.alias(v)
		}
		return v, true
	}
	// call passes values available at the end of block i to block s;
	// handlers may pass retN and exnN instead.
	call := func(i, s int, exc bool) ir.BlockCall {
		c := ir.BlockCall{Block: ir.Block(s)}
		for range b.f.Blocks[s].Params {
			if v, ok := pick(i); ok && !(exc && r.IntN(2) == 0) {
				c.Args = append(c.Args, ir.BlockArg{Kind: ir.ArgValue, Value: v})
			} else if r.IntN(2) == 0 {
				c.Args = append(c.Args, ret(uint32(r.IntN(2))))
			} else {
				c.Args = append(c.Args, exn(uint32(r.IntN(2))))
			}
		}
		return c
	}
	order := append([]int(nil), rpo...)
	for i := range n {
		if idom[i] < 0 && i != rpo[0] {
			order = append(order, i)
		}
	}
	for _, i := range order {
		for range r.IntN(5) {
			var args []ir.Value
			for range r.IntN(3) {
				if v, ok := pick(i); ok {
					args = append(args, v)
				}
			}
			v := b.op(i, ir.OpIadd, args...)
			defs[i] = append(defs[i], v)
			all = append(all, v)
		}
		ss := succs[i]
		cond, ok := pick(i)
		if !ok {
			cond = b.iconst(i)
			defs[i] = append(defs[i], cond)
		}
		switch {
		case len(ss) == 0:
			var args []ir.Value
			if v, ok := pick(i); ok {
				args = append(args, v)
			}
			b.ret(i, args...)
		case len(ss) == 1:
			b.jump(i, call(i, ss[0], false))
		case r.IntN(3) == 0: // try_call: normal return, then handlers
			var hs []ir.ExceptionHandler
			for k, s := range ss[1:] {
				if r.IntN(3) == 0 {
					hs = append(hs, ir.ExceptionHandler{Kind: ir.HandlerContext, Context: cond})
				}
				kind := ir.HandlerTag
				if k == len(ss)-2 {
					kind = ir.HandlerDefault
				}
				hs = append(hs, ir.ExceptionHandler{Kind: kind, Tag: uint32(k), Dest: call(i, s, true)})
			}
			b.tryCall(i, []ir.Value{cond}, call(i, ss[0], true), hs...)
		case len(ss) == 2:
			b.brif(i, cond, call(i, ss[0], false), call(i, ss[1], false))
		default:
			var entries []ir.BlockCall
			for _, s := range ss[1:] {
				entries = append(entries, call(i, s, false))
			}
			b.brTable(i, cond, call(i, ss[0], false), entries...)
		}
	}
	return b.f
}

// domInfo returns idom and rpo as randomSSA wants them, from a DomTree.
func domInfo(d *DomTree) (idom []int, rpo []int) {
	c := d.CFG()
	idom = make([]int, len(c.nodes))
	for i := range idom {
		idom[i] = -1
		if p := d.Idom(ir.Block(i)); p != ir.NoBlock {
			idom[i] = int(p)
		}
	}
	for _, b := range c.RPO() {
		rpo = append(rpo, int(b))
	}
	return idom, rpo
}
