package refine

import (
	"slices"

	"cliff/lib/analysis"
	"cliff/lib/internal/reuse"
	"cliff/lib/ir"
	"cliff/lib/ub"
)

const (
	maxDecoys     = 3 // per function
	decoySources  = 4 // source blocks tried per site
	decoyChoices  = 4 // recent values of a type a copied operand is rebound among
	decoySiteVals = 8 // recent values of each type gathered at a site
)

// decoy adds Rustlantis-style decoy blocks. It splits a block A before a
// random instruction: A's tail moves to a new block A2, and A now ends in
// `brif t, A2, D`, where t = ub.OpaqueTrue(x) for a run-time integer x (a
// function param when there is one), so D never runs but the compiler
// cannot tell. D holds a copy of an existing block's body (A's own tail or
// another block) and jumps to A2; the later passes make A2 a join that D
// passes values to, so the copy's code stays in the compiled function.
//
// The copy must be valid SSA and free of undefined behaviour although it
// never runs. Values the copy defines are used in place of the originals.
// Every other operand must dominate the split point: free operands
// (ub.FreeOperand) are rebound to recent dominating values of their type;
// operands chosen for safety and all operands of scaffold instructions
// keep their value, and when it does not dominate the split point that
// source block is not copied. Calls with results are left out of copies:
// a call's results must stay used, and those of a copy could not be.
//
// The opaque condition and the brif are scaffold: later passes do not
// rebind them. Splitting A moves its terminator, scaffold or not,
// unchanged into A2; what A dominated, A2 now dominates, so every use
// elsewhere stays dominated.
func decoy(f *ir.Function, r *rng, a *analyses) {
	cfg := a.CFG()
	rpo := cfg.RPO()
	if len(rpo) == 0 {
		return
	}
	dc := &a.scratch.decoyer
	dc.reset(a, r)
	sources := dc.sources
	for _, b := range rpo {
		if len(f.Blocks[b].Insts) > 1 {
			sources = append(sources, b)
		}
	}
	dc.sources = sources
	if len(sources) == 0 {
		return
	}
	want := 1 + r.intn(min(maxDecoys, 1+len(rpo)/6))
	var sites []*decoySite
	for try := 0; len(sites) < want && try < 4*want; try++ {
		a := rpo[r.intn(len(rpo))]
		insts := f.Blocks[a].Insts
		if slices.ContainsFunc(sites, func(s *decoySite) bool { return s.block == a }) || len(insts) == 0 || hasHandlers(f, a) {
			continue
		}
		if s := dc.site(a, r.intn(len(insts)), sources); s != nil {
			sites = append(sites, s)
		}
	}
	if len(sites) == 0 {
		return
	}
	// Plans refer to the function as it was; splitting keeps every
	// dominance the plans rely on (see above), so they apply one by one.
	f.Blocks = withRoom(f.Blocks, 2*len(sites)) // for the blocks apply creates
	dc.copyOf = reuse.Zeroed(dc.copyOf, len(f.Values))
	b := a.scratch.builderFor(f)
	for _, s := range sites {
		rest, dec := dc.apply(b, s)
		// The split changes a few blocks: the CFG and dominator tree
		// follow it rather than being computed afresh for merge.
		if !a.haveDT || !a.cfg.SplitBlock(f, s.block, rest, dec, s.at) {
			a.haveCFG, a.haveDT = false, false
		}
	}
	if a.haveDT {
		a.dt.Update()
	}
}

type decoyer struct {
	f       *ir.Function
	a       *analyses
	cfg     *analysis.CFG
	dt      *analysis.DomTree
	r       *rng
	sources []ir.Block
	avail   byType     // by type: the values dominating a site, most recent first
	params  []ir.Value // the function params among them
	others  []ir.Value // the other results among them
	fresh   []ir.Value // rebind's choices
	// plan marks the values the copy defines: definedBy[v] == plans when
	// the current plan's copy defines v.
	definedBy []int32
	plans     int32
	// The plans' copies and their operands, until the next function.
	copies []copiedInst
	args   []copiedArg
	copyOf []ir.Value // by value: its copy in the decoy block apply is building
	edits  *edits
	probe  []ir.Value // a copy's operands as the mask check sees them
}

// reset readies dc for a's function.
func (dc *decoyer) reset(a *analyses, r *rng) {
	dc.f, dc.a, dc.cfg, dc.dt, dc.r, dc.edits = a.f, a, a.CFG(), a.DomTree(), r, &a.scratch.edits
	dc.sources = dc.sources[:0]
	dc.copies, dc.args = dc.copies[:0], dc.args[:0]
	dc.definedBy = reuse.Zeroed(dc.definedBy, len(a.f.Values))
	dc.plans = 0
}

// A decoySite is a planned decoy: split block at index at, branch on
// OpaqueTrue(cond), copy body into the decoy block.
type decoySite struct {
	block ir.Block
	at    int
	cond  ir.Value
	body  []copiedInst
}

