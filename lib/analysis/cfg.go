package analysis

import (
	"cliff/lib/ir"

	"cliff/lib/internal/reuse"
)

// CFG is the control-flow graph of a function: the successors and
// predecessors of each block in the layout, reachability from the entry, a
// reverse post-order, and where each instruction sits.
//
// The verifier builds one for every function cliff-gen writes, and
// cliff-refine for every pass, so Recompute is written to touch each block
// and instruction as few times as it can: one record per block, one per
// instruction, edges in two flat arrays.
type CFG struct {
	entry  ir.Block
	layout []ir.Block // f.Layout without out-of-range or repeated blocks

	nodes  []blockNode // by block ID
	places []instPlace // by instruction ID

	edges          int
	reachableEdges int
	rpo            []ir.Block

	// computed counts the Recomputes, and splits holds the RPO numbers
	// of the blocks split since the last (SplitBlock), for DomTree.Update.
	computed uint64
	splits   []int32

	// Backing arrays of the spans in nodes, and working memory, kept for
	// Recompute.
	succAll, predAll []ir.Block
	rpoBuf           []ir.Block
	dfs              []dfsFrame
}

// blockNode is what the CFG knows of one block ID.
type blockNode struct {
	pos  int32 // index in the layout, -1 outside it
	rpo  int32 // index in rpo, -1 when unreachable (-2 while the search runs)
	succ span  // of succAll
	pred span  // of predAll
	// lastPred is the layout index of the last block that added this one
	// as a successor, to drop repeated destinations of one branch.
	lastPred int32
	// To 32 bytes, which the compiler indexes with a shift rather than a
	// multiplication: a few more instructions to clear, but measurably
	// less time on the chains of loads the graph walks make.
	_ int32
}

// span is the subslice [lo, hi) of a flat array.
type span struct{ lo, hi int32 }

// instPlace is where the layout puts an instruction: its block and index
// there. Both are stored plus one, so that cleared memory means "nowhere"
// (NoBlock, -1, as NoBlock is ^0): the table is cleared, rather than
// filled, for every function.
type instPlace struct {
	block1 ir.Block
	index1 int32
}

func (p instPlace) block() ir.Block { return p.block1 - 1 }
func (p instPlace) index() int32    { return p.index1 - 1 }

// NewCFG computes the control-flow graph of f. A block listed twice in the
// layout counts once, at its first place; layout entries past f.Blocks are
// ignored.
func NewCFG(f *ir.Function) *CFG {
	c := new(CFG)
	c.Recompute(f)
	return c
}

// Recompute makes c the control-flow graph of f, as NewCFG does, in the
// memory c already has: a caller that recomputes after each change of a
// function allocates once. Slices c returned before, and dominator trees
// and liveness computed from c, are stale afterwards.
func (c *CFG) Recompute(f *ir.Function) {
	// Most steps are functions of their own: the compiler keeps the loops
	// of a small function in registers, which it does not in a long one.
	c.computed++
	c.splits = c.splits[:0]
	c.readLayout(f)
	// Blocks go last to first, and so do their instructions, so that an
	// instruction listed twice has its first place written last: the
	// places need no test of what an earlier block wrote.
	places := reuse.Zeroed(c.places, len(f.Insts))
	c.places = places
	all := c.succAll[:0]
	layout, nodes, instData := c.layout, c.nodes, f.Insts
	for k := len(layout) - 1; k >= 0; k-- {
		b := layout[k]
		insts := f.Blocks[b].Insts
		placeInsts(places, insts, b)
		lo := len(all)
		if n := len(insts); n > 0 && int(insts[n-1]) < len(instData) {
			all = c.appendSuccs(all, int32(k), &instData[insts[n-1]])
		}
		nodes[b].succ = span{int32(lo), int32(len(all))}
	}
	c.succAll = all
	c.edges = len(all)
	c.fillPreds()
	c.computeRPO()
}

