package locate

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"cliff/lib/analysis"
	"cliff/lib/ir"
	"cliff/lib/iredit"
	"cliff/lib/printer"
	"cliff/lib/record"
	"cliff/lib/reduce"
)

// Levels of a location, coarsest first (as record.Location spells them).
const (
	LevelFunction    = record.LocFunction
	LevelBlock       = record.LocBlock
	LevelInstruction = record.LocInstruction
)

// Result is where the failure was found, in the candidate located.
type Result struct {
	Level    string
	Function string // "%f1"
	Block    string // "block3", at block and instruction level
	Index    int    // the instruction's position in its block
	Text     string // the instruction's CLIF line
	Opcode   string // "scalar_to_vector"
	// Type is the instruction's type as a mask entry writes it: the
	// controlling type, CTRL:FREE when the opcode has a free operand type,
	// or "-" for a monomorphic opcode.
	Type  string
	Notes []string
}

// Record returns the result as a location record for the case caseID.
func (r *Result) Record(caseID string) *record.Location {
	l := &record.Location{CaseID: caseID, Function: r.Function, Block: r.Block, Level: r.Level, Notes: r.Notes}
	if r.Level == LevelInstruction {
		l.Inst = record.InstLocation{Index: r.Index, Text: r.Text, Opcode: r.Opcode, Type: r.Type}
	}
	l.Stamp()
	return l
}

// Locate localises the failure c shows (the tester's signature): function,
// then block, then instruction.
func Locate(ctx context.Context, t *reduce.Tester, c *reduce.Candidate) (*Result, error) {
	ok, err := t.Holds1(ctx, c)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("locate: the case does not show the signature %q", t.Want)
	}
	l := &locator{t: t, c: c, res: &Result{Level: LevelFunction}}
	if err := l.function(ctx); err != nil {
		return nil, err
	}
	if err := l.block(ctx); err != nil {
		return nil, err
	}
	if l.res.Block != "" {
		if err := l.instruction(ctx); err != nil {
			return nil, err
		}
	}
	return l.res, nil
}

type locator struct {
	t   *reduce.Tester
	c   *reduce.Candidate
	res *Result
}

func (l *locator) note(format string, args ...any) {
	l.res.Notes = append(l.res.Notes, fmt.Sprintf(format, args...))
}

func (l *locator) holds(ctx context.Context, edits ...reduce.Edit) (bool, error) {
	v := l.t.Variant(l.c, edits...)
	if v == nil {
		return false, nil
	}
	return l.t.Holds1(ctx, v)
}

// function finds the suspect function: first among the functions the
// entry does not call, then down the call graph from the entry.
func (l *locator) function(ctx context.Context) error {
	reached := iredit.Reachable(l.c.Module, l.c.Entry)
	var uncalled []string
	for _, f := range l.c.Module.Funcs {
		if !reached[f.Name] {
			uncalled = append(uncalled, f.Name)
		}
	}
	if len(uncalled) > 0 {
		v := l.t.Variant(l.c, dropFuncs(uncalled...))
		ok, err := l.t.Holds1(ctx, v)
		if err != nil {
			return err
		}
		if ok {
			// Not needed: go on without them, so that a culprit that
			// also appears there cannot hide in the entry's call graph.
			// Names and numbers stay those of the case.
			l.c = v
			l.note("the failure stays without the uncalled functions %s", strings.Join(uncalled, ", "))
		} else {
			// Prune them one by one: the first whose removal makes the
			// failure go, once the others that do not matter are gone,
			// is the suspect (a culprit with twins in other functions is
			// found in the last of them).
			cur := l.c
			for _, name := range uncalled {
				v := l.t.Variant(cur, dropFuncs(name))
				ok, err := l.t.Holds1(ctx, v)
				if err != nil {
					return err
				}
				if ok {
					cur = v
					continue
				}
				l.c = cur
				l.res.Function = name
				l.note("the failure goes with %s, which the entry does not call", name)
				return nil
			}
			l.note("the failure goes without the uncalled functions %s, but with none alone", strings.Join(uncalled, ", "))
		}
	}
	g := iredit.EntryFunc(l.c.Module, l.c.Entry).Name
	for depth := 0; depth < len(l.c.Module.Funcs); depth++ {
		next, err := l.descend(ctx, g)
		if err != nil {
			return err
		}
		if next == "" {
			break
		}
		g = next
	}
	// Stubbing the suspect must make the failure go. When it does not,
	// the barriers misled (a compiler crash does not care where
	// execution stops: every function is compiled), and stubs decide:
	// functions are stubbed one by one, each that does not matter staying
	// stubbed, until one makes the failure go.
	ok, err := l.holds(ctx, stub(g))
	if err != nil {
		return err
	}
	if ok {
		cur := l.c
		for _, f := range l.c.Module.Funcs {
			v := l.t.Variant(cur, stub(f.Name))
			ok, err := l.t.Holds1(ctx, v)
			if err != nil {
				return err
			}
			if v != nil && ok {
				cur = v
				continue
			}
			if v == nil {
				continue
			}
			l.note("the failure stays with %s stubbed, and goes with %s stubbed too", g, f.Name)
			l.c, g = cur, f.Name
			break
		}
	}
	l.res.Function = g
	return nil
}

