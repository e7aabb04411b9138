package gen

import (
	"fmt"
	"strings"

	"cliff/lib/ir"
	"cliff/lib/profile"
)

// opType is an opcode with its controlling type (Invalid when monomorphic).
type opType struct {
	op   ir.Opcode
	ctrl ir.Type
}

// tables are what a Generator derives once from its profile.
type tables struct {
	prof *profile.Profile
	// byFamily lists the computations of each family the profile allows.
	byFamily [][]opType
	// sameShape maps an opType to the others with the same operand and
	// result types and the same immediates: the candidates of a mutation.
	sameShape map[opType][]opType
	// byShape holds the same lists by shape key, for corpus opcodes the
	// profile does not allow (they mutate to one it does).
	byShape map[string][]opType
	abi     map[ir.Type]bool
	// usable are the candidate types the profile lets cliff-gen make
	// values of (usable), which every case asks.
	usable candidateSet
	// abiSet are the candidate types of abi.
	abiSet candidateSet
	// freeTyped says by opcode whether the profile lists the types its
	// free operand may have: what restrictsFree asks of profile.FreeTypes,
	// which makes the list each time.
	freeTyped []bool
	// freeOperands caches operandTypes, takersOf takers.
	freeOperands map[operandKey]candidateSet
	takersOf     map[takersKey][]opType
	// callConvs are the profile's calling conventions that functions
	// with returns may use.
	callConvs []ir.CallConv
	// mem are the memory accesses the profile allows (memory.go).
	mem []memAccess
}

// noReturns are calling conventions cliff-gen does not use: every
// generated function returns something (its results are what the harness
// observes), and preserve_all takes no returns; winch is Wasmtime's
// baseline compiler's convention, with rules of its own for results.
var noReturns = map[ir.CallConv]bool{ir.CallConvPreserveAll: true, ir.CallConvWinch: true}

// guarded reports whether op is a partial operation cliff-gen makes total
// with a guard (guard.go; the opcode table's partial column); other
// trapping opcodes come only in crash-only mode.
func guarded(op ir.Opcode) bool { return op.Info().Partial != "" }

// computation reports whether op is drawn as a computation of a block:
// never one that the control-flow, call and memory code emits itself (the
// table's structure role).
func computation(op ir.Opcode, crashOnly bool) bool {
	info := op.Info()
	if info.Flags&(ir.FlagTerminator|ir.FlagBranch|ir.FlagCall|ir.FlagReturn|ir.FlagCanLoad|ir.FlagCanStore) != 0 || op.Is(ir.RoleStructure) {
		return false
	}
	for _, in := range info.Ins {
		if in.Kind == ir.OperandVarargs {
			return false
		}
	}
	if info.Flags.Has(ir.FlagCanTrap) && !guarded(op) && !crashOnly {
		return false
	}
	if families[familyIndex(op)].name == "traps" && !crashOnly {
		return false
	}
	return true
}

func newTables(p *profile.Profile, crashOnly bool) *tables {
	t := &tables{prof: p, byFamily: make([][]opType, len(families)), sameShape: map[opType][]opType{}, abi: map[ir.Type]bool{},
		freeOperands: map[operandKey]candidateSet{}, takersOf: map[takersKey][]opType{}}
	for _, ty := range p.ABITypes {
		t.abi[ty] = true
	}
	for i, ty := range candidateTypes {
		if usable(p, ty) {
			t.usable |= 1 << i
		}
		if t.abi[ty] {
			t.abiSet |= 1 << i
		}
	}
	for _, cc := range p.CallConvs {
		if !noReturns[cc] {
			t.callConvs = append(t.callConvs, cc)
		}
	}
	if len(t.callConvs) == 0 {
		t.callConvs = []ir.CallConv{ir.CallConvFast}
	}
	t.mem = memAccesses(p.Types, p.Opcodes())
	t.freeTyped = make([]bool, len(ir.Opcodes())+1)
	for _, op := range p.Opcodes() {
		for _, ctrl := range p.Types(op) {
			t.freeTyped[op] = t.freeTyped[op] || p.FreeTypes(op, ctrl) != nil
		}
	}
	shapes := map[string][]opType{}
	var keys []string
	for _, op := range p.Opcodes() {
		if !computation(op, crashOnly) {
			continue
		}
		types := []ir.Type{ir.Invalid}
		if op.Info().Polymorphic {
			types = p.Types(op)
		}
		for _, ctrl := range types {
			ot := opType{op, ctrl}
			fam := familyIndex(op)
			t.byFamily[fam] = append(t.byFamily[fam], ot)
			k := shapeKey(ot)
			if _, ok := shapes[k]; !ok {
				keys = append(keys, k)
			}
			shapes[k] = append(shapes[k], ot)
		}
	}
	t.byShape = shapes
	for _, k := range keys {
		for _, ot := range shapes[k] {
			t.sameShape[ot] = shapes[k]
		}
	}
	return t
}

// restrictsFree reports whether the profile lists the free operand types
// op may take with ctrl: false when op has no free operand type or is not
// allowed with ctrl (profile.FreeTypes is nil).
func (t *tables) restrictsFree(op ir.Opcode, ctrl ir.Type) bool {
	return t.freeTyped[op] && t.prof.Allows(op, ctrl)
}

// shapeKey spells what must match for one instruction to replace another
// in place: format (so the immediates), operand and result types.
func shapeKey(ot opType) string {
	info := ot.op.Info()
	var b strings.Builder
	b.WriteString(info.Format.String())
	side := func(ops []ir.Operand) {
		for _, o := range ops {
			switch o.Kind {
			case ir.OperandFixed:
				fmt.Fprintf(&b, " %s", o.Type)
			case ir.OperandTypeVar:
				if o.TypeVar == 0 && o.Derive != ir.DeriveNarrower && o.Derive != ir.DeriveWider {
					fmt.Fprintf(&b, " %s", o.Derive.Apply(ot.ctrl))
				} else {
					fmt.Fprintf(&b, " %s[%s]", o.Derive, info.TypeVars[o.TypeVar].Set)
				}
			}
		}
	}
	side(info.Ins)
	b.WriteString(" ->")
	side(info.Outs)
	// Ops whose immediates depend on the opcode's meaning stay apart.
	if ot.op.Is(ir.RoleOwnImm) {
		b.WriteString(" " + ot.op.String())
	}
	return b.String()
}
