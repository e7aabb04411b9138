package refine

import (
	"slices"

	"cliff/lib/analysis"
	"cliff/lib/internal/reuse"
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
	s := &a.scratch.sinker
	s.reset(a, r)
	sinks := s.stack
	for _, b := range cfg.RPO() {
		if s.slot[b] = s.findSlot(b); s.slot[b] >= 0 {
			sinks = append(sinks, b)
		}
	}
	if len(sinks) == 0 {
		return
	}
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
	s.stack = sinks
	s.uses = a.Uses()
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
	s.reserve()
	s.b = a.scratch.builderFor(f)
	for _, b := range cfg.RPO() {
		if s.reaches[b] && b != entry {
			s.edits.roomForParams(f, b, 1)
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
			s.edits.insertBefore(s.b, b, len(f.Blocks[b].Insts)-1, func() {
				s.passOn(b, term, ir.NoValue)
			})
		}
	}
}

type sinker struct {
	a          *analyses
	f          *ir.Function
	cfg        *analysis.CFG
	r          *rng
	b          *ir.Builder
	edits      *edits
	slot       []int  // by block: the operand of its terminator that takes the accumulator, or -1
	reaches    []bool // by block: can reach a sink
	stack      []ir.Block
	uses       []int32
	deadIn     [][]ir.Value // by block: what dead returned
	deadValues []ir.Value   // the lists of deadIn, one after the other
	acc        []ir.Value   // by block: its accumulator param, NoValue for the entry and blocks without
}

// reset readies s for a's function.
func (s *sinker) reset(a *analyses, r *rng) {
	f := a.f
	s.a, s.f, s.cfg, s.r, s.b, s.edits = a, f, a.CFG(), r, nil, &a.scratch.edits
	s.slot = reuse.Filled(s.slot, len(f.Blocks), -1)
	s.reaches = reuse.Zeroed(s.reaches, len(f.Blocks))
	s.stack = s.stack[:0]
	s.deadIn = emptied(s.deadIn, len(f.Blocks))
	s.deadValues = s.deadValues[:0]
	s.acc = reuse.Filled(s.acc, len(f.Blocks), ir.NoValue)
}

// reserve makes room in the function's tables for what sink adds: the
// Builder grows them by doubling, which for a function of hundreds of
// instructions copies and clears far more than sink adds.
func (s *sinker) reserve() {
	f := s.f
	insts, values := 0, 0
	for _, b := range f.Layout {
		switch {
		case s.reaches[b]:
			if b != s.cfg.Entry() {
				values++ // the accumulator param
			} else if len(s.deadIn[b]) == 0 {
				insts++ // a zero to pass on
				values++
			}
			for _, v := range s.deadIn[b] {
				t := f.Values[v].Type
				n := accInsts(t) + 1 // and the combine
				insts += n
				values += n
				if t == ir.I128 {
					values++ // isplit's second half
				}
			}
			if k := s.slot[b]; k >= 0 {
				args := f.Insts[terminator(f, b)].Args
				n := foldInsts(f.Values[f.Resolve(args[k])].Type)
				insts += n
				values += n
			}
		case !s.cfg.Reachable(b):
			insts++ // a zero to pass on
			values++
		}
	}
	f.Insts = withRoom(f.Insts, insts)
	f.Values = withRoom(f.Values, values)
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
	start := len(s.deadValues)
	for _, p := range s.f.Blocks[b].Params {
		s.addIfDead(p)
	}
	insts := s.f.Blocks[b].Insts
	for idx, inst := range insts[:max(len(insts)-1, 0)] {
		if s.cfg.PlacedAt(inst, b, idx) {
			for _, v := range s.f.Insts[inst].Results {
				s.addIfDead(v)
			}
		}
	}
	return s.deadValues[start:len(s.deadValues):len(s.deadValues)]
}

func (s *sinker) addIfDead(v ir.Value) {
	if int(v) < len(s.uses) && s.uses[v] == 0 && choosable(s.f, v) && foldable(s.f.Values[v].Type) {
		s.deadValues = append(s.deadValues, v)
	}
}

// block folds b's dead values into its accumulator before its terminator,
// passes the accumulator on, and folds it into the terminator's slot.
func (s *sinker) block(b ir.Block) {
	dead := s.deadIn[b]
	term := terminator(s.f, b)
	s.edits.insertBefore(s.b, b, len(s.f.Blocks[b].Insts)-1, func() {
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
			arg := s.f.Insts[term].Args[k]
			useAdd := s.r.chance(1, 2)
			if t := s.f.Values[s.f.Resolve(arg)].Type; !t.LaneType().IsFloat() && !s.a.allows(ir.OpBxor, t) {
				useAdd = true // Pulley has iadd.i128 but no bxor.i128
			}
			folded := foldInto(s.b, arg, acc, useAdd)
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
		s.edits.passTo(s.f, term, succ, acc)
	}
	return acc
}