// readLayout sets every node afresh and numbers the blocks of the layout.
func (c *CFG) readLayout(f *ir.Function) {
	nodes := resized(c.nodes, len(f.Blocks))
	for i := range nodes {
		nodes[i] = blockNode{pos: -1, rpo: -1, lastPred: -1}
	}
	layout := c.layout[:0]
	for _, b := range f.Layout {
		if int(b) < len(nodes) && nodes[b].pos < 0 {
			nodes[b].pos = int32(len(layout))
			layout = append(layout, b)
		}
	}
	c.nodes, c.layout = nodes, layout
	c.entry = ir.NoBlock
	if len(layout) > 0 {
		c.entry = layout[0]
	}
}

// placeInsts notes that the instructions of block b are there, last to
// first. Not inlined: on its own, its loop runs in registers (inlined, it
// spilled and reloaded on every instruction).
//
//go:noinline
func placeInsts(places []instPlace, insts []ir.Inst, b ir.Block) {
	for idx := len(insts) - 1; idx >= 0; idx-- {
		if inst := insts[idx]; int(inst) < len(places) {
			places[inst] = instPlace{b + 1, int32(idx) + 1}
		}
	}
}

// appendSuccs appends to all the successors that term, the last
// instruction of the block at layout index k, branches to, in Cranelift's
// order: Dests (jump; brif then, else; br_table default, entries;
// try_call normal return), then the exception handlers that name a block.
// pred.hi counts each successor's predecessors.
func (c *CFG) appendSuccs(all []ir.Block, k int32, term *ir.InstData) []ir.Block {
	for i := range term.Dests {
		all = c.addSucc(all, k, term.Dests[i].Block)
	}
	for i := range term.Handlers {
		if h := &term.Handlers[i]; h.Kind != ir.HandlerContext {
			all = c.addSucc(all, k, h.Dest.Block)
		}
	}
	return all
}

// fillPreds lists the predecessors of each block, in layout order of the
// predecessor: each block's range starts where the previous block's ends
// (pred.hi holds the count until then) and fills up from there.
func (c *CFG) fillPreds() {
	nodes, layout, succAll := c.nodes, c.layout, c.succAll
	predAll := resized(c.predAll, len(succAll))
	c.predAll = predAll
	var off int32
	for _, b := range layout {
		n := nodes[b].pred.hi
		nodes[b].pred = span{off, off}
		off += n
	}
	for _, b := range layout {
		// Indexing, not slicing: slicing costs more than the one or two
		// edges a block has.
		for e := nodes[b].succ.lo; e < nodes[b].succ.hi; e++ {
			p := &nodes[succAll[e]].pred
			predAll[p.hi] = b
			p.hi++
		}
	}
}

// addSucc appends d to all as a successor of the block at layout index k,
// unless it is outside the layout or k named it already.
func (c *CFG) addSucc(all []ir.Block, k int32, d ir.Block) []ir.Block {
	if int(d) < len(c.nodes) {
		if n := &c.nodes[d]; n.pos >= 0 && n.lastPred != k {
			n.lastPred = k
			n.pred.hi++
			all = append(all, d)
		}
	}
	return all
}

// dfsFrame is a block on the stack of a depth-first search, with the range
// of its successors (in succAll) still to visit.
type dfsFrame struct {
	b        ir.Block
	next, hi int32
}

// computeRPO numbers the blocks reachable from the entry in reverse
// post-order of a depth-first search that visits successors in order, and
// counts the edges leaving them; every node's rpo is -1 on entry.
func (c *CFG) computeRPO() {
	c.rpo = c.rpo[:0]
	c.reachableEdges = 0
	if c.entry == ir.NoBlock {
		return
	}
	nodes, succAll := c.nodes, c.succAll
	// The post-order goes into the back of rpo, which has room for every
	// block of the layout, and c.rpo is then the filled tail.
	rpo := resized(c.rpoBuf, len(c.layout))
	c.rpoBuf = rpo
	end := len(rpo)
	first := &nodes[c.entry]
	first.rpo = -2 // visited
	stack := append(c.dfs[:0], dfsFrame{c.entry, first.succ.lo, first.succ.hi})
	edges := first.succ.hi - first.succ.lo
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < top.hi {
			s := succAll[top.next]
			top.next++
			if n := &nodes[s]; n.rpo == -1 {
				n.rpo = -2
				edges += n.succ.hi - n.succ.lo
				stack = append(stack, dfsFrame{s, n.succ.lo, n.succ.hi})
			}
			continue
		}
		end--
		rpo[end] = top.b
		stack = stack[:len(stack)-1]
	}
	c.dfs = stack
	c.rpo = rpo[end:]
	for k, b := range c.rpo {
		nodes[b].rpo = int32(k)
	}
	c.reachableEdges = int(edges)
}

