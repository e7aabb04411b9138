package profile

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"cliff/lib/ir"
)

// A MaskEntry removes one combination from a profile: opcode Op with
// controlling type Type (ir.Invalid for a monomorphic opcode; any when
// AnyType) on Arch (one of Arches, or "*" for every architecture). When
// Free is set, only that free operand type goes (see FreeTypes); the
// controlling type goes too once it has no free type left.
//
// With Operands, the entry is an operand-producer pattern: it removes
// only the instructions whose operands are produced as the patterns say
// (select_spectre_guard whose condition is uextend.i128 of an icmp), and
// the opcode stays in the profile's tables otherwise (see Patterns).
type MaskEntry struct {
	Op       ir.Opcode
	Type     ir.Type
	AnyType  bool
	Free     ir.Type
	Arch     string
	Operands []OperandPattern
}

// An OperandPattern says which instruction produces operand Operand (an
// index among the value operands, or AnyOperand for any one of them).
type OperandPattern struct {
	Operand  int
	Producer *Producer
}

// AnyOperand is OperandPattern.Operand for "any operand" (`*`).
const AnyOperand = -1

// A Producer matches the instruction that defines a value: opcode Op,
// controlling type Type unless AnyType, free operand type Free when set,
// and operands as Args says (positional; nil or a nil element matches
// anything). A block param matches no Producer.
type Producer struct {
	Op      ir.Opcode
	Type    ir.Type
	AnyType bool
	Free    ir.Type
	Args    []*Producer
}

// A mask file (data/known.mask, or what cliff-locate writes) has one entry
// per line, `#` starting a comment:
//
//	entry    = OPCODE TYPE ARCH { OPERAND "=" producer }
//	TYPE     = "-" | CTRL [ ":" FREE ]
//	CTRL     = a type (i32x4) | "*"
//	producer = OPCODE [ "." CTRL [ ":" FREE ] ] [ "(" arg { "," arg } ")" ]
//	arg      = producer | "_"
//
// TYPE is a controlling type (i32x4; `*` for any), CTRL:FREE to name a
// free operand type too (fcvt_from_sint's f32:i128, or *:i128), or `-`
// for a monomorphic opcode; ARCH is x86_64, aarch64, riscv64, s390x or
// `*`. An entry without operand patterns removes the combination from the
// profile. Each OPERAND=producer (no spaces inside) narrows the entry to
// the instructions whose operand OPERAND - a name from the opcode table
// (select's c, x, y), an index from 0, or `*` for any operand - is the
// result of an instruction the producer matches: its opcode, controlling
// type (any when left out), free operand type, and the producers of its
// own operands, positionally, `_` matching anything. Several operand
// patterns must all hold. So
//
//	select_spectre_guard * riscv64 c=uextend.i128(icmp)
//
// masks select_spectre_guard, of any type, on riscv64, when its
// condition is uextend.i128 of an icmp, and keeps every other
// select_spectre_guard.

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
	if len(f) < 3 {
		return MaskEntry{}, fmt.Errorf("want `OPCODE TYPE ARCH [OPERAND=PRODUCER...]`, got %d fields", len(f))
	}
	op, err := parseOpcode(f[0])
	if err != nil {
		return MaskEntry{}, err
	}
	e := MaskEntry{Op: op, Arch: f[2]}
	if e.Arch != "*" && !slices.Contains(Arches, e.Arch) {
		return MaskEntry{}, fmt.Errorf("unknown arch %q: want one of %s or *", e.Arch, strings.Join(Arches, ", "))
	}
	if f[1] == "-" {
		if op.Info().Polymorphic {
			return MaskEntry{}, fmt.Errorf("%s is polymorphic: name its controlling type (or *)", op)
		}
	} else if e.Type, e.AnyType, e.Free, err = parseTypeSpec(op, f[1]); err != nil {
		return MaskEntry{}, err
	}
	for _, w := range f[3:] {
		pat, err := parseOperandPattern(op, w)
		if err != nil {
			return MaskEntry{}, fmt.Errorf("%s: %w", w, err)
		}
		e.Operands = append(e.Operands, pat)
	}
	return e, nil
}

