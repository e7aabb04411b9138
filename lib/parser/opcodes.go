package parser

import "cliff/lib/ir"

// opcodeSlots finds opcodes by name for the parser, which looks one up per
// instruction: an open-addressing hash table of the opcode table's rows,
// made at start-up, whose hash and probes are a fraction of what the
// general map behind ir.LookupOpcode costs. A slot holds OpInvalid when
// empty; the table is kept under a fifth full, so probes are short.
var opcodeSlots = func() (slots [1 << opcodeHashBits]ir.Opcode) {
	for _, op := range ir.Opcodes() {
		i := opcodeHash(op.Info().Name)
		for slots[i%uint32(len(slots))] != ir.OpInvalid {
			i++
		}
		slots[i%uint32(len(slots))] = op
	}
	return slots
}()

const opcodeHashBits = 10

// opcodeHash hashes the length and five of the letters of a name, which
// tells the opcodes apart well enough (about 1.1 probes per look-up)
// without a loop over the name.
func opcodeHash(name string) uint32 {
	n := len(name)
	if n < 2 {
		return uint32(n) // no opcode is that short: any slot does
	}
	x := uint32(n)<<24 ^ uint32(name[0])<<16 ^ uint32(name[1])<<8 ^
		uint32(name[n/2])<<12 ^ uint32(name[n-2])<<4 ^ uint32(name[n-1])
	return x * 2654435761 >> (32 - opcodeHashBits) // Fibonacci hashing
}

// lookupOpcode finds an opcode by its CLIF name, as ir.LookupOpcode does.
func lookupOpcode(name string) (ir.Opcode, bool) {
	for i := opcodeHash(name); ; i++ {
		op := opcodeSlots[i%uint32(len(opcodeSlots))]
		if op == ir.OpInvalid {
			return ir.OpInvalid, false
		}
		if op.Info().Name == name {
			return op, true
		}
	}
}
