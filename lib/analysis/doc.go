// Package analysis computes facts about an *ir.Function that the verifier,
// the generators and the reports share: the control-flow graph (CFG), the
// dominator tree (DomTree), def-use chains (DefUse), block-level liveness
// (Liveness), and the complexity metrics cliff reports (Metrics).
//
// Analyses read the function as plain data and never change it; each one is
// a snapshot, rebuilt after the function changes (Recompute rebuilds one in
// the memory it has, for callers that do so per change). Per-entity data
// lives in slices indexed by block, instruction or value ID, never in maps.
//
// # Control flow
//
// The successors of a block are the destinations of its last instruction, as
// in Cranelift's ControlFlowGraph: jump's block call, brif's two, br_table's
// default then its entries, and a try_call's (or try_call_indirect's) normal
// return followed by each exception handler (tag and default entries; a
// `context` entry names no block). Successors are deduplicated: a br_table
// naming one block three times gives one edge. Only blocks in f.Layout take
// part; f.Layout[0] is the entry; a destination outside the layout gives no
// edge.
//
// # Metrics
//
// The figures cliff reports, as defined here. They follow the four measures
// of the CLIR paper (structural: cyclomatic complexity and dominator tree
// depth; data: def-use chain depth and instruction diversity) and fix the
// details the paper leaves open. Every metric counts only blocks reachable
// from the entry: Cranelift lowers only those, so unreachable code tests
// nothing in a backend.
//
//   - Blocks (N): reachable blocks. Insts: instructions in them. Edges (E):
//     distinct CFG edges between them (a block with a brif to the same block
//     twice has one edge; a try_call has one edge to its normal-return block
//     and one to each distinct handler block, deduplicated like any other
//     destination).
//
//   - Cyclomatic complexity: M = E - N + P, the definition of the issue
//     and of the CLIR paper, with P = 1 connected component per function:
//     M = E - N + 1 for a function with blocks, 0 for one without. This is
//     the cycle rank (the number of independent cycles of the graph taken as
//     undirected), so every edge that closes a merge or a loop adds 1: a
//     straight-line function has M = 0, a diamond 1, each loop adds 1, a
//     br_table whose k distinct targets all reach one join adds k-1.
//     Branches to separate exits (blocks ending in return or trap) add
//     nothing, as the formula has no common exit node. McCabe's textbook
//     form E - N + 2P gives one more per function. For a module, M is the
//     sum over functions: E - N + P for the module taken as one graph of
//     P = (number of functions) components.
//
//   - Dominator tree depth: the largest depth of any reachable block in the
//     dominator tree, where the entry has depth 0 and a block's depth is its
//     immediate dominator's plus one. A chain of k blocks has depth k-1; a
//     diamond has depth 1. For a module: the maximum over functions.
//
//   - Def-use chain depth: the length in edges of the longest path in the
//     function's def-use graph. Its nodes are the instructions of reachable
//     blocks; an edge goes from the instruction defining a value to each
//     instruction that uses it (as an operand, a block-call arg, or a
//     try_call handler context). Block params pass values through rather
//     than being nodes: when a branch passes a value to a block param, every
//     instruction using the param is reached from the instruction that
//     defined the passed value (for try_call's retN and exnN args, from the
//     try_call). Function params (entry block params) have no defining
//     instruction, so chains start at their users. A function of one
//     `return` has depth 0; `v1 = iconst; v2 = iadd v1, v1; return v2` has
//     depth 2.
//     Loops make the graph cyclic. Cycles are cut by ordering the nodes:
//     blocks in reverse post-order, within a block its params first and
//     then its instructions in text order; only edges that go forward in
//     this order count (a value flowing into a block param counts when the
//     branch comes after the value's definition and before the param).
//     In valid SSA every use is forward (definitions dominate uses, and
//     dominators come first in reverse post-order), so the only edges
//     dropped are block-param flows along retreating CFG edges: the back
//     edge of each natural loop and, in an irreducible graph, the edge that
//     closes each cycle against the DFS order. This is the longest path of
//     the acyclic SSA dependence graph, computed in one linear pass. For a
//     module: the maximum over functions.
//
//   - Opcode diversity: Opcodes is the number of distinct opcodes among the
//     instructions (OpcodeSet lists their names, sorted). For a module: the
//     union over functions. OpcodeDiversity gives the paper's percentage
//     form: the fraction of a profile's opcodes (say, every opcode a target
//     supports) that occur.
package analysis
