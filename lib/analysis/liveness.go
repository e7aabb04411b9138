package analysis

import (
	"math/bits"

	"cliff/lib/internal/reuse"
	"cliff/lib/ir"
)

// Liveness holds the values live into and out of each block of the layout.
//
// A value is live at a point when some path from there reaches a use of it
// without passing its definition. Block params are defined at block entry,
// so they are never live into their own block; a branch arg is a use in the
// block holding the branch, not in the target. Aliases are resolved: a use
// of an alias keeps the value it stands for live.
//
// It is the classic backward dataflow problem
//
//	LiveOut(b) = ∪ LiveIn(s) over the successors s of b
//	LiveIn(b)  = UpwardExposed(b) ∪ (LiveOut(b) − Defined(b))
//
// solved over bitsets with a worklist of blocks, seeded in post-order. Only
// values used in a block without a definition before the use there (Briggs'
// "non-local" values) can ever be live at a block boundary, so the bitsets
// are indexed by a dense numbering of those values only.
type Liveness struct {
	f      *ir.Function
	global []int32    // by value ID: dense index, -1 for block-local values
	values []ir.Value // by dense index
	words  int        // uint64 words per set
	pos    []int32    // by block ID: position in layout, -1 outside it
	in     []uint64   // by layout position: words each
	out    []uint64

	// Working memory, kept for Recompute.
	definedIn, exposedIn []ir.Block
	ueStart, defStart    []int32
	ue, defs, queue      []int32
	queued               []bool
	gen, kill            []uint64
}

// NewLiveness computes the liveness of f's values over c, the CFG of f.
func NewLiveness(f *ir.Function, c *CFG) *Liveness {
	l := new(Liveness)
	l.Recompute(f, c)
	return l
}

// Recompute makes l the liveness of f's values over c, as NewLiveness
// does, in the memory l already has. Slices l returned before are stale
// afterwards.
func (l *Liveness) Recompute(f *ir.Function, c *CFG) {
	l.f = f
	l.global = reuse.Filled(l.global, len(f.Values), -1)
	l.values = l.values[:0]
	l.pos = reuse.Filled(l.pos, len(c.inLayout), -1)
	for k, b := range c.layout {
		l.pos[b] = int32(k)
	}

	// Upward-exposed uses and definitions per block (CSR by layout
	// position), the uses deduplicated; definedIn[v] marks the block that
	// defined v most recently in the scan, exposedIn[v] the block that last
	// recorded v as exposed.
	nv := len(f.Values)
	definedIn := reuse.Filled(l.definedIn, nv, ir.NoBlock)
	exposedIn := reuse.Filled(l.exposedIn, nv, ir.NoBlock)
	ueStart := reuse.Zeroed(l.ueStart, len(c.layout)+1)
	defStart := reuse.Zeroed(l.defStart, len(c.layout)+1)
	ue := l.ue[:0]     // value IDs, renumbered densely below
	defs := l.defs[:0] // value IDs, kept below only when not local
	for k, b := range c.layout {
		ueStart[k], defStart[k] = int32(len(ue)), int32(len(defs))
		define := func(v ir.Value) {
			if int(v) < nv {
				definedIn[v] = b
				defs = append(defs, int32(v))
			}
		}
		use := func(v ir.Value) {
			if v = resolveAlias(f, v); v != ir.NoValue && definedIn[v] != b && exposedIn[v] != b {
				exposedIn[v] = b
				ue = append(ue, int32(v))
			}
		}
		for _, p := range f.Blocks[b].Params {
			define(p)
		}
		for idx, inst := range f.Blocks[b].Insts {
			if !c.placedAt(inst, b, idx) {
				continue
			}
			f.Insts[inst].ForEachUse(use)
			for _, r := range f.Insts[inst].Results {
				define(r)
			}
		}
	}
	ueStart[len(c.layout)], defStart[len(c.layout)] = int32(len(ue)), int32(len(defs))
	l.definedIn, l.exposedIn, l.ueStart, l.ue = definedIn, exposedIn, ueStart, ue

	// Dense numbering of the values exposed somewhere, in value order so
	// that walking a bitset yields sorted values.
	for _, v := range ue {
		l.global[v] = 0
	}
	for v, g := range l.global {
		if g == 0 {
			l.global[v] = int32(len(l.values))
			l.values = append(l.values, ir.Value(v))
		}
	}
	for i, v := range ue {
		ue[i] = l.global[v]
	}

	// Only the definitions of non-local values matter: keep those,
	// renumbered, moving each block's down in place.
	kept := 0
	for k := range c.layout {
		start, end := defStart[k], defStart[k+1]
		defStart[k] = int32(kept)
		for _, v := range defs[start:end] {
			if g := l.global[v]; g >= 0 {
				defs[kept] = g
				kept++
			}
		}
	}
	defStart[len(c.layout)] = int32(kept)
	defs = defs[:kept]
	l.defStart, l.defs = defStart, defs

	// The sets as bitsets, by layout position: gen holds the upward-exposed
	// uses, kill the definitions, so that LiveIn = gen ∪ (LiveOut − kill).
	w := (len(l.values) + 63) / 64
	l.words = w
	nl := len(c.layout)
	gen, kill := reuse.Zeroed(l.gen, nl*w), reuse.Zeroed(l.kill, nl*w)
	l.gen, l.kill = gen, kill
	for k := range nl {
		for _, g := range ue[ueStart[k]:ueStart[k+1]] {
			gen[k*w+int(g>>6)] |= 1 << (g & 63)
		}
		for _, g := range defs[defStart[k]:defStart[k+1]] {
			kill[k*w+int(g>>6)] |= 1 << (g & 63)
		}
	}

	// A worklist of blocks, first all of them in post-order (successors
	// first, so that most information flows in one sweep; unreachable
	// blocks last); a block whose LiveIn grows puts its predecessors back.
	queue := l.queue[:0]
	for i := len(c.rpo) - 1; i >= 0; i-- {
		queue = append(queue, l.pos[c.rpo[i]])
	}
	for k, b := range c.layout {
		if !c.Reachable(b) {
			queue = append(queue, int32(k))
		}
	}
	queued := reuse.Filled(l.queued, nl, true)
	l.queue, l.queued = queue, queued
	l.in = reuse.Zeroed(l.in, nl*w)
	l.out = reuse.Zeroed(l.out, nl*w)
	for head := 0; head < len(queue); head++ {
		k := int(queue[head])
		queued[k] = false
		out := l.out[k*w : (k+1)*w]
		for _, s := range c.succs[c.layout[k]] {
			for i, word := range l.in[int(l.pos[s])*w : int(l.pos[s]+1)*w] {
				out[i] |= word
			}
		}
		in, changed := l.in[k*w:(k+1)*w], false
		for i, word := range out {
			if word = gen[k*w+i] | word&^kill[k*w+i]; in[i] != word {
				// Sets only grow, so a changed word is a bigger one.
				in[i] = word
				changed = true
			}
		}
		if changed {
			for _, p := range c.preds[c.layout[k]] {
				if pk := l.pos[p]; !queued[pk] {
					queued[pk] = true
					queue = append(queue, pk)
				}
			}
		}
	}
	l.queue = queue
}

