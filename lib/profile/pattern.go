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
	byOp    map[ir.Opcode][]int // entries by root opcode
	inner   map[ir.Opcode]bool  // opcodes of producers with operand patterns of their own
}

// Patterns returns the operand-producer mask entries that apply to p
// (see Without), or nil when there are none.
func (p *Profile) Patterns() *Patterns { return p.patterns }

// with returns s plus e.
func (s *Patterns) with(e MaskEntry) *Patterns {
	out := &Patterns{byOp: map[ir.Opcode][]int{}, inner: map[ir.Opcode]bool{}}
	if s != nil {
		out.entries = append(out.entries, s.entries...)
	}
	out.entries = append(out.entries, e)
	for i, e := range out.entries {
		out.byOp[e.Op] = append(out.byOp[e.Op], i)
		for _, o := range e.Operands {
			markInner(out.inner, o.Producer)
		}
	}
	return out
}

func markInner(inner map[ir.Opcode]bool, p *Producer) {
	if p == nil || len(p.Args) == 0 {
		return
	}
	inner[p.Op] = true
	for _, a := range p.Args {
		markInner(inner, a)
	}
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
func (s *Patterns) Roots(op ir.Opcode) bool { return s != nil && len(s.byOp[op]) > 0 }

// Inner reports whether an instruction of op may, through its own
// operands, make one that uses its result match a pattern: a pass that
// rebinds its operands must ask Match of its users too. Changing the
// operands of other instructions never changes whether their users match
// (types stay exact).
func (s *Patterns) Inner(op ir.Opcode) bool { return s != nil && s.inner[op] }

// Match returns the first pattern instruction d of f matches, with its
// operands as they are now.
func (s *Patterns) Match(f *ir.Function, d *ir.InstData) (MaskEntry, bool) {
	if s == nil {
		return MaskEntry{}, false
	}
	for _, i := range s.byOp[d.Op] {
		if s.entries[i].matches(f, d) {
			return s.entries[i], true
		}
	}
	return MaskEntry{}, false
}

// Check returns an error naming the pattern d matches, or nil.
func (s *Patterns) Check(f *ir.Function, d *ir.InstData) error {
	if e, ok := s.Match(f, d); ok {
		return fmt.Errorf("%s matches the mask entry `%s`", describe(d), e)
	}
	return nil
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
			if err := s.Check(f, &f.Insts[inst]); err != nil {
				return fmt.Errorf("%s: %w", f.Name, err)
			}
		}
	}
	return nil
}
