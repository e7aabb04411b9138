package analysis

import (
	"slices"

	"cliff/lib/internal/reuse"
	"cliff/lib/ir"
)

// SplitBlock brings c, the CFG of f before the change, up to date after
// one change of f: reachable block a was split before its instruction at
// index at into
//
//	a:    its instructions before at, then new ones ending in a branch to
//	      tail and side, in that order
//	tail: a new block right after a in the layout, holding a's
//	      instructions from at on (its terminator among them)
//	side: a new block at the end of the layout, holding new instructions
//	      ending in a branch to tail only
//
// as lib/refine's decoy splits a block around an opaque branch. New blocks
// and instructions are numbered after those c knows. The result is what
// Recompute would give, in less time than it takes: the change touches a
// few blocks and their edges, and a's instructions from at on, where
// Recompute reads every block and instruction. It reports whether f has
// that shape; when not, c is unchanged and only Recompute makes it f's
// again. Slices c returned before are stale afterwards, and a dominator
// tree of c until its Update.
//
// Every answer of the CFG is then as it was but for those three blocks:
// tail has a's old successors, and is in their predecessor lists where a
// was (layout order holds, as tail follows a); a, tail and side each add
// an edge. In the depth-first search, a's first successor is now tail,
// whose successors are a's old ones in the same order, so the search
// below tail is the one below a before; then side, whose one successor
// is visited. The reverse post-order is the old one with side and tail
// right after a.
func (c *CFG) SplitBlock(f *ir.Function, a, tail, side ir.Block, at int) bool {
	if !c.splitShape(f, a, tail, side, at) {
		return false
	}
	oldA := c.nodes[a]
	k, pos := oldA.rpo, oldA.pos
	known := len(c.nodes)
	nodes := reuse.Extended(c.nodes, len(f.Blocks))
	for b := known; b < len(nodes); b++ {
		nodes[b] = blockNode{pos: -1, rpo: -1, lastPred: -1}
	}

	// Edges: tail takes a's successors, and is their predecessor where a
	// was; a's and side's are new spans at the ends of the arrays.
	predAll := c.predAll
	for e := oldA.succ.lo; e < oldA.succ.hi; e++ {
		p := nodes[c.succAll[e]].pred
		for i := p.lo; i < p.hi; i++ {
			if predAll[i] == a {
				predAll[i] = tail
			}
		}
	}
	s, p := int32(len(c.succAll)), int32(len(predAll))
	c.succAll = append(c.succAll, tail, side, tail) // a's, then side's
	c.predAll = append(predAll, a, side, a)         // tail's, then side's
	nodes[a].succ = span{s, s + 2}
	nodes[tail] = blockNode{succ: oldA.succ, pred: span{p, p + 2}, lastPred: -1}
	nodes[side] = blockNode{succ: span{s + 2, s + 3}, pred: span{p + 2, p + 3}, lastPred: -1}
	c.edges += 3
	c.reachableEdges += 3

	// The layout, with tail after a and side at the end.
	c.layout = slices.Insert(c.layout, int(pos)+1, tail)
	c.layout = append(c.layout, side)
	for i := int(pos) + 1; i < len(c.layout); i++ {
		nodes[c.layout[i]].pos = int32(i)
	}

	// Reverse post-order: side and tail right after a, at the end of
	// rpoBuf as computeRPO leaves it.
	n := len(c.rpo)
	if end := len(c.rpoBuf) - n; end >= 2 {
		c.rpo = c.rpoBuf[end-2:]
		copy(c.rpo, c.rpoBuf[end:end+int(k)+1])
	} else {
		// Room for further splits in front.
		buf := make([]ir.Block, 2*(n+2))
		rpo := buf[len(buf)-(n+2):]
		copy(rpo, c.rpo[:k+1])
		copy(rpo[k+3:], c.rpo[k+1:])
		c.rpoBuf, c.rpo = buf, rpo
	}
	c.rpo[k+1], c.rpo[k+2] = side, tail
	for j := int(k) + 1; j < len(c.rpo); j++ {
		nodes[c.rpo[j]].rpo = int32(j)
	}
	c.nodes = nodes
	c.splits = append(c.splits, k)

	// Places: tail's instructions, and the new ones of side and a (a's
	// last, as the first listing in layout order wins).
	c.places = reuse.Extended(c.places, len(f.Insts))
	placeInsts(c.places, f.Blocks[tail].Insts, tail)
	placeInsts(c.places, f.Blocks[side].Insts, side)
	aInsts := f.Blocks[a].Insts
	for idx := at; idx < len(aInsts); idx++ {
		c.places[aInsts[idx]] = instPlace{a + 1, int32(idx) + 1}
	}
	return true
}