type copiedInst struct {
	from ir.Inst
	args []copiedArg
}

// copiedArg is an operand of a copy: a value that dominates the split
// point, or (copied) an original result defined earlier in the copy.
type copiedArg struct {
	v      ir.Value
	copied bool
}

// site plans a decoy splitting a before its instruction at, or returns nil.
func (dc *decoyer) site(a ir.Block, at int, sources []ir.Block) *decoySite {
	f := dc.f
	cond := dc.dominating(a, at)
	if cond == ir.NoValue {
		return nil
	}
	s := &decoySite{block: a, at: at, cond: cond}
	for try := range decoySources {
		var body []ir.Inst
		if try == 0 && dc.r.chance(1, 2) {
			insts := f.Blocks[a].Insts
			body = insts[at : len(insts)-1] // a's own tail, as if the branch went both ways
		} else {
			e := sources[dc.r.intn(len(sources))]
			insts := f.Blocks[e].Insts
			body = insts[:len(insts)-1]
		}
		if s.body = dc.plan(body, a, at); len(s.body) > 0 {
			return s
		}
	}
	return nil
}

// dominating gathers in dc.avail the values that dominate the
// instruction at index at of a, by type, most recent first (at most
// decoySiteVals of each), and returns an integer scalar for the opaque
// condition: a function param if there is one, else the most recent call
// result or other non-constant integer; NoValue when there is none.
func (dc *decoyer) dominating(a ir.Block, at int) ir.Value {
	f := dc.f
	dc.avail.reset()
	dc.params, dc.others = dc.params[:0], dc.others[:0]
	for b, end := a, at; b != ir.NoBlock; b = dc.dt.Idom(b) {
		insts := f.Blocks[b].Insts
		if b != a {
			end = len(insts)
		}
		for k := end - 1; k >= 0; k-- {
			for _, v := range slices.Backward(f.Insts[insts[k]].Results) {
				dc.addDominating(v)
			}
		}
		for _, v := range slices.Backward(f.Blocks[b].Params) {
			dc.addDominating(v)
		}
	}
	switch {
	case len(dc.params) > 0:
		return dc.params[dc.r.intn(len(dc.params))]
	case len(dc.others) > 0:
		return dc.others[dc.r.intn(min(len(dc.others), 3))]
	}
	return ir.NoValue
}

// addDominating adds v, the next most recent value dominating a site, to
// what dominating gathers.
func (dc *decoyer) addDominating(v ir.Value) {
	f := dc.f
	if !dc.a.candidate(v) {
		return
	}
	t := f.Values[v].Type
	if len(dc.avail.of(t)) < decoySiteVals {
		dc.avail.add(t, v)
	}
	if !t.IsInt() || t.IsVector() || t.Bits() > 64 {
		return
	}
	vd := &f.Values[v]
	switch {
	case vd.Kind == ir.DefParam && vd.Block == dc.cfg.Entry():
		dc.params = append(dc.params, v)
	case vd.Kind == ir.DefResult && len(dc.others) < decoySiteVals:
		dc.others = append(dc.others, v)
	}
}

// plan copies body for a decoy at (a, at), binding free operands among
// dc.avail, or returns nil when some operand cannot be bound there.
func (dc *decoyer) plan(body []ir.Inst, a ir.Block, at int) []copiedInst {
	f := dc.f
	site := f.Blocks[a].Insts[at]
	dc.plans++
	start := len(dc.copies)
	for _, inst := range body {
		d := &f.Insts[inst]
		if d.Op.IsCall() && len(d.Results) > 0 {
			continue
		}
		c := copiedInst{from: inst, args: dc.copiedArgs(len(d.Args))}
		for k, v := range d.Args {
			v = f.Resolve(v)
			switch {
			case dc.defines(v):
				c.args[k] = copiedArg{v: v, copied: true}
			case !ub.IsScaffold(d) && ub.FreeOperand(f, inst, k) && !dc.a.mask.Inner(d.Op):
				c.args[k].v = dc.rebind(v, c.args[:k])
				if c.args[k].v == ir.NoValue && dc.dt.ValueDominates(f, v, site, a) {
					c.args[k].v = v
				}
				if c.args[k].v == ir.NoValue {
					return nil
				}
			case dc.dt.ValueDominates(f, v, site, a):
				c.args[k].v = v
			default:
				return nil
			}
		}
		if dc.masked(d, c.args) {
			return nil
		}
		for _, v := range d.Results {
			dc.definedBy[v] = dc.plans
		}
		dc.copies = append(dc.copies, c)
	}
	return dc.copies[start:len(dc.copies):len(dc.copies)]
}

