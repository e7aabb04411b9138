package refine

import (
	"slices"

	"cliff/lib/analysis"
	"cliff/lib/internal/reuse"
	"cliff/lib/internal/splitmix"
	"cliff/lib/ir"
	"cliff/lib/ub"
)

// The pools operand selection draws from.
const (
	poolCalls  = iota // results of calls
	poolParams        // block params (function params, merge params, loop counters)
	poolDefs          // every other instruction result
	numPools
)

// recentWindow is how many of a pool's most recent values of a type an
// operand may be rebound to: the most recent that qualifies wins, but a
// dead one within the window wins over it, as rebinding to it gives it a
// use.
const recentWindow = 8

// operands is priority operand selection. Walking the dominator tree, it
// rebinds every free operand (ub.FreeOperand) and every free block arg
// (ub.FreeBlockArgs) to the most recently defined value of the same type
// that dominates it, from one of three pools (call results, block params,
// other results) chosen per operand with weights drawn once per function.
// Most recent values are the ends of def-use chains, so chains grow long.
//
// Only candidates are bound: no addresses, constants or scaffold results.
// A rebinding never makes a value dead (the old value must keep another
// use), never gives one instruction the same value twice (isub v, v is a
// constant to the optimiser), and never binds a value with a shorter
// def-use chain than the old one (its level, as analysis defines the
// def-use chain depth), so the function's def-use chain depth cannot
// decrease.
func operands(f *ir.Function, r *rng, a *analyses) {
	cfg := a.CFG()
	if cfg.Entry() == ir.NoBlock {
		return
	}
	s := &a.scratch.selector
	s.f, s.a, s.cfg, s.dt, s.r = f, a, cfg, a.DomTree(), r
	s.uses = a.Uses()
	s.aliases = hasAliases(f)
	s.level = reuse.Filled(s.level, len(f.Values), -1)
	for i := range s.pools {
		s.pools[i].reset()
	}
	for i := range s.weights {
		s.weights[i] = 1 + r.intn(8)
	}
	s.total = splitmix.Sum(s.weights[:])
	s.walk(cfg.Entry())
}

type operandSelector struct {
	f       *ir.Function
	a       *analyses
	cfg     *analysis.CFG
	dt      *analysis.DomTree
	r       *rng
	weights [numPools]int
	total   int // of weights
	pools   [numPools]scope
	uses    []int32 // kept up to date: operands keeps the use counts
	// level is the length of the longest def-use chain ending at each
	// value, as analysis.DefUse.ChainDepth computes it: -1 when no
	// instruction stands behind the value (function params).
	level []int32
	// aliases says whether the function has aliases to resolve (resolve).
	aliases bool
	// taken holds the values (aliases resolved) of the operands of the
	// instruction, or the args of the block call, being rebound; NoValue
	// for a block-call arg that is no value.
	taken []ir.Value
}

// walk visits the dominator tree from b in pre-order, children in reverse
// post-order: then every forward predecessor of a block is visited before
// it, so block-param levels are final when the block is entered.
func (s *operandSelector) walk(b ir.Block) {
	var marks [numPools]int
	for i := range s.pools {
		marks[i] = s.pools[i].mark()
	}
	f := s.f
	for _, p := range f.Blocks[b].Params {
		s.define(p, poolParams)
	}
	for idx, inst := range f.Blocks[b].Insts {
		if !s.cfg.PlacedAt(inst, b, idx) {
			continue // listed twice: not where the CFG places it
		}
		d := &f.Insts[inst]
		if !ub.IsScaffold(d) {
			s.rebindInst(inst)
		}
		depth := s.depth(d)
		pool := poolDefs
		if d.Op.IsCall() {
			pool = poolCalls
		}
		for _, v := range d.Results {
			s.level[v] = depth
			s.define(v, pool)
		}
		s.flow(b, d)
	}
	for _, c := range s.dt.Children(b) {
		s.walk(c)
	}
	for i := range s.pools {
		s.pools[i].undo(marks[i])
	}
}

func (s *operandSelector) define(v ir.Value, pool int) {
	if s.a.candidate(v) {
		s.pools[pool].push(s.f.Values[v].Type, v)
	}
}

// depth is the level of an instruction's results: one more than the
// deepest value it uses, 0 when it uses none with a level.
func (s *operandSelector) depth(d *ir.InstData) int32 {
	var depth int32
	for _, v := range d.Args {
		depth = max(depth, s.levelAfter(v))
	}
	for _, dest := range d.Dests {
		for _, a := range dest.Args {
			if a.Kind == ir.ArgValue {
				depth = max(depth, s.levelAfter(a.Value))
			}
		}
	}
	return depth
}

