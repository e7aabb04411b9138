package gen

import "cliff/lib/ir"

// A function's per-ID tables (Insts, Values, Blocks) are allocated a
// chunk at a time and shared out: each function's tables start in the
// room the functions before it left over, and are cut to their length
// when it is done. An instruction takes 256 bytes, which the allocator
// zeroes: growing each table from empty would copy it at every doubling,
// and reserving room for a large function in every function would zero
// several times what is used (at depth 5 a function has 112 instructions
// on average, over 400 at the 99th percentile). The short lists of
// instructions and blocks (operands, params, a block's instructions) come
// from chunks too.
//
// With Options.Reuse, each case starts again at the first chunk: its IR
// overwrites the case before's, and nothing is allocated or zeroed once
// the chunks suffice.

// arena is what a Generator allocates functions from: the spare room of
// each per-ID table, and the short lists of instructions and blocks.
type arena struct {
	reuse  bool
	insts  spare[ir.InstData]
	values spare[ir.ValueData]
	blocks spare[ir.BlockData]
	layout spare[ir.Block]
	// valueLists hold operands and block params, instLists blocks'
	// instructions, dests and blockArgs branches' destinations and their
	// args.
	valueLists lists[ir.Value]
	instLists  lists[ir.Inst]
	dests      lists[ir.BlockCall]
	blockArgs  lists[ir.BlockArg]
}

func newArena(reuse bool) arena {
	a := arena{reuse: reuse}
	a.insts.chunks.reuse = reuse
	a.values.chunks.reuse = reuse
	a.blocks.chunks.reuse = reuse
	a.layout.chunks.reuse = reuse
	a.valueLists.chunks.reuse = reuse
	a.instLists.chunks.reuse = reuse
	a.dests.chunks.reuse = reuse
	a.blockArgs.chunks.reuse = reuse
	return a
}

// reset starts a new case: with Options.Reuse, in the chunks of the cases
// before; else in the room the last case left.
func (a *arena) reset() {
	if !a.reuse {
		return
	}
	a.insts.reset()
	a.values.reset()
	a.blocks.reset()
	a.layout.reset()
	a.valueLists.reset()
	a.instLists.reset()
	a.dests.reset()
	a.blockArgs.reset()
}

// Table sizes: the room a function starts with, about the 90th
// percentile of its size, and chunks of several times that.
const (
	instsPerLevel = 48 // instructions and values per level of depth
	instsPerBlock = 4  // about
	chunkFuncs    = 16 // functions' worth of room per chunk
)

// start gives f empty tables with room for a function of the given
// depth.
func (a *arena) start(f *ir.Function, depth int) {
	n := instsPerLevel * (depth + 1)
	f.Insts = a.insts.start(n, chunkFuncs*n)
	f.Values = a.values.start(n, chunkFuncs*n)
	f.Blocks = a.blocks.start(n/instsPerBlock, chunkFuncs*n/instsPerBlock)
	f.Layout = a.layout.start(n/instsPerBlock, chunkFuncs*n/instsPerBlock)
}

// keep cuts f's finished tables to length and keeps the rest as room.
func (a *arena) keep(f *ir.Function) {
	f.Insts = a.insts.keep(f.Insts)
	f.Values = a.values.keep(f.Values)
	f.Blocks = a.blocks.keep(f.Blocks)
	f.Layout = a.layout.keep(f.Layout)
}

// operands returns an operand list of n values to fill in.
func (a *arena) operands(n int) []ir.Value { return a.valueLists.take(n)[:n] }

// list returns an operand list of the given values, from the arena.
func (fg *funcGen) list(vs ...ir.Value) []ir.Value {
	out := fg.c.g.arena.operands(len(vs))
	copy(out, vs)
	return out
}

// Branches are built here rather than with ir.Builder's Jump, Brif and
// BrTable, which allocate each list of destinations and of block args:
// with the lists from the arena, the instructions are the same and over a
// third of generation's allocations go (BenchmarkCase: 196 a case, not 341).

// blockCall returns the destination blk(args...).
func (fg *funcGen) blockCall(blk ir.Block, args []ir.Value) ir.BlockCall {
	c := ir.BlockCall{Block: blk}
	if len(args) > 0 { // else nil, as ir.NewBlockCall leaves it
		c.Args = fg.c.g.arena.blockArgs.take(len(args))[:len(args)]
		for k, v := range args {
			c.Args[k] = ir.ValueArg(v)
		}
	}
	return c
}

