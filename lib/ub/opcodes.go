package ub

import "cliff/lib/ir"

// The rules' opcode lists as tables indexed by opcode: the passes consult
// them for every operand they rebind and every value they consider, where
// a map lookup was a good part of the work.

// opcodeSet holds whether each opcode is in a set.
type opcodeSet []bool

func newOpcodeSet(ops ...ir.Opcode) opcodeSet {
	s := make(opcodeSet, len(ir.Opcodes())+1) // Opcodes leaves out OpInvalid
	for _, op := range ops {
		s[op] = true
	}
	return s
}

func (s opcodeSet) has(op ir.Opcode) bool { return int(op) < len(s) && s[op] }

// operandSet holds a set of operand indexes (below 8) for each opcode.
type operandSet []uint8

// operandTable turns a list of operand indexes per opcode into an
// operandSet.
func operandTable(byOp map[ir.Opcode][]int) operandSet {
	s := make(operandSet, len(ir.Opcodes())+1)
	for op, ks := range byOp {
		for _, k := range ks {
			if k < 0 || k >= 8 {
				panic("ub: operand index out of an operandSet's range")
			}
			s[op] |= 1 << k
		}
	}
	return s
}

func (s operandSet) has(op ir.Opcode, k int) bool {
	return int(op) < len(s) && k >= 0 && k < 8 && s[op]&(1<<k) != 0
}