// dropFuncs is the edit that removes the named functions, which nothing
// else calls.
func dropFuncs(names ...string) reduce.Edit {
	return func(v *reduce.Candidate) bool {
		for range names { // in any order: callers first
			for _, n := range names {
				iredit.DropFunc(v.Module, n)
			}
		}
		for _, n := range names {
			if v.Module.Func(n) != nil {
				return false
			}
		}
		return true
	}
}

// callSite is a direct call of a module function, in layout terms.
type callSite struct {
	block  ir.Block
	index  int
	callee string
}

// callSites lists g's calls of module functions in execution order as far
// as the layout tells it: blocks in reverse post-order, instructions in
// order.
func callSites(m *ir.Module, g *ir.Function) []callSite {
	cfg := analysis.NewCFG(g)
	var out []callSite
	for _, b := range cfg.RPO() {
		for k, i := range g.Blocks[b].Insts {
			d := &g.Insts[i]
			if d.Op != ir.OpCall {
				continue
			}
			for _, fr := range g.FuncRefs {
				if fr.Num == d.Func && m.Func(fr.Name) != nil {
					out = append(out, callSite{b, k, fr.Name})
				}
			}
		}
	}
	return out
}

// barrierAfter is the edit that makes function g return right after call
// site s (CLIR's execution barrier): the rest of s's block goes, and every
// edge to a block after s's block in reverse post-order returns too.
func barrierAfter(g string, s callSite) reduce.Edit {
	return func(v *reduce.Candidate) bool {
		f := v.Module.Func(g)
		if f == nil {
			return false
		}
		keep := prefix(f, s.block)
		return iredit.CutOutside(f, keep) && iredit.EarlyReturn(f, s.block, s.index+1)
	}
}

// prefix returns the blocks of f up to and including last in reverse
// post-order.
func prefix(f *ir.Function, last ir.Block) map[ir.Block]bool {
	keep := map[ir.Block]bool{}
	for _, b := range analysis.NewCFG(f).RPO() {
		keep[b] = true
		if b == last {
			break
		}
	}
	return keep
}

// stub is the edit that makes function name return at once.
func stub(name string) reduce.Edit {
	return func(v *reduce.Candidate) bool {
		f := v.Module.Func(name)
		return f != nil && len(f.Layout) > 0 && iredit.EarlyReturn(f, f.Layout[0], 0)
	}
}

