package harness

import (
	"cliff/lib/arch"
	"fmt"
	"slices"
)

// A TrapSite is where compiled code traps on purpose: the driver reports
// each function's trap sites as offsets from the function's symbol.
type TrapSite struct {
	Symbol string // "cliff_m0_f"
	Offset uint64 // from the symbol's address
	Code   string // CLIF trap code: "int_divz", "heap_oob", "user1"
}

// trapMap finds the trap site a signal came from.
type trapMap struct {
	codes map[uint64]string // address → trap code
	// lastByteSites: Cranelift records an explicit trap or an arithmetic
	// exception at the last byte of the instruction (s390x), where the
	// PC in the signal context, which has moved past it, minus one lands.
	lastByteSites bool
}

func (e *Executable) trapMap(sites []TrapSite) (*trapMap, error) {
	m := &trapMap{codes: make(map[uint64]string, len(sites)), lastByteSites: e.Arch == arch.S390X}
	for _, s := range sites {
		base, ok := e.symbols[s.Symbol]
		if !ok {
			return nil, fmt.Errorf("trap site %s+%d: no symbol %s in %s", s.Symbol, s.Offset, s.Symbol, e.Path)
		}
		m.codes[base+s.Offset] = s.Code
	}
	return m, nil
}

// instructionSignals are the signals whose si_addr is the address of the
// faulting instruction (for SIGSEGV and SIGBUS it is the data address).
var instructionSignals = []string{"SIGILL", "SIGFPE", "SIGTRAP"}

// faultingInstruction is the address of the instruction that raised a
// signal: si_addr where it means that (on s390x the PC in the signal
// context has already moved past the instruction; si_addr has not), the
// PC otherwise.
func faultingInstruction(pc, addr uint64, signal string) uint64 {
	if addr != 0 && slices.Contains(instructionSignals, signal) {
		return addr
	}
	return pc
}

// lookup returns the trap code of the site at the faulting instruction: a
// site at its address (on every target, and for memory faults on s390x,
// where the PC stays on the faulting instruction), or on s390x, for an
// instruction signal, one at its last byte (pc - 1).
func (m *trapMap) lookup(pc, addr uint64, signal string) (string, bool) {
	if code, ok := m.codes[faultingInstruction(pc, addr, signal)]; ok {
		return code, true
	}
	if m.lastByteSites && pc != 0 && slices.Contains(instructionSignals, signal) {
		code, ok := m.codes[pc-1]
		return code, ok
	}
	return "", false
}
