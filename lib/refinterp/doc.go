// Package refinterp is cliff's own CLIF interpreter: an independent reference
// that executes an *ir.Module as cliff's IR holds it, sharing no code with
// Cranelift. Given a function name and argument values it returns the
// function's results or the trap that ended it (with its trap code), or an
// error saying what it cannot do (ErrUnsupported) or which limit ran out
// (ErrFuel, ErrDepth, ErrMemory).
//
// What each opcode computes comes from the opcode table: every row of
// lib/ir/opcodes.txt with a `sem SHAPE [KERNEL]` line names a shape
// implemented here once (int_binary: a lane-wise binary integer operation)
// and the kernel filling it (add). Dispatch is a table built from those
// columns at init (dispatch.go); there is no list of opcodes here.
//
// Values are 128 bits, little-endian, lane 0 in the low bits: that holds
// every scalar including i128 and f128 and every vector up to 128 bits;
// wider vectors and dynamic vectors (whose size is the target's) are
// unsupported. Memory is the stack slots of the live frames, zeroed when
// the frame starts, at addresses of their own; function addresses
// (func_addr) are addresses of another range. An access outside every
// live slot is an error (ErrUndefined), not a trap: its behaviour is
// undefined in CLIF, so the reference makes no claim about it. Native
// byte order is little-endian.
//
// Beyond the module's functions, Cranelift's value libcalls (%CeilF32,
// %FmaF64, ...) run as what their names say (libcall.go). The pinned
// register is one per run, 0 until set; get_stack_pointer is the frame's
// address. Exceptions (try_call), stack switching, TLS and symbols are
// unsupported.
//
// Semantics are written from Cranelift's documentation (the doc lines of
// the opcode table, ../shared/CLIF.md and the instruction definitions of
// cranelift-codegen-meta); where Cranelift leaves a choice open (NaN bits),
// the choice is documented beside the kernel.
package refinterp
