package profile

import (
	"fmt"

	"cliff/lib/ir"
)

// FreeOperand returns the index, among op's value operands
// (op.Info().Ins), of its free operand: the one whose type the
// controlling type does not fix and FreeTypes lists (the source of a
// conversion, of uextend, ireduce, fpromote or fdemote, select's
// condition, a shift amount). It is -1 when op has none. An address is
// not free: it has the pointer type.
func FreeOperand(op ir.Opcode) int {
	if int(op) < len(freeOperands) {
		return int(freeOperands[op])
	}
	return -1
}

// freeOperands holds FreeOperand by opcode: the operand whose type is a
// narrower or wider variant of the controlling type, else the first of a
// type variable of its own that is not an address.
var freeOperands = func() []int8 {
	out := make([]int8, len(ir.Opcodes())+1)
	for op := range out {
		out[op] = int8(freeOperandOf(ir.Opcode(op)))
	}
	return out
}()

// addrTypeVar is the opcode table's name for address type variables.
const addrTypeVar = "iAddr"

func freeOperandOf(op ir.Opcode) int {
	info := op.Info()
	for k, in := range info.Ins {
		if in.Kind == ir.OperandTypeVar && in.TypeVar == 0 && (in.Derive == ir.DeriveNarrower || in.Derive == ir.DeriveWider) {
			return k
		}
	}
	for k, in := range info.Ins {
		if in.Kind == ir.OperandTypeVar && in.TypeVar > 0 && info.TypeVars[in.TypeVar].Name != addrTypeVar {
			return k
		}
	}
	return -1
}

// AllowsTypes reports whether op may be emitted with controlling type ctrl
// (ir.Invalid for monomorphic opcodes) and value operands of the types
// args, in the order of op.Info().Ins: the profile allows op with ctrl,
// and the free operand (FreeOperand) has a type FreeTypes lists. Asking
// about the operands matters: fpromote.f64 is allowed everywhere, of an
// f32; of an f16 it is not (riscv64 cannot lower it, x86_64 crashes).
func (p *Profile) AllowsTypes(op ir.Opcode, ctrl ir.Type, args []ir.Type) bool {
	if !p.Allows(op, ctrl) {
		return false
	}
	k := FreeOperand(op)
	if k < 0 || p.ops[op].free == nil {
		return true
	}
	set := p.ops[op].free[ctrl]
	return k < len(args) && set.has(args[k])
}

// CheckInst returns why the profile does not allow instruction d of f, or
// nil when it does: its opcode with its controlling type and the type of
// its free operand (AllowsTypes), its condition code (AllowsImm) and the
// byte order of its memory flags (AllowsByteOrder), and no operand-producer
// pattern of its mask matches it (Patterns). Every instruction of a
// generated case passes it, whichever part of cliff-gen or cliff-refine
// made it. Whether the opcode is crash-only (CrashOnly) is the caller's
// to judge.
func (p *Profile) CheckInst(f *ir.Function, d *ir.InstData) error {
	var buf [4]ir.Type
	args := buf[:0]
	for _, a := range d.Args {
		t := ir.Invalid
		if v := f.Resolve(a); int(v) < len(f.Values) {
			t = f.Values[v].Type
		}
		args = append(args, t)
	}
	name := d.Op.String()
	if d.CtrlType != ir.Invalid {
		name += "." + d.CtrlType.String()
	}
	if !p.Allows(d.Op, d.CtrlType) {
		return fmt.Errorf("%s: not in profile %s", name, p.Name)
	}
	if !p.AllowsTypes(d.Op, d.CtrlType, args) {
		k := FreeOperand(d.Op)
		free := "none"
		if k < len(args) {
			free = args[k].String()
		}
		return fmt.Errorf("%s of %s: profile %s allows %s only of %v", name, free, p.Name, name, p.FreeTypes(d.Op, d.CtrlType))
	}
	for _, k := range d.Op.Format().Imms {
		var imm string
		switch k {
		case ir.ImmIntCC:
			imm = d.IntCC.String()
		case ir.ImmFloatCC:
			imm = d.FloatCC.String()
		case ir.ImmMemFlags:
			if !p.AllowsByteOrder(d.Flags.Endian) {
				return fmt.Errorf("%s: profile %s does not allow byte order %s", name, p.Name, byteOrderName(d.Flags.Endian))
			}
			continue
		default:
			continue
		}
		if !p.AllowsImm(d.Op, d.CtrlType, imm) {
			return fmt.Errorf("%s %s: profile %s allows only %v", name, imm, p.Name, p.Imms(d.Op, d.CtrlType))
		}
	}
	return p.patterns.Check(f, d)
}

// byteOrderName spells e as CLIF memory flags do.
func byteOrderName(e ir.Endianness) string {
	for name, o := range byteOrders {
		if o == e {
			return name
		}
	}
	return "native"
}