// parseTypeSpec reads CTRL[:FREE] for a polymorphic op, CTRL being a type
// or `*`.
func parseTypeSpec(op ir.Opcode, w string) (ctrl ir.Type, any bool, free ir.Type, err error) {
	if !op.Info().Polymorphic {
		return ir.Invalid, false, ir.Invalid, fmt.Errorf("%s is monomorphic: write - for its type", op)
	}
	c, fr, hasFree := strings.Cut(w, ":")
	if c == "*" {
		any = true
	} else if ctrl, err = parseCtrl(op, c); err != nil {
		return ir.Invalid, false, ir.Invalid, err
	}
	if hasFree {
		if FreeOperand(op) < 0 {
			return ir.Invalid, false, ir.Invalid, fmt.Errorf("%s has no free operand type", op)
		}
		t, ok := ir.ParseType(fr)
		if !ok || t.IsDynamic() {
			return ir.Invalid, false, ir.Invalid, fmt.Errorf("bad free type %q", fr)
		}
		free = t
	}
	return ctrl, any, free, nil
}

// parseOperandPattern reads OPERAND=PRODUCER for an instruction of op.
func parseOperandPattern(op ir.Opcode, w string) (OperandPattern, error) {
	name, prod, ok := strings.Cut(w, "=")
	if !ok {
		return OperandPattern{}, fmt.Errorf("want OPERAND=PRODUCER")
	}
	k, err := operandIndex(op, name)
	if err != nil {
		return OperandPattern{}, err
	}
	p := &producerParser{src: prod}
	pr, err := p.producer()
	if err == nil && p.pos < len(p.src) {
		err = fmt.Errorf("unexpected %q at column %d", p.src[p.pos:], p.pos+1)
	}
	if err != nil {
		return OperandPattern{}, err
	}
	if pr == nil {
		return OperandPattern{}, fmt.Errorf("`_` matches anything: leave the operand out")
	}
	return OperandPattern{Operand: k, Producer: pr}, nil
}

// operandIndex reads an operand of op: `*`, an index, or a name from the
// opcode table.
func operandIndex(op ir.Opcode, name string) (int, error) {
	ins := op.Info().Ins
	if name == "*" {
		if len(ins) == 0 {
			return 0, fmt.Errorf("%s has no value operands", op)
		}
		return AnyOperand, nil
	}
	if k, err := strconv.Atoi(name); err == nil {
		if k < 0 || k >= len(ins) || ins[k].Kind == ir.OperandVarargs {
			return 0, fmt.Errorf("%s has no operand %d", op, k)
		}
		return k, nil
	}
	for k, in := range ins {
		if in.Name == name && in.Kind != ir.OperandVarargs {
			return k, nil
		}
	}
	var names []string
	for _, in := range ins {
		names = append(names, in.Name)
	}
	return 0, fmt.Errorf("%s has no operand %q (operands: %s)", op, name, strings.Join(names, ", "))
}

// producerParser reads a producer pattern.
type producerParser struct {
	src string
	pos int
}

// producer reads `OPCODE[.TYPE][(args)]`, or `_` (nil).
func (p *producerParser) producer() (*Producer, error) {
	start := p.pos
	for p.pos < len(p.src) && strings.IndexByte("(),", p.src[p.pos]) < 0 {
		p.pos++
	}
	word := p.src[start:p.pos]
	switch word {
	case "_":
		return nil, nil
	case "":
		return nil, fmt.Errorf("missing producer at column %d", start+1)
	}
	name, ty, typed := strings.Cut(word, ".")
	op, err := parseOpcode(name)
	if err != nil {
		return nil, err
	}
	pr := &Producer{Op: op, AnyType: !typed}
	if typed {
		if pr.Type, pr.AnyType, pr.Free, err = parseTypeSpec(op, ty); err != nil {
			return nil, err
		}
	}
	if p.pos == len(p.src) || p.src[p.pos] != '(' {
		return pr, nil
	}
	p.pos++
	for {
		arg, err := p.producer()
		if err != nil {
			return nil, err
		}
		pr.Args = append(pr.Args, arg)
		if p.pos == len(p.src) {
			return nil, fmt.Errorf("missing )")
		}
		c := p.src[p.pos]
		p.pos++
		if c == ')' {
			break
		}
		if c != ',' {
			return nil, fmt.Errorf("unexpected %q at column %d", c, p.pos)
		}
	}
	if n := len(op.Info().Ins); len(pr.Args) > n {
		return nil, fmt.Errorf("%s has %d operands, the pattern names %d", op, n, len(pr.Args))
	}
	return pr, nil
}

