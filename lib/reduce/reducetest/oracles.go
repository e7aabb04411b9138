// Package reducetest provides fake oracles for testing reduction and
// localisation without Cranelift: each models the shape of a real bug
// (a compile crash on one opcode and type, a miscompile visible in the
// outputs, a trap of the wrong kind) structurally, from the candidate's
// module, and checks every candidate it is asked about as a real run
// would need it: it must verify and be free of unguarded division.
package reducetest

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"cliff/lib/ir"
	"cliff/lib/iredit"
	"cliff/lib/parser"
	"cliff/lib/record"
	"cliff/lib/reduce"
	"cliff/lib/ub"
	"cliff/lib/verify"
)

// A Shape decides a candidate's signature from its module.
type Shape func(c *reduce.Candidate) string

// Checked is an Oracle over a Shape that also checks each candidate the
// way a real run depends on: its CLIF parses and verifies, it has no
// division by a divisor that is not guarded, its inputs match the entry's
// params. Problems are collected, not fatal, so that a test can report
// them all.
type Checked struct {
	Shape Shape
	mu    sync.Mutex
	Calls int
	// Problems lists what was wrong with candidates sent.
	Problems []string
}

// Signatures implements reduce.Oracle.
func (o *Checked) Signatures(_ context.Context, cands []*reduce.Candidate) ([]string, error) {
	out := make([]string, len(cands))
	for k, c := range cands {
		o.mu.Lock()
		o.Calls++
		o.mu.Unlock()
		if p := check(c); p != "" {
			o.mu.Lock()
			o.Problems = append(o.Problems, p)
			o.mu.Unlock()
			out[k] = "invalid: " + p
			continue
		}
		out[k] = o.Shape(c)
	}
	return out, nil
}

func check(c *reduce.Candidate) string {
	m, err := parser.ParseModuleString("candidate", c.CLIF)
	if err != nil {
		return fmt.Sprintf("does not parse: %v", err)
	}
	if errs := verify.ModuleWith(m, verify.OptionsForSettings(c.Settings)); len(errs) > 0 {
		return fmt.Sprintf("does not verify: %v", errs)
	}
	if p := unguardedDivision(m); p != "" {
		return p
	}
	entry := iredit.EntryFunc(m, c.Entry)
	for _, in := range c.Inputs {
		if len(in) != len(entry.Sig.Params) {
			return fmt.Sprintf("%d inputs for %d params", len(in), len(entry.Sig.Params))
		}
		for k, v := range in {
			if v.Type != entry.Sig.Params[k].Type.String() {
				return fmt.Sprintf("input %d is %s, param is %s", k, v.Type, entry.Sig.Params[k].Type)
			}
		}
	}
	return ""
}

// unguardedDivision finds an integer division whose divisor is not a
// scaffold value (a guard) or a non-zero constant: the undefined
// behaviour a careless reduction would bring in.
func unguardedDivision(m *ir.Module) string {
	for _, f := range m.Funcs {
		for _, b := range f.Layout {
			for _, i := range f.Blocks[b].Insts {
				d := &f.Insts[i]
				switch d.Op {
				case ir.OpSdiv, ir.OpUdiv, ir.OpSrem, ir.OpUrem:
				default:
					continue
				}
				v := f.Resolve(d.Args[1])
				vd := f.Values[v]
				if vd.Kind == ir.DefResult && ub.IsScaffold(&f.Insts[vd.Inst]) {
					continue
				}
				return fmt.Sprintf("%s: unguarded divisor in %s", f.Name, d.Op)
			}
		}
	}
	return ""
}

// Culprit names an opcode with its controlling type.
type Culprit struct {
	Op   ir.Opcode
	Type ir.Type
}

func (c Culprit) String() string { return c.Op.String() + "." + c.Type.String() }

// matches reports whether instruction d of f is the culprit.
func (c Culprit) matches(f *ir.Function, d *ir.InstData) bool {
	if d.Op != c.Op {
		return false
	}
	t := d.CtrlType
	if t == ir.Invalid && len(d.Results) > 0 {
		t = f.Values[d.Results[0]].Type
	}
	return t == c.Type
}

// needsABI reports whether some signature has an i128 param or return,
// which x86_64 compiles only with enable_llvm_abi_extensions.
func needsABI(m *ir.Module) bool {
	for _, f := range m.Funcs {
		for _, p := range slices.Concat(f.Sig.Params, f.Sig.Returns) {
			if p.Type == ir.I128 {
				return true
			}
		}
	}
	return false
}

// abiError is the signature of a candidate that x86_64 would reject.
func abiError(c *reduce.Candidate) string {
	if needsABI(c.Module) && !slices.Contains(c.Settings, "enable_llvm_abi_extensions=true") {
		return "compile_error x86_64: i128 needs enable_llvm_abi_extensions"
	}
	return ""
}

