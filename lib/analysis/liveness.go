package analysis

import (
	"math/bits"
	"slices"

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
	cfg    *CFG
	global []int32    // by value ID: dense index, -1 for block-local values
	values []ir.Value // by dense index
	words  int        // uint64 words per set
	in     []uint64   // by block ID: words each, empty outside the layout
	out    []uint64

	// defs holds the values each block of the layout defines (Defined),
	// one block after the other, from defStart[k] for layout index k.
	defs     []ir.Value
	defStart []int32

	// Working memory, kept for Recompute.
	counts      []int32 // Recompute's use counts, which nobody asked for
	scan        []valueScan
	ue, ueStart []int32
	gen, kill   []uint64
	queue       []ir.Block
	queued      []bool
}

// valueScan is what the scan of the blocks notes about one value ID.
type valueScan struct {
	to ir.Value // the value it stands for (aliases resolved), NoValue if none
	// defined and exposed mark the block (its ID plus one, so that zero
	// marks none) that defined the value most recently in the scan and the
	// one that last recorded it as upward-exposed.
	defined, exposed ir.Block
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
	l.counts, _ = l.RecomputeCounting(f, c, l.counts)
}

// RecomputeCounting is Recompute, and counts the uses of each value on the
// way: the scan for upward-exposed uses reads every use, and a caller that
// wants both (lib/refine's merge) saves a second reading of every
// instruction. The counts go in counts' memory, by value ID: the operands,
// block-call args and exception-handler contexts of the instructions the
// CFG places (InstData.ForEachUse's uses), aliases resolved.
//
// whole reports whether those were the uses of every listing of every
// instruction of every block of f.Layout: f.Layout names no block twice or
// out of range, no block lists an instruction the CFG places elsewhere (or
// out of range), and no value ID is an alias or unused. Only then are the
// counts what a count over f.Layout's instruction lists would give.
func (l *Liveness) RecomputeCounting(f *ir.Function, c *CFG, counts []int32) (_ []int32, whole bool) {
	// The loops work on local copies of the slices: the compiler keeps
	// those in registers, fields it reloads after every store.
	l.f, l.cfg = f, c
	nb := len(c.nodes)
	counts = reuse.Zeroed(counts, len(f.Values))
	redefined, whole := l.scanBlocks(f, c, counts)
	whole = whole && len(c.layout) == len(f.Layout)

	// Dense numbering of the values exposed somewhere, in value order so
	// that walking a bitset yields sorted values.
	scan := l.scan
	global, values := resized(l.global, len(scan)), l.values[:0]
	for v := range scan {
		global[v] = -1
		if scan[v].exposed != 0 {
			global[v] = int32(len(values))
			values = append(values, ir.Value(v))
		}
	}
	l.global, l.values = global, values

	// gen holds the upward-exposed uses, kill the definitions of the
	// values that are not block-local, so that LiveIn = gen ∪ (LiveOut −
	// kill).
	w := (len(values) + 63) / 64
	l.words = w
	gen, kill := reuse.Zeroed(l.gen, nb*w), reuse.Zeroed(l.kill, nb*w)
	l.gen, l.kill = gen, kill
	ue, ueStart := l.ue, l.ueStart
	for k, b := range c.layout {
		for e := ueStart[k]; e < ueStart[k+1]; e++ {
			g := global[ue[e]]
			gen[int(b)*w+int(g>>6)] |= 1 << (g & 63)
		}
	}
	if redefined {
		l.killAll(f, c)
	} else {
		for g, v := range values {
			if mark := scan[v].defined; mark != 0 {
				kill[int(mark-1)*w+g/64] |= 1 << (g % 64)
			}
		}
	}

	l.in = reuse.Zeroed(l.in, nb*w)
	l.out = reuse.Zeroed(l.out, nb*w)
	switch {
	case w == 1:
		l.solveWord(c)
	case w > 1:
		l.solveWords(c)
	}
	return counts, whole
}

