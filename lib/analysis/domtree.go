package analysis

import (
	"cliff/lib/ir"

	"cliff/lib/internal/reuse"
)

// DomTree is the dominator tree of the reachable blocks of a CFG. Block A
// dominates block B when every path from the entry to B passes through A.
//
// It is computed with the Cooper-Harvey-Kennedy iterative algorithm ("A
// Simple, Fast Dominance Algorithm") over reverse post-order. Dominates
// answers in O(1) from pre- and post-order numbers of a walk of the tree,
// as golang.org/x/tools/go/ssa does.
type DomTree struct {
	cfg *CFG

	// By block ID.
	idom     []ir.Block
	children [][]ir.Block // subslices of childAll
	depth    []int32      // -1 when unreachable
	pre      []int32
	post     []int32

	maxDepth int

	// Backing array and working memory, kept for Recompute.
	childAll []ir.Block
	rpoIdom  []int32
	nchild   []int32
	dfs      []dfsFrame
}

// NewDomTree computes the dominator tree of c.
func NewDomTree(c *CFG) *DomTree {
	d := new(DomTree)
	d.Recompute(c)
	return d
}

// Recompute makes d the dominator tree of c, as NewDomTree does, in the
// memory d already has. Slices d returned before are stale afterwards.
func (d *DomTree) Recompute(c *CFG) {
	nb := len(c.rpoNum)
	d.cfg = c
	d.idom = reuse.Filled(d.idom, nb, ir.NoBlock)
	d.children = reuse.Zeroed(d.children, nb)
	d.depth = reuse.Filled(d.depth, nb, -1)
	d.pre = reuse.Zeroed(d.pre, nb)
	d.post = reuse.Zeroed(d.post, nb)
	d.maxDepth = 0
	rpo := c.rpo
	if len(rpo) == 0 {
		return
	}

	// The iteration runs on RPO numbers: idom[k] is the RPO number of the
	// immediate dominator of rpo[k], -1 while unknown.
	idom := reuse.Filled(d.rpoIdom, len(rpo), -1)
	d.rpoIdom = idom
	idom[0] = 0
	for changed := true; changed; {
		changed = false
		for k := 1; k < len(rpo); k++ {
			newIdom := int32(-1)
			for _, p := range c.preds[rpo[k]] {
				pn := c.rpoNum[p]
				if pn < 0 || idom[pn] < 0 {
					continue // unreachable, or not processed yet
				}
				if newIdom < 0 {
					newIdom = pn
				} else {
					newIdom = intersect(idom, pn, newIdom)
				}
			}
			if idom[k] != newIdom {
				idom[k] = newIdom
				changed = true
			}
		}
	}

	// Tree shape: children in RPO order, depth from the parent, which comes
	// earlier in RPO.
	d.depth[rpo[0]] = 0
	nchild := reuse.Zeroed(d.nchild, len(rpo))
	d.nchild = nchild
	for k := 1; k < len(rpo); k++ {
		nchild[idom[k]]++
	}
	backing := reuse.Zeroed(d.childAll, len(rpo)-1)
	d.childAll = backing
	off := int32(0)
	for k, b := range rpo {
		d.children[b] = backing[off : off : off+nchild[k]]
		off += nchild[k]
	}
	for k := 1; k < len(rpo); k++ {
		b, parent := rpo[k], rpo[idom[k]]
		d.idom[b] = parent
		d.children[parent] = append(d.children[parent], b)
		d.depth[b] = d.depth[parent] + 1
		d.maxDepth = max(d.maxDepth, int(d.depth[b]))
	}

	// Pre- and post-order numbers: A dominates B exactly when B's interval
	// lies within A's.
	var n int32
	stack := append(d.dfs[:0], dfsFrame{rpo[0], 0})
	d.pre[rpo[0]] = n
	n++
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if kids := d.children[top.b]; top.next < len(kids) {
			kid := kids[top.next]
			top.next++
			d.pre[kid] = n
			n++
			stack = append(stack, dfsFrame{kid, 0})
			continue
		}
		d.post[top.b] = n
		n++
		stack = stack[:len(stack)-1]
	}
	d.dfs = stack
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
	if int(b) < len(d.idom) {
		return d.idom[b]
	}
	return ir.NoBlock
}

// Dominates reports whether a dominates b. Every reachable block dominates
// itself; the answer is false when either block is unreachable.
func (d *DomTree) Dominates(a, b ir.Block) bool {
	if !d.cfg.Reachable(a) || !d.cfg.Reachable(b) {
		return false
	}
	return d.pre[a] <= d.pre[b] && d.post[b] <= d.post[a]
}

// Children returns the blocks b immediately dominates, in RPO order. The
// slice belongs to the tree.
func (d *DomTree) Children(b ir.Block) []ir.Block {
	if int(b) < len(d.children) {
		return d.children[b]
	}
	return nil
}

// Depth returns b's depth in the tree (entry = 0), or -1 when b is
// unreachable.
func (d *DomTree) Depth(b ir.Block) int {
	if int(b) < len(d.depth) {
		return int(d.depth[b])
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
