// Package prune drops the guards of a generated case whose unsafe case
// never happens on the case's inputs: CsmithEdge's guard pruning. cliff
// guards every partial operation (lib/ub), so the optimiser only ever
// sees the guarded forms: a division by `select (icmp eq y, 0), 1, y`,
// never by y. Pruning runs the case once on cliff's reference (lib/refinterp,
// what `cliff-run --arch ref` runs), records for each guard whether it
// ever chose its substitute, and rewrites the operations whose guards
// never did to take the raw value.
//
// # Guards
//
// A guard is a scaffold select between a scaffold constant (the
// substitute) and the raw value, feeding an operand of a non-scaffold
// instruction (its consumer), or a chain of them (a signed division's
// overflow guard around its zero guard). Kinds, by what the consumer is:
//
//   - zero: `select (icmp eq y, 0), 1, y`, a divisor (lib/gen's nonZero);
//   - overflow: `select (band isMin isMinusOne), 1, y`, a signed divisor;
//   - range: `select ok, x, 0.0`, the operand of fcvt_to_sint/uint (the
//     substitute is the else arm: the guard fires when ok is 0);
//   - nan: `select (fcmp uno v, v), NaN, v` or its vector form
//     `bitselect mask, NaN, v` (ub.CanonNaN), a float whose bits show.
//
// Nothing else is pruned: loop counters, OpaqueTrue's conditions, stack
// addresses and function addresses are scaffold but no select. Memory
// accesses have no guard to drop: their addresses are stack_addr of a
// slot at a constant offset, inside it by construction. A saturating
// conversion that lib/gen chose instead of a guarded one (fcvt_to_sint_sat)
// is an operation of its own, not a guard, and stays.
//
// A guard fires when it chooses its substitute. A chain is pruned from
// the consumer outward while its guards never fired: a signed division
// whose divisor is never -1 with a MIN dividend, but is sometimes 0,
// loses its overflow guard and keeps its zero guard.
//
// # Safety
//
// Every input vector of the case runs, and a guard that fires on any of
// them stays. A case the reference cannot answer for on every input (a
// trap, undefined behaviour, a limit, an unsupported opcode) is left as
// it is. The pruned case runs again on the reference, on every input on
// which a pruned guard's select ran (on the others it runs what the
// guarded case ran: a select dominates its consumer), except where each
// pruned select that ran precedes its consumer in the consumer's block
// with nothing between them redefining its raw operand (the pruned
// case then reads the values the guarded one read: the re-check would
// repeat the observation): unless each returns what the guarded case
// returned, every guard is put back
// (Counts.Restored): a case that is undefined or traps on its inputs is
// never compared. Guards of code that never runs (decoy copies) never
// fire and are pruned: that code stays unexecuted on every target.
//
// A pruned consumer carries the source location ub.PrunedLoc (`@c1fe`),
// so the CLIF text between tools says which operations lost their
// guards; the guards' instructions, dead, are removed. Its operands are
// safe only for the case's inputs: ub.FreeOperand refuses to rebind
// them, and lib/refine refuses to refine a pruned case again (a pass that
// rewrites the code computing a divisor could make it 0). A reduction
// (lib/reduce) keeps lib/ub's local rules but may change the values
// upstream of a pruned operand (a constant, an input value set to 0), so
// each candidate of a pruned case runs on the reference first (Holds):
// one that traps there (a pruned division by 0, a conversion out of
// range) or feeds a NaN to a pruned float operand is never sent to the
// oracle. Filetests written from a reduced case drop the location, as
// they drop the scaffold's (lib/filetest).
//
// # Where it runs
//
// Pruning is the last step of cliff-refine (the pass table's "prune"),
// not a step of cliff-run: the pruned case is then the case every tool
// sees (cliff-run on every target, cliff-diff, cliff-locate, the reports),
// cliff-run stays a runner, and the pruning is paid once per case rather
// than once per run. It runs after the other passes, which rewrite the
// code the guards protect, and only on cases whose swarm has the feature
// "prune" on (lib/gen), so that guarded and unguarded forms both run.
package prune
