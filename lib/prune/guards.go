package prune

import (
	"cliff/lib/ir"
	"cliff/lib/ub"
)

// A Kind is what a guard keeps an operation from.
type Kind int

const (
	Zero     Kind = iota // a divisor from 0
	Overflow             // a signed division from MIN / -1
	Range                // a float converted to an integer from leaving its range
	NaN                  // a float whose bits show from being a NaN
	numKinds
)

// Kinds lists every kind, in the order Counts holds them.
var Kinds = []Kind{Zero, Overflow, Range, NaN}

func (k Kind) String() string {
	switch k {
	case Zero:
		return "zero"
	case Overflow:
		return "overflow"
	case Range:
		return "range"
	case NaN:
		return "nan"
	}
	return "kind?"
}

// A guard is one scaffold select of a chain.
type guard struct {
	sel  ir.Inst
	raw  ir.Value // the operand the select passes when it does not fire
	kind Kind
	// firesOnZero says the guard fires when its condition is 0 (range:
	// the condition says the value is in range); the others fire when
	// it is not 0 (a bitselect's mask: when any bit is set).
	firesOnZero bool
	// local says the select precedes its site's consumer in the
	// consumer's block and raw is not defined between them: each time
	// the consumer runs, raw holds the value the select last chose from
	// (see needsRecheck).
	local bool
}

// A site is an operand of a consumer fed by a chain of guards, the
// outermost first.
type site struct {
	inst  ir.Inst
	arg   int
	chain []guard
}

// sites finds every guarded operand of f, and counts the uses of each
// of its values by the instructions of its layout (operands and block
// args), which removeDead needs once guards are dropped: one pass over
// the function for both.
func sites(f *ir.Function) (found []site, uses []int) {
	uses = make([]int, len(f.Values))
	// order numbers the instructions from 1 as the scan meets them: at a
	// consumer, those of its block met so far, the ones before it, have
	// an order of at least the block's first.
	order := make([]int32, len(f.Insts))
	next := int32(1)
	for _, b := range f.Layout {
		first := next
		for _, inst := range f.Blocks[b].Insts {
			order[inst] = next
			next++
			d := &f.Insts[inst]
			consumer := !ub.IsScaffold(d) && !ub.IsPruned(d)
			for k, a := range d.Args {
				v := f.Resolve(a)
				uses[v]++
				if !consumer || !selectResult(f, v) {
					continue
				}
				var chain []guard
				for v := a; ; {
					g, ok := guardOf(f, v, d.Op)
					if !ok {
						break
					}
					g.local = order[g.sel] >= first
					if def, ok := resultOf(f, g.raw); ok && order[def] > order[g.sel] {
						g.local = false // raw is defined between the select and its consumer
					}
					chain = append(chain, g)
					v = g.raw
				}
				if len(chain) > 0 {
					found = append(found, site{inst: inst, arg: k, chain: chain})
				}
			}
			for _, c := range d.Dests {
				for _, a := range c.Args {
					if a.Kind == ir.ArgValue {
						uses[f.Resolve(a.Value)]++
					}
				}
			}
			for _, h := range d.Handlers {
				for _, a := range h.Dest.Args {
					if a.Kind == ir.ArgValue {
						uses[f.Resolve(a.Value)]++
					}
				}
			}
		}
	}
	return found, uses
}

// selectResult reports whether the resolved value v is the result of a
// select or a bitselect: the only operands that can be guards, which
// most are not.
func selectResult(f *ir.Function, v ir.Value) bool {
	if int(v) >= len(f.Values) || f.Values[v].Kind != ir.DefResult {
		return false
	}
	op := f.Insts[f.Values[v].Inst].Op
	return op == ir.OpSelect || op == ir.OpBitselect
}

// guardOf returns the guard that defines v, if one does; consumer is the
// opcode of the instruction the chain feeds, which says the kind.
func guardOf(f *ir.Function, v ir.Value, consumer ir.Opcode) (guard, bool) {
	def, ok := scaffoldDef(f, v)
	if !ok {
		return guard{}, false
	}
	d := &f.Insts[def]
	if len(d.Args) != 3 {
		return guard{}, false
	}
	a, b := isSubstitute(f, d.Args[1]), isSubstitute(f, d.Args[2])
	g := guard{sel: def}
	switch {
	case d.Op == ir.OpSelect && a && !b:
		g.raw = d.Args[2]
	case d.Op == ir.OpSelect && b && !a:
		g.raw, g.firesOnZero = d.Args[1], true
	case d.Op == ir.OpBitselect && a && !b:
		g.raw = d.Args[2]
	default:
		return guard{}, false
	}
	switch consumer.Info().Partial {
	case "nonzero", "nonzero_nooverflow":
		g.kind = Zero
		if c, ok := scaffoldDef(f, d.Args[0]); ok && f.Insts[c].Op == ir.OpBand {
			g.kind = Overflow
		}
	case "in_range":
		g.kind = Range
	default:
		g.kind = NaN
	}
	return g, true
}

// scaffoldDef returns the scaffold instruction that defines v.
func scaffoldDef(f *ir.Function, v ir.Value) (ir.Inst, bool) {
	inst, ok := resultOf(f, v)
	return inst, ok && ub.IsScaffold(&f.Insts[inst])
}

// resultOf returns the instruction that defines v, if an instruction
// does (not a block param).
func resultOf(f *ir.Function, v ir.Value) (ir.Inst, bool) {
	v = f.Resolve(v)
	if int(v) >= len(f.Values) || f.Values[v].Kind != ir.DefResult {
		return ir.NoInst, false
	}
	return f.Values[v].Inst, true
}

// isSubstitute reports whether v is a guard's substitute: a scaffold
// constant (an i128 one is the sextend of an iconst).
func isSubstitute(f *ir.Function, v ir.Value) bool {
	inst, ok := scaffoldDef(f, v)
	if !ok {
		return false
	}
	d := &f.Insts[inst]
	if d.Op == ir.OpSextend {
		return isSubstitute(f, d.Args[0])
	}
	return len(d.Args) == 0 && isConstOp(d.Op)
}

// isConstOp reports whether op makes a constant from its immediate: an
// opcode of the table's "consts" family that takes no operand.
func isConstOp(op ir.Opcode) bool {
	info := op.Info()
	return info.Family == "consts" && len(info.Ins) == 0
}
