package analysis

import (
	"cliff/lib/ir"

	"cliff/lib/internal/reuse"
)

// CFG is the control-flow graph of a function: the successors and
// predecessors of each block in the layout, reachability from the entry, a
// reverse post-order, and where each instruction sits.
type CFG struct {
	entry  ir.Block
	layout []ir.Block // f.Layout without out-of-range or repeated blocks

	// By block ID.
	inLayout []bool
	succs    [][]ir.Block // subslices of succAll, capped
	preds    [][]ir.Block // subslices of predAll
	rpoNum   []int32      // position in rpo, -1 when unreachable

	edges          int
	reachableEdges int
	rpo            []ir.Block

	// By instruction ID: the block holding the instruction and its index
	// there (NoBlock, -1 for instructions outside the layout).
	instBlock []ir.Block
	instIndex []int32

	// Backing arrays and working memory, kept for Recompute.
	succAll, predAll []ir.Block
	stamp            []ir.Block
	starts           []int
	predCount        []int32
	dfs              []dfsFrame
	post             []ir.Block
}

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
	nb := len(f.Blocks)
	c.entry = ir.NoBlock
	c.inLayout = reuse.Zeroed(c.inLayout, nb)
	c.succs = reuse.Zeroed(c.succs, nb)
	c.preds = reuse.Zeroed(c.preds, nb)
	c.rpoNum = reuse.Filled(c.rpoNum, nb, -1)
	c.instBlock = reuse.Filled(c.instBlock, len(f.Insts), ir.NoBlock)
	c.instIndex = reuse.Filled(c.instIndex, len(f.Insts), -1)
	c.layout = c.layout[:0]
	for _, b := range f.Layout {
		if int(b) < nb && !c.inLayout[b] {
			c.inLayout[b] = true
			c.layout = append(c.layout, b)
		}
	}
	if len(c.layout) > 0 {
		c.entry = c.layout[0]
	}

	// Successors, deduplicated with a per-destination stamp of the source
	// block that last added it.
	stamp := reuse.Filled(c.stamp, nb, ir.NoBlock)
	all := c.succAll[:0]
	starts := reuse.Zeroed(c.starts, len(c.layout)+1)
	predCount := reuse.Zeroed(c.predCount, nb)
	c.stamp, c.starts, c.predCount = stamp, starts, predCount
	for k, b := range c.layout {
		starts[k] = len(all)
		insts := f.Blocks[b].Insts
		for idx, inst := range insts {
			if int(inst) < len(c.instBlock) && c.instBlock[inst] == ir.NoBlock {
				c.instBlock[inst] = b
				c.instIndex[inst] = int32(idx)
			}
		}
		if len(insts) == 0 || int(insts[len(insts)-1]) >= len(f.Insts) {
			continue
		}
		forEachDest(&f.Insts[insts[len(insts)-1]], func(d ir.Block) {
			if int(d) < nb && c.inLayout[d] && stamp[d] != b {
				stamp[d] = b
				all = append(all, d)
				predCount[d]++
			}
		})
	}
	starts[len(c.layout)] = len(all)
	c.succAll = all
	c.edges = len(all)
	for k, b := range c.layout {
		c.succs[b] = all[starts[k]:starts[k+1]:starts[k+1]]
	}

	// Predecessors, in layout order of the predecessor.
	predAll := reuse.Zeroed(c.predAll, len(all))
	c.predAll = predAll
	off := 0
	for _, b := range c.layout {
		n := int(predCount[b])
		c.preds[b] = predAll[off : off : off+n]
		off += n
	}
	for _, b := range c.layout {
		for _, s := range c.succs[b] {
			c.preds[s] = append(c.preds[s], b)
		}
	}

	c.computeRPO()
	c.reachableEdges = 0
	for _, b := range c.rpo {
		c.reachableEdges += len(c.succs[b])
	}
}

// forEachDest calls fn with every block the instruction names as a branch
// destination, in Cranelift's order: Dests (jump; brif then, else; br_table
// default, entries; try_call normal return), then the exception handlers
// that name a block.
func forEachDest(inst *ir.InstData, fn func(ir.Block)) {
	for _, d := range inst.Dests {
		fn(d.Block)
	}
	for _, h := range inst.Handlers {
		if h.Kind != ir.HandlerContext {
			fn(h.Dest.Block)
		}
	}
}

