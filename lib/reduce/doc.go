// Package reduce shrinks a failing case to a minimal reproducer of the same
// failure, automatically: delta debugging over the case's functions and
// calls, blocks, instructions, block and function params, return values,
// stack slots, immediates, input vector and Cranelift settings and ISA
// flags, iterated to a fixed point.
//
// The predicate is "the oracle gives the same failure signature as the
// original", never "some failure": a reduction cannot slide from one bug to
// another. How a candidate is compiled and run is the Oracle's business
// (cliff-locate gives one that runs the driver on the configurations at
// stake and computes the cluster signature); this package only proposes
// candidates, and a Tester checks each before the oracle sees it: it must
// print, parse and pass lib/verify, and every edit keeps lib/ub's rules
// (see lib/iredit), so that a candidate is SSA-valid and free of
// undefined behaviour, and a miscompile stays a miscompile. A pruned case
// (lib/prune) is safe only for its inputs, which local rules cannot
// keep: its candidates run on cliff's reference first, and one that
// traps there or feeds a NaN to a pruned float operand is never sent.
//
// Cheap and coarse first: each pass proposes its edits as one list and
// tries them in halving chunks (ddmin's complement steps, greedy), so a
// case whose failure needs little loses most of itself in a few calls;
// single edits come last. Passes run in rounds until a round changes
// nothing.
package reduce
