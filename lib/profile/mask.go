package profile

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"cliff/lib/ir"
)

// A MaskEntry removes one combination from a profile: opcode Op with
// controlling type Type (ir.Invalid for a monomorphic opcode) on Arch (one
// of Arches, or "*" for every architecture). When Free is set, only that
// free operand type goes (see FreeTypes); the controlling type goes too
// once it has no free type left.
type MaskEntry struct {
	Op   ir.Opcode
	Type ir.Type
	Free ir.Type
	Arch string
}

// A mask file (data/known.mask, or what cliff-locate writes) has one entry
// per line, `#` starting a comment:
//
//	OPCODE TYPE ARCH
//
// TYPE is a controlling type (i32x4), CTRL:FREE to name a free operand
// type too (fcvt_from_sint's f32:i128), or `-` for a monomorphic opcode;
// ARCH is x86_64, aarch64, riscv64, s390x or `*`.

// ReadMask reads a mask file; errors say file:line: what.
func ReadMask(path string) ([]MaskEntry, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseMask(path, src)
}

// KnownMask returns the embedded data/known.mask: the combinations the
// profiles keep although Cranelift 0.135 fails to compile them.
func KnownMask() ([]MaskEntry, error) {
	src, err := data.ReadFile("data/known.mask")
	if err != nil {
		return nil, err
	}
	return ParseMask("data/known.mask", src)
}

// ParseMask reads a mask from src; name is used in errors.
func ParseMask(name string, src []byte) ([]MaskEntry, error) {
	var out []MaskEntry
	err := forEachLine(name, src, func(f []string) error {
		e, err := parseMaskEntry(f)
		out = append(out, e)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func parseMaskEntry(f []string) (MaskEntry, error) {
	if len(f) != 3 {
		return MaskEntry{}, fmt.Errorf("want `OPCODE TYPE ARCH`, got %d fields", len(f))
	}
	op, err := parseOpcode(f[0])
	if err != nil {
		return MaskEntry{}, err
	}
	e := MaskEntry{Op: op, Arch: f[2]}
	if e.Arch != "*" && !slices.Contains(Arches, e.Arch) {
		return MaskEntry{}, fmt.Errorf("unknown arch %q: want one of %s or *", e.Arch, strings.Join(Arches, ", "))
	}
	info := op.Info()
	if f[1] == "-" {
		if info.Polymorphic {
			return MaskEntry{}, fmt.Errorf("%s is polymorphic: name its controlling type", op)
		}
		return e, nil
	}
	if !info.Polymorphic {
		return MaskEntry{}, fmt.Errorf("%s is monomorphic: write - for its type", op)
	}
	ctrl, free, hasFree := strings.Cut(f[1], ":")
	if e.Type, err = parseCtrl(op, ctrl); err != nil {
		return MaskEntry{}, err
	}
	if hasFree {
		t, ok := ir.ParseType(free)
		if !ok || t.IsDynamic() {
			return MaskEntry{}, fmt.Errorf("bad free type %q", free)
		}
		e.Free = t
	}
	return e, nil
}

// String spells the entry as a mask line.
func (e MaskEntry) String() string {
	t := "-"
	if e.Type != ir.Invalid {
		t = e.Type.String()
	}
	if e.Free != ir.Invalid {
		t += ":" + e.Free.String()
	}
	return e.Op.String() + " " + t + " " + e.Arch
}

// Without returns p minus the entries of mask that apply to it: those for
// one of p.Arches or for "*". Entries naming combinations p does not allow
// are ignored.
func (p *Profile) Without(mask []MaskEntry) *Profile {
	q := p.derive(p.Name)
	for _, e := range mask {
		if e.Arch != "*" && !slices.Contains(p.Arches, e.Arch) {
			continue
		}
		if int(e.Op) >= len(q.ops) {
			continue
		}
		d := &q.ops[e.Op]
		if e.Free == ir.Invalid || d.free == nil {
			d.disallow(e.Type)
			continue
		}
		set, ok := d.free[e.Type]
		if !ok {
			continue
		}
		set.remove(e.Free)
		if set.empty() {
			d.disallow(e.Type)
		} else {
			d.free[e.Type] = set
		}
	}
	return q
}
