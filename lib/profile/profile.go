package profile

import (
	"embed"
	"fmt"
	"slices"
	"strings"
	"sync"

	"cliff/lib/arch"
	"cliff/lib/ir"
)

// Profile is what one target (or the intersection of several) should
// accept. The exported slices are the profile's own: callers must not
// modify them.
type Profile struct {
	// Name is "x86_64", "aarch64", "riscv64", "s390x" or "compat", with
	// "-portable" appended by Portable.
	Name string
	// Arches are the targets the profile covers (all four for compat).
	Arches []string
	// CallConvs are the calling conventions a function may use. Cranelift's
	// verifier adds rules of its own: return_call needs `tail` on both
	// sides, and `preserve_all` signatures have no returns.
	CallConvs []ir.CallConv
	// Settings are the shared Cranelift settings (name=value) every case
	// must be compiled with.
	Settings []string
	// ABITypes are the types a param or return may have.
	ABITypes []ir.Type
	// ByteOrders are the explicit byte orders (`little`, `big` memory
	// flags) loads, stores and bitcasts may name; the native order (no
	// flag) is always allowed.
	ByteOrders []ir.Endianness
	// Pointer is the type of addresses: stack_addr, func_addr and the
	// address operand of memory accesses (i32 on pulley32, else i64).
	Pointer ir.Type

	ops       []opData
	crashOnly []bool // by opcode: emitted only in crash-only mode
	// needs maps the opcodes the target's backend lowers only with an
	// ISA flag to that flag (NeedsFlag); nil for an intersection.
	needs    map[ir.Opcode]string
	patterns *Patterns // a mask's operand-producer entries (Without)
}

// opData is one opcode's part of a profile. It is never modified once the
// profile is built: Without and Portable make new ones.
type opData struct {
	ctrl typeBits
	// free, for opcodes with a free operand type, holds the free types
	// allowed with each controlling type; nil for the others.
	free map[ir.Type]typeBits
	// imms holds, where restricted, the immediates (condition codes)
	// allowed with a controlling type.
	imms map[ir.Type][]string
}

// Arches lists the targets with a profile of their own: every machine
// architecture cliff compiles for (lib/arch), in the order compat combines
// them (CompatArches), then Pulley's 32- and 64-bit bytecode (their
// big-endian forms lower alike).
var Arches = append(arch.Names(), "pulley32", "pulley64")

// ProfileOf names the profile of a target: its own, or for a big-endian
// Pulley target its little-endian twin's (they share one lowering, and
// the profiles' byte-order lines already allow both orders).
func ProfileOf(target string) string {
	if t, ok := strings.CutSuffix(target, "be"); ok && strings.HasPrefix(t, "pulley") {
		return t
	}
	return target
}

// CompatArches are the targets compat intersects: the machine
// architectures. Pulley runs a compat case where its own profile allows
// every instruction of it (lib/engine).
var CompatArches = arch.Names()

// CompatName is the name of the intersection profile.
const CompatName = "compat"

//go:embed data/*.txt data/known.mask
var data embed.FS

var (
	loadOnce sync.Once
	loaded   map[string]*Profile
	loadErr  error
)

// Load returns the named profile: one of Arches or "compat". The data is
// parsed once; every call returns a profile that shares it.
func Load(name string) (*Profile, error) {
	loadOnce.Do(func() { loaded, loadErr = loadAll() })
	if loadErr != nil {
		return nil, loadErr
	}
	p, ok := loaded[name]
	if !ok {
		return nil, fmt.Errorf("profile %q: want one of %v or %s", name, Arches, CompatName)
	}
	return p, nil
}

func loadAll() (map[string]*Profile, error) {
	out := map[string]*Profile{}
	var all []*Profile
	for _, a := range Arches {
		path := "data/" + a + ".txt"
		src, err := data.ReadFile(path)
		if err != nil {
			return nil, err
		}
		p, err := Parse(path, src)
		if err != nil {
			return nil, err
		}
		if p.Name != a {
			return nil, fmt.Errorf("%s: profile says arch %s", path, p.Name)
		}
		out[a] = p
		all = append(all, p)
	}
	var machines []*Profile
	for _, p := range all {
		if slices.Contains(CompatArches, p.Name) {
			machines = append(machines, p)
		}
	}
	out[CompatName] = intersect(CompatName, machines)
	return out, nil
}

// Allows reports whether op may be emitted with controlling type ctrl
// (ir.Invalid for monomorphic opcodes).
func (p *Profile) Allows(op ir.Opcode, ctrl ir.Type) bool {
	return int(op) < len(p.ops) && p.ops[op].ctrl.has(ctrl)
}

