package analysis

import (
	"math/bits"

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
// solved by iterating to a fixed point in post-order, over bitsets. Only
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
}

// NewLiveness computes the liveness of f's values over c, the CFG of f.
func NewLiveness(f *ir.Function, c *CFG) *Liveness {
	l := &Liveness{f: f, global: make([]int32, len(f.Values)), pos: make([]int32, len(c.inLayout))}
	for i := range l.pos {
		l.pos[i] = -1
	}
	for k, b := range c.layout {
		l.pos[b] = int32(k)
	}

	// Upward-exposed uses per block (CSR by layout position), deduplicated;
	// definedIn[v] marks the block that defined v most recently in the scan,
	// exposedIn[v] the block that last recorded v as exposed.
	nv := len(f.Values)
	definedIn := make([]ir.Block, nv)
	exposedIn := make([]ir.Block, nv)
	for i := range definedIn {
		definedIn[i] = ir.NoBlock
		exposedIn[i] = ir.NoBlock
	}
	ueStart := make([]int32, len(c.layout)+1)
	var ue []int32 // value IDs, renumbered densely below
	for k, b := range c.layout {
		ueStart[k] = int32(len(ue))
		define := func(v ir.Value) {
			if int(v) < nv {
				definedIn[v] = b
			}
		}
		for _, p := range f.Blocks[b].Params {
			define(p)
		}
		for idx, inst := range f.Blocks[b].Insts {
			if !c.placedAt(inst, b, idx) {
				continue
			}
			f.Insts[inst].ForEachUse(func(v ir.Value) {
				if v = resolveAlias(f, v); v != ir.NoValue && definedIn[v] != b && exposedIn[v] != b {
					exposedIn[v] = b
					ue = append(ue, int32(v))
				}
			})
			for _, r := range f.Insts[inst].Results {
				define(r)
			}
		}
	}
	ueStart[len(c.layout)] = int32(len(ue))

	// Dense numbering of the values exposed somewhere, in value order so
	// that walking a bitset yields sorted values.
	for i := range l.global {
		l.global[i] = -1
	}
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

	// Definitions of non-local values per block.
	defStart := make([]int32, len(c.layout)+1)
	var defs []int32
	for k, b := range c.layout {
		defStart[k] = int32(len(defs))
		define := func(v ir.Value) {
			if int(v) < nv && l.global[v] >= 0 {
				defs = append(defs, l.global[v])
			}
		}
		for _, p := range f.Blocks[b].Params {
			define(p)
		}
		for idx, inst := range f.Blocks[b].Insts {
			if c.placedAt(inst, b, idx) {
				for _, r := range f.Insts[inst].Results {
					define(r)
				}
			}
		}
	}
	defStart[len(c.layout)] = int32(len(defs))

	// Iterate in post-order (successors first) so that most information
	// flows in one sweep; unreachable blocks go last.
	order := make([]int32, 0, len(c.layout))
	for i := len(c.rpo) - 1; i >= 0; i-- {
		order = append(order, l.pos[c.rpo[i]])
	}
	for k, b := range c.layout {
		if !c.Reachable(b) {
			order = append(order, int32(k))
		}
	}

	w := (len(l.values) + 63) / 64
	l.words = w
	l.in = make([]uint64, len(c.layout)*w)
	l.out = make([]uint64, len(c.layout)*w)
	scratch := make([]uint64, w)
	for changed := true; changed; {
		changed = false
		for _, k := range order {
			out := l.out[int(k)*w : int(k+1)*w]
			for _, s := range c.succs[c.layout[k]] {
				sin := l.in[int(l.pos[s])*w : int(l.pos[s]+1)*w]
				for i, word := range sin {
					out[i] |= word
				}
			}
			copy(scratch, out)
			for _, g := range defs[defStart[k]:defStart[k+1]] {
				scratch[g>>6] &^= 1 << (g & 63)
			}
			for _, g := range ue[ueStart[k]:ueStart[k+1]] {
				scratch[g>>6] |= 1 << (g & 63)
			}
			in := l.in[int(k)*w : int(k+1)*w]
			for i, word := range scratch {
				if in[i] != word {
					// Sets only grow, so a changed word is a bigger one.
					in[i] = word
					changed = true
				}
			}
		}
	}
	return l
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