// splitShape reports whether f is c's function changed as SplitBlock
// says.
func (c *CFG) splitShape(f *ir.Function, a, tail, side ir.Block, at int) bool {
	known, knownInsts := ir.Block(len(c.nodes)), ir.Inst(len(c.places))
	if int(a) >= len(c.nodes) || c.nodes[a].rpo < 0 || tail < known || side < known || tail == side ||
		int(tail) >= len(f.Blocks) || int(side) >= len(f.Blocks) {
		return false
	}
	// The layout: c's (each block once) with tail after a and side last.
	pos := int(c.nodes[a].pos)
	if len(f.Layout) != len(c.layout)+2 || f.Layout[pos+1] != tail || f.Layout[len(f.Layout)-1] != side ||
		!slices.Equal(f.Layout[:pos+1], c.layout[:pos+1]) || !slices.Equal(f.Layout[pos+2:len(f.Layout)-1], c.layout[pos+1:]) {
		return false
	}
	// tail: a's instructions from at on; a and side: new ones after at.
	aInsts, tailInsts, sideInsts := f.Blocks[a].Insts, f.Blocks[tail].Insts, f.Blocks[side].Insts
	if len(aInsts) <= at || len(tailInsts) == 0 || len(sideInsts) == 0 {
		return false
	}
	for idx, inst := range tailInsts {
		if int(inst) >= len(c.places) || c.places[inst] != (instPlace{a + 1, int32(at+idx) + 1}) {
			return false
		}
	}
	for _, inst := range aInsts[at:] {
		if inst < knownInsts || int(inst) >= len(f.Insts) {
			return false
		}
	}
	for _, inst := range sideInsts {
		if inst < knownInsts || int(inst) >= len(f.Insts) {
			return false
		}
	}
	// The branches: a's to tail and side, side's to tail, and tail's to
	// a's old successors.
	return branchesTo(&f.Insts[aInsts[len(aInsts)-1]], tail, side) &&
		branchesTo(&f.Insts[sideInsts[len(sideInsts)-1]], tail) &&
		c.branchesToSuccs(&f.Insts[tailInsts[len(tailInsts)-1]], a, tail, side)
}

// branchesTo reports whether term's block calls go to dests, in order, and
// it has no exception handlers.
func branchesTo(term *ir.InstData, dests ...ir.Block) bool {
	if len(term.Dests) != len(dests) || len(term.Handlers) > 0 {
		return false
	}
	for i := range dests {
		if term.Dests[i].Block != dests[i] {
			return false
		}
	}
	return true
}

// branchesToSuccs reports whether term goes to the successors c lists for
// b, in order: each block it names is the next one of them or one named
// before (appendSuccs drops repeats), or outside the layout but for the
// blocks new, and it names them all.
func (c *CFG) branchesToSuccs(term *ir.InstData, b ir.Block, new ...ir.Block) bool {
	succs := c.Succs(b)
	n := 0
	check := func(d ir.Block) bool {
		switch {
		case slices.Contains(new, d):
			return false
		case !c.InLayout(d) || slices.Contains(succs[:n], d):
			return true // not an edge, or a repeat
		case n < len(succs) && succs[n] == d:
			n++
			return true
		}
		return false
	}
	for i := range term.Dests {
		if !check(term.Dests[i].Block) {
			return false
		}
	}
	for i := range term.Handlers {
		if h := &term.Handlers[i]; h.Kind != ir.HandlerContext && !check(h.Dest.Block) {
			return false
		}
	}
	return n == len(succs)
}
