// Package locate narrows a failing case down to the function, block and
// instruction where the failure comes from, hierarchically, as CLIR does
// (its §4.5, phase II). The levels:
//
//   - function level: execution barriers, early returns of the current
//     values right after a call site, find the first call after which the
//     failure shows; the callee is the suspect when stubbing it out makes
//     the failure go, and the search goes on inside it. A function no one
//     calls (Cranelift still compiles it) is a suspect when dropping it
//     makes the failure go.
//   - block level: barriers at block ends, which keep a prefix of the
//     function's blocks in reverse post-order and return wherever
//     execution would leave it, find the first block whose inclusion
//     brings the failure.
//   - instruction level: semantic substitution, the result of each
//     instruction of that block replaced by a function param of its type
//     (opaque to the optimiser) or else a constant, finds the first whose
//     substitution makes the failure go.
//
// Every variant is made by lib/iredit's edits, printed, parsed and
// verified before the oracle sees it (reduce.Tester), and keeps lib/ub's
// rules. When instruction-level isolation finds nothing, the answer stays
// at block level, and at function level when the blocks do not isolate
// either; Result.Level says which.
package locate
