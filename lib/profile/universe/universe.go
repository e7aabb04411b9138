// Package universe is the lowering census's universe: for each target,
// every opcode x controlling type x free operand type (x keyword
// immediate) that cliff generates from, regardless of the profile's
// exclusions and of known.mask, and for each combination the facts.txt
// lines that keep it out of the profile.
//
// The profiles (lib/profile) are this universe less the exclusions of
// data/facts.txt: what a backend does not lower ([unlowered]), what
// upstream lists as unsupported ([upstream]), type classes it does not
// take ([types]) and combinations without meaning ([semantics]). The
// census (cliff-gen --enumerate --all, lib/census) compiles the whole
// universe instead, so that those gaps are still measured and reported,
// and a combination a profile excludes but that works is seen.
//
// It is a package of its own because the facts parser lives in
// lib/profile/internal/gen, which imports lib/profile.
package universe

import (
	"fmt"
	"strings"
	"sync"

	"cliff/lib/ir"
	"cliff/lib/profile"
	"cliff/lib/profile/internal/gen"
)

// A Combo is one combination of the universe (see gen.Combo).
type Combo = gen.Combo

// An Exclusion is a facts.txt line that excludes a combination.
type Exclusion = gen.Exclusion

// FactsFile is how exclusions name the file their line is in.
const FactsFile = "facts.txt"

// Universe answers for the embedded facts.txt.
type Universe struct{ facts *gen.Facts }

var (
	loadOnce sync.Once
	loaded   *Universe
	loadErr  error
)

// Load parses the embedded facts.txt once.
func Load() (*Universe, error) {
	loadOnce.Do(func() {
		f, err := gen.ParseFacts(FactsFile, profile.FactsText())
		loaded, loadErr = &Universe{facts: f}, err
	})
	return loaded, loadErr
}

// Combos lists the universe of arch (one of profile.Arches) in opcode
// table order.
func (u *Universe) Combos(arch string) ([]Combo, error) { return u.facts.Universe(arch) }

// Excluded returns the facts.txt lines that keep c out of arch's profile.
func (u *Universe) Excluded(arch string, c Combo) []Exclusion { return u.facts.Excluded(arch, c) }

// Key spells c as the census names it: opcode, then its controlling type,
// free type and immediate where it has them, joined by dots:
// "fcvt_to_uint.i8.f64", "fcmp.f32x4.ueq", "nop". Parse reads it back.
func Key(c Combo) string {
	parts := []string{c.Op.String()}
	if c.Ctrl != ir.Invalid {
		parts = append(parts, c.Ctrl.String())
	}
	if c.Free != ir.Invalid {
		parts = append(parts, c.Free.String())
	}
	if c.Imm != "" {
		parts = append(parts, c.Imm)
	}
	return strings.Join(parts, ".")
}

// Parse reads a Key. The first type is the controlling type of a
// polymorphic opcode (a monomorphic one has none), a second the free type;
// a word that is no type is the immediate.
func Parse(key string) (Combo, error) {
	parts := strings.Split(key, ".")
	op, ok := ir.LookupOpcode(parts[0])
	if !ok {
		return Combo{}, fmt.Errorf("census key %q: unknown opcode %q", key, parts[0])
	}
	c := Combo{Op: op}
	types := 0
	for _, p := range parts[1:] {
		t, isType := ir.ParseType(p)
		switch {
		case isType && c.Imm == "" && types == 0 && op.Info().Polymorphic:
			c.Ctrl, types = t, 1
		case isType && c.Imm == "" && types <= 1:
			c.Free, types = t, 2
		case !isType && c.Imm == "" && p != "":
			c.Imm = p
		default:
			return Combo{}, fmt.Errorf("census key %q: unexpected %q", key, p)
		}
	}
	return c, nil
}

// String spells an exclusion as a reference: "facts.txt:97 [upstream] ...".
func String(e Exclusion) string { return fmt.Sprintf("%s:%d %s", FactsFile, e.Line, e.Reason) }