// Types lists the controlling types op may be emitted with, scalars first;
// [ir.Invalid] for an allowed monomorphic opcode, nil for a disallowed one.
func (p *Profile) Types(op ir.Opcode) []ir.Type {
	if int(op) >= len(p.ops) || p.ops[op].ctrl.empty() {
		return nil
	}
	return p.ops[op].ctrl.types()
}

// Opcodes lists the opcodes the profile allows, in opcode-table order.
func (p *Profile) Opcodes() []ir.Opcode {
	var out []ir.Opcode
	for op := range p.ops {
		if !p.ops[op].ctrl.empty() {
			out = append(out, ir.Opcode(op))
		}
	}
	return out
}

// FreeTypes lists the types op's free operand may have when op has
// controlling type ctrl (see the package doc), or nil when op has no free
// operand type or is not allowed with ctrl.
func (p *Profile) FreeTypes(op ir.Opcode, ctrl ir.Type) []ir.Type {
	if !p.Allows(op, ctrl) || p.ops[op].free == nil {
		return nil
	}
	return p.ops[op].free[ctrl].types()
}

// AllowsFree reports whether op may be emitted with controlling type ctrl
// and free operand type free (ir.Invalid for opcodes without one).
func (p *Profile) AllowsFree(op ir.Opcode, ctrl, free ir.Type) bool {
	if !p.Allows(op, ctrl) {
		return false
	}
	if p.ops[op].free == nil {
		return free == ir.Invalid
	}
	set := p.ops[op].free[ctrl]
	return set.has(free)
}

// Imms lists the immediates (condition codes, as spelled in CLIF) op may
// take with controlling type ctrl when the profile restricts them, or nil
// when any is allowed.
func (p *Profile) Imms(op ir.Opcode, ctrl ir.Type) []string {
	if !p.Allows(op, ctrl) || p.ops[op].imms == nil {
		return nil
	}
	return p.ops[op].imms[ctrl]
}

// AllowsImm reports whether op with controlling type ctrl may take the
// immediate imm (e.g. fcmp's "ueq").
func (p *Profile) AllowsImm(op ir.Opcode, ctrl ir.Type, imm string) bool {
	if !p.Allows(op, ctrl) {
		return false
	}
	allowed, restricted := p.ops[op].imms[ctrl]
	return !restricted || slices.Contains(allowed, imm)
}

// CrashOnly reports an opcode that traps by design (trap, trapz, ...):
// the profile allows it, but only cases that look for compiler crashes,
// not wrong results, may use it.
func (p *Profile) CrashOnly(op ir.Opcode) bool {
	return int(op) < len(p.crashOnly) && p.crashOnly[op]
}

// NeedsFlag returns the ISA flag without which the target's backend does
// not lower op (its only lowering rule asks for it: x64's x86_pshufb
// needs has_ssse3), when flags ("name", "name=true", "name=false") lack
// it; "" when they have it or op needs none. An intersection (compat)
// knows no such flag: ask each target's own profile.
func (p *Profile) NeedsFlag(op ir.Opcode, flags []string) string {
	if need, ok := p.needs[op]; ok && !arch.FlagOn(flags, need) {
		return need
	}
	return ""
}

// AllowsCallConv reports whether functions may use cc.
func (p *Profile) AllowsCallConv(cc ir.CallConv) bool { return slices.Contains(p.CallConvs, cc) }

// AllowsABIType reports whether a param or return may have type t.
func (p *Profile) AllowsABIType(t ir.Type) bool { return slices.Contains(p.ABITypes, t) }

// AllowsByteOrder reports whether a memory access or bitcast may carry the
// byte order e; ir.EndianNative (no flag) is always allowed.
func (p *Profile) AllowsByteOrder(e ir.Endianness) bool {
	return e == ir.EndianNative || slices.Contains(p.ByteOrders, e)
}

// Count is the number of (opcode, controlling type) combinations allowed.
func (p *Profile) Count() int {
	n := 0
	for _, d := range p.ops {
		n += d.ctrl.len()
	}
	return n
}

// newProfile returns an empty profile for the opcode table.
func newProfile(name string, arches []string) *Profile {
	n := len(ir.Opcodes()) + 1
	return &Profile{Name: name, Arches: arches, Pointer: ir.I64, ops: make([]opData, n), crashOnly: make([]bool, n)}
}