// descend looks for the call in g after which the failure shows, and
// returns its callee when the callee is to blame, or "" when g is.
func (l *locator) descend(ctx context.Context, g string) (string, error) {
	f := l.c.Module.Func(g)
	sites := callSites(l.c.Module, f)
	if len(sites) == 0 {
		return "", nil
	}
	// The smallest k whose barrier keeps the failure; the barriers
	// after later calls keep more of the execution, so the answer is
	// monotone.
	last := len(sites) - 1
	ok, err := l.holds(ctx, barrierAfter(g, sites[last]))
	if err != nil {
		return "", err
	}
	if !ok {
		// The failure needs code after the last call to be seen (the
		// outputs are computed there): barriers cannot order the calls,
		// so ask each callee whether stubbing it makes the failure go.
		seen := map[string]bool{}
		for _, s := range sites {
			if seen[s.callee] {
				continue
			}
			seen[s.callee] = true
			ok, err := l.holds(ctx, stub(s.callee))
			if err != nil {
				return "", err
			}
			if !ok {
				l.note("in %s, the failure needs code after its last call, and goes with %s stubbed", g, s.callee)
				return s.callee, nil
			}
		}
		l.note("in %s, the failure needs code after its last call, and stays with each callee stubbed", g)
		return "", nil
	}
	lo, hi := 0, last // hi holds
	for lo < hi {
		mid := (lo + hi) / 2
		ok, err := l.holds(ctx, barrierAfter(g, sites[mid]))
		if err != nil {
			return "", err
		}
		if ok {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	s := sites[hi]
	ok, err = l.holds(ctx, barrierAfter(g, s), stub(s.callee))
	if err != nil {
		return "", err
	}
	if ok {
		l.note("in %s, the failure shows by the call of %s at %s but stays with it stubbed", g, s.callee, s.block)
		return "", nil
	}
	l.note("in %s, the failure shows by the call of %s at %s and goes with it stubbed", g, s.callee, s.block)
	return s.callee, nil
}

// block finds the first block, in reverse post-order, whose inclusion
// brings the failure.
func (l *locator) block(ctx context.Context) error {
	f := l.c.Module.Func(l.res.Function)
	rpo := analysis.NewCFG(f).RPO()
	if len(rpo) == 0 {
		return nil
	}
	lo, hi := 0, len(rpo)-1 // the whole function (hi) holds
	for lo < hi {
		mid := (lo + hi) / 2
		name, last := f.Name, rpo[mid]
		ok, err := l.holds(ctx, func(v *reduce.Candidate) bool {
			g := v.Module.Func(name)
			return g != nil && iredit.CutOutside(g, prefix(g, last))
		})
		if err != nil {
			return err
		}
		if ok {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	if hi == len(rpo)-1 && len(rpo) > 1 {
		// The last block in reverse post-order: either it is to blame
		// or the failure needs the whole function. Cutting it alone says.
		ok, err := l.holds(ctx, func(v *reduce.Candidate) bool {
			g := v.Module.Func(f.Name)
			return g != nil && iredit.CutOutside(g, prefix(g, rpo[len(rpo)-2]))
		})
		if err != nil {
			return err
		}
		if ok { // cannot happen for a monotone failure; stay at function level
			l.note("in %s, block barriers do not isolate the failure", f.Name)
			return nil
		}
	}
	l.res.Level = LevelBlock
	l.res.Block = rpo[hi].String()
	return nil
}

// instruction finds the culprit instruction, CLIR's way: the
// instructions of the block found (then of the blocks dominating it) are
// substituted in order; the first whose substitution makes the failure go
// is the suspect, and one whose substitution keeps it is irrelevant and
// stays substituted (pruned), so that a culprit with a twin later in the
// function is still found. Since substituting anything downstream of the
// culprit makes the failure go too, it then walks up the data flow to the
// first operand producer whose substitution still does. Instructions are
// named by their first result, which keeps its number in every variant;
// those without results are not suspects.
func (l *locator) instruction(ctx context.Context) error {
	f := l.c.Module.Func(l.res.Function)
	var blk ir.Block = ir.NoBlock
	for _, b := range f.Layout {
		if b.String() == l.res.Block {
			blk = b
		}
	}
	if blk == ir.NoBlock {
		return nil
	}
	dom := analysis.NewDomTree(analysis.NewCFG(f))
	cur := l.c
	tried := map[ir.Value]bool{}
	// goes reports whether substituting the instruction defining r (in
	// cur) makes the failure go; when it does not, cur keeps the
	// substitution.
	goes := func(r ir.Value) (bool, error) {
		if tried[r] {
			return false, nil
		}
		tried[r] = true
		v := l.t.Variant(cur, substitute(f.Name, r))
		if v == nil {
			return false, nil
		}
		ok, err := l.t.Holds1(ctx, v)
		if err == nil && ok {
			cur = v
		}
		return !ok, err
	}
	// The block found and its dominators first, then the other blocks
	// before it in reverse post-order, latest first: the culprit may sit
	// in a branch arm whose result the block found merges.
	var order []ir.Block
	for b := blk; b != ir.NoBlock; b = dom.Idom(b) {
		order = append(order, b)
	}
	rpo := analysis.NewCFG(f).RPO()
	for k := slices.Index(rpo, blk) - 1; k >= 0; k-- {
		if !slices.Contains(order, rpo[k]) {
			order = append(order, rpo[k])
		}
	}
	found := ir.NoValue
	for _, b := range order {
		if found != ir.NoValue {
			break
		}
		for _, i := range f.Blocks[b].Insts {
			d := &f.Insts[i]
			if d.Op.IsTerminator() || len(d.Results) == 0 {
				continue
			}
			gone, err := goes(d.Results[0])
			if err != nil {
				return err
			}
			if gone {
				found = d.Results[0]
				break
			}
		}
	}
	if found == ir.NoValue {
		l.note("in %s and the blocks before it, no single substitution makes the failure go", l.res.Block)
		return nil
	}
	for steps := 0; steps < 64; steps++ {
		up := ir.NoValue
		for _, j := range producers(f, f.Values[found].Inst) {
			if len(f.Insts[j].Results) == 0 {
				continue
			}
			gone, err := goes(f.Insts[j].Results[0])
			if err != nil {
				return err
			}
			if gone {
				up = f.Insts[j].Results[0]
				break
			}
		}
		if up == ir.NoValue {
			break
		}
		l.note("the failure goes when %s is substituted, upstream of %s", instText(f, f.Values[up].Inst), instText(f, f.Values[found].Inst))
		found = up
	}
	i := f.Values[found].Inst
	p := iredit.Places(f)[i]
	d := &f.Insts[i]
	l.res.Level = LevelInstruction
	l.res.Block = p.Block.String()
	l.res.Index = p.Index
	l.res.Text = instText(f, i)
	l.res.Opcode = d.Op.String()
	l.res.Type = maskType(f, d)
	l.note("the failure goes when %s is substituted", l.res.Text)
	return nil
}

// producers lists the instructions whose results i uses, looking through
// block params to the args every branch passes them.
func producers(f *ir.Function, i ir.Inst) []ir.Inst {
	var out []ir.Inst
	seen := map[ir.Value]bool{}
	var visit func(v ir.Value)
	visit = func(v ir.Value) {
		v = f.Resolve(v)
		if seen[v] {
			return
		}
		seen[v] = true
		vd := f.Values[v]
		switch vd.Kind {
		case ir.DefResult:
			out = append(out, vd.Inst)
		case ir.DefParam:
			for _, b := range f.Layout {
				t := iredit.Terminator(f, b)
				if t == ir.NoInst {
					continue
				}
				for _, bc := range f.Insts[t].Dests {
					if bc.Block == vd.Block && vd.Index < len(bc.Args) && bc.Args[vd.Index].Kind == ir.ArgValue {
						visit(bc.Args[vd.Index].Value)
					}
				}
			}
		}
	}
	for _, a := range f.Insts[i].Args {
		visit(a)
	}
	return out
}

// substitute is the edit that replaces the instruction defining r in
// function name: each used result by a function param of its type (the
// optimiser cannot fold it) or else the constant 1. It cannot be made
// when a used result is not replaceable (lib/ub) or r is no longer an
// instruction's result.
func substitute(name string, r ir.Value) reduce.Edit {
	return func(v *reduce.Candidate) bool {
		f := v.Module.Func(name)
		if f == nil || int(r) >= len(f.Values) || f.Values[r].Kind != ir.DefResult {
			return false
		}
		i := f.Values[r].Inst
		p, ok := iredit.Places(f)[i]
		if !ok || f.Insts[i].Op.IsTerminator() {
			return false
		}
		u := iredit.IndexUses(f)
		var params []ir.Value
		if len(f.Layout) > 0 {
			params = f.Blocks[f.Layout[0]].Params
		}
		for _, res := range f.Insts[i].Results {
			if !u.Used(f, res) {
				continue
			}
			t := f.Values[res].Type
			if !iredit.Replaceable(f, u, res) || !iredit.CanConst(t) {
				return false
			}
			var by ir.Value = ir.NoValue
			for _, q := range params {
				if f.Values[q].Type == t {
					by = q
					break
				}
			}
			if by == ir.NoValue {
				by = ir.Value(len(f.Values))
				f.Values = append(f.Values, ir.ValueData{Type: t})
				n := iredit.DefineConst(f, p.Block, p.Index, by, 1)
				if n == 0 {
					return false
				}
				p.Index += n
			}
			iredit.ReplaceUses(f, res, by)
		}
		iredit.RemoveInst(f, p.Block, p.Index)
		return true
	}
}

// maskType spells d's type as a mask entry does (see Result.Type).
func maskType(f *ir.Function, d *ir.InstData) string {
	info := d.Op.Info()
	if !info.Polymorphic {
		return "-"
	}
	t := d.CtrlType.String()
	for k, in := range info.Ins {
		if k >= len(d.Args) || in.Kind != ir.OperandTypeVar {
			continue
		}
		free := in.Derive == ir.DeriveNarrower || in.Derive == ir.DeriveWider ||
			in.TypeVar > 0 && !strings.Contains(strings.ToLower(info.TypeVars[in.TypeVar].Name), "addr")
		if free {
			return t + ":" + f.Values[f.Resolve(d.Args[k])].Type.String()
		}
	}
	return t
}

// instText is the CLIF line of instruction i, without constant comments.
func instText(f *ir.Function, i ir.Inst) string {
	return printer.Options{NoConstComments: true}.Inst(f, i)
}