// String spells the entry as a mask line (FormatMaskEntry).
func (e MaskEntry) String() string { return FormatMaskEntry(e) }

// FormatMaskEntry spells e as a mask line, which ParseMask reads back as
// e. Operands are named as the opcode table names them.
func FormatMaskEntry(e MaskEntry) string {
	var b strings.Builder
	b.WriteString(e.Op.String())
	b.WriteByte(' ')
	if !e.Op.Info().Polymorphic {
		b.WriteByte('-')
	} else {
		writeTypeSpec(&b, e.Type, e.AnyType, e.Free)
	}
	b.WriteByte(' ')
	b.WriteString(e.Arch)
	for _, o := range e.Operands {
		b.WriteByte(' ')
		b.WriteString(operandName(e.Op, o.Operand))
		b.WriteByte('=')
		writeProducer(&b, o.Producer)
	}
	return b.String()
}

func writeTypeSpec(b *strings.Builder, ctrl ir.Type, any bool, free ir.Type) {
	if any {
		b.WriteByte('*')
	} else {
		b.WriteString(ctrl.String())
	}
	if free != ir.Invalid {
		b.WriteByte(':')
		b.WriteString(free.String())
	}
}

func writeProducer(b *strings.Builder, p *Producer) {
	if p == nil {
		b.WriteByte('_')
		return
	}
	b.WriteString(p.Op.String())
	if !p.AnyType || p.Free != ir.Invalid {
		b.WriteByte('.')
		writeTypeSpec(b, p.Type, p.AnyType, p.Free)
	}
	if len(p.Args) == 0 {
		return
	}
	b.WriteByte('(')
	for i, a := range p.Args {
		if i > 0 {
			b.WriteByte(',')
		}
		writeProducer(b, a)
	}
	b.WriteByte(')')
}

// operandName spells operand k of op as its name in the opcode table, or
// its index when the name is not unique.
func operandName(op ir.Opcode, k int) string {
	if k == AnyOperand {
		return "*"
	}
	ins := op.Info().Ins
	if k < len(ins) {
		if n := ins[k].Name; n != "" && n != "*" {
			if _, err := strconv.Atoi(n); err != nil {
				if j, err := operandIndex(op, n); err == nil && j == k {
					return n
				}
			}
		}
	}
	return strconv.Itoa(k)
}

// Without returns p minus the entries of mask that apply to it: those for
// one of p.Arches or for "*". Entries naming combinations p does not allow
// are ignored. Entries with operand patterns leave the tables as they are
// and go to p's Patterns, which CheckInst asks and generation and
// refinement honour.
func (p *Profile) Without(mask []MaskEntry) *Profile {
	q := p.derive(p.Name)
	for _, e := range mask {
		if e.Arch != "*" && !slices.Contains(p.Arches, e.Arch) {
			continue
		}
		if int(e.Op) >= len(q.ops) {
			continue
		}
		if len(e.Operands) > 0 {
			q.patterns = q.patterns.with(e)
			continue
		}
		d := &q.ops[e.Op]
		ctrls := []ir.Type{e.Type}
		if e.AnyType {
			ctrls = d.ctrl.types()
		}
		for _, ctrl := range ctrls {
			d.without(ctrl, e.Free)
		}
	}
	return q
}

// without removes ctrl with free operand type free (every free type when
// Invalid).
func (d *opData) without(ctrl, free ir.Type) {
	if free == ir.Invalid || d.free == nil {
		d.disallow(ctrl)
		return
	}
	set, ok := d.free[ctrl]
	if !ok {
		return
	}
	set.remove(free)
	if set.empty() {
		d.disallow(ctrl)
	} else {
		d.free[ctrl] = set
	}
}
