package analysis

import (
	"cliff/lib/ir"

	"cliff/lib/internal/reuse"
)

// UseKind says where in an instruction a value is used.
type UseKind uint8

const (
	UseOperand        UseKind = iota // Args[Operand]
	UseBlockArg                      // Dests[Dest].Args[Operand]
	UseHandlerArg                    // Handlers[Dest].Dest.Args[Operand]
	UseHandlerContext                // Handlers[Dest].Context; Operand is 0
)

// Use is one use of a value by an instruction.
type Use struct {
	Inst ir.Inst
	Kind UseKind
	// Operand is the index among the instruction's Args, or among the block
	// call's Args when InBlockCall.
	Operand int
	// InBlockCall is true for uses as a branch arg (UseBlockArg and
	// UseHandlerArg): the value flows into a block param.
	InBlockCall bool
	// Dest is the index of the block call in Dests, or of the entry in
	// Handlers; 0 for operands.
	Dest int
}

// Def is where a value is defined, aliases resolved.
type Def struct {
	Kind  ir.ValueDefKind // DefParam or DefResult; DefNone when undefined
	Block ir.Block        // the param's block, or the block holding Inst (NoBlock if none)
	Inst  ir.Inst         // DefResult
	Index int             // position among the block's params or the inst's results
}

// DefUse holds the uses of every value and the definition of every value.
// Uses are gathered from the instructions of all layout blocks, reachable or
// not, in layout and text order; a use of an alias is a use of the value it
// stands for.
type DefUse struct {
	f   *ir.Function
	cfg *CFG

	// The uses of value v are uses[useStart[v]:useStart[v+1]].
	useStart []int32
	uses     []Use

	chainDepth int
}

// NewDefUse computes the def-use chains of f.
func NewDefUse(f *ir.Function) *DefUse { return newDefUse(f, NewCFG(f)) }

func newDefUse(f *ir.Function, c *CFG) *DefUse {
	d := &DefUse{f: f, cfg: c, useStart: make([]int32, len(f.Values)+1)}
	// Count, then fill: one flat slice for every value's uses.
	ForEachUse(f, c, func(v ir.Value, _ Use) { d.useStart[v+1]++ })
	for i := 1; i < len(d.useStart); i++ {
		d.useStart[i] += d.useStart[i-1]
	}
	d.uses = make([]Use, d.useStart[len(f.Values)])
	next := make([]int32, len(f.Values))
	copy(next, d.useStart)
	ForEachUse(f, c, func(v ir.Value, u Use) {
		d.uses[next[v]] = u
		next[v]++
	})
	d.chainDepth = chainDepth(f, c)
	return d
}

// ForEachUse calls fn with every value use by an instruction of a layout
// block of c's function f, in layout and text order, aliases resolved; uses
// of undefined values are skipped. It is the walk behind DefUse, for callers
// that need one pass over the uses and no index.
func ForEachUse(f *ir.Function, c *CFG, fn func(ir.Value, Use)) {
	for _, b := range c.layout {
		for idx, inst := range f.Blocks[b].Insts {
			if !c.PlacedAt(inst, b, idx) {
				continue
			}
			instUses(f, inst, func(v ir.Value, u Use) {
				if v = resolveAlias(f, v); v != ir.NoValue {
					fn(v, u)
				}
			})
		}
	}
}

// instUses calls fn with every value the instruction uses, as written.
func instUses(f *ir.Function, inst ir.Inst, fn func(ir.Value, Use)) {
	data := &f.Insts[inst]
	for i, v := range data.Args {
		fn(v, Use{Inst: inst, Kind: UseOperand, Operand: i})
	}
	for di, dest := range data.Dests {
		for i, a := range dest.Args {
			if a.Kind == ir.ArgValue {
				fn(a.Value, Use{Inst: inst, Kind: UseBlockArg, Operand: i, InBlockCall: true, Dest: di})
			}
		}
	}
	for hi, h := range data.Handlers {
		if h.Kind == ir.HandlerContext {
			fn(h.Context, Use{Inst: inst, Kind: UseHandlerContext, Dest: hi})
			continue
		}
		for i, a := range h.Dest.Args {
			if a.Kind == ir.ArgValue {
				fn(a.Value, Use{Inst: inst, Kind: UseHandlerArg, Operand: i, InBlockCall: true, Dest: hi})
			}
		}
	}
}

// Uses returns the uses of v (or of the value v aliases), in layout and text
// order. The slice belongs to the DefUse.
func (d *DefUse) Uses(v ir.Value) []Use {
	v = resolveAlias(d.f, v)
	if v == ir.NoValue {
		return nil
	}
	return d.uses[d.useStart[v]:d.useStart[v+1]:d.useStart[v+1]]
}