// Crash models a compile crash of x86_64 on the culprit: the signature is
// present while some function of the module (called or not: Cranelift
// compiles them all) has a culprit instruction, on a configuration with
// the ISA flag when it is not "". (Cranelift skips lowering an unused
// pure value, so a real crash needs the culprit's result used; the model
// follows the "contains opcode X with type T".)
func Crash(c Culprit, flag string) Shape {
	return func(cand *reduce.Candidate) string {
		if s := abiError(cand); s != "" {
			return s
		}
		if flag != "" && !slices.ContainsFunc(cand.Configs, func(cfg record.Config) bool { return slices.Contains(cfg.Flags, flag) }) {
			return ""
		}
		for _, f := range cand.Module.Funcs {
			for _, b := range f.Layout {
				for _, i := range f.Blocks[b].Insts {
					d := &f.Insts[i]
					if c.matches(f, d) {
						return "compile_crash x86_64: no rule matched for " + c.String()
					}
				}
			}
		}
		return ""
	}
}

// Miscompile models a wrong result of the culprit on x86_64: the signature
// names the entry's return types that depend on a culprit instruction
// whose operands are not all constants (those the mid-end folds). It is
// "" when no output depends on one.
func Miscompile(c Culprit) Shape {
	return func(cand *reduce.Candidate) string {
		if s := abiError(cand); s != "" {
			return s
		}
		types := taintedOutputs(cand, c)
		if len(types) == 0 {
			return ""
		}
		return "divergent x86_64 minority, differing " + strings.Join(types, ",")
	}
}

// TrapKind models an instruction that traps with the wrong code on
// x86_64: present when an output depends on the culprit (a guarded
// division, say), whatever its operands.
func TrapKind(c Culprit) Shape {
	return func(cand *reduce.Candidate) string {
		if s := abiError(cand); s != "" {
			return s
		}
		if len(taintedOutputs(cand, c)) == 0 {
			return ""
		}
		return "trap x86_64: int_ovf, expected ok"
	}
}

// taintedOutputs returns the sorted distinct types of the entry's return
// values that depend on a culprit instruction, following data flow
// through operands, block args and calls.
func taintedOutputs(cand *reduce.Candidate, c Culprit) []string {
	m := cand.Module
	memo := map[string][]bool{} // function → which returns are tainted
	var returns func(f *ir.Function, depth int) []bool
	returns = func(f *ir.Function, depth int) []bool {
		if r, ok := memo[f.Name]; ok {
			return r
		}
		memo[f.Name] = make([]bool, len(f.Sig.Returns)) // recursion: untainted
		tainted := map[ir.Value]bool{}
		isConst := func(v ir.Value) bool {
			vd := f.Values[f.Resolve(v)]
			return vd.Kind == ir.DefResult && iredit.IsConst(&f.Insts[vd.Inst])
		}
		for changed := true; changed; {
			changed = false
			mark := func(v ir.Value) {
				if !tainted[v] {
					tainted[v] = true
					changed = true
				}
			}
			for _, b := range f.Layout {
				for _, i := range f.Blocks[b].Insts {
					d := &f.Insts[i]
					in := false
					for _, a := range d.Args {
						in = in || tainted[f.Resolve(a)]
					}
					if c.matches(f, d) {
						allConst := len(d.Args) > 0
						for _, a := range d.Args {
							allConst = allConst && isConst(a)
						}
						if !allConst || c.Op != ir.OpImul {
							in = true
						}
					}
					if d.Op.IsCall() && d.Op == ir.OpCall {
						for _, fr := range f.FuncRefs {
							if fr.Num == d.Func {
								if g := m.Func(fr.Name); g != nil && depth < 16 {
									for k, t := range returns(g, depth+1) {
										if t && k < len(d.Results) {
											mark(d.Results[k])
										}
									}
								}
							}
						}
					}
					if in {
						for _, r := range d.Results {
							mark(r)
						}
					}
					for _, bc := range d.Dests {
						for k, a := range bc.Args {
							if a.Kind == ir.ArgValue && tainted[f.Resolve(a.Value)] && k < len(f.Blocks[bc.Block].Params) {
								mark(f.Blocks[bc.Block].Params[k])
							}
						}
					}
				}
			}
		}
		out := make([]bool, len(f.Sig.Returns))
		for _, b := range f.Layout {
			t := iredit.Terminator(f, b)
			if t != ir.NoInst && f.Insts[t].Op == ir.OpReturn {
				for k, a := range f.Insts[t].Args {
					if k < len(out) && tainted[f.Resolve(a)] {
						out[k] = true
					}
				}
			}
		}
		memo[f.Name] = out
		return out
	}
	entry := iredit.EntryFunc(m, cand.Entry)
	seen := map[string]bool{}
	var types []string
	for k, t := range returns(entry, 0) {
		if s := entry.Sig.Returns[k].Type.String(); t && !seen[s] {
			seen[s] = true
			types = append(types, s)
		}
	}
	sort.Strings(types)
	return types
}

// FuncWith returns the first function of m with a culprit instruction, or
// nil.
func FuncWith(m *ir.Module, c Culprit) *ir.Function {
	for _, f := range m.Funcs {
		for _, b := range f.Layout {
			for _, i := range f.Blocks[b].Insts {
				if c.matches(f, &f.Insts[i]) {
					return f
				}
			}
		}
	}
	return nil
}
