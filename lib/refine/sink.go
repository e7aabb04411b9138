package refine

import (
	"slices"

	"cliff/lib/analysis"
	"cliff/lib/ir"
	"cliff/lib/ub"
)

// sink is sink anchoring: every dead value (defined, never used) flows into
// something the case's outputs depend on, without changing any signature.
//
// An i64 accumulator is threaded through the blocks that can reach a sink:
// each of them but the entry gets an accumulator param, folds its dead
// values into it (bxor or iadd, after toAcc turns each into an i64), and
// passes it on to its successors (appending an arg to scaffold branches
// too, as lib/ub allows). A sink is a `return`, whose best result
// (slotRank: integers first) takes the accumulator in, or a `return_call`
// (`return_call_indirect`), whose best free argument takes it in: values
// dead before a tail call have no return of their own to reach, so they
// reach the callee's, through its argument.
//
// Left dead, by design: addresses (they must not reach an output), values
// of types toAcc cannot fold (f16, f128, vectors other than 128 bits),
// special-purpose function params (sret, vmctx), values in blocks that
// reach no sink (in a function that returns nothing and makes no tail
// call, every block), values in unreachable blocks, and every value of a
// function with a try_call (cliff-gen makes none).
func sink(f *ir.Function, r *rng, a *analyses) {
	cfg := a.CFG()
	entry := cfg.Entry()
	if entry == ir.NoBlock || slices.ContainsFunc(f.Layout, func(b ir.Block) bool { return hasHandlers(f, b) }) {
		return // no entry; or exception edges, which sink cannot pass an accumulator along
	}
	s := &sinker{f: f, cfg: cfg, r: r, slot: make([]int, len(f.Blocks))}
	for i := range s.slot {
		s.slot[i] = -1
	}
	var sinks []ir.Block
	for _, b := range cfg.RPO() {
		if s.slot[b] = s.findSlot(b); s.slot[b] >= 0 {
			sinks = append(sinks, b)
		}
	}
	if len(sinks) == 0 {
		return
	}
	s.reaches = make([]bool, len(f.Blocks))
	for len(sinks) > 0 {
		b := sinks[len(sinks)-1]
		sinks = sinks[:len(sinks)-1]
		if s.reaches[b] {
			continue
		}
		s.reaches[b] = true
		for _, p := range cfg.Preds(b) {
			if cfg.Reachable(p) && !s.reaches[p] {
				sinks = append(sinks, p)
			}
		}
	}
	s.uses = useCounts(f)
	s.deadIn = make([][]ir.Value, len(f.Blocks))
	anyDead := false
	for _, b := range cfg.RPO() {
		if s.reaches[b] {
			s.deadIn[b] = s.dead(b)
			anyDead = anyDead || len(s.deadIn[b]) > 0
		}
	}
	if !anyDead {
		return
	}
	s.b = ir.NewBuilder(f)
	s.acc = make([]ir.Value, len(f.Blocks))
	for i := range s.acc {
		s.acc[i] = ir.NoValue
	}
	for _, b := range cfg.RPO() {
		if s.reaches[b] && b != entry {
			s.acc[b] = s.b.AppendBlockParam(b, accType)
		}
	}
	for _, b := range cfg.RPO() {
		if s.reaches[b] {
			s.block(b)
		}
	}
	// Unreachable blocks that branch to a block with an accumulator param
	// must pass one too.
	for _, b := range f.Layout {
		if !cfg.Reachable(b) && s.toAccParams(b) {
			term := terminator(f, b)
			insertBefore(s.b, b, len(f.Blocks[b].Insts)-1, func() {
				s.passOn(b, term, ir.NoValue)
			})
		}
	}
}

type sinker struct {
	f       *ir.Function
	cfg     *analysis.CFG
	r       *rng
	b       *ir.Builder
	slot    []int  // by block: the operand of its terminator that takes the accumulator, or -1
	reaches []bool // by block: can reach a sink
	uses    []int32
	deadIn  [][]ir.Value // by block: what dead returned
	acc     []ir.Value   // by block: its accumulator param, NoValue for the entry and blocks without
}

// findSlot returns the operand of b's terminator the accumulator goes
// into, or -1 when the terminator is no sink.
func (s *sinker) findSlot(b ir.Block) int {
	term := terminator(s.f, b)
	if term == ir.NoInst {
		return -1
	}
	d := &s.f.Insts[term]
	if !d.Op.Info().Flags.Has(ir.FlagReturn) {
		return -1
	}
	best, bestRank := -1, 4
	for k, v := range d.Args {
		if !ub.FreeOperand(s.f, term, k) {
			continue
		}
		if rank := slotRank(s.f.Values[s.f.Resolve(v)].Type); rank >= 0 && rank < bestRank {
			best, bestRank = k, rank
		}
	}
	return best
}

// dead returns the values of b that sink folds: dead, not addresses, of a
// foldable type.
func (s *sinker) dead(b ir.Block) []ir.Value {
	var out []ir.Value
	add := func(v ir.Value) {
		if int(v) < len(s.uses) && s.uses[v] == 0 && choosable(s.f, v) && foldable(s.f.Values[v].Type) {
			out = append(out, v)
		}
	}
	for _, p := range s.f.Blocks[b].Params {
		add(p)
	}
	insts := s.f.Blocks[b].Insts
	for idx, inst := range insts[:max(len(insts)-1, 0)] {
		if s.cfg.InstBlock(inst) == b && s.cfg.InstIndex(inst) == idx {
			for _, v := range s.f.Insts[inst].Results {
				add(v)
			}
		}
	}
	return out
}

// block folds b's dead values into its accumulator before its terminator,
// passes the accumulator on, and folds it into the terminator's slot.
func (s *sinker) block(b ir.Block) {
	dead := s.deadIn[b]
	term := terminator(s.f, b)
	insertBefore(s.b, b, len(s.f.Blocks[b].Insts)-1, func() {
		acc := s.acc[b]
		for _, v := range dead {
			x := toAcc(s.b, v)
			if acc == ir.NoValue {
				acc = x
			} else {
				acc = s.combine(acc, x)
			}
		}
		acc = s.passOn(b, term, acc)
		if k := s.slot[b]; k >= 0 && acc != ir.NoValue {
			folded := foldInto(s.b, s.f.Insts[term].Args[k], acc, s.r.chance(1, 2))
			s.f.Insts[term].Args[k] = folded
		}
	})
}

func (s *sinker) combine(acc, x ir.Value) ir.Value {
	if s.r.chance(1, 2) {
		return s.b.Ins(ir.OpIadd, ir.Invalid, acc, x)
	}
	return s.b.Ins(ir.OpBxor, ir.Invalid, acc, x)
}

// toAccParams reports whether b branches to a block with an accumulator
// param.
func (s *sinker) toAccParams(b ir.Block) bool {
	for _, succ := range s.cfg.Succs(b) {
		if s.acc[succ] != ir.NoValue {
			return true
		}
	}
	return false
}

// passOn passes acc to every successor of b with an accumulator param
// (through term, b's terminator, which insertBefore has set aside), making
// a zero when b has none yet, and returns acc.
func (s *sinker) passOn(b ir.Block, term ir.Inst, acc ir.Value) ir.Value {
	for _, succ := range s.cfg.Succs(b) {
		if s.acc[succ] == ir.NoValue {
			continue
		}
		if acc == ir.NoValue {
			acc = s.b.Iconst(accType, 0)
		}
		passTo(s.f, term, succ, acc)
	}
	return acc
}