// Def returns the definition of v, aliases resolved.
func (d *DefUse) Def(v ir.Value) Def {
	v = resolveAlias(d.f, v)
	if v == ir.NoValue {
		return Def{Kind: ir.DefNone, Block: ir.NoBlock, Inst: ir.NoInst}
	}
	vd := &d.f.Values[v]
	switch vd.Kind {
	case ir.DefParam:
		return Def{Kind: ir.DefParam, Block: vd.Block, Inst: ir.NoInst, Index: vd.Index}
	case ir.DefResult:
		return Def{Kind: ir.DefResult, Block: d.cfg.InstBlock(vd.Inst), Inst: vd.Inst, Index: vd.Index}
	}
	return Def{Kind: ir.DefNone, Block: ir.NoBlock, Inst: ir.NoInst}
}

// ChainDepth returns the def-use chain depth of the function: the longest
// path, in edges, of the acyclic def-use graph of its reachable
// instructions, as the package documentation defines it.
func (d *DefUse) ChainDepth() int { return d.chainDepth }

// chainDepth computes the def-use chain depth in one pass over the nodes in
// their order (reverse post-order of blocks; params, then instructions).
func chainDepth(f *ir.Function, c *CFG) int {
	var s depthScratch
	return s.chainDepth(f, c)
}

// depthScratch holds chainDepth's tables, so that a caller computing it
// for many functions (metrics, for every case) allocates them once.
type depthScratch struct{ order, paramOrder, level []int32 }

func (s *depthScratch) chainDepth(f *ir.Function, c *CFG) int {
	// order[inst] is the instruction's position in the node order, or -1
	// outside reachable blocks. A param's position is the block's base
	// position, before any of its instructions: paramOrder[block].
	s.order = reuse.Filled(s.order, len(f.Insts), -1)
	s.paramOrder = reuse.Zeroed(s.paramOrder, len(f.Blocks))
	order, paramOrder := s.order, s.paramOrder
	var n int32
	for _, b := range c.rpo {
		paramOrder[b] = n
		n++
		for idx, inst := range f.Blocks[b].Insts {
			if c.PlacedAt(inst, b, idx) {
				order[inst] = n
				n++
			}
		}
	}

	// level[v] is the length of the longest path ending at the instruction
	// defining v (for a param, at an instruction whose value flows into it);
	// -1 when no instruction stands behind v (function params, params fed
	// only along retreating edges, values outside reachable blocks).
	s.level = reuse.Filled(s.level, len(f.Values), -1)
	level := s.level
	// defOrder gives the position of v's definition, -1 when outside
	// reachable blocks.
	defOrder := func(v ir.Value) int32 {
		vd := &f.Values[v]
		switch vd.Kind {
		case ir.DefParam:
			if c.Reachable(vd.Block) {
				return paramOrder[vd.Block]
			}
		case ir.DefResult:
			if int(vd.Inst) < len(order) {
				return order[vd.Inst]
			}
		}
		return -1
	}

	best := 0
	for _, b := range c.rpo {
		for idx, inst := range f.Blocks[b].Insts {
			if !c.PlacedAt(inst, b, idx) {
				continue
			}
			at := order[inst]
			// The longest path ending here: one more than at any earlier
			// definition this instruction uses.
			var depth int32
			f.Insts[inst].ForEachUse(func(v ir.Value) {
				v = resolveAlias(f, v)
				if v == ir.NoValue {
					return
				}
				if o := defOrder(v); o >= 0 && o < at {
					depth = max(depth, level[v]+1)
				}
			})
			for _, r := range f.Insts[inst].Results {
				if int(r) < len(level) {
					level[r] = depth
				}
			}
			best = max(best, int(depth))

			// Values passed to block params flow on, when the param comes
			// later in the order. The branch's own args were already
			// checked to precede it; retN and exnN come from the branch.
			data := &f.Insts[inst]
			flow := func(call ir.BlockCall) {
				if !c.Reachable(call.Block) || paramOrder[call.Block] <= at {
					return
				}
				params := f.Blocks[call.Block].Params
				for i, a := range call.Args {
					if i >= len(params) || int(params[i]) >= len(level) {
						break
					}
					from := depth // retN, exnN
					if a.Kind == ir.ArgValue {
						v := resolveAlias(f, a.Value)
						if v == ir.NoValue {
							continue
						}
						if o := defOrder(v); o < 0 || o >= at {
							continue
						}
						from = level[v]
					}
					level[params[i]] = max(level[params[i]], from)
				}
			}
			for _, dest := range data.Dests {
				flow(dest)
			}
			for _, h := range data.Handlers {
				if h.Kind != ir.HandlerContext {
					flow(h.Dest)
				}
			}
		}
	}
	return best
}
