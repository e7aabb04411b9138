// Package ub holds the rules that keep generated CLIF free of traps,
// undefined behaviour and target-dependent results, shared by cliff-gen,
// which builds code that follows them, and cliff-refine, whose passes
// rewrite that code and must keep following them.
//
// The invariant: every instruction of a generated case computes a defined
// result, the same on every target, for any values of its free operands
// (FreeOperand). The other operands hold values chosen for safety: a
// divisor guarded against zero, a loop trip counter, a stack address, a
// NaN made canonical. Two things mark them:
//
//   - Scaffold instructions carry the source location ScaffoldLoc
//     (printed `@c1ff`), so the mark survives the CLIF text between
//     tools. A pass never changes their existing operands (it may append
//     block args to a scaffold branch, as a new merge param needs).
//   - The opcode table: the operands of instructions that may trap, load
//     or store are chosen for safety, as is the callee of an indirect call
//     and every NaN-sensitive operand (one whose NaN bits, which differ
//     between targets, become visible).
//
// One kind of case breaks the invariant on purpose: a pruned case
// (lib/prune), whose guards that never fired on its inputs were dropped.
// Its pruned instructions carry PrunedLoc (`@c1fe`) and are safe for the
// case's inputs only; no operand of theirs is free.
//
// Address values (stack_addr, func_addr, ...) differ between runs and
// targets, so they may only feed memory accesses and calls: IsAddress
// tells them apart, and no generator or pass uses one as a free operand.
package ub
