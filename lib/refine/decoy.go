package refine

import (
	"slices"

	"cliff/lib/analysis"
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
	dc := &decoyer{f: f, cfg: cfg, dt: a.DomTree(), r: r}
	var sources []ir.Block
	for _, b := range rpo {
		if len(f.Blocks[b].Insts) > 1 {
			sources = append(sources, b)
		}
	}
	if len(sources) == 0 {
		return
	}
	want := 1 + r.intn(min(maxDecoys, 1+len(rpo)/6))
	var sites []*decoySite
	taken := make(map[ir.Block]bool)
	for try := 0; len(sites) < want && try < 4*want; try++ {
		a := rpo[r.intn(len(rpo))]
		insts := f.Blocks[a].Insts
		if taken[a] || len(insts) == 0 || hasHandlers(f, a) {
			continue
		}
		if s := dc.site(a, r.intn(len(insts)), sources); s != nil {
			taken[a] = true
			sites = append(sites, s)
		}
	}
	// Plans refer to the function as it was; splitting keeps every
	// dominance the plans rely on (see above), so they apply one by one.
	for _, s := range sites {
		dc.apply(s)
	}
}

type decoyer struct {
	f   *ir.Function
	cfg *analysis.CFG
	dt  *analysis.DomTree
	r   *rng
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
	avail, cond := dc.dominating(a, at)
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
		if s.body = dc.plan(body, a, at, avail); len(s.body) > 0 {
			return s
		}
	}
	return nil
}

// dominating returns the values that dominate the instruction at index at
// of a, by type, most recent first (at most decoySiteVals of each), and an
// integer scalar for the opaque condition: a function param if there is
// one, else the most recent call result or other non-constant integer.
func (dc *decoyer) dominating(a ir.Block, at int) (map[ir.Type][]ir.Value, ir.Value) {
	f := dc.f
	avail := make(map[ir.Type][]ir.Value)
	var params, others []ir.Value
	add := func(v ir.Value) {
		if !candidate(f, v) {
			return
		}
		t := f.Values[v].Type
		if len(avail[t]) < decoySiteVals {
			avail[t] = append(avail[t], v)
		}
		if !t.IsInt() || t.IsVector() || t.Bits() > 64 {
			return
		}
		vd := &f.Values[v]
		switch {
		case vd.Kind == ir.DefParam && vd.Block == dc.cfg.Entry():
			params = append(params, v)
		case vd.Kind == ir.DefResult && len(others) < decoySiteVals:
			others = append(others, v)
		}
	}
	for b, end := a, at; b != ir.NoBlock; b = dc.dt.Idom(b) {
		insts := f.Blocks[b].Insts
		if b != a {
			end = len(insts)
		}
		for k := end - 1; k >= 0; k-- {
			for _, v := range slices.Backward(f.Insts[insts[k]].Results) {
				add(v)
			}
		}
		for _, v := range slices.Backward(f.Blocks[b].Params) {
			add(v)
		}
	}
	switch {
	case len(params) > 0:
		return avail, params[dc.r.intn(len(params))]
	case len(others) > 0:
		return avail, others[dc.r.intn(min(len(others), 3))]
	}
	return avail, ir.NoValue
}

// plan copies body for a decoy at (a, at), or returns nil when some
// operand cannot be bound there.
func (dc *decoyer) plan(body []ir.Inst, a ir.Block, at int, avail map[ir.Type][]ir.Value) []copiedInst {
	f := dc.f
	site := f.Blocks[a].Insts[at]
	defined := make(map[ir.Value]bool)
	var out []copiedInst
	for _, inst := range body {
		d := &f.Insts[inst]
		if d.Op.IsCall() && len(d.Results) > 0 {
			continue
		}
		c := copiedInst{from: inst, args: make([]copiedArg, len(d.Args))}
		for k, v := range d.Args {
			v = f.Resolve(v)
			switch {
			case defined[v]:
				c.args[k] = copiedArg{v: v, copied: true}
			case !ub.IsScaffold(d) && ub.FreeOperand(f, inst, k):
				c.args[k].v = dc.rebind(v, c.args[:k], avail)
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
		for _, v := range d.Results {
			defined[v] = true
		}
		out = append(out, c)
	}
	return out
}

// rebind returns a random recent value of v's type among those available,
// preferring one the instruction does not use yet; NoValue when there is
// none.
func (dc *decoyer) rebind(v ir.Value, earlier []copiedArg, avail map[ir.Type][]ir.Value) ir.Value {
	cands := avail[dc.f.Values[v].Type]
	cands = cands[:min(len(cands), decoyChoices)]
	fresh := make([]ir.Value, 0, len(cands))
	for _, c := range cands {
		if !slices.ContainsFunc(earlier, func(a copiedArg) bool { return !a.copied && a.v == c }) {
			fresh = append(fresh, c)
		}
	}
	switch {
	case len(fresh) > 0:
		return fresh[dc.r.intn(len(fresh))]
	case len(cands) > 0:
		return cands[dc.r.intn(len(cands))]
	}
	return ir.NoValue
}

// apply splits the site's block, adds the opaque branch and builds the
// decoy block.
func (dc *decoyer) apply(s *decoySite) {
	f := dc.f
	b := ir.NewBuilder(f)
	rest, dec := b.CreateBlock(), b.CreateBlock()
	b.SwitchToBlock(rest)
	b.SwitchToBlock(dec)
	// rest goes right after the split block, dec stays at the end.
	old := f.Layout[:len(f.Layout)-2]
	k := slices.Index(old, s.block) + 1
	layout := make([]ir.Block, 0, len(f.Layout))
	layout = append(layout, old[:k]...)
	layout = append(layout, rest)
	layout = append(layout, old[k:]...)
	f.Layout = append(layout, dec)
	if dc.r.chance(1, 2) {
		b.SetCold(dec)
	}

	insts := f.Blocks[s.block].Insts
	f.Blocks[rest].Insts = slices.Clone(insts[s.at:])
	f.Blocks[s.block].Insts = insts[:s.at:s.at]
	b.SwitchToBlock(s.block)
	t := ub.OpaqueTrue(b, s.cond)
	ub.Scaffold(b, func() ir.Inst { return b.Brif(t, rest, nil, dec, nil) })

	b.SwitchToBlock(dec)
	copies := make(map[ir.Value]ir.Value)
	for _, c := range s.body {
		src := &f.Insts[c.from]
		d := *src
		d.Results = nil
		d.Args = make([]ir.Value, len(c.args))
		for k, a := range c.args {
			d.Args[k] = a.v
			if a.copied {
				d.Args[k] = copies[a.v]
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
			copies[orig] = v
		}
	}
	b.Jump(rest)
}
