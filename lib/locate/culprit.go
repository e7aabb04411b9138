package locate

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"cliff/lib/ir"
	"cliff/lib/iredit"
	"cliff/lib/reduce"
)

// A Culprit is what a mask entry names for a reduced failure: the last
// instruction, in data flow, of those the failure needs, and which of its
// operands the failure needs from which producers. Locate walks up the
// data flow to the first instruction whose substitution makes the failure
// go, which is the root of a miscompile's chain (an ireduce whose garbage
// upper bits a swizzle then trusts); a mask needs the instruction that
// is lowered wrong, with the shape of its operands (swizzle whose index
// is a splat), so that the next campaign stops making that shape and
// nothing else.
type Culprit struct {
	Function string
	Text     string // the instruction's CLIF line
	Opcode   string
	Type     string // as a mask entry writes it (see Result.Type)
	// Operands are the culprit's value operands the failure needs: the
	// operand's index and its producer's opcode.
	Operands []CulpritOperand
	// Needed counts the instructions whose substitution makes the
	// failure go.
	Needed int
}

// A site is an instruction of a function of a candidate.
type site struct {
	fn string
	i  ir.Inst
}

// A CulpritOperand is an operand of the culprit the failure needs.
type CulpritOperand struct {
	Index    int
	Producer ir.Opcode
	// Inner is the producer of the producer's operand when the producer
	// is a conversion and the failure needs it too (uextend of an icmp);
	// ir.OpInvalid otherwise.
	Inner ir.Opcode
}

// Pattern is the operand's mask pattern: "2=splat", "0=uextend(icmp)".
func (o CulpritOperand) Pattern() string {
	p := fmt.Sprintf("%d=%s", o.Index, o.Producer)
	if o.Inner != ir.OpInvalid {
		p += "(" + o.Inner.String() + ")"
	}
	return p
}

// FindCulprit substitutes, one at a time and in one batch, the result of
// every instruction of the candidate's functions (constants aside) and
// keeps those whose substitution makes the failure go: the instructions
// the failure needs. Which of them is the culprit depends on the kind of
// failure:
//
//   - a wrong answer (crash false) flows to the output: the culprit is
//     the needed instruction no other needed instruction uses (the last
//     in layout order when there are several), the one whose lowering
//     gets its operands' shape wrong, or upstream of conversions
//     (extends, bitcasts, lane extraction) that only carry the wrong
//     value to the output's type;
//   - a compiler crash needs its instruction kept alive, by whatever
//     consumes it down to the return (bitcasts, extractlanes, a call), so
//     consumers are needed too: the culprit is the root of the needed
//     chain, the first instruction whose lowering sees it. When that root
//     is a comparison, which lowers alone, the culprit is its first
//     needed user that is not a plain keep-alive, with the comparison as
//     its operand's shape: an ISLE rule matches an instruction with the
//     shape of its operands (select whose condition is an icmp).
//
// Meant for a reduced candidate, where little is left that the failure
// does not need; nil when no substitution makes the failure go.
func FindCulprit(ctx context.Context, t *reduce.Tester, c *reduce.Candidate, crash bool) (*Culprit, error) {
	var sites []site
	var variants []*reduce.Candidate
	for _, f := range c.Module.Funcs {
		for _, b := range f.Layout {
			for _, i := range f.Blocks[b].Insts {
				d := &f.Insts[i]
				if d.Op.IsTerminator() || len(d.Results) == 0 || iredit.IsConstForm(f, d) {
					continue
				}
				if v := t.Variant(c, substitute(f.Name, d.Results[0])); v != nil {
					sites = append(sites, site{f.Name, i})
					variants = append(variants, v)
				}
			}
		}
	}
	if len(variants) == 0 {
		return nil, nil
	}
	holds, err := t.Holds(ctx, variants)
	if err != nil {
		return nil, err
	}
	needed := map[site]bool{}
	for k, s := range sites {
		if !holds[k] {
			needed[s] = true
		}
	}
	if len(needed) == 0 {
		return nil, nil
	}
	var culprit *site
	if crash {
		culprit = crashCulprit(c.Module, sites, needed)
	} else {
		k, err := firstWrongValue(ctx, t, c, sites, needed)
		if err != nil {
			return nil, err
		}
		if k >= 0 {
			culprit = &sites[k]
		} else {
			culprit = sinkCulprit(c.Module, sites, needed)
		}
	}
	if culprit == nil {
		return nil, nil
	}
	f := c.Module.Func(culprit.fn)
	d := &f.Insts[culprit.i]
	out := &Culprit{Function: f.Name, Text: instText(f, culprit.i), Opcode: d.Op.String(), Type: maskType(f, d), Needed: len(needed)}
	for k, a := range d.Args {
		v := f.Resolve(a)
		if f.Values[v].Kind != ir.DefResult {
			continue
		}
		p := f.Values[v].Inst
		// A producer whose result could not be substituted (it feeds a
		// loop's guarded bound, say) was not tested: part of the shape
		// unless it is a constant, so that the mask is the narrower one
		// (a campaign loop re-examines a failure the mask misses).
		tested := slices.Contains(sites, site{f.Name, p})
		if needed[site{f.Name, p}] || !tested && !iredit.IsConstForm(f, &f.Insts[p]) {
			o := CulpritOperand{Index: k, Producer: f.Insts[p].Op}
			// A conversion's own needed producer is part of the shape.
			if o.Producer.Is(ir.RoleConversion) {
				for _, a := range f.Insts[p].Args {
					if w := f.Resolve(a); f.Values[w].Kind == ir.DefResult && needed[site{f.Name, f.Values[w].Inst}] {
						o.Inner = f.Insts[f.Values[w].Inst].Op
						break
					}
				}
			}
			out.Operands = append(out.Operands, o)
		}
	}
	return out, nil
}

