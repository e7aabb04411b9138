package refine

import (
	"slices"

	"cliff/lib/analysis"
	"cliff/lib/internal/reuse"
	"cliff/lib/ir"
)

// maxMergeParams bounds the params merge gives one join block; each join
// gets between one and this many, so that cases grow but do not explode.
const maxMergeParams = 6

// armWindow bounds how many of an arm's values (the most recent) merge
// considers for one join.
const armWindow = 48

// merge is the liveness-aware merge. A join block (two or more
// predecessors, not the entry) gets new params, and each predecessor
// passes values of its arm: the values available at the end of the
// predecessor that do not dominate the join (defined below the join's
// immediate dominator, or in a loop body for a loop header's back edge),
// which would otherwise end at the join; only candidates (no constants,
// no scaffold results, no addresses). Dead values go first, then values
// that are not live out of the predecessor (lib/analysis liveness), then
// the rest, most recent first. A param's type comes from one arm's value;
// every other predecessor passes a value of that type from its own arm, or
// else the most recent value of that type dominating its end; a type some
// predecessor cannot supply gets no param.
//
// The new params are unused: merge changes no result. Operand selection
// (their block-param pool) and sink give them uses.
func merge(f *ir.Function, r *rng, a *analyses) {
	cfg := a.CFG()
	if cfg.Entry() == ir.NoBlock {
		return
	}
	m := &a.scratch.merger
	m.reset(a)
	found := false
	for _, b := range cfg.RPO() {
		if m.joinable(b) {
			m.isJoin[b] = true
			found = true
		}
	}
	if !found {
		return
	}
	m.live = &a.scratch.live
	a.liveness(m.live)
	m.uses = a.Uses()
	m.walk(cfg.Entry(), 0)
	b := a.scratch.builderFor(f)
	for _, join := range cfg.RPO() {
		if m.isJoin[join] {
			m.join(b, join, r)
		}
	}
	a.newValues()
}

// reset readies m for a's function.
func (m *merger) reset(a *analyses) {
	f := a.f
	m.f, m.a, m.cfg, m.dt, m.edits = f, a, a.CFG(), a.DomTree(), &a.scratch.edits
	m.isJoin = reuse.Zeroed(m.isJoin, len(f.Blocks))
	m.scope.reset()
	m.path = m.path[:0]
	m.arms = emptied(m.arms, len(f.Blocks))
	m.armValues = m.armValues[:0]
	m.tops = emptied(m.tops, len(f.Blocks))
}

// arm is the values a predecessor has for one join it branches to, best
// first.
type arm struct {
	join   ir.Block
	values []ir.Value
}

type merger struct {
	f      *ir.Function
	a      *analyses
	cfg    *analysis.CFG
	dt     *analysis.DomTree
	live   *analysis.Liveness
	uses   []int32 // kept up to date: merge keeps the use counts
	edits  *edits
	isJoin []bool
	scope  scope
	path   []int // scope mark on entering the block at each depth of the walk
	// arms holds the arms of each predecessor of a join (a branch names a
	// few blocks at most: a list, not a map keyed by edge).
	arms      [][]arm    // by block
	armValues []ir.Value // the arms' values, one after the other
	groups    []uint8    // rank's group of each value
	// tops holds the most recent value of each type dominating the end of
	// each predecessor of a join, for predecessors whose arm lacks a type.
	tops [][]typedValue // by block

	// join's state, by position among the join's predecessors.
	next   []int        // cursor into each arm
	passed [][]ir.Value // what each predecessor passes already
	args   []ir.Value   // what each predecessor passes for the param being added
}

type typedValue struct {
	t ir.Type
	v ir.Value
}

// joinable reports whether b is a join merge may give params: reachable,
// not the entry (its params are the function's), two or more
// predecessors, all reachable and ending in plain branches.
func (m *merger) joinable(b ir.Block) bool {
	preds := m.cfg.Preds(b)
	if b == m.cfg.Entry() || len(preds) < 2 {
		return false
	}
	for _, p := range preds {
		if !m.cfg.Reachable(p) || hasHandlers(m.f, p) {
			return false
		}
	}
	return true
}

func (m *merger) walk(b ir.Block, depth int) {
	mark := m.scope.mark()
	m.path = append(m.path[:depth], mark)
	// The block's params and the results of its instructions, as the
	// liveness scan listed them.
	for _, v := range m.live.Defined(b) {
		m.define(v)
	}
	m.recordArms(b, depth)
	for _, c := range m.dt.Children(b) {
		m.walk(c, depth+1)
	}
	m.scope.undo(mark)
}

