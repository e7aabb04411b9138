package analysis

import (
	"slices"

	"cliff/lib/internal/reuse"
	"cliff/lib/ir"
)

// DomTree is the dominator tree of the reachable blocks of a CFG. Block A
// dominates block B when every path from the entry to B passes through A.
//
// It is computed with the Cooper-Harvey-Kennedy iterative algorithm ("A
// Simple, Fast Dominance Algorithm") over reverse post-order. Dominates
// answers in O(1) from pre-order intervals of the tree, as
// golang.org/x/tools/go/ssa does.
//
// The tables are kept by RPO number rather than block ID, but for
// Dominates': the tree is rebuilt for every function the verifier checks
// and every refinement pass, and RPO numbers make each step a pass over
// short dense arrays, in an order where a block's immediate dominator
// always comes before it.
type DomTree struct {
	cfg *CFG

	// By RPO number.
	idom       []int32 // RPO number of the immediate dominator; idom[0] = 0
	depth      []int32 // in the tree, the entry 0
	childStart []int32 // children of rpo[k]: childAll[childStart[k]:childStart[k+1]]

	childAll []ir.Block // by parent, each parent's children in RPO order
	maxDepth int

	// By block ID, not RPO number: Dominates, which the verifier asks for
	// every use of a value, then reads two entries and compares, and is
	// small enough to inline.
	interval []interval

	// Working memory, kept for Recompute.
	size, next []int32

	// computed and splits are the CFG's when d was last brought up to
	// date with it (Update).
	computed uint64
	splits   int
}

// interval is a block's pre-order number in a walk of the dominator tree
// and the end of its subtree's numbers: A dominates B exactly when B's pre
// lies in [A's pre, A's end). The numbers start at 1, so that the zero
// interval of an unreachable block contains no number and its pre lies in
// no interval.
type interval struct{ pre, end int32 }

// NewDomTree computes the dominator tree of c.
func NewDomTree(c *CFG) *DomTree {
	d := new(DomTree)
	d.Recompute(c)
	return d
}

// Recompute makes d the dominator tree of c, as NewDomTree does, in the
// memory d already has. Slices d returned before are stale afterwards.
func (d *DomTree) Recompute(c *CFG) {
	d.cfg = c
	d.computed, d.splits = c.computed, len(c.splits)
	d.idom = resized(d.idom, len(c.rpo))
	if len(c.rpo) > 0 {
		d.computeIdoms(c)
	}
	d.derive()
}

// derive computes the tables of the tree from d.idom, which holds the
// immediate dominators of d.cfg's blocks by RPO number.
func (d *DomTree) derive() {
	c := d.cfg
	d.maxDepth = 0
	rpo := c.rpo
	n := len(rpo)
	// The loops work on local copies of the slices: the compiler keeps
	// those in registers, fields it reloads after every store.
	idom := d.idom
	depth := resized(d.depth, n)
	start := reuse.Zeroed(d.childStart, n+1)
	children := resized(d.childAll, max(n-1, 0))
	size := reuse.Zeroed(d.size, n)
	next := resized(d.next, n)
	iv := reuse.Zeroed(d.interval, len(c.nodes))
	d.depth, d.childStart, d.childAll = depth, start, children
	d.size, d.next, d.interval = size, next, iv
	if n == 0 {
		return
	}

	// Depths, as a parent comes before its children in RPO, and the
	// number of children of each block.
	depth[0] = 0
	maxDepth := int32(0)
	for k := 1; k < n; k++ {
		depth[k] = depth[idom[k]] + 1
		maxDepth = max(maxDepth, depth[k])
		start[idom[k]]++
	}
	d.maxDepth = int(maxDepth)

	// Children grouped by parent: each group's end, then the children
	// placed from the last down, each one moving its parent's mark back,
	// so that the marks end at the groups' starts and every group is in
	// RPO order. On the way, subtree sizes from the leaves up.
	for k := 1; k <= n; k++ {
		start[k] += start[k-1]
	}
	for k := n - 1; k > 0; k-- {
		p := idom[k]
		start[p]--
		children[start[p]] = rpo[k]
		size[k]++
		size[p] += size[k]
	}

	// Pre-order intervals of a walk that visits children in RPO order:
	// each child takes the next stretch of its parent's interval; next is
	// the next free number in each interval.
	iv[rpo[0]] = interval{1, int32(n) + 1}
	next[0] = 2
	for k := 1; k < n; k++ {
		p := idom[k]
		pre := next[p]
		iv[rpo[k]] = interval{pre, pre + size[k]}
		next[p] = pre + size[k]
		next[k] = pre + 1
	}
}