// keepAlive reports whether an instruction of op is one that only keeps a
// value alive for a crash to show (it passes the value on or stores it),
// rather than one whose lowering looks at its operands' shape: the
// table's keep_alive role, and terminators.
func keepAlive(op ir.Opcode) bool { return op.Is(ir.RoleKeepAlive) || op.IsTerminator() }

// uses reports whether instruction u of module m uses the result of s
// (directly, or through a block param).
func uses(m *ir.Module, u, s site) bool {
	return u.fn == s.fn && u.i != s.i && slices.Contains(producers(m.Func(u.fn), u.i), s.i)
}

// crashCulprit is a compiler crash's culprit among the needed sites: the
// root of the needed chain; when that is a comparison, its first needed
// user that is not a plain keep-alive, past any extend of it (see
// FindCulprit).
func crashCulprit(m *ir.Module, sites []site, needed map[site]bool) *site {
	op := func(s site) ir.Opcode { return m.Func(s.fn).Insts[s.i].Op }
	k := slices.IndexFunc(sites, func(s site) bool {
		return needed[s] && !slices.ContainsFunc(sites, func(p site) bool { return needed[p] && uses(m, s, p) })
	})
	if k < 0 {
		return nil
	}
	culprit := sites[k]
	if !op(culprit).Is(ir.RoleComparison) {
		return &culprit
	}
	root := culprit
	if k := slices.IndexFunc(sites, func(u site) bool { return needed[u] && uses(m, u, root) && !keepAlive(op(u)) }); k >= 0 {
		culprit = sites[k]
	}
	// An extend of the comparison only widens it for its user
	// (select_spectre_guard of uextend.i128 of an icmp): the user is the
	// culprit, the extend part of its shape. The user may be one whose
	// result cannot be substituted (it feeds a store), so it is looked
	// for among all instructions.
	for op(culprit).Is(ir.RoleConversion) {
		conv := culprit
		user, ok := firstUser(m.Func(conv.fn), conv.i, func(i ir.Inst) bool {
			u := site{conv.fn, i}
			return (needed[u] || !slices.Contains(sites, u)) && !keepAlive(op(u))
		})
		if !ok {
			break
		}
		culprit = site{conv.fn, user}
	}
	return &culprit
}