func (m *merger) define(v ir.Value) {
	if m.a.candidate(v) {
		m.scope.push(m.f.Values[v].Type, v)
	}
}

// recordArms notes, at the end of pred, its arm towards each join it
// branches to, and the values dominating its end.
func (m *merger) recordArms(pred ir.Block, depth int) {
	isPred := false
	for _, join := range m.cfg.Succs(pred) {
		if !m.isJoin[join] {
			continue
		}
		isPred = true
		// The arm is what the blocks below the join's immediate dominator
		// on the path to pred defined.
		start := m.scope.mark()
		if d := m.dt.Depth(m.dt.Idom(join)) + 1; d <= depth {
			start = m.path[d]
		}
		m.arms[pred] = append(m.arms[pred], arm{join, m.rank(pred, m.scope.since(max(start, m.scope.mark()-armWindow)))})
	}
	if isPred {
		tops := m.tops[pred]
		for i, t := range m.scope.stacks.types {
			if st := m.scope.stacks.lists[i]; len(st) > 0 {
				tops = append(tops, typedValue{t, st[len(st)-1]})
			}
		}
		m.tops[pred] = tops
	}
}

// rank orders arm values: dead first, then those not live out of pred,
// then the rest; most recent first within each group.
func (m *merger) rank(pred ir.Block, arm []pushed) []ir.Value {
	m.groups = m.groups[:0]
	for _, p := range arm {
		g := uint8(2)
		switch {
		case m.uses[p.v] == 0:
			g = 0
		case !m.live.IsLiveOut(p.v, pred):
			g = 1
		}
		m.groups = append(m.groups, g)
	}
	start := len(m.armValues)
	for group := range uint8(3) {
		for j := len(arm) - 1; j >= 0; j-- {
			if m.groups[j] == group {
				m.armValues = append(m.armValues, arm[j].v)
			}
		}
	}
	return m.armValues[start:len(m.armValues):len(m.armValues)]
}

// join gives join its params: up to a random bound, each typed by a value
// of a random predecessor's arm.
func (m *merger) join(b *ir.Builder, join ir.Block, r *rng) {
	f := m.f
	preds := m.cfg.Preds(join)
	want := 1 + r.intn(maxMergeParams)
	next := reuse.Zeroed(m.next, len(preds))
	passed := emptied(m.passed, len(preds))
	args := reuse.Zeroed(m.args, len(preds))
	m.next, m.passed, m.args = next, passed, args
	for added, tries := 0, 0; added < want && tries < 3*maxMergeParams; tries++ {
		i := r.intn(len(preds))
		values := m.armOf(preds[i], join)
		for next[i] < len(values) && slices.Contains(passed[i], values[next[i]]) {
			next[i]++
		}
		if next[i] == len(values) {
			continue
		}
		v := values[next[i]]
		next[i]++
		t := f.Values[v].Type
		args[i] = v
		ok := true
		for q := range preds {
			if q != i {
				if args[q] = m.supply(preds[q], join, t, passed[q]); args[q] == ir.NoValue {
					ok = false
					break
				}
			}
		}
		if !ok {
			continue
		}
		if added == 0 {
			m.edits.roomForParams(f, join, want)
		}
		b.AppendBlockParam(join, t)
		for q := range preds {
			passed[q] = append(passed[q], args[q])
		}
		added++
	}
	for q, p := range preds {
		if len(passed[q]) > 0 {
			calls := m.edits.passTo(f, terminator(f, p), join, passed[q]...)
			for _, v := range passed[q] {
				m.uses[v] += int32(calls)
			}
		}
	}
}

// armOf returns pred's arm values towards join, best first.
func (m *merger) armOf(pred, join ir.Block) []ir.Value {
	for _, a := range m.arms[pred] {
		if a.join == join {
			return a.values
		}
	}
	return nil
}

// supply returns the value pred passes for a param of type t: the best of
// its arm not passed yet, else the most recent value of type t that
// dominates its end; NoValue when there is none.
func (m *merger) supply(pred, join ir.Block, t ir.Type, passed []ir.Value) ir.Value {
	for _, v := range m.armOf(pred, join) {
		if m.f.Values[v].Type == t && !slices.Contains(passed, v) {
			return v
		}
	}
	for _, top := range m.tops[pred] {
		if top.t == t {
			return top.v
		}
	}
	return ir.NoValue
}