// The solvers run a worklist of blocks (a blockQueue); a block whose
// LiveIn grows puts its predecessors back. Sets only grow, so a changed
// set is a bigger one.
//
// Their edge loops index the CFG's flat arrays rather than slicing them:
// slicing costs more than the one or two edges a block has.

// solveWord solves sets of one word: most functions cliff generates have
// at most 64 values that are not block-local, and with one word the sets
// are plain integers.
func (l *Liveness) solveWord(c *CFG) {
	in, out, gen, kill := l.in, l.out, l.gen, l.kill
	q := l.startQueue(c)
	succAll, predAll, nodes := c.succAll, c.predAll, c.nodes
	for q.n > 0 {
		b := q.pop()
		node := &nodes[b]
		var o uint64
		for e := node.succ.lo; e < node.succ.hi; e++ {
			o |= in[succAll[e]]
		}
		out[b] = o
		if i := gen[b] | o&^kill[b]; i != in[b] {
			in[b] = i
			for e := node.pred.lo; e < node.pred.hi; e++ {
				q.push(predAll[e])
			}
		}
	}
}

// solveWords solves sets of l.words words.
func (l *Liveness) solveWords(c *CFG) {
	w := l.words
	q := l.startQueue(c)
	succAll, predAll, nodes := c.succAll, c.predAll, c.nodes
	for q.n > 0 {
		b := q.pop()
		node := &nodes[b]
		at := int(b) * w
		out := l.out[at : at+w]
		clear(out)
		for e := node.succ.lo; e < node.succ.hi; e++ {
			s := int(succAll[e]) * w
			for i, word := range l.in[s : s+w] {
				out[i] |= word
			}
		}
		in, gen, kill := l.in[at:at+w], l.gen[at:at+w], l.kill[at:at+w]
		changed := false
		for i, o := range out {
			if word := gen[i] | o&^kill[i]; word != in[i] {
				in[i] = word
				changed = true
			}
		}
		if changed {
			for e := node.pred.lo; e < node.pred.hi; e++ {
				q.push(predAll[e])
			}
		}
	}
}

// blockQueue is a FIFO of blocks, each on it at most once: a ring with
// room for every block of the layout, so that pushing never grows it (a
// call in the solvers' loop would make the compiler keep its variables in
// memory).
type blockQueue struct {
	ring   []ir.Block
	queued []bool // by block ID
	head   int
	n      int
}

func (q *blockQueue) pop() ir.Block {
	b := q.ring[q.head]
	q.queued[b] = false
	if q.head++; q.head == len(q.ring) {
		q.head = 0
	}
	q.n--
	return b
}

func (q *blockQueue) push(b ir.Block) {
	if q.queued[b] {
		return
	}
	q.queued[b] = true
	tail := q.head + q.n
	if tail >= len(q.ring) {
		tail -= len(q.ring)
	}
	q.ring[tail] = b
	q.n++
}

// startQueue returns the worklist holding all the blocks in post-order
// (successors first, so that most information flows in one sweep) and
// then the unreachable blocks.
func (l *Liveness) startQueue(c *CFG) blockQueue {
	q := blockQueue{ring: resized(l.queue, len(c.layout)), queued: reuse.Zeroed(l.queued, len(c.nodes))}
	l.queue, l.queued = q.ring, q.queued
	for i := len(c.rpo) - 1; i >= 0; i-- {
		q.push(c.rpo[i])
	}
	for _, b := range c.layout {
		if c.nodes[b].rpo < 0 {
			q.push(b)
		}
	}
	return q
}