// Update brings d up to date with its CFG, as Recompute would: after the
// blocks the CFG split since d was computed (CFG.SplitBlock), by following
// the splits, and after a Recompute of the CFG by recomputing. A split
// block keeps its immediate dominator, and immediately dominates side and
// tail: every path from the entry to them passes through it, and none to
// side through tail or back. tail takes the split block's place as the
// immediate dominator of its children, as every path to them leaves it
// through tail now. Only the RPO numbers of the other blocks change: side
// and tail come right after the split block. The tables derived from the
// immediate dominators are derived once, for all the splits.
func (d *DomTree) Update() {
	c := d.cfg
	if c.computed != d.computed {
		d.Recompute(c)
		return
	}
	if d.splits == len(c.splits) {
		return
	}
	idom := d.idom
	for _, k := range c.splits[d.splits:] {
		n := int32(len(idom)) + 2
		idom = slices.Grow(idom, 2)[:n] // keeping the old entries
		copy(idom[k+3:], idom[k+1:n-2])
		for j := k + 3; j < n; j++ {
			switch i := idom[j]; {
			case i == k:
				idom[j] = k + 2 // tail
			case i > k:
				idom[j] = i + 2
			}
		}
		idom[k+1], idom[k+2] = k, k
	}
	d.idom, d.splits = idom, len(c.splits)
	d.derive()
}

// computeIdoms fills d.idom by RPO number, as the Cooper-Harvey-Kennedy
// iteration does: sweeps in RPO until nothing changes.
//
// The first sweep can only use the predecessors earlier in RPO (the others
// have no idom yet); it gives the dominators of the graph without its
// retreating edges. A retreating edge P->B changes nothing when B
// dominates P in that tree (a loop's back edge), so when all of them are
// such, a second sweep would change nothing and is not run: that is the
// common case, as generated code is structured. Otherwise the sweeps go on
// as the algorithm says.
func (d *DomTree) computeIdoms(c *CFG) {
	n := int32(len(c.rpo))
	d.idom[0] = 0
	for k := int32(1); k < n; k++ {
		// The DFS parent of a block precedes it in RPO, so this is >= 0.
		d.idom[k] = d.meet(c, k, k)
	}
	if d.backEdgesOnly(c) {
		return
	}
	for changed := true; changed; {
		changed = false
		for k := int32(1); k < n; k++ {
			if newIdom := d.meet(c, k, n); d.idom[k] != newIdom {
				d.idom[k] = newIdom
				changed = true
			}
		}
	}
}

// meet returns the nearest common ancestor, in the tree so far, of the
// reachable predecessors of the block numbered k whose numbers are below
// limit, or -1 if there are none.
func (d *DomTree) meet(c *CFG, k, limit int32) int32 {
	nodes, predAll, idom := c.nodes, c.predAll, d.idom
	newIdom := int32(-1)
	pred := nodes[c.rpo[k]].pred
	for e := pred.lo; e < pred.hi; e++ {
		pn := nodes[predAll[e]].rpo
		switch {
		case pn < 0 || pn >= limit:
			continue // unreachable, or left out
		case newIdom < 0:
			newIdom = pn
		default:
			newIdom = intersect(idom, pn, newIdom)
		}
	}
	return newIdom
}

// backEdgesOnly reports whether every retreating edge (from a block
// numbered no earlier in RPO than its target) goes to a dominator of its
// source in the tree so far.
func (d *DomTree) backEdgesOnly(c *CFG) bool {
	nodes, predAll, idom := c.nodes, c.predAll, d.idom
	for k := int32(1); k < int32(len(c.rpo)); k++ {
		pred := nodes[c.rpo[k]].pred
		for e := pred.lo; e < pred.hi; e++ {
			a := nodes[predAll[e]].rpo
			if a < k {
				continue // a forward edge, or unreachable (-1)
			}
			for a > k {
				a = idom[a]
			}
			if a != k {
				return false
			}
		}
	}
	return true
}

