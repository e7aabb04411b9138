// Package gen turns lib/profile/data/facts.txt, the hand-written facts
// about what each Cranelift backend supports, and the opcode table into the
// profile data files (data/ARCH.txt). Command mkprofile runs it; a test in
// lib/profile runs it again to check that the checked-in files are current.
package gen

import (
	"bufio"
	"bytes"
	"fmt"
	"path"
	"slices"
	"strings"

	"cliff/lib/ir"
	"cliff/lib/profile"
)

// The text form of facts.txt, one directive per line. `#` starts a
// comment; on exclude, never, shape and setting lines the comment is the
// reason (with its source) and is required.
//
//	group NAME OP...            names a list of opcodes: @NAME in an OPS list
//	ops OP...                   opcodes cliff-gen generates
//	crashonly OP...             of those, the ones only crash-only cases use
//	never OP... # why           opcodes cliff-gen never generates
//	shape OPS RULE # why        a rule the free operand type must follow
//	arch NAME...                the following lines apply to these targets
//	pointer TYPE                the pointer type (address operands)
//	types TYPE...               the value types the backend takes
//	abi TYPE...                 the types a param or return may have
//	callconv CC...              the calling conventions it accepts
//	byteorder little|big... # why   explicit byte orders memory flags may name
//	setting NAME=VALUE # why    a shared setting cases need
//	needs FLAG OP... # why      opcodes the backend lowers only with ISA flag FLAG
//	exclude OPS TYPES # why     combinations the backend does not support
//	exclude-imm OPS TYPES IMMS # why    immediates it does not support there
//
// OPS is a comma-separated list of opcodes and @groups. TYPES is a
// comma-separated list of patterns, each a glob over type names (path.Match:
// `*`, `f16*`, `i*x*`) for the controlling type (`-` names the absent one
// of a monomorphic opcode), optionally followed by `:GLOB` for the free
// operand type. IMMS is a comma-separated list of immediates as spelled in
// CLIF (fcmp's `ueq`). Shape RULEs: same-bits (the free type has the
// width of the controlling type), same-lanes (and its lane count).

// Facts is a parsed facts.txt.
type Facts struct {
	name      string
	ops       []ir.Opcode // generated opcodes, table order
	crashOnly []ir.Opcode
	never     map[ir.Opcode]string
	shapes    map[ir.Opcode][]shapeRule
	shapeWhy  map[ir.Opcode]Exclusion // the shape line of each opcode's rules
	arches    []*archFacts            // in the order of first mention
}

type archFacts struct {
	name            string
	pointer         ir.Type
	types           []ir.Type
	abi             []ir.Type
	callConvs       []ir.CallConv
	byteOrders      []string
	byteOrderReason string
	settings        []setting
	needs           []need
	excludes        []*exclude
}

// A need is one needs line: opcodes the backend lowers only with an ISA
// flag (the lowering rule's `if-let true (has_ssse3)`). Profiles keep
// them, so that a configuration without the flag refuses such a case as
// it refuses a vector type without riscv64's has_v.
type need struct {
	flag   string
	ops    []ir.Opcode
	reason string
}

type setting struct{ text, reason string }

// An exclude is one exclude or exclude-imm line, shared by the arches it
// names.
type exclude struct {
	line   int
	ops    []ir.Opcode
	pats   []typePattern
	imms   []string // exclude-imm only
	reason string
	used   bool
}

type typePattern struct {
	ctrl, free string // globs; free "" matches any free type
}

type shapeRule string

const (
	sameBits  shapeRule = "same-bits"
	sameLanes shapeRule = "same-lanes"
)