// dfsFrame is a block on the stack of a depth-first search, with the
// index of the next successor (or child) to visit.
type dfsFrame struct {
	b    ir.Block
	next int
}

// computeRPO numbers the blocks reachable from the entry in reverse
// post-order of a depth-first search that visits successors in order;
// rpoNum holds -1 for every block on entry.
func (c *CFG) computeRPO() {
	c.rpo = c.rpo[:0]
	if c.entry == ir.NoBlock {
		return
	}
	// rpoNum doubles as the visited mark during the search (-2 = visited).
	post := c.post[:0]
	stack := append(c.dfs[:0], dfsFrame{c.entry, 0})
	c.rpoNum[c.entry] = -2
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if succs := c.succs[top.b]; top.next < len(succs) {
			s := succs[top.next]
			top.next++
			if c.rpoNum[s] == -1 {
				c.rpoNum[s] = -2
				stack = append(stack, dfsFrame{s, 0})
			}
			continue
		}
		post = append(post, top.b)
		stack = stack[:len(stack)-1]
	}
	c.post, c.dfs = post, stack
	c.rpo = reuse.Zeroed(c.rpo, len(post))
	for i, b := range post {
		k := len(post) - 1 - i
		c.rpo[k] = b
		c.rpoNum[b] = int32(k)
	}
}

// Entry returns the entry block, or NoBlock when the layout is empty.
func (c *CFG) Entry() ir.Block { return c.entry }

// Layout returns the blocks of the layout in order, each once.
func (c *CFG) Layout() []ir.Block { return c.layout }

// InLayout reports whether b is in the layout.
func (c *CFG) InLayout(b ir.Block) bool { return int(b) < len(c.inLayout) && c.inLayout[b] }

// Succs returns the successors of b, deduplicated, in the order the last
// instruction names them. The slice belongs to the CFG.
func (c *CFG) Succs(b ir.Block) []ir.Block {
	if int(b) < len(c.succs) {
		return c.succs[b]
	}
	return nil
}

// Preds returns the predecessors of b, deduplicated, in layout order. The
// slice belongs to the CFG.
func (c *CFG) Preds(b ir.Block) []ir.Block {
	if int(b) < len(c.preds) {
		return c.preds[b]
	}
	return nil
}

// Edges returns the number of distinct edges between blocks of the layout,
// reachable or not.
func (c *CFG) Edges() int { return c.edges }

// ReachableEdges returns the number of distinct edges leaving reachable
// blocks (their targets are reachable too): the E of cyclomatic complexity.
func (c *CFG) ReachableEdges() int { return c.reachableEdges }

// Reachable reports whether b can be reached from the entry.
func (c *CFG) Reachable(b ir.Block) bool { return int(b) < len(c.rpoNum) && c.rpoNum[b] >= 0 }

// RPO returns the reachable blocks in reverse post-order: the entry first,
// and every block before its successors except along retreating edges. The
// slice belongs to the CFG.
func (c *CFG) RPO() []ir.Block { return c.rpo }

// RPONumber returns b's index in RPO, or -1 when b is unreachable.
func (c *CFG) RPONumber(b ir.Block) int {
	if int(b) < len(c.rpoNum) {
		return int(c.rpoNum[b])
	}
	return -1
}

// InstBlock returns the layout block holding inst, or NoBlock. An
// instruction listed in two blocks belongs to the first in layout order.
func (c *CFG) InstBlock(inst ir.Inst) ir.Block {
	if int(inst) < len(c.instBlock) {
		return c.instBlock[inst]
	}
	return ir.NoBlock
}

// placedAt reports whether the layout puts inst at index idx of block b:
// false for a second listing of an instruction and for IDs out of range.
func (c *CFG) placedAt(inst ir.Inst, b ir.Block, idx int) bool {
	return int(inst) < len(c.instBlock) && c.instBlock[inst] == b && c.instIndex[inst] == int32(idx)
}

// InstIndex returns inst's index within InstBlock(inst), or -1.
func (c *CFG) InstIndex(inst ir.Inst) int {
	if int(inst) < len(c.instIndex) {
		return int(c.instIndex[inst])
	}
	return -1
}
