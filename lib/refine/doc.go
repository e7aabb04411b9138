// Package refine rewrites generated test cases so that more of their code
// matters to their results, with a table of passes (cliff-refine runs
// them). Code whose values reach no output is deleted by the optimiser and
// tests nothing in a backend; the passes give it uses, join points and
// control flow the optimiser cannot see through. They follow the CLIR
// design (liveness-guided refinement) and Rustlantis's decoy blocks.
//
// The passes, in the order they run (Passes):
//
//   - decoy: split a block and branch on ub.OpaqueTrue (always true, but
//     not to the compiler) between its tail and a copy of some block's
//     body rebound to values dominating the split; the copy never runs.
//   - merge: join blocks get params, and each predecessor passes values of
//     its arm that would otherwise end at the join (dead ones first, by
//     lib/analysis liveness).
//   - operands: free operands are rebound to the most recently defined
//     dominating value of their type from one of three pools (call results,
//     block params, other results), so def-use chains grow long.
//   - sink: every dead value is folded into an accumulator threaded through
//     the blocks to the function's results or its tail call's arguments.
//   - prune: on a case whose swarm has the feature "prune" on (lib/gen),
//     the guards that never fire on the case's inputs on cliff's
//     reference are dropped (lib/prune, CsmithEdge's guard pruning). It
//     is a step of the case, not of a function: it needs the inputs, and
//     Prune runs it (Case does, and cliff-gen --refine).
//
// Each runs after the ones before it: merge joins the decoys' values with
// the real ones, operands draws on merge's params, sink anchors whatever
// is still dead, and prune holds for the code as the others left it. Select keeps that order whatever order it is given: an
// ablation that switches passes off compares like with like.
//
// Run is cliff-refine: it refines a stream of case records (run.go).
//
// # Rules
//
// Every pass keeps a case valid (lib/verify) and keeps the invariant of
// lib/ub: no trap, no undefined behaviour, no target-dependent result,
// for any values of the free operands. Passes change existing operands
// only where ub.FreeOperand or ub.FreeBlockArgs allow it, never change
// the operands of scaffold instructions (they may append block args to a
// scaffold branch whose destination gains a param), never bind an address
// (ub.IsAddress) where a value is chosen, keep types exact, bind only
// values that dominate the use, and make floats canonical (ub.CanonNaN)
// before their bits are read. Loops keep terminating: their counters are
// scaffold. decoy and merge keep every result the case computes; operands
// and sink change results (Pass.KeepsResults). prune is the one step whose
// result holds for the case's inputs only, not for any values of the free
// operands: it runs last, marks what it changed (ub.PrunedLoc), and a
// pruned case is refused as input (a pass could make a pruned divisor 0).
// Running it in cliff-refine rather than in cliff-run makes the pruned
// case the case every later tool sees; lib/prune's doc says more.
//
// Passes choose values among candidates: neither constants (the optimiser
// would fold them) nor scaffold results (guards, canonical NaNs, opaque
// conditions: chosen for safety, and OpaqueTrue's parts are constants the
// optimiser cannot see).
//
// # What stays dead
//
// sink cannot fold addresses (they must not reach an output), values of
// types it has no conversion for (f16, f128, vectors other than 128
// bits), special-purpose params, and values in blocks from which no
// sink is reachable: a function that returns nothing and makes no tail
// call has none. decoy leaves out calls with results from its copies
// (their results could not be used), so a copy's func_addr may stay dead.
//
// # Determinism
//
// Each pass draws its choices for each function from its own random
// stream, seeded by the case's seed and index, the pass name and the
// function's position: the same case gives the same bytes, and turning a
// pass off does not change the choices of the others.
package refine
