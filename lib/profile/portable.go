package profile

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"cliff/lib/ir"
)

// portableRules is what data/portable.txt says Cranelift 0.94 (wasmtime
// v7), the oldest release the portable subset targets, lacks. Its text
// form, one directive per line with `#` comments (each directive carries
// its reason and source there):
//
//	op OPCODE...        opcodes to drop
//	type TYPE...        types to drop (as controlling, free and ABI types)
//	callconv CC...      calling conventions to drop
//	setting NAME...     settings to drop (by name)
type portableRules struct {
	ops       []ir.Opcode
	types     []ir.Type
	callConvs []ir.CallConv
	settings  []string
}

var (
	portableOnce sync.Once
	portable     *portableRules
	portableErr  error
)

func loadPortable() (*portableRules, error) {
	portableOnce.Do(func() {
		src, err := data.ReadFile("data/portable.txt")
		if err != nil {
			portableErr = err
			return
		}
		portable, portableErr = parsePortable("data/portable.txt", src)
	})
	return portable, portableErr
}

func parsePortable(name string, src []byte) (*portableRules, error) {
	r := &portableRules{}
	if err := forEachLine(name, src, r.parseDirective); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *portableRules) parseDirective(f []string) error {
	switch f[0] {
	case "op":
		for _, w := range f[1:] {
			op, err := parseOpcode(w)
			if err != nil {
				return err
			}
			r.ops = append(r.ops, op)
		}
	case "type":
		ts, err := ParseTypes(f[1:])
		if err != nil {
			return err
		}
		r.types = append(r.types, ts...)
	case "callconv":
		for _, w := range f[1:] {
			if !slices.Contains(ir.CallConvs, ir.CallConv(w)) {
				return fmt.Errorf("unknown calling convention %q", w)
			}
			r.callConvs = append(r.callConvs, ir.CallConv(w))
		}
	case "setting":
		r.settings = append(r.settings, f[1:]...)
	default:
		return fmt.Errorf("unknown directive %q", f[0])
	}
	return nil
}

// Portable returns the part of p that also parses on older Cranelift
// releases (back to 0.94, see /work/shared/CLIF.md "Versions matter"): p
// without the opcodes, types, calling conventions and settings that
// data/portable.txt lists. It panics if the embedded data is malformed,
// which a test rules out.
func (p *Profile) Portable() *Profile {
	r, err := loadPortable()
	if err != nil {
		panic(fmt.Sprintf("profile: embedded portable.txt: %v", err))
	}
	q := p.derive(p.Name + "-portable")
	for _, op := range r.ops {
		if int(op) < len(q.ops) {
			q.ops[op] = opData{}
		}
	}
	for op := range q.ops {
		d := &q.ops[op]
		for _, t := range r.types {
			d.disallow(t)
			for ctrl, set := range d.free {
				set.remove(t)
				if set.empty() {
					d.disallow(ctrl)
				} else {
					d.free[ctrl] = set
				}
			}
		}
	}
	q.ABITypes = slices.DeleteFunc(q.ABITypes, func(t ir.Type) bool { return slices.Contains(r.types, t) })
	q.CallConvs = slices.DeleteFunc(q.CallConvs, func(c ir.CallConv) bool { return slices.Contains(r.callConvs, c) })
	q.Settings = slices.DeleteFunc(q.Settings, func(s string) bool {
		name, _, _ := strings.Cut(s, "=")
		return slices.Contains(r.settings, name)
	})
	return q
}
