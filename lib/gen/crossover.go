package gen

import (
	"cliff/lib/ir"
	"cliff/lib/record"
)

// Crossover, after FLUX: a case breeds two functions of Cranelift's
// filetests (Options.Parents), so that code each test checks alone meets
// new neighbours. A parent is never copied: it is re-instantiated
// instruction by instruction through emit, as a corpus snippet is
// (corpus.go), so the profile, the mask, the guards of partial operations
// and the canonical NaNs apply to it as to any generated instruction, and
// what the case cannot take (loads and stores through pointer params
// become accesses to the function's own stack slots, calls out of the
// module and other effects are left out) leaves its uses to take values
// from scope. Its CFG is kept: blocks, params and branches, returns and
// other ends becoming jumps to the region's exit, whose params are its
// returns, so a parent is a single-entry single-exit region like the
// generator's own; its blocks are filled in the order of the parent's
// dominator tree, so every value mapped or chosen dominates its use.
// Parents with loops are refused (parents.go): cliff bounds loops by its
// scaffold counters, which a parent's back edge lacks.
//
// The three ways to cross, each a swarm switch:
//   - chain: parent A's returns feed parent B's params, type-matched;
//   - graft: parent A is placed inside parent B, in one of B's blocks
//     (past its entry when B has branches), its params bound to the values
//     live there, and B's later instructions take A's returns in place of
//     operands of their type;
//   - call: parent A becomes a function of the module (its signature
//     changed to the types the case passes: params and returns it cannot
//     take dropped), which parent B calls from inside.

// Crossover ways.
const (
	crossChain = iota
	crossGraft
	crossCall
	numCrossWays
)

// crossWayFeatures are the swarm switches of the ways, by way.
var crossWayFeatures = [numCrossWays]string{"crossover_chain", "crossover_graft", "crossover_call"}

// crossLeaf is the probability that a leaf region of a case with the
// crossover feature on is a crossover instead of a fill, and
// maxCrossSites the most crossovers a case has: a few pairs of parents,
// so that a finding names few filetests (FLUX crosses two), and cases
// cost about what plain ones do.
const (
	crossLeaf     = 0.15
	maxCrossSites = 3
)

// Stream keys of crossover's choices.
var crossKey, crossCalleeKey = tag("crossover"), tag("crossover:callee")

// graftPlan says what crossRegion puts inside the parent it instantiates:
// another parent (graft) or a call of the crossover callee (call), before
// instruction at of block.
type graftPlan struct {
	block ir.Block // of the host parent
	at    int
	inner *parent // graft: the parent placed there
	call  bool    // call: a call of the case's crossover callee
}

// pickParent draws a parent the case can take (its types in use, its
// blocks within the function's budget), or nil.
func (c *caseGen) pickParent(r *rng, room int) *parent {
	ps := c.g.opts.Parents
	if ps == nil {
		return nil
	}
	for tries := 0; tries < 8; tries++ {
		p := &ps.funcs[r.intn(len(ps.funcs))]
		if p.types&^c.typeSet == 0 && p.blocks()+2 <= room {
			return p
		}
	}
	return nil
}

// noteParent adds p to the case's provenance, once.
func (c *caseGen) noteParent(p *parent) {
	for _, q := range c.parents {
		if q == p.Source {
			return
		}
	}
	c.parents = append(c.parents, p.Source)
}

// crossWays lists the ways the case's swarm has on for function fg.
func (fg *funcGen) crossWays() []int {
	var ways []int
	for w, name := range crossWayFeatures {
		if !fg.c.sw.on[name] || w == crossCall && (fg.c.crossCallee < 0 || fg.idx >= fg.c.crossCallee) {
			continue
		}
		ways = append(ways, w)
	}
	return ways
}

// crossover fills a leaf with a crossover of two parents; it reports
// false when the case has no way or no parent that fits, and the leaf is
// then filled as usual.
func (fg *funcGen) crossover(r *rng) bool {
	if fg.c.crossSites >= maxCrossSites {
		return false
	}
	ways := fg.crossWays()
	if len(ways) == 0 {
		return false
	}
	way := ways[r.intn(len(ways))]
	room := fg.maxBlocks() - fg.blocks
	host := fg.c.pickParent(r, room)
	if host == nil {
		return false
	}
	room -= host.blocks() + 1
	switch way {
	case crossChain:
		other := fg.c.pickParent(r, room)
		if other == nil {
			return false
		}
		outs := fg.crossRegion(r, other, nil, nil)
		fg.crossRegion(r, host, outs, nil)
		fg.c.noteParent(other)
	case crossGraft:
		inner := fg.c.pickParent(r, room)
		if inner == nil {
			return false
		}
		fg.crossRegion(r, host, nil, host.graftPoint(r, &graftPlan{inner: inner}))
		fg.c.noteParent(inner)
	case crossCall:
		fg.crossRegion(r, host, nil, host.graftPoint(r, &graftPlan{call: true}))
	}
	fg.c.noteParent(host)
	fg.c.crossSites++
	return true
}