// scanBlocks lists the upward-exposed uses of each block (in ue, CSR by
// layout position, value IDs resolved and deduplicated), counts every use
// in counts (len(f.Values)) and marks where each value is defined. It
// reports whether a value was defined in two blocks (only in a malformed
// function), when defined does not say all the blocks that define it; and
// whether it read every instruction of the blocks' lists, with no alias or
// unused value ID (RecomputeCounting's whole, but for the layout).
//
// The loops over instructions and their uses (scanInsts) make no calls,
// not even to grow ue: Go's calling convention saves no registers, so a
// call in a loop, however rare, makes the compiler keep the loop's
// variables in memory.
func (l *Liveness) scanBlocks(f *ir.Function, c *CFG, counts []int32) (redefined, whole bool) {
	// Resolving every value once costs less than resolving every use.
	// Aliases and unused IDs are rare: they are resolved in a second loop,
	// so that the first makes no call.
	values := f.Values
	scan := resized(l.scan, len(values))
	others := false
	for v := range values {
		if k := values[v].Kind; k != ir.DefParam && k != ir.DefResult {
			others = true
		}
		scan[v] = valueScan{to: ir.Value(v)}
	}
	if others {
		for v := range values {
			if k := values[v].Kind; k != ir.DefParam && k != ir.DefResult {
				scan[v].to = resolveAlias(f, ir.Value(v))
			}
		}
	}
	l.scan = scan
	whole = !others
	layout := c.layout
	ueStart := resized(l.ueStart, len(layout)+1)
	ue := l.ue[:0]
	// Each value is defined once, but in a malformed function: room for
	// all, and a second look at a block that defines more.
	defStart := resized(l.defStart, len(layout)+1)
	defs := slices.Grow(l.defs[:0], len(values))
	for k, b := range layout {
		n := len(ue)
		ueStart[k] = int32(n)
		// A block exposes each value at most once: with room for all of
		// them, ue need not grow within the block.
		ue = slices.Grow(ue, len(scan))
		ue = ue[:cap(ue)]
		mark := b + 1
		for _, p := range f.Blocks[b].Params {
			redefined = define(scan, p, mark) || redefined
		}
		defStart[k] = int32(len(defs))
		defs = append(defs, f.Blocks[b].Params...)
		m := len(defs)
		var r, skipped bool
		n, m, r, skipped = scanInsts(scan, c.places, f.Insts, f.Blocks[b].Insts, mark, ue, n, counts, defs[:cap(defs)], m)
		redefined = redefined || r
		whole = whole && !skipped
		ue = ue[:n]
		if m <= cap(defs) {
			defs = defs[:m]
		} else {
			defs = appendResults(defs, f, c, b)
		}
	}
	ueStart[len(layout)] = int32(len(ue))
	defStart[len(layout)] = int32(len(defs))
	l.ue, l.ueStart = ue, ueStart
	l.defs, l.defStart = defs, defStart
	return redefined, whole
}

// appendResults appends to defs the results of the instructions c places
// in b, in order: for a block that defines more values than scanInsts had
// room for.
func appendResults(defs []ir.Value, f *ir.Function, c *CFG, b ir.Block) []ir.Value {
	for idx, inst := range f.Blocks[b].Insts {
		if c.PlacedAt(inst, b, idx) {
			defs = append(defs, f.Insts[inst].Results...)
		}
	}
	return defs
}

