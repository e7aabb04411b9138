// Package gen generates cliff's test cases: modules of CLIF functions that
// are valid SSA, free of traps, undefined behaviour and target-dependent
// results (the rules of lib/ub), and take their inputs at run time.
//
// A case is built top down, as the CLIR paper does: a call graph of
// functions, acyclic from %main (casegen.go, call.go); in each function a
// tree of single-entry single-exit regions (sequence, if-else, while loop,
// switch) nested to Options.Depth (control.go); then every block is filled
// in dominator order, so that an operand is always a value that dominates
// its use (scope.go, fill.go): instructions come from corpus snippets whose
// opcodes mutate to others of the same shape (corpus.go), or from the
// profile's opcode table (inst.go); a leaf may instead cross two functions
// of Cranelift's filetests, re-instantiated the same way (crossover.go,
// parents.go). Guards (guard.go) keep partial
// operations total; stack memory is zero-filled and addressed only inside
// its slots (memory.go). A snippet's loads and stores, whatever memory
// they addressed (a wasm heap, a table, a vmctx field in a corpus of real
// programs), are placed on those slots like any generated access, their
// results kept in the snippet's dataflow (corpus.go, the snippet_memory
// feature). Several corpora (--corpus a,b) are drawn from as one.
// Operands are sometimes constants: integer ones for the lowering rules
// that take an immediate (inst.go), and float, vector and all-constant
// operands of edge values for the mid-end to fold (constants.go).
//
// The lowering census is one minimal case per combination of a target's
// universe (census.go, censusinputs.go), and in constant form the same
// instruction on constant operands, one block per edge-value tuple
// (censusconst.go).
//
// Every random choice is drawn from a stream keyed by what it decides (a
// feature, a region's path in the tree, a block's slot), not from one
// sequence: switching a feature off drops its parts and leaves the choices
// elsewhere as they were (rand.go, features.go).
//
// Options.Weights (cliff-gen --weights, lib/weights) move the swarm's
// thresholds and family weights, not its streams: a weighted family or
// type is on more (or less) often, and every other choice of a case stays
// as it was (weights.go).
package gen