// levelAfter is the level of a use of v: one more than v's; 0 when v has
// none.
func (s *operandSelector) levelAfter(v ir.Value) int32 {
	if v = s.resolve(v); int(v) < len(s.level) {
		return s.level[v] + 1
	}
	return 0
}

// flow passes levels into the params of the blocks a branch goes forward
// to (later in reverse post-order); back edges do not count, as in
// analysis.
func (s *operandSelector) flow(b ir.Block, d *ir.InstData) {
	for _, dest := range d.Dests {
		if s.cfg.RPONumber(dest.Block) <= s.cfg.RPONumber(b) {
			continue
		}
		params := s.f.Blocks[dest.Block].Params
		for i, a := range dest.Args {
			if i >= len(params) || a.Kind != ir.ArgValue {
				continue
			}
			if v := s.resolve(a.Value); int(v) < len(s.level) {
				s.level[params[i]] = max(s.level[params[i]], s.level[v])
			}
		}
	}
}

// rebindInst rebinds the free operands and block args of inst.
func (s *operandSelector) rebindInst(inst ir.Inst) {
	f := s.f
	d := &f.Insts[inst]
	s.taken = s.taken[:0]
	for _, v := range d.Args {
		s.taken = append(s.taken, s.resolve(v))
	}
	// A mask pattern that looks into the operands of d's opcode (the
	// uextend of `c=uextend.i128(icmp)`) would have to ask d's users
	// again: such instructions keep their operands.
	mask := s.a.mask
	if !mask.Inner(d.Op) {
		for k := range d.Args {
			if ub.FreeOperand(f, inst, k) && s.rebindable(s.taken[k]) {
				old := d.Args[k]
				d.Args[k] = s.choose(old, s.taken[k])
				if mask.Roots(d.Op) {
					if _, masked := mask.Match(f, d); masked {
						s.unchoose(d.Args[k], s.taken[k])
						d.Args[k] = old
						continue
					}
				}
				s.taken[k] = s.resolve(d.Args[k])
			}
		}
	}
	if len(d.Dests) == 0 || !ub.FreeBlockArgs(f, inst) {
		return
	}
	for di := range d.Dests {
		args := d.Dests[di].Args
		s.taken = s.taken[:0]
		for _, a := range args {
			v := ir.NoValue // no value is ever chosen
			if a.Kind == ir.ArgValue {
				v = s.resolve(a.Value)
			}
			s.taken = append(s.taken, v)
		}
		for k := range args {
			if args[k].Kind == ir.ArgValue && s.rebindable(s.taken[k]) {
				args[k].Value = s.choose(args[k].Value, s.taken[k])
				s.taken[k] = s.resolve(args[k].Value)
			}
		}
	}
}

// resolve is f.Resolve(v), for the operands of every instruction: in a
// function without aliases, most of them, v itself without a look at the
// value's definition.
func (s *operandSelector) resolve(v ir.Value) ir.Value {
	if s.aliases {
		return s.f.Resolve(v)
	}
	return v
}

// rebindable reports whether a use of o (an alias resolved) may be
// rebound: not when it is the only use, which would leave o dead.
func (s *operandSelector) rebindable(o ir.Value) bool {
	return int(o) < len(s.uses) && s.uses[o] > 1
}

// choose returns the value to bind in place of old, a rebindable use of o
// (old with aliases resolved): old itself, or a better value from a pool.
// s.taken holds the operands of the same instruction (or args of the same
// block call), which the value must not be.
func (s *operandSelector) choose(old, o ir.Value) ir.Value {
	t := s.f.Values[o].Type
	first := splitmix.Index(s.weights[:], s.r.intn(s.total)) // r.weighted, with the total kept
	for i := range numPools {
		pool := (first + i) % numPools
		c := s.recent(pool, t, o)
		if c == ir.NoValue {
			continue
		}
		if c != o {
			s.uses[o]--
			s.uses[c]++
		}
		return c
	}
	return old
}

// unchoose undoes choose's use counts for c, chosen in place of o.
func (s *operandSelector) unchoose(c, o ir.Value) {
	if c = s.resolve(c); c != o {
		s.uses[c]--
		s.uses[o]++
	}
}

// recent returns the value of type t in pool that o may be rebound to:
// the most recent qualifying one, or a dead one among the recentWindow
// most recent; o itself when o comes first; NoValue when the pool has none.
func (s *operandSelector) recent(pool int, t ir.Type, o ir.Value) ir.Value {
	st := s.pools[pool].of(t)
	best := ir.NoValue
	for j := len(st) - 1; j >= 0 && j >= len(st)-recentWindow; j-- {
		c := st[j]
		switch {
		case c == o:
			if best == ir.NoValue {
				best = o
			}
		case slices.Contains(s.taken, c) || s.level[c] < s.level[o]:
		case s.uses[c] == 0:
			return c
		case best == ir.NoValue:
			best = c
		}
	}
	return best
}