// masked reports whether the copy of d with operands args would match a
// mask pattern. A copied operand stands for the original value: its copy
// has the same opcode and types, and so, by induction, the same producers
// as far as the patterns look (plan rebinds no operand of an opcode a
// pattern looks into, Patterns.Inner).
func (dc *decoyer) masked(d *ir.InstData, args []copiedArg) bool {
	mask := dc.a.mask
	if !mask.Roots(d.Op) {
		return false
	}
	dc.probe = dc.probe[:0]
	for _, a := range args {
		dc.probe = append(dc.probe, a.v)
	}
	probe := *d
	probe.Args = dc.probe
	_, masked := mask.Match(dc.f, &probe)
	return masked
}

// copiedArgs returns n zero operands for a copied instruction, from
// memory that lasts until the next function.
func (dc *decoyer) copiedArgs(n int) []copiedArg {
	if cap(dc.args)-len(dc.args) < n {
		dc.args = make([]copiedArg, 0, max(n, 2*cap(dc.args)))
	}
	start := len(dc.args)
	dc.args = dc.args[:start+n]
	clear(dc.args[start:])
	return dc.args[start : start+n : start+n]
}

// defines reports whether the copy being planned defines v.
func (dc *decoyer) defines(v ir.Value) bool {
	return int(v) < len(dc.definedBy) && dc.definedBy[v] == dc.plans
}

// rebind returns a random recent value of v's type among those available,
// preferring one the instruction does not use yet; NoValue when there is
// none.
func (dc *decoyer) rebind(v ir.Value, earlier []copiedArg) ir.Value {
	cands := dc.avail.of(dc.f.Values[v].Type)
	cands = cands[:min(len(cands), decoyChoices)]
	fresh := dc.fresh[:0]
	for _, c := range cands {
		if !usedAlready(earlier, c) {
			fresh = append(fresh, c)
		}
	}
	dc.fresh = fresh
	switch {
	case len(fresh) > 0:
		return fresh[dc.r.intn(len(fresh))]
	case len(cands) > 0:
		return cands[dc.r.intn(len(cands))]
	}
	return ir.NoValue
}

// usedAlready reports whether the copy's operands bind v (not as a copied
// result).
func usedAlready(args []copiedArg, v ir.Value) bool {
	for _, a := range args {
		if !a.copied && a.v == v {
			return true
		}
	}
	return false
}

// opaqueBranchInsts is the number of instructions of the opaque branch:
// ub.OpaqueTrue's six and the brif. The split block's list gets room for
// them at once.
const opaqueBranchInsts = 7

// apply splits the site's block, adds the opaque branch and builds the
// decoy block. It returns the block holding the split block's tail and
// the decoy block.
func (dc *decoyer) apply(b *ir.Builder, s *decoySite) (rest, dec ir.Block) {
	f := dc.f
	rest, dec = b.CreateBlock(), b.CreateBlock()
	b.SwitchToBlock(rest)
	b.SwitchToBlock(dec)
	// rest goes right after the split block, dec stays at the end (where
	// SwitchToBlock put both).
	layout := slices.Delete(f.Layout, len(f.Layout)-2, len(f.Layout)-1)
	k := slices.Index(layout, s.block) + 1
	f.Layout = slices.Insert(layout, k, rest)
	if dc.r.chance(1, 2) {
		b.SetCold(dec)
	}

	insts := f.Blocks[s.block].Insts
	f.Blocks[rest].Insts = append(dc.edits.insts.take(len(insts)-s.at), insts[s.at:]...)
	f.Blocks[s.block].Insts = append(dc.edits.insts.take(s.at+opaqueBranchInsts), insts[:s.at]...)
	f.Blocks[dec].Insts = dc.edits.insts.take(len(s.body) + 1) // and the jump
	b.SwitchToBlock(s.block)
	t := ub.OpaqueTrue(b, s.cond)
	ub.Scaffold(b, func() ir.Inst { return b.Brif(t, rest, nil, dec, nil) })

	b.SwitchToBlock(dec)
	for _, c := range s.body {
		src := &f.Insts[c.from]
		d := *src
		d.Results = nil
		d.Args = dc.edits.values.take(len(c.args))
		for _, a := range c.args {
			if a.copied {
				d.Args = append(d.Args, dc.copyOf[a.v])
			} else {
				d.Args = append(d.Args, a.v)
			}
		}
		d.Bytes = slices.Clone(src.Bytes)
		d.DebugTags = slices.Clone(src.DebugTags)
		d.StackMap = slices.Clone(src.StackMap)
		inst := b.Append(d)
		// The copy's results have the original's types, including those
		// the table does not derive from the controlling type.
		results, origs := f.Insts[inst].Results, f.Insts[c.from].Results
		for j, v := range results[:min(len(results), len(origs))] {
			orig := origs[j]
			f.Values[v].Type = f.Values[orig].Type
			dc.copyOf[orig] = v
		}
	}
	b.Jump(rest)
	return rest, dec
}