// dests returns a list of n destinations to fill in.
func (fg *funcGen) dests(n int) []ir.BlockCall { return fg.c.g.arena.dests.take(n)[:n] }

// jump appends `jump dest(args...)`.
func (fg *funcGen) jump(dest ir.Block, args ...ir.Value) ir.Inst {
	d := fg.dests(1)
	d[0] = fg.blockCall(dest, args)
	return fg.b.Append(ir.InstData{Op: ir.OpJump, Dests: d})
}

// brif appends `brif c, then(thenArgs...), els(elsArgs...)`.
func (fg *funcGen) brif(c ir.Value, then ir.Block, thenArgs []ir.Value, els ir.Block, elsArgs []ir.Value) ir.Inst {
	d := fg.dests(2)
	d[0], d[1] = fg.blockCall(then, thenArgs), fg.blockCall(els, elsArgs)
	return fg.b.Append(ir.InstData{Op: ir.OpBrif, Args: fg.list(c), Dests: d})
}

// Room for a block's instructions: enough for most blocks (at depth 5,
// 90% of them have at most 10).
const blockInsts = 8

// newBlock creates a block. The builder appends to the block's list of
// instructions, which starts with room from the arena.
func (fg *funcGen) newBlock() ir.Block {
	fg.blocks++
	blk := fg.b.CreateBlock()
	fg.f.Blocks[blk].Insts = fg.c.g.arena.instLists.take(blockInsts)
	return blk
}

// reserveParams gives blk room for n params from the arena, before the
// builder appends them.
func (fg *funcGen) reserveParams(blk ir.Block, n int) {
	if n > 0 {
		fg.f.Blocks[blk].Params = fg.c.g.arena.valueLists.take(n)
	}
}

// spare is the unused room at the end of the last table handed out.
type spare[T any] struct {
	room   []T
	chunks chunks[T]
}

// start returns an empty table with room for at least n elements: the
// spare room when it is large enough, else a chunk. The table owns the
// room until keep gives back what it left.
func (s *spare[T]) start(n, chunk int) []T {
	room := s.room
	if cap(room) < n {
		room = s.chunks.get(max(n, chunk))
	}
	s.room = nil
	return room
}

// keep returns a finished table cut to its length, so that appending to
// it later (a refinement pass) copies it rather than overwriting the next
// function's, and keeps the room after it for the next table.
func (s *spare[T]) keep(table []T) []T {
	n := len(table)
	s.room = table[n:n]
	return table[:n:n]
}

func (s *spare[T]) reset() {
	s.room = nil
	s.chunks.reset()
}

// lists hands out short lists from shared chunks, as ir.ValueArena does
// for values.
type lists[T any] struct {
	free   []T
	chunks chunks[T]
}

// Elements per chunk of lists.
const listChunk = 1024

// take returns an empty list with room for n elements. The capacity is
// capped, so appending past n copies rather than overwriting a neighbour.
func (l *lists[T]) take(n int) []T {
	if cap(l.free)-len(l.free) < n {
		l.free = l.chunks.get(max(n, listChunk))
	}
	start := len(l.free)
	l.free = l.free[:start+n]
	return l.free[start : start : start+n]
}

func (l *lists[T]) reset() {
	l.free = nil
	l.chunks.reset()
}

// chunks allocates the chunks of a spare or lists: new ones, or with
// reuse, those of the cases before again once reset.
type chunks[T any] struct {
	reuse bool
	all   [][]T // every chunk allocated, with reuse
	next  int   // all[next:] are free
}

// get returns an empty chunk with room for n elements.
func (c *chunks[T]) get(n int) []T {
	for ; c.next < len(c.all); c.next++ {
		if chunk := c.all[c.next]; cap(chunk) >= n {
			c.next++
			return chunk[:0]
		}
	}
	chunk := make([]T, 0, n)
	if c.reuse {
		c.all = append(c.all, chunk)
		c.next = len(c.all)
	}
	return chunk
}

func (c *chunks[T]) reset() { c.next = 0 }