// graftPoint chooses where plan goes in p: a block past the entry when p
// branches ("inside a branch"), before one of its instructions.
func (p *parent) graftPoint(r *rng, plan *graftPlan) *graftPlan {
	rpo := p.RPO
	k := 0
	if len(rpo) > 1 {
		k = r.between(1, len(rpo)-1)
	}
	plan.block = rpo[k]
	body := len(p.Func.Blocks[plan.block].Insts) - 1 // the terminator stays last
	plan.at = r.between(0, body)
	return plan
}

// crossInst is the instantiation of one parent: its values mapped to the
// case's, its blocks to the new ones.
type crossInst struct {
	fg     *funcGen
	r      *rng
	p      *parent
	vals   []ir.Value // by parent value; NoValue when unmapped
	blocks []ir.Block // by parent block
	// kept are, per parent block, the indices of its params the new
	// block has (those of types the case uses).
	kept [][]int
	exit ir.Block
	// exitTypes are the types of the exit's params: the parent's returns
	// the case uses, at returnIdx of the parent's returns.
	exitTypes []ir.Type
	returnIdx []int
	plan      *graftPlan
	// grafted are the values a graft or call returned: later
	// instructions of the host take them for operands of their type.
	grafted []ir.Value
}

// crossRegion instantiates parent p as a region from the current block,
// its entry params bound to the values given (by type, each once) or
// chosen from scope, with plan inside it (nil: nothing). It leaves the
// builder in the region's exit block and returns the exit's params, the
// parent's returns.
func (fg *funcGen) crossRegion(r *rng, p *parent, given []ir.Value, plan *graftPlan) []ir.Value {
	f := p.Func
	x := &crossInst{fg: fg, r: r, p: p, vals: make([]ir.Value, len(f.Values)), blocks: make([]ir.Block, len(f.Blocks)),
		kept: make([][]int, len(f.Blocks)), plan: plan}
	for v := range x.vals {
		x.vals[v] = ir.NoValue
	}
	entry := p.RPO[0]
	used := make([]bool, len(given))
	for k, v := range f.Blocks[entry].Params {
		t := f.Values[v].Type
		if !fg.c.typeOK(t) {
			continue
		}
		x.vals[v] = x.bindParam(k, t, given, used)
	}
	for _, b := range p.RPO {
		x.blocks[b] = fg.newBlock()
		if b == entry {
			continue
		}
		for k, v := range f.Blocks[b].Params {
			if fg.c.typeOK(f.Values[v].Type) {
				x.kept[b] = append(x.kept[b], k)
			}
		}
	}
	x.exit = fg.newBlock()
	for k, ret := range f.Sig.Returns {
		if fg.c.typeOK(ret.Type) {
			x.exitTypes = append(x.exitTypes, ret.Type)
			x.returnIdx = append(x.returnIdx, k)
		}
	}
	fg.jump(x.blocks[entry])
	m := fg.sc.mark()
	x.block(entry)
	fg.sc.pop(m)
	fg.enterMerge(x.exit, x.exitTypes)
	return fg.f.Blocks[x.exit].Params
}

// bindParam chooses the value of the parent's entry param k, of type t: a
// given value of its type not yet used (chain), else in %main, half of
// the time when the parent has run lines, %main's own param of that
// type, whose inputs then come from those run lines (inputHints), else a
// value in scope.
func (x *crossInst) bindParam(k int, t ir.Type, given []ir.Value, used []bool) ir.Value {
	fg := x.fg
	for i, v := range given {
		if !used[i] && fg.f.Values[v].Type == t {
			used[i] = true
			return v
		}
	}
	if fg.idx == 0 && len(x.p.Runs) > 0 && x.r.chance(0.5) {
		if v, ok := fg.c.hintParam(fg.f, x.p, k, t); ok {
			return v
		}
	}
	return fg.operand(x.r, t)
}

// block instantiates parent block b and, below it, the blocks it
// immediately dominates: what b defines stays in scope for them, and
// leaves it after.
func (x *crossInst) block(b ir.Block) {
	fg, f := x.fg, x.p.Func
	nb := x.blocks[b]
	fg.b.SwitchToBlock(nb)
	kept := x.kept[b]
	fg.reserveParams(nb, len(kept))
	for _, k := range kept {
		v := f.Blocks[b].Params[k]
		t := f.Values[v].Type
		nv := fg.b.AppendBlockParam(nb, t)
		fg.sc.push(nv, t)
		x.vals[v] = nv
	}
	body := f.Blocks[b].Insts
	for n, i := range body[:len(body)-1] {
		if x.plan != nil && x.plan.block == b && x.plan.at == n {
			x.graft()
		}
		x.inst(i)
	}
	if x.plan != nil && x.plan.block == b && x.plan.at == len(body)-1 {
		x.graft()
	}
	x.terminator(body[len(body)-1])
	for _, child := range x.p.DomChildren[b] {
		m := fg.sc.mark()
		x.block(child)
		fg.sc.pop(m)
	}
	if x.plan != nil && x.plan.block == b {
		x.grafted = nil // out of scope past the blocks b dominates
	}
}