// sinkCulprit is a wrong answer's culprit when no exposed value tells it:
// the needed instruction no other needed one uses (the last in layout
// order), upstream of the conversions that only carry its value to the
// output's type.
func sinkCulprit(m *ir.Module, sites []site, needed map[site]bool) *site {
	var culprit *site
	for k := range sites {
		s := sites[k]
		if needed[s] && !slices.ContainsFunc(sites, func(u site) bool { return needed[u] && uses(m, u, s) }) {
			culprit = &sites[k]
		}
	}
	for culprit != nil && m.Func(culprit.fn).Insts[culprit.i].Op.Is(ir.RoleConversion) {
		k := slices.IndexFunc(sites, func(p site) bool { return needed[p] && uses(m, *culprit, p) })
		if k < 0 {
			break
		}
		culprit = &sites[k]
	}
	return culprit
}

// firstWrongValue finds a miscompile's culprit by its value: each needed
// instruction of the entry function, or of a callee the entry calls once,
// in turn becomes what the entry returns, and the culprit is the first whose value already differs on
// the failing configuration (the same failing configurations as the
// signature's) while the values of its needed producers do not. All the
// variants go to the oracle in one batch. It returns the culprit's index
// in sites, or -1 when no exposed value differs.
func firstWrongValue(ctx context.Context, t *reduce.Tester, c *reduce.Candidate, sites []site, needed map[site]bool) (int, error) {
	verdict, rest, ok := strings.Cut(t.Want, " ")
	failing, _, ok2 := strings.Cut(rest, ":")
	if !ok || !ok2 || verdict != "divergent" {
		return -1, nil
	}
	entry := c.EntryFunc()
	var at []int
	var variants []*reduce.Candidate
	for k, s := range sites {
		if !needed[s] {
			continue
		}
		f := c.Module.Func(s.fn)
		if v := t.Variant(c, exposeEdit(entry.Name, s.fn, f.Insts[s.i].Results[0])); v != nil {
			at = append(at, k)
			variants = append(variants, v)
		}
	}
	if len(variants) == 0 {
		return -1, nil
	}
	sigs, err := t.Oracle.Signatures(ctx, variants)
	if err != nil {
		return -1, err
	}
	wrong := map[site]bool{}
	for j, k := range at {
		wrong[sites[k]] = strings.HasPrefix(sigs[j], "divergent "+failing+":")
	}
	for _, k := range at {
		s := sites[k]
		if wrong[s] && !slices.ContainsFunc(sites, func(p site) bool { return wrong[p] && (uses(c.Module, s, p) || calls(c.Module, s, p.fn)) }) {
			return k, nil
		}
	}
	return -1, nil
}

// calls reports whether instruction s of module m is a direct call of the
// function name: its result is wrong because a value of name's is.
func calls(m *ir.Module, s site, name string) bool {
	f := m.Func(s.fn)
	d := &f.Insts[s.i]
	if d.Op != ir.OpCall || s.fn == name {
		return false
	}
	return slices.ContainsFunc(f.FuncRefs, func(fr ir.FuncRefDecl) bool { return fr.Num == d.Func && fr.Name == name })
}

// exposeEdit makes the entry return the value r of function name alone:
// iredit.ReturnOnly for a value of the entry, iredit.ReturnThroughCaller
// for one of a callee the entry calls once.
//
// riscv64 returns a vector only with enable_multi_ret_implicit_sret (as
// finding 03 says): the variant gets the setting, so that exposing a
// vector does not turn a wrong value into a compile error.
func exposeEdit(entry, name string, r ir.Value) reduce.Edit {
	const sret = "enable_multi_ret_implicit_sret=true"
	return func(v *reduce.Candidate) bool {
		ok := false
		if name == entry {
			ok = iredit.ReturnOnly(v.Module, name, r)
		} else {
			ok = iredit.ReturnThroughCaller(v.Module, entry, name, r)
		}
		if !ok {
			return false
		}
		if !slices.Contains(v.Settings, sret) {
			v.Settings = append(v.Settings, sret)
		}
		return true
	}
}

// firstUser is the first instruction of f, in layout order, that uses the
// result of i and satisfies ok.
func firstUser(f *ir.Function, i ir.Inst, ok func(ir.Inst) bool) (ir.Inst, bool) {
	for _, b := range f.Layout {
		for _, u := range f.Blocks[b].Insts {
			if u != i && slices.Contains(producers(f, u), i) && ok(u) {
				return u, true
			}
		}
	}
	return ir.NoInst, false
}