// derive returns a copy of p named name whose opcode data is copied so that
// it may be changed.
func (p *Profile) derive(name string) *Profile {
	q := &Profile{
		Name:       name,
		Arches:     slices.Clone(p.Arches),
		CallConvs:  slices.Clone(p.CallConvs),
		Settings:   slices.Clone(p.Settings),
		ABITypes:   slices.Clone(p.ABITypes),
		ByteOrders: slices.Clone(p.ByteOrders),
		Pointer:    p.Pointer,
		ops:        make([]opData, len(p.ops)),
		crashOnly:  slices.Clone(p.crashOnly),
		needs:      p.needs,
		patterns:   p.patterns,
	}
	for op, d := range p.ops {
		q.ops[op] = d.clone()
	}
	return q
}

func (d opData) clone() opData {
	c := opData{ctrl: d.ctrl}
	if d.free != nil {
		c.free = make(map[ir.Type]typeBits, len(d.free))
		for t, s := range d.free {
			c.free[t] = s
		}
	}
	if d.imms != nil {
		c.imms = make(map[ir.Type][]string, len(d.imms))
		for t, s := range d.imms {
			c.imms[t] = slices.Clone(s)
		}
	}
	return c
}

// disallow removes ctrl from op (and whatever hangs off it).
func (d *opData) disallow(ctrl ir.Type) {
	d.ctrl.remove(ctrl)
	delete(d.free, ctrl)
	delete(d.imms, ctrl)
}

// intersect is what every one of ps allows: the common opcodes, types,
// free types, immediates, calling conventions and ABI types, and every
// setting any of them needs.
func intersect(name string, ps []*Profile) *Profile {
	q := ps[0].derive(name)
	q.Arches, q.needs = nil, nil
	for _, p := range ps {
		q.Arches = append(q.Arches, p.Arches...)
		q.CallConvs = slices.DeleteFunc(q.CallConvs, func(c ir.CallConv) bool { return !p.AllowsCallConv(c) })
		q.ABITypes = slices.DeleteFunc(q.ABITypes, func(t ir.Type) bool { return !p.AllowsABIType(t) })
		q.ByteOrders = slices.DeleteFunc(q.ByteOrders, func(e ir.Endianness) bool { return !slices.Contains(p.ByteOrders, e) })
		if p.Pointer != q.Pointer {
			panic(fmt.Sprintf("profile %s: %s's pointer type %s is not %s's %s", name, p.Name, p.Pointer, ps[0].Name, q.Pointer))
		}
		for _, s := range p.Settings {
			if !slices.Contains(q.Settings, s) {
				q.Settings = append(q.Settings, s)
			}
		}
		for op := range q.ops {
			q.crashOnly[op] = q.crashOnly[op] || p.crashOnly[op]
			intersectOp(&q.ops[op], &p.ops[op])
		}
	}
	slices.Sort(q.Settings)
	return q
}

func intersectOp(d, e *opData) {
	d.ctrl = d.ctrl.and(e.ctrl)
	for _, ctrl := range d.ctrl.types() {
		if d.free != nil {
			f := d.free[ctrl].and(e.free[ctrl])
			if f.empty() {
				d.disallow(ctrl)
				continue
			}
			d.free[ctrl] = f
		}
		if theirs, ok := e.imms[ctrl]; ok {
			mine, restricted := d.imms[ctrl]
			if !restricted {
				mine = slices.Clone(theirs) // never share a slice with another profile
			} else {
				mine = slices.DeleteFunc(mine, func(s string) bool { return !slices.Contains(theirs, s) })
			}
			if len(mine) == 0 {
				d.disallow(ctrl)
				continue
			}
			if d.imms == nil {
				d.imms = map[ir.Type][]string{}
			}
			d.imms[ctrl] = mine
		}
	}
	for t := range d.free {
		if !d.ctrl.has(t) {
			delete(d.free, t)
		}
	}
	for t := range d.imms {
		if !d.ctrl.has(t) {
			delete(d.imms, t)
		}
	}
}

// ForCranelift returns p without the opcodes that some of versions does
// not know (lib/ir's release table), so that a case made from it compiles
// on each of them: cliff-gen --cranelift, and a campaign on an old
// release. No versions: p itself.
func (p *Profile) ForCranelift(versions []string) *Profile {
	if len(versions) == 0 {
		return p
	}
	q := p.derive(p.Name)
	t := ir.Releases()
	for op := range q.ops {
		name := ir.Opcode(op).String()
		for _, v := range versions {
			if !t.Knows(ir.KindOpcode, name, v) {
				for _, ctrl := range q.ops[op].ctrl.types() {
					q.ops[op].disallow(ctrl)
				}
				break
			}
		}
	}
	return q
}