// graft carries out the plan at the current position: the inner parent
// as a region of its own, or a call of the crossover callee.
func (x *crossInst) graft() {
	fg := x.fg
	if x.plan.inner != nil {
		x.grafted = fg.crossRegion(x.r, x.plan.inner, nil, nil)
		return
	}
	j := fg.c.crossCallee
	if fg.cost+fg.trip*(fg.c.funcs[j].cost+1) > maxDynamic {
		return
	}
	fr, _ := fg.ref(j)
	args := fg.args(x.r, j)
	inst := fg.b.Append(ir.InstData{Op: ir.OpCall, Func: fr, Args: args})
	fg.cost += fg.trip * fg.c.funcs[j].cost
	base := fg.sc.mark()
	x.grafted = fg.define(inst)
	for k, v := range x.grafted {
		fg.unused = append(fg.unused, scoped{pos: base + k, v: v})
	}
}

// value is the case's value for the parent's operand v: a graft's result
// of its type a third of the time after a graft, else v's mapping, or
// NoValue when v has none (its definition was left out): emit then
// chooses.
func (x *crossInst) value(v ir.Value) ir.Value {
	v = x.p.Func.Resolve(v)
	nv := ir.NoValue
	if int(v) < len(x.vals) {
		nv = x.vals[v]
	}
	if len(x.grafted) > 0 && x.r.chance(1.0/3) {
		t := x.p.Func.Values[v].Type
		for _, g := range x.grafted {
			if x.fg.f.Values[g].Type == t {
				return g
			}
		}
	}
	return nv
}

// inst re-instantiates one parent instruction through emit (or, for a
// memory access, as an access to one of the function's stack slots) and
// maps its results.
func (x *crossInst) inst(i ir.Inst) {
	fg, d := x.fg, &x.p.Func.Insts[i]
	ot := opType{d.Op, d.CtrlType}
	var res []ir.Value
	switch {
	case computation(d.Op, false):
		to, ok := fg.instantiable(x.r, ot)
		if !ok {
			return
		}
		args := make([]ir.Value, len(d.Args))
		for k, a := range d.Args {
			args[k] = x.value(a)
		}
		var imms *ir.InstData
		if to == ot {
			imms = &ir.InstData{Imm: d.Imm, FloatBits: d.FloatBits, IntCC: d.IntCC, FloatCC: d.FloatCC, Bytes: d.Bytes}
		}
		res = fg.emit(x.r, to, fg.fitArgs(to, args), imms)
	case d.Op.Info().Flags&(ir.FlagCanLoad|ir.FlagCanStore) != 0 && len(fg.slots) > 0:
		for _, a := range fg.c.memAccesses() {
			if a.ot == ot {
				res = fg.memoryAccess(x.r, a)
				break
			}
		}
	}
	if len(res) != len(d.Results) {
		return
	}
	for k, v := range d.Results {
		if fg.f.Values[res[k]].Type == x.p.Func.Values[v].Type {
			x.vals[v] = res[k]
		}
	}
}

// args are the values passed to the new block of parent block dest, for
// the parent's block call bc: the kept params' args mapped, or chosen.
func (x *crossInst) args(dest ir.Block, bc ir.BlockCall) []ir.Value {
	f := x.p.Func
	kept := x.kept[dest]
	out := make([]ir.Value, len(kept))
	for n, k := range kept {
		t := f.Values[f.Blocks[dest].Params[k]].Type
		out[n] = ir.NoValue
		if k < len(bc.Args) && bc.Args[k].Kind == ir.ArgValue {
			if v := x.value(bc.Args[k].Value); v != ir.NoValue && x.fg.f.Values[v].Type == t {
				out[n] = v
			}
		}
		if out[n] == ir.NoValue {
			out[n] = x.fg.operand(x.r, t)
		}
	}
	return out
}