// ParseFacts reads facts.txt; name is used in errors (file:line: what).
func ParseFacts(name string, src []byte) (*Facts, error) {
	p := &factsParser{
		f:      &Facts{name: name, never: map[ir.Opcode]string{}, shapes: map[ir.Opcode][]shapeRule{}, shapeWhy: map[ir.Opcode]Exclusion{}},
		groups: map[string][]ir.Opcode{},
	}
	sc := bufio.NewScanner(bytes.NewReader(src))
	for line := 1; sc.Scan(); line++ {
		text, reason, _ := strings.Cut(sc.Text(), "#")
		words := strings.Fields(text)
		if len(words) == 0 {
			continue
		}
		p.line = line
		if err := p.directive(words, strings.TrimSpace(reason)); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := p.f.checkComplete(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return p.f, nil
}

type factsParser struct {
	f      *Facts
	line   int
	groups map[string][]ir.Opcode
	cur    []*archFacts // the targets of the last arch line
}

func (p *factsParser) directive(w []string, reason string) error {
	needReason := func() error {
		if reason == "" {
			return fmt.Errorf("%s needs a reason in a # comment", w[0])
		}
		return nil
	}
	switch w[0] {
	case "group":
		if len(w) < 3 {
			return fmt.Errorf("want `group NAME OP...`")
		}
		ops, err := p.opList(strings.Join(w[2:], ","))
		if err != nil {
			return err
		}
		p.groups[w[1]] = ops
	case "ops", "crashonly", "never":
		ops, err := p.opList(strings.Join(w[1:], ","))
		if err != nil {
			return err
		}
		switch w[0] {
		case "ops":
			p.f.ops = append(p.f.ops, ops...)
		case "crashonly":
			p.f.crashOnly = append(p.f.crashOnly, ops...)
		case "never":
			if err := needReason(); err != nil {
				return err
			}
			for _, op := range ops {
				p.f.never[op] = reason
			}
		}
	case "shape":
		if err := needReason(); err != nil {
			return err
		}
		if len(w) < 3 {
			return fmt.Errorf("want `shape OPS RULE...`")
		}
		ops, err := p.opList(w[1])
		if err != nil {
			return err
		}
		for _, r := range w[2:] {
			rule := shapeRule(r)
			if !slices.Contains([]shapeRule{sameBits, sameLanes}, rule) {
				return fmt.Errorf("unknown shape rule %q", r)
			}
			for _, op := range ops {
				p.f.shapes[op] = append(p.f.shapes[op], rule)
				p.f.shapeWhy[op] = Exclusion{Line: p.line, Reason: reason}
			}
		}
	case "arch":
		if len(w) < 2 {
			return fmt.Errorf("want `arch NAME...`")
		}
		p.cur = nil
		for _, name := range w[1:] {
			p.cur = append(p.cur, p.f.arch(name))
		}
	default:
		if p.cur == nil {
			return fmt.Errorf("%s before any arch line", w[0])
		}
		return p.archDirective(w, reason, needReason)
	}
	return nil
}

func (p *factsParser) archDirective(w []string, reason string, needReason func() error) error {
	switch w[0] {
	case "pointer":
		if len(w) != 2 {
			return fmt.Errorf("want `pointer TYPE`")
		}
		t, ok := ir.ParseType(w[1])
		if !ok || !t.IsInt() || !t.IsScalar() {
			return fmt.Errorf("bad pointer type %q", w[1])
		}
		for _, a := range p.cur {
			a.pointer = t
		}
	case "types", "abi":
		ts, err := profile.ParseTypes(w[1:])
		if err != nil {
			return err
		}
		for _, a := range p.cur {
			if w[0] == "types" {
				a.types = append(a.types, ts...)
			} else {
				a.abi = append(a.abi, ts...)
			}
		}
	case "callconv":
		for _, c := range w[1:] {
			cc := ir.CallConv(c)
			if !slices.Contains(ir.CallConvs, cc) {
				return fmt.Errorf("unknown calling convention %q", c)
			}
			for _, a := range p.cur {
				a.callConvs = append(a.callConvs, cc)
			}
		}
	case "byteorder":
		if err := needReason(); err != nil {
			return err
		}
		for _, o := range w[1:] {
			if o != "little" && o != "big" {
				return fmt.Errorf("byte order %q: want little or big", o)
			}
		}
		for _, a := range p.cur {
			a.byteOrders = append(a.byteOrders, w[1:]...)
			a.byteOrderReason = reason
		}
	case "setting":
		if err := needReason(); err != nil {
			return err
		}
		for _, s := range w[1:] {
			if n, v, ok := strings.Cut(s, "="); !ok || n == "" || v == "" {
				return fmt.Errorf("setting %q: want NAME=VALUE", s)
			}
			for _, a := range p.cur {
				a.settings = append(a.settings, setting{s, reason})
			}
		}
	case "needs":
		if err := needReason(); err != nil {
			return err
		}
		if len(w) < 3 {
			return fmt.Errorf("want `needs FLAG OP...`")
		}
		n := need{flag: w[1], reason: reason}
		for _, name := range w[2:] {
			op, ok := ir.LookupOpcode(name)
			if !ok {
				return fmt.Errorf("unknown opcode %q", name)
			}
			n.ops = append(n.ops, op)
		}
		for _, a := range p.cur {
			a.needs = append(a.needs, n)
		}
	case "exclude", "exclude-imm":
		if err := needReason(); err != nil {
			return err
		}
		want := 3
		if w[0] == "exclude-imm" {
			want = 4
		}
		if len(w) != want {
			return fmt.Errorf("want `%s OPS TYPES%s`", w[0], map[bool]string{true: " IMMS"}[want == 4])
		}
		ops, err := p.opList(w[1])
		if err != nil {
			return err
		}
		pats, err := parsePatterns(w[2])
		if err != nil {
			return err
		}
		e := &exclude{line: p.line, ops: ops, pats: pats, reason: reason}
		if want == 4 {
			e.imms = strings.Split(w[3], ",")
		}
		for _, a := range p.cur {
			a.excludes = append(a.excludes, e)
		}
	default:
		return fmt.Errorf("unknown directive %q", w[0])
	}
	return nil
}

// opList reads a comma-separated list of opcodes and @groups.
func (p *factsParser) opList(s string) ([]ir.Opcode, error) {
	var out []ir.Opcode
	for _, w := range strings.Split(s, ",") {
		w = strings.TrimSpace(w)
		switch {
		case w == "":
		case strings.HasPrefix(w, "@"):
			g, ok := p.groups[w[1:]]
			if !ok {
				return nil, fmt.Errorf("unknown group %s", w)
			}
			out = append(out, g...)
		default:
			op, ok := ir.LookupOpcode(w)
			if !ok {
				return nil, fmt.Errorf("unknown opcode %q", w)
			}
			out = append(out, op)
		}
	}
	return out, nil
}

func parsePatterns(s string) ([]typePattern, error) {
	var out []typePattern
	for _, w := range strings.Split(s, ",") {
		ctrl, free, _ := strings.Cut(w, ":")
		for _, g := range []string{ctrl, free} {
			if _, err := path.Match(g, ""); err != nil {
				return nil, fmt.Errorf("bad pattern %q: %v", w, err)
			}
		}
		if ctrl == "" {
			return nil, fmt.Errorf("empty pattern in %q", s)
		}
		out = append(out, typePattern{ctrl, free})
	}
	return out, nil
}

func (f *Facts) arch(name string) *archFacts {
	for _, a := range f.arches {
		if a.name == name {
			return a
		}
	}
	a := &archFacts{name: name}
	f.arches = append(f.arches, a)
	return a
}

// checkComplete makes sure that every opcode of the table is either
// generated or never generated (so that a new opcode is not forgotten),
// and that every target has what a profile needs.
func (f *Facts) checkComplete() error {
	var missing, both []string
	for _, op := range ir.Opcodes() {
		_, never := f.never[op]
		gen := slices.Contains(f.ops, op)
		switch {
		case !gen && !never:
			missing = append(missing, op.String())
		case gen && never:
			both = append(both, op.String())
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("opcodes neither in ops nor in never: %s", strings.Join(missing, " "))
	}
	if len(both) > 0 {
		return fmt.Errorf("opcodes in both ops and never: %s", strings.Join(both, " "))
	}
	for _, op := range f.crashOnly {
		if !slices.Contains(f.ops, op) {
			return fmt.Errorf("crashonly %s is not in ops", op)
		}
	}
	// Table order, no duplicates.
	slices.Sort(f.ops)
	f.ops = slices.Compact(f.ops)
	slices.Sort(f.crashOnly)
	f.crashOnly = slices.Compact(f.crashOnly)
	if len(f.arches) == 0 {
		return fmt.Errorf("no arch")
	}
	for _, a := range f.arches {
		switch {
		case a.pointer == ir.Invalid:
			return fmt.Errorf("arch %s: no pointer type", a.name)
		case len(a.types) == 0:
			return fmt.Errorf("arch %s: no types", a.name)
		case len(a.callConvs) == 0:
			return fmt.Errorf("arch %s: no callconv", a.name)
		}
	}
	return nil
}

// Arches lists the targets facts.txt describes.
func (f *Facts) Arches() []string {
	var out []string
	for _, a := range f.arches {
		out = append(out, a.name)
	}
	return out
}
