package profile

import (
	"bufio"
	"bytes"
	"fmt"
	"slices"
	"strings"

	"cliff/lib/ir"
)

// The text form of a profile (data/ARCH.txt), one directive per line, `#`
// starting a comment:
//
//	arch NAME                      the target (first directive)
//	callconv CC...                 calling conventions functions may use
//	setting NAME=VALUE             a shared setting every case needs
//	abi TYPE...                    types a param or return may have
//	pointer TYPE                   the address type (i64 when absent)
//	byteorder little|big...        explicit byte orders memory flags may name
//	crashonly OP...                opcodes only crash-only cases may use
//	needs FLAG OP...               opcodes the backend lowers only with ISA flag FLAG
//	op NAME                        a monomorphic opcode is allowed
//	op NAME TYPE...                allowed controlling types
//	op NAME CTRL with FREE...      one controlling type and its free operand types
//	imm OP CTRL IMM...             the only immediates OP takes with CTRL
//
// An opcode with a free operand type has one `op ... with` line per
// controlling type. Directives may repeat; their lists accumulate.

// Parse reads a profile in the text form; name (a file name) is used in
// errors, which say file:line: what.
func Parse(name string, src []byte) (*Profile, error) {
	var p *Profile
	err := forEachLine(name, src, func(f []string) error {
		if p == nil {
			if f[0] != "arch" || len(f) != 2 {
				return fmt.Errorf("want `arch NAME` first, got %q", f[0])
			}
			p = newProfile(f[1], []string{f[1]})
			return nil
		}
		return p.parseDirective(f)
	})
	if err != nil {
		return nil, err
	}
	if p == nil {
		return nil, fmt.Errorf("%s: no `arch` line", name)
	}
	return p, nil
}