// scanInsts records the uses and definitions of the instructions the
// layout places in the block marked mark, whose instructions are insts:
// the uses InstData.ForEachUse lists, each counted in counts. The exposed
// uses go into ue from index n on, the results into defs from index m on
// as far as there is room; it returns the new ends (m past len(defs) when
// there was not), whether a value was defined in another block before, and
// whether it skipped an instruction placed elsewhere.
func scanInsts(scan []valueScan, places []instPlace, instData []ir.InstData, insts []ir.Inst, mark ir.Block, ue []int32, n int, counts []int32,
	defs []ir.Value, m int) (_, _ int, redefined, skipped bool) {
	for idx, inst := range insts {
		if int(inst) >= len(places) || places[inst] != (instPlace{mark, int32(idx) + 1}) {
			skipped = true
			continue // placed elsewhere (CFG.PlacedAt)
		}
		d := &instData[inst]
		for _, v := range d.Args {
			n = expose(scan, v, mark, ue, n, counts)
		}
		for i := range d.Dests {
			for _, a := range d.Dests[i].Args {
				if a.Kind == ir.ArgValue {
					n = expose(scan, a.Value, mark, ue, n, counts)
				}
			}
		}
		for i := range d.Handlers {
			h := &d.Handlers[i]
			if h.Kind == ir.HandlerContext {
				n = expose(scan, h.Context, mark, ue, n, counts)
				continue
			}
			for _, a := range h.Dest.Args {
				if a.Kind == ir.ArgValue {
					n = expose(scan, a.Value, mark, ue, n, counts)
				}
			}
		}
		for _, r := range d.Results {
			redefined = define(scan, r, mark) || redefined
			if m < len(defs) {
				defs[m] = r
			}
			m++
		}
	}
	return n, m, redefined, skipped
}

// expose records a use of v in the block marked mark: it counts it in
// counts (as long as scan), and puts it at ue[n] when it is upward-exposed:
// when the block neither defined v before nor recorded it already. It
// returns the new end of ue.
func expose(scan []valueScan, v ir.Value, mark ir.Block, ue []int32, n int, counts []int32) int {
	if int(v) < len(scan) {
		if to := scan[v].to; to != ir.NoValue {
			counts[to]++
			if s := &scan[to]; s.defined != mark && s.exposed != mark {
				s.exposed = mark
				ue[n] = int32(to)
				n++
			}
		}
	}
	return n
}

// define records a definition of v in the block marked mark, and reports
// whether another block defined it before.
func define(scan []valueScan, v ir.Value, mark ir.Block) (redefined bool) {
	if int(v) < len(scan) {
		s := &scan[v]
		redefined = s.defined != 0 && s.defined != mark
		s.defined = mark
	}
	return redefined
}

// killAll sets the kill bits of every definition of a value that is not
// block-local, from the blocks' params and placed instructions' results:
// for a function that defines a value in two blocks.
func (l *Liveness) killAll(f *ir.Function, c *CFG) {
	w := l.words
	kill1 := func(v ir.Value, b ir.Block) {
		if int(v) < len(l.global) {
			if g := l.global[v]; g >= 0 {
				l.kill[int(b)*w+int(g>>6)] |= 1 << (g & 63)
			}
		}
	}
	for _, b := range c.layout {
		for _, p := range f.Blocks[b].Params {
			kill1(p, b)
		}
		for idx, inst := range f.Blocks[b].Insts {
			if c.PlacedAt(inst, b, idx) {
				for _, r := range f.Insts[inst].Results {
					kill1(r, b)
				}
			}
		}
	}
}

// Defined returns the values b defines, as the scan for uses met them:
// its params, then the results of the instructions the CFG places in b, in
// order (IDs out of range too); nil outside the layout. A walk that wants
// them reads a list rather than every instruction again. The slice belongs
// to l.
func (l *Liveness) Defined(b ir.Block) []ir.Value {
	if l.cfg == nil || !l.cfg.InLayout(b) {
		return nil
	}
	k := l.cfg.nodes[b].pos
	return l.defs[l.defStart[k]:l.defStart[k+1]:l.defStart[k+1]]
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

// set returns the words of b's set in sets (empty outside the layout), or
// nil for an ID out of range.
func (l *Liveness) set(sets []uint64, b ir.Block) []uint64 {
	if at := int(b) * l.words; at < len(sets) {
		return sets[at : at+l.words]
	}
	return nil
}

func (l *Liveness) list(sets []uint64, b ir.Block) []ir.Value {
	var vs []ir.Value
	for i, word := range l.set(sets, b) {
		for ; word != 0; word &= word - 1 {
			vs = append(vs, l.values[i*64+bits.TrailingZeros64(word)])
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