// resized returns s with length n, reusing its memory when it has room,
// and its contents undefined: for tables whose every entry is written
// before it is read, which need no clearing.
func resized[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// Entry returns the entry block, or NoBlock when the layout is empty.
func (c *CFG) Entry() ir.Block { return c.entry }

// Layout returns the blocks of the layout in order, each once.
func (c *CFG) Layout() []ir.Block { return c.layout }

// InLayout reports whether b is in the layout.
func (c *CFG) InLayout(b ir.Block) bool { return int(b) < len(c.nodes) && c.nodes[b].pos >= 0 }

// Succs returns the successors of b, deduplicated, in the order the last
// instruction names them. The slice belongs to the CFG.
func (c *CFG) Succs(b ir.Block) []ir.Block {
	if int(b) < len(c.nodes) {
		return spanOf(c.succAll, c.nodes[b].succ)
	}
	return nil
}

// Preds returns the predecessors of b, deduplicated, in layout order. The
// slice belongs to the CFG.
func (c *CFG) Preds(b ir.Block) []ir.Block {
	if int(b) < len(c.nodes) {
		return spanOf(c.predAll, c.nodes[b].pred)
	}
	return nil
}

// spanOf returns s of all, capped so that appending to it cannot clobber
// the next span; nil when empty.
func spanOf(all []ir.Block, s span) []ir.Block {
	if s.lo == s.hi {
		return nil
	}
	return all[s.lo:s.hi:s.hi]
}

// Edges returns the number of distinct edges between blocks of the layout,
// reachable or not.
func (c *CFG) Edges() int { return c.edges }

// ReachableEdges returns the number of distinct edges leaving reachable
// blocks (their targets are reachable too): the E of cyclomatic complexity.
func (c *CFG) ReachableEdges() int { return c.reachableEdges }

// Reachable reports whether b can be reached from the entry.
func (c *CFG) Reachable(b ir.Block) bool { return int(b) < len(c.nodes) && c.nodes[b].rpo >= 0 }

// RPO returns the reachable blocks in reverse post-order: the entry first,
// and every block before its successors except along retreating edges. The
// slice belongs to the CFG.
func (c *CFG) RPO() []ir.Block { return c.rpo }

// RPONumber returns b's index in RPO, or -1 when b is unreachable.
func (c *CFG) RPONumber(b ir.Block) int {
	if int(b) < len(c.nodes) {
		return int(c.nodes[b].rpo)
	}
	return -1
}

// InstBlock returns the layout block holding inst, or NoBlock. An
// instruction listed in two blocks belongs to the first in layout order.
func (c *CFG) InstBlock(inst ir.Inst) ir.Block {
	if int(inst) < len(c.places) {
		return c.places[inst].block()
	}
	return ir.NoBlock
}

// PlacedAt reports whether the layout puts inst at index idx of block b:
// false for a second listing of an instruction and for IDs out of range.
// It is InstBlock(inst) == b && InstIndex(inst) == idx in one comparison,
// for the walks that ask it of every instruction.
func (c *CFG) PlacedAt(inst ir.Inst, b ir.Block, idx int) bool {
	return int(inst) < len(c.places) && c.places[inst] == instPlace{b + 1, int32(idx) + 1}
}

// InstIndex returns inst's index within InstBlock(inst), or -1.
func (c *CFG) InstIndex(inst ir.Inst) int {
	if int(inst) < len(c.places) {
		return int(c.places[inst].index())
	}
	return -1
}