// LiveIn returns the values live on entry to b, sorted; nil outside the
// layout.
func (l *Liveness) LiveIn(b ir.Block) []ir.Value { return l.list(l.in, b) }

// LiveOut returns the values live on exit from b, sorted; nil outside the
// layout.
func (l *Liveness) LiveOut(b ir.Block) []ir.Value { return l.list(l.out, b) }

// IsLiveIn reports whether v (or the value it aliases) is live on entry to b.
func (l *Liveness) IsLiveIn(v ir.Value, b ir.Block) bool { return l.has(l.in, v, b) }

// IsLiveOut reports whether v (or the value it aliases) is live on exit from
// b.
func (l *Liveness) IsLiveOut(v ir.Value, b ir.Block) bool { return l.has(l.out, v, b) }

// set returns the words of b's set in sets, or nil outside the layout.
func (l *Liveness) set(sets []uint64, b ir.Block) []uint64 {
	if int(b) >= len(l.pos) || l.pos[b] < 0 {
		return nil
	}
	k := int(l.pos[b])
	return sets[k*l.words : (k+1)*l.words]
}

func (l *Liveness) list(sets []uint64, b ir.Block) []ir.Value {
	var vs []ir.Value
	for i, word := range l.set(sets, b) {
		for word != 0 {
			vs = append(vs, l.values[i*64+bits.TrailingZeros64(word)])
			word &= word - 1
		}
	}
	return vs
}

func (l *Liveness) has(sets []uint64, v ir.Value, b ir.Block) bool {
	set := l.set(sets, b)
	if set == nil {
		return false
	}
	if v = resolveAlias(l.f, v); v != ir.NoValue {
		if g := l.global[v]; g >= 0 {
			return set[g>>6]&(1<<(g&63)) != 0
		}
	}
	return false
}