// forEachLine calls fn with the fields of each line of src that has any
// once its `#` comment is cut: the line form of profiles, masks and the
// portability rules. An error from fn comes back as name:line: error.
func forEachLine(name string, src []byte, fn func(fields []string) error) error {
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(text)
		if len(f) == 0 {
			continue
		}
		if err := fn(f); err != nil {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

func (p *Profile) parseDirective(f []string) error {
	switch f[0] {
	case "arch":
		return fmt.Errorf("second `arch` line")
	case "callconv":
		for _, w := range f[1:] {
			cc := ir.CallConv(w)
			if !slices.Contains(ir.CallConvs, cc) {
				return fmt.Errorf("unknown calling convention %q", w)
			}
			p.CallConvs = append(p.CallConvs, cc)
		}
	case "setting":
		for _, w := range f[1:] {
			if n, v, ok := strings.Cut(w, "="); !ok || n == "" || v == "" {
				return fmt.Errorf("setting %q: want NAME=VALUE", w)
			}
			p.Settings = append(p.Settings, w)
		}
	case "abi":
		ts, err := ParseTypes(f[1:])
		if err != nil {
			return err
		}
		p.ABITypes = append(p.ABITypes, ts...)
	case "pointer":
		ts, err := ParseTypes(f[1:])
		if err != nil {
			return err
		}
		if len(ts) != 1 || (ts[0] != ir.I32 && ts[0] != ir.I64) {
			return fmt.Errorf("want `pointer i32` or `pointer i64`")
		}
		p.Pointer = ts[0]
	case "byteorder":
		for _, w := range f[1:] {
			e, ok := byteOrders[w]
			if !ok {
				return fmt.Errorf("byte order %q: want little or big", w)
			}
			p.ByteOrders = append(p.ByteOrders, e)
		}
	case "crashonly":
		for _, w := range f[1:] {
			op, err := parseOpcode(w)
			if err != nil {
				return err
			}
			p.crashOnly[op] = true
		}
	case "needs":
		if len(f) < 3 {
			return fmt.Errorf("want `needs FLAG OP...`")
		}
		for _, w := range f[2:] {
			op, err := parseOpcode(w)
			if err != nil {
				return err
			}
			if p.needs == nil {
				p.needs = map[ir.Opcode]string{}
			}
			if p.needs[op] != "" {
				return fmt.Errorf("%s needs a second flag", op)
			}
			p.needs[op] = f[1]
		}
	case "op":
		return p.parseOp(f[1:])
	case "imm":
		return p.parseImm(f[1:])
	default:
		return fmt.Errorf("unknown directive %q", f[0])
	}
	return nil
}

func (p *Profile) parseOp(f []string) error {
	if len(f) == 0 {
		return fmt.Errorf("`op` without an opcode")
	}
	op, err := parseOpcode(f[0])
	if err != nil {
		return err
	}
	d := &p.ops[op]
	info := op.Info()
	if len(f) == 1 {
		if info.Polymorphic {
			return fmt.Errorf("%s is polymorphic: list its controlling types", op)
		}
		d.ctrl.add(ir.Invalid)
		return nil
	}
	if !info.Polymorphic {
		return fmt.Errorf("%s is monomorphic: it takes no types", op)
	}
	if len(f) >= 3 && f[2] == "with" {
		ctrl, err := parseCtrl(op, f[1])
		if err != nil {
			return err
		}
		free, err := ParseTypes(f[3:])
		if err != nil {
			return err
		}
		if len(free) == 0 {
			return fmt.Errorf("%s %s with: no free types", op, ctrl)
		}
		if d.free == nil {
			if !d.ctrl.empty() {
				return fmt.Errorf("%s: mixes lines with and without free types", op)
			}
			d.free = map[ir.Type]typeBits{}
		}
		d.ctrl.add(ctrl)
		set := d.free[ctrl]
		for _, t := range free {
			set.add(t)
		}
		d.free[ctrl] = set
		return nil
	}
	if d.free != nil {
		return fmt.Errorf("%s: mixes lines with and without free types", op)
	}
	for _, w := range f[1:] {
		ctrl, err := parseCtrl(op, w)
		if err != nil {
			return err
		}
		d.ctrl.add(ctrl)
	}
	return nil
}

func (p *Profile) parseImm(f []string) error {
	if len(f) < 3 {
		return fmt.Errorf("want `imm OP CTRL IMM...`")
	}
	op, err := parseOpcode(f[0])
	if err != nil {
		return err
	}
	ctrl, err := parseCtrl(op, f[1])
	if err != nil {
		return err
	}
	if !p.Allows(op, ctrl) {
		return fmt.Errorf("imm for %s %s, which no `op` line allows", op, ctrl)
	}
	d := &p.ops[op]
	if d.imms == nil {
		d.imms = map[ir.Type][]string{}
	}
	d.imms[ctrl] = append(d.imms[ctrl], f[2:]...)
	return nil
}

// byteOrders spells the explicit byte orders as CLIF memory flags do.
var byteOrders = map[string]ir.Endianness{"little": ir.EndianLittle, "big": ir.EndianBig}

func parseOpcode(w string) (ir.Opcode, error) {
	op, ok := ir.LookupOpcode(w)
	if !ok {
		return 0, fmt.Errorf("unknown opcode %q", w)
	}
	return op, nil
}

// parseCtrl reads a controlling type of op and checks it against the
// opcode table.
func parseCtrl(op ir.Opcode, w string) (ir.Type, error) {
	t, ok := ir.ParseType(w)
	if !ok || t.IsDynamic() {
		return ir.Invalid, fmt.Errorf("bad type %q", w)
	}
	if !op.Info().TypeVars[0].Set.Contains(t) {
		return ir.Invalid, fmt.Errorf("%s cannot have controlling type %s", op, t)
	}
	return t, nil
}

// ParseTypes reads type names as profile and fact files write them: fixed
// types only, no dynamic vectors.
func ParseTypes(ws []string) ([]ir.Type, error) {
	var out []ir.Type
	for _, w := range ws {
		t, ok := ir.ParseType(w)
		if !ok || t.IsDynamic() {
			return nil, fmt.Errorf("bad type %q", w)
		}
		out = append(out, t)
	}
	return out, nil
}