// intersect walks two fingers up the partial tree to their nearest common
// ancestor; RPO numbers decrease towards the root.
func intersect(idom []int32, a, b int32) int32 {
	for a != b {
		for a > b {
			a = idom[a]
		}
		for b > a {
			b = idom[b]
		}
	}
	return a
}

// CFG returns the graph the tree was computed from.
func (d *DomTree) CFG() *CFG { return d.cfg }

// Idom returns the immediate dominator of b: NoBlock for the entry and for
// unreachable blocks.
func (d *DomTree) Idom(b ir.Block) ir.Block {
	if k := d.cfg.RPONumber(b); k > 0 {
		return d.cfg.rpo[d.idom[k]]
	}
	return ir.NoBlock
}

// Dominates reports whether a dominates b. Every reachable block dominates
// itself; the answer is false when either block is unreachable.
func (d *DomTree) Dominates(a, b ir.Block) bool {
	if int(a) >= len(d.interval) || int(b) >= len(d.interval) {
		return false
	}
	ia, pre := d.interval[a], d.interval[b].pre
	return ia.pre <= pre && pre < ia.end
}

// Children returns the blocks b immediately dominates, in RPO order. The
// slice belongs to the tree.
func (d *DomTree) Children(b ir.Block) []ir.Block {
	if k := d.cfg.RPONumber(b); k >= 0 {
		return spanOf(d.childAll, span{d.childStart[k], d.childStart[k+1]})
	}
	return nil
}

// Depth returns b's depth in the tree (entry = 0), or -1 when b is
// unreachable.
func (d *DomTree) Depth(b ir.Block) int {
	if k := d.cfg.RPONumber(b); k >= 0 {
		return int(d.depth[k])
	}
	return -1
}

// MaxDepth returns the largest depth of any block: the dominator tree depth
// metric. It is 0 for a single block or an empty function.
func (d *DomTree) MaxDepth() int { return d.maxDepth }

// ValueDominates reports whether the definition of v dominates its use by
// the instruction user in block userBlock; f must be the function the CFG
// was built from. Aliases are resolved first. A block param is defined at
// the top of its block, an instruction result just after its instruction,
// so within one block text order decides and a result does not dominate its
// own instruction. With user == NoInst the use is at the end of userBlock
// (a value wanted live out of the block); otherwise user must be in
// userBlock.
//
// The answer is false when v has no definition in the layout, or when either
// block is unreachable; Cranelift's verifier checks dominance only for uses
// in reachable blocks, and callers should skip the others likewise.
func (d *DomTree) ValueDominates(f *ir.Function, v ir.Value, user ir.Inst, userBlock ir.Block) bool {
	v = resolveAlias(f, v)
	if v == ir.NoValue {
		return false
	}
	vd := &f.Values[v]
	var defBlock ir.Block
	defIndex := -1 // params come before instruction 0
	switch vd.Kind {
	case ir.DefParam:
		defBlock = vd.Block
		if !d.cfg.InLayout(defBlock) {
			return false
		}
	case ir.DefResult:
		defBlock = d.cfg.InstBlock(vd.Inst)
		defIndex = d.cfg.InstIndex(vd.Inst)
	default:
		return false
	}
	if !d.Dominates(defBlock, userBlock) {
		return false
	}
	switch {
	case user == ir.NoInst:
		return true
	case d.cfg.InstBlock(user) != userBlock:
		return false // the user is not where the caller says
	case defBlock != userBlock:
		return true
	}
	return defIndex < d.cfg.InstIndex(user)
}

// resolveAlias follows `vN -> vM` aliases to the value they stand for. It
// returns NoValue for IDs out of range, unused slots and alias cycles.
func resolveAlias(f *ir.Function, v ir.Value) ir.Value {
	v = f.Resolve(v)
	if int(v) >= len(f.Values) || f.Values[v].Kind == ir.DefNone {
		return ir.NoValue
	}
	return v
}