// terminator ends the current block as parent instruction i ends its
// block: jump, brif and br_table to the blocks' instances, anything else
// (a return, a tail call, a trap) a jump to the exit passing the returns.
// Every operand is chosen before the branch is appended, since choosing
// one may append instructions.
func (x *crossInst) terminator(i ir.Inst) {
	fg, f := x.fg, x.p.Func
	d := &f.Insts[i]
	switch d.Op {
	case ir.OpJump:
		dest := d.Dests[0].Block
		fg.jump(x.blocks[dest], x.args(dest, d.Dests[0])...)
	case ir.OpBrif:
		cond := x.value(d.Args[0])
		if cond == ir.NoValue {
			cond = fg.condition(x.r)
		}
		then, els := d.Dests[0].Block, d.Dests[1].Block
		thenArgs, elsArgs := x.args(then, d.Dests[0]), x.args(els, d.Dests[1])
		fg.brif(cond, x.blocks[then], thenArgs, x.blocks[els], elsArgs)
	case ir.OpBrTable:
		// Any index is safe: past the table it takes the default.
		idx := x.value(d.Args[0])
		if idx == ir.NoValue {
			idx = fg.operand(x.r, f.Values[f.Resolve(d.Args[0])].Type)
		}
		args := make([][]ir.Value, len(d.Dests))
		for k, bc := range d.Dests {
			args[k] = x.args(bc.Block, bc)
		}
		dests := fg.dests(len(d.Dests))
		for k, bc := range d.Dests {
			dests[k] = fg.blockCall(x.blocks[bc.Block], args[k])
		}
		fg.b.Append(ir.InstData{Op: ir.OpBrTable, Args: fg.list(idx), Dests: dests})
	default:
		out := make([]ir.Value, len(x.exitTypes))
		for n, t := range x.exitTypes {
			out[n] = ir.NoValue
			if k := x.returnIdx[n]; d.Op == ir.OpReturn && k < len(d.Args) {
				if v := x.value(d.Args[k]); v != ir.NoValue && fg.f.Values[v].Type == t {
					out[n] = v
				}
			}
			if out[n] == ir.NoValue {
				out[n] = fg.operand(x.r, t)
			}
		}
		fg.jump(x.exit, out...)
	}
}

// hintParam returns %main's param of type t (of function f, %main) for
// the parent's entry param k, and makes the parent's run lines the
// inputs of that param where no other parent claimed it (inputHints).
func (c *caseGen) hintParam(f *ir.Function, p *parent, k int, t ir.Type) (ir.Value, bool) {
	var column []record.Value
	name := typeName(t)
	for _, run := range p.Runs {
		if k < len(run) && run[k].Type == name {
			column = append(column, run[k])
		}
	}
	if len(column) == 0 {
		return ir.NoValue, false
	}
	for n, param := range f.Sig.Params {
		if param.Type != t {
			continue
		}
		if c.hints == nil {
			c.hints = map[int][]record.Value{}
		}
		if _, claimed := c.hints[n]; !claimed {
			c.hints[n] = column
		}
		return f.Blocks[f.Layout[0]].Params[n], true
	}
	return ir.NoValue, false
}

// crossSignature is the changed signature of the crossover callee of
// parent p: its entry params and returns of the types the case passes
// across calls, in order; at least one return, so that its work shows.
func (c *caseGen) crossSignature(r *rng, p *parent) (params, returns []ir.AbiParam) {
	f := p.Func
	for _, v := range f.Blocks[p.RPO[0]].Params {
		if t := f.Values[v].Type; c.passes(t) && len(params) < maxParams {
			params = append(params, ir.AbiParam{Type: t})
		}
	}
	for _, ret := range f.Sig.Returns {
		if c.passes(ret.Type) {
			returns = append(returns, ir.AbiParam{Type: ret.Type})
		}
	}
	if len(returns) == 0 {
		returns = append(returns, ir.AbiParam{Type: c.abiTypes[r.intn(len(c.abiTypes))]})
	}
	if c.g.opts.Record.Portable && len(returns) > 2 {
		returns = returns[:2] // in registers on every release (newFunc)
	}
	return params, returns
}

// passes reports whether the case's functions take and return values of t.
func (c *caseGen) passes(t ir.Type) bool { return c.typeOK(t) && c.tab.abi[t] }

// crossBody fills the crossover callee: its parent as a region, the
// parent's entry params bound to the function's params of their types,
// and a return of the parent's returns (values in scope for those the
// signature dropped or changed).
func (fg *funcGen) crossBody() {
	r := newRng(derive(fg.seed, crossKey))
	entry := fg.f.Layout[0]
	outs := fg.crossRegion(&r, fg.parent, fg.f.Blocks[entry].Params, nil)
	used := make([]bool, len(outs))
	vals := make([]ir.Value, len(fg.f.Sig.Returns))
	for k, ret := range fg.f.Sig.Returns {
		vals[k] = ir.NoValue
		for i, v := range outs {
			if !used[i] && fg.f.Values[v].Type == ret.Type {
				used[i], vals[k] = true, v
				break
			}
		}
		if vals[k] == ir.NoValue {
			vals[k] = fg.operand(&r, ret.Type)
		}
	}
	fg.b.Return(vals...)
}
