package gen

import (
	"fmt"
	"slices"

	"cliff/lib/ir"
)

// A Combo is one member of a target's census universe: an opcode with its
// controlling type (ir.Invalid for a monomorphic opcode), its free operand
// type (ir.Invalid for an opcode without one) and, for opcodes whose
// immediate is a keyword (a condition code, an atomic operation), that
// keyword ("" otherwise).
type Combo struct {
	Op         ir.Opcode
	Ctrl, Free ir.Type
	Imm        string
}

// An Exclusion is the facts.txt line that keeps a combination out of a
// profile: its line number and its reason as written ("[upstream] ...").
type Exclusion struct {
	Line   int
	Reason string
}

// Universe lists the census universe of a target: every opcode cliff-gen
// generates (the `ops` lines; the `never` ones stay out, for the reasons
// they give) with every controlling and free operand type the opcode
// table admits among the types the target takes (its `types` line), every
// operand and result of a type it takes, and every keyword immediate:
// what the profile starts from before any exclusion or shape rule. The
// verifier has the last word on each (a shape rule such as bitcast's
// same-bits is one of its rules, and it rejects what breaks it).
func (f *Facts) Universe(arch string) ([]Combo, error) {
	a := f.archNamed(arch)
	if a == nil {
		return nil, fmt.Errorf("facts: no target %q", arch)
	}
	taken := func(t ir.Type) bool { return slices.Contains(a.types, t) }
	var out []Combo
	for _, op := range f.ops {
		fo, hasFree := freeOperandOf(op)
		imms := immediates(op)
		if len(imms) == 0 {
			imms = []string{""}
		}
		for _, ctrl := range sortTypes(ctrlCandidates(op, a.types, a.pointer)) {
			frees := []ir.Type{ir.Invalid}
			if hasFree {
				frees = fo.candidates(op, ctrl, sortTypes(a.types), nil)
			}
			for _, free := range frees {
				c := combo{op, ctrl, free}
				if slices.ContainsFunc(operandTypes(c, a.pointer), func(t ir.Type) bool { return !taken(t) }) {
					continue
				}
				for _, imm := range imms {
					out = append(out, Combo{Op: op, Ctrl: ctrl, Free: free, Imm: imm})
				}
			}
		}
	}
	return out, nil
}

// Excluded returns the lines of facts.txt that keep c out of the
// target's profile: the shape line whose rule c breaks ([semantics]), the
// exclude lines, and the exclude-imm lines that name c's immediate, in
// file order; nil when the profile has c.
func (f *Facts) Excluded(arch string, c Combo) []Exclusion {
	a := f.archNamed(arch)
	if a == nil {
		return nil
	}
	var out []Exclusion
	if f.ShapeBroken(c) {
		out = append(out, f.shapeWhy[c.Op])
	}
	for _, e := range a.excludes {
		if !e.matches(combo{c.Op, c.Ctrl, c.Free}) {
			continue
		}
		if e.imms != nil && !slices.Contains(e.imms, c.Imm) {
			continue
		}
		out = append(out, Exclusion{Line: e.line, Reason: e.reason})
	}
	return out
}

// ShapeBroken reports whether c breaks one of facts.txt's shape rules for
// its opcode (a [semantics] rule, not a target's exclusion).
func (f *Facts) ShapeBroken(c Combo) bool {
	for _, r := range f.shapes[c.Op] {
		if !r.holds(c.Ctrl, c.Free) {
			return true
		}
	}
	return false
}

func (f *Facts) archNamed(name string) *archFacts {
	for _, a := range f.arches {
		if a.name == name {
			return a
		}
	}
	return nil
}
