// Package iredit holds the edits of CLIF that cliff-locate's localisation
// and reduction make: substitute a value by a constant or by another value,
// drop an instruction, a block param, a function param or a return value,
// cut a branch to one arm, end a block with an early return, and the
// clean-up after them (unreachable blocks, unreferenced functions and
// preamble declarations).
//
// Each edit keeps the function in SSA form by construction (a replacement
// is defined where the value it replaces was, or dominates it) and keeps
// lib/ub's rules: a value is only replaced when every use of it is a free
// operand (Replaceable), so a guarded divisor, a loop's trip counter or a
// memory address never changes. Callers still verify every variant before
// they run it: an edit that cannot be made returns false and leaves the
// module half edited, to be thrown away.
//
// Edits work on a Clone of a module, made by printing and parsing it, so
// that block and value numbers stay those of the text the edits were
// planned on (the parser keeps them), and instruction IDs too (the parser
// numbers instructions in text order).
package iredit
