// Package coverage measures which of Cranelift's ISLE rules a run of
// cliff-driver reached: the line coverage of the generated isle_<arch>.rs
// (the metric of the CLIR paper: covered lines over instrumented lines of
// that file) and the rule coverage of the .isle files it was generated from.
//
// The method. scripts/coverage.sh builds cliff-driver with its coverage
// feature and cranelift-codegen instrumented by LLVM's SanitizerCoverage
// (one flag per basic block, and a table of the blocks' addresses). Each
// driver process writes the addresses (PCs) of the blocks that ran to a
// .cov file, and once the addresses of all instrumented blocks to all.pcs
// (ReadPCFile; each names the build that wrote it, and a file of another
// build, whose addresses mean other code, is refused). This package undoes
// each process's load address (the files' anchor line against the binary's
// symbol), takes a block to be the code from its address to the next
// instrumented address (or the end of its function), and maps that code to source lines with the binary's DWARF:
// the line table's rows, and the call lines of the inlined calls
// (DW_TAG_inlined_subroutine), since most of the generated code is calls
// that the optimiser inlined and the line table names only the callee's
// lines (Binary, LineMap). A line is instrumented when some block's
// code maps to it, covered when some block that ran does. The code is the
// optimised build's, so a line folded into another line's code counts as
// that line: the figures compare with each other, not exactly with
// cargo-llvm-cov's.
//
// Rules. ISLE writes a `// Rule at <file> line N.` comment just before the
// statement that ends a rule's right-hand side (its return, or its push to
// a multi-constructor's results). The rule's own code is the straight run
// of statements around that comment in its innermost block (ParseRules): it
// runs exactly when the rule fires. (ISLE counts the comment's lines from
// 0; Rule.Line is 1-based, the line of "(rule" in an editor.) A rule is
// covered when one of its lines is; a rule none of whose lines has code of
// its own (dead code the linker dropped, or merged into a neighbour) is
// "unmeasured" and left out of the percentages.
//
// Report. Measure gives each input's coverage after each of its steps
// (against cases and CPU time), each Group's (the union of some inputs:
// scripts/coverage.sh makes the campaigns the group "cliff") and the union
// of all; the rules no input reached, those a group misses that another
// input reached (where its profiles should grow), and those only one input
// reached, each with its first line of ISLE.
//
// Weights. Report.Weights turns missed rules into cliff-gen weights
// (lib/weights): it parses the .isle files a target's rules come from
// (isle.go), reads the CLIF opcodes and types each missed rule's
// left-hand side matches, and for a helper rule (an inst.isle constructor,
// an extractor) those of the lowering or mid-end rules that use it, up to
// a few levels and only when they match few opcodes (weights.go). The
// families of those opcodes (the opcode table's column) and the types
// count the missed rules they would reach.
package coverage
