package profile

import (
	"fmt"

	"cliff/lib/ir"
)

// Patterns are the operand-producer entries of a mask (MaskEntry with
// Operands) that apply to a profile: unlike plain entries they cannot be
// taken out of the opcode tables, so whatever builds or rewrites an
// instruction asks Match before keeping it. A nil *Patterns matches
// nothing. It is never modified once built: with makes a new one.
type Patterns struct {
	entries []MaskEntry
	// Indexed by opcode, not maps: refine asks Match of every instruction
	// after every pass, and a map lookup there was a tenth of its time.
	byOp [][]int // entries by root opcode
	// ctrls, by root opcode, are the controlling types its entries name:
	// most instructions of a masked opcode (22 patterns for iadd, all
	// of narrow vectors) have a type none names, and are passed over
	// without trying each entry.
	ctrls []ctrlSet
	inner []bool // opcodes of producers with operand patterns of their own
}

// A ctrlSet is a set of controlling types, or every type (any). A code
// past ir.TypeSpace (no type is) is let through rather than dropped.
type ctrlSet struct {
	any  bool
	bits ir.TypeBits
}

func (c *ctrlSet) add(t ir.Type, any bool) {
	if any || t >= ir.TypeSpace {
		c.any = true
		return
	}
	c.bits.Add(t)
}

// mayHold reports whether an entry of the set could match type t.
func (c *ctrlSet) mayHold(t ir.Type) bool {
	return c.any || t >= ir.TypeSpace || c.bits.Has(t)
}

// Patterns returns the operand-producer mask entries that apply to p
// (see Without), or nil when there are none.
func (p *Profile) Patterns() *Patterns { return p.patterns }

// with returns s plus e.
func (s *Patterns) with(e MaskEntry) *Patterns {
	out := &Patterns{}
	if s != nil {
		out.entries = append(out.entries, s.entries...)
	}
	out.entries = append(out.entries, e)
	for i, e := range out.entries {
		out.byOp = grow(out.byOp, e.Op)
		out.byOp[e.Op] = append(out.byOp[e.Op], i)
		out.ctrls = grow(out.ctrls, e.Op)
		out.ctrls[e.Op].add(e.Type, e.AnyType)
		for _, o := range e.Operands {
			out.inner = markInner(out.inner, o.Producer)
		}
	}
	return out
}

// grow returns xs long enough to index by op.
func grow[T any](xs []T, op ir.Opcode) []T {
	if int(op) >= len(xs) {
		xs = append(xs, make([]T, int(op)+1-len(xs))...)
	}
	return xs
}

func markInner(inner []bool, p *Producer) []bool {
	if p == nil || len(p.Args) == 0 {
		return inner
	}
	inner = grow(inner, p.Op)
	inner[p.Op] = true
	for _, a := range p.Args {
		inner = markInner(inner, a)
	}
	return inner
}

// Entries lists the patterns.
func (s *Patterns) Entries() []MaskEntry {
	if s == nil {
		return nil
	}
	return s.entries
}

// Len is the number of patterns.
func (s *Patterns) Len() int { return len(s.Entries()) }

// Roots reports whether some pattern masks instructions of op.
func (s *Patterns) Roots(op ir.Opcode) bool { return len(s.roots(op)) > 0 }

// roots are the entries whose root opcode is op.
func (s *Patterns) roots(op ir.Opcode) []int {
	if s == nil || int(op) >= len(s.byOp) {
		return nil
	}
	return s.byOp[op]
}

// Inner reports whether an instruction of op may, through its own
// operands, make one that uses its result match a pattern: a pass that
// rebinds its operands must ask Match of its users too. Changing the
// operands of other instructions never changes whether their users match
// (types stay exact).
func (s *Patterns) Inner(op ir.Opcode) bool {
	return s != nil && int(op) < len(s.inner) && s.inner[op]
}

// Match returns the first pattern instruction d of f matches, with its
// operands as they are now.
func (s *Patterns) Match(f *ir.Function, d *ir.InstData) (MaskEntry, bool) {
	if k := s.match(f, d); k >= 0 {
		return s.entries[k], true
	}
	return MaskEntry{}, false
}

// match is Match's index into entries, -1 for none: CheckFunc asks it of
// every instruction after every refine pass, where copying a MaskEntry
// out showed in profiles.
func (s *Patterns) match(f *ir.Function, d *ir.InstData) int {
	if s == nil || int(d.Op) >= len(s.ctrls) || !s.ctrls[d.Op].mayHold(d.CtrlType) {
		return -1
	}
	for _, i := range s.roots(d.Op) {
		if s.entries[i].matches(f, d) {
			return i
		}
	}
	return -1
}

// Check returns an error naming the pattern d matches, or nil.
func (s *Patterns) Check(f *ir.Function, d *ir.InstData) error {
	if k := s.match(f, d); k >= 0 {
		return s.matchError(d, k)
	}
	return nil
}

func (s *Patterns) matchError(d *ir.InstData, k int) error {
	return fmt.Errorf("%s matches the mask entry `%s`", describe(d), s.entries[k])
}

func describe(d *ir.InstData) string {
	if d.CtrlType != ir.Invalid {
		return d.Op.String() + "." + d.CtrlType.String()
	}
	return d.Op.String()
}

// matches reports whether e's patterns, opcode and types hold for d.
func (e *MaskEntry) matches(f *ir.Function, d *ir.InstData) bool {
	if d.Op != e.Op || !typesMatch(f, d, e.Type, e.AnyType, e.Free) {
		return false
	}
	for _, o := range e.Operands {
		if o.Operand != AnyOperand {
			if o.Operand >= len(d.Args) || !o.Producer.produced(f, d.Args[o.Operand]) {
				return false
			}
			continue
		}
		found := false
		for _, a := range d.Args {
			if o.Producer.produced(f, a) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// typesMatch checks d's controlling type and free operand type.
func typesMatch(f *ir.Function, d *ir.InstData, ctrl ir.Type, any bool, free ir.Type) bool {
	if !any && d.CtrlType != ctrl {
		return false
	}
	if free == ir.Invalid {
		return true
	}
	k := FreeOperand(d.Op)
	return k >= 0 && k < len(d.Args) && valueType(f, d.Args[k]) == free
}

// produced reports whether v is a result of an instruction p matches.
func (p *Producer) produced(f *ir.Function, v ir.Value) bool {
	if p == nil {
		return true
	}
	v = f.Resolve(v)
	if int(v) >= len(f.Values) || f.Values[v].Kind != ir.DefResult {
		return false
	}
	d := &f.Insts[f.Values[v].Inst]
	if d.Op != p.Op || !typesMatch(f, d, p.Type, p.AnyType, p.Free) {
		return false
	}
	for k, a := range p.Args {
		if a != nil && (k >= len(d.Args) || !a.produced(f, d.Args[k])) {
			return false
		}
	}
	return true
}

func valueType(f *ir.Function, v ir.Value) ir.Type {
	if v = f.Resolve(v); int(v) < len(f.Values) {
		return f.Values[v].Type
	}
	return ir.Invalid
}

// FoundIn reports whether some instruction of mod is one e masks: its
// opcode and types, and its operands' producers when e has patterns. The
// architecture is the caller's to check.
func (e MaskEntry) FoundIn(mod *ir.Module) bool {
	for _, f := range mod.Funcs {
		for _, b := range f.Layout {
			for _, i := range f.Blocks[b].Insts {
				if e.matches(f, &f.Insts[i]) {
					return true
				}
			}
		}
	}
	return false
}

// CheckFunc returns an error naming the first instruction of f (in
// layout order) a pattern matches, or nil.
func (s *Patterns) CheckFunc(f *ir.Function) error {
	if s.Len() == 0 {
		return nil
	}
	for _, b := range f.Layout {
		for _, inst := range f.Blocks[b].Insts {
			d := &f.Insts[inst]
			if int(d.Op) >= len(s.byOp) || len(s.byOp[d.Op]) == 0 {
				continue // most instructions: no pattern has their opcode
			}
			if k := s.match(f, d); k >= 0 {
				return fmt.Errorf("%s: %w", f.Name, s.matchError(d, k))
			}
		}
	}
	return nil
}
