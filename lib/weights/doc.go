// Package weights is the format of cliff-gen's --weights file: how much
// more (or less) often than the swarm's uniform draw each opcode family
// and value type should come, for example to aim at the ISLE rules a
// coverage run missed (scripts/coverage.sh --weights writes one).
//
// The file is text, one weight a line; '#' starts a comment, blank lines
// are skipped:
//
//	# aim at the rules compat:500 missed
//	family bitwise 3.5
//	family lanes 2
//	type i8x16 2.5
//	type f16 1.5
//
// A family is one of cliff-gen's opcode families (the family column of
// lib/ir/opcodes.txt, and "target" for the opcodes of none); a type is a
// CLIF value type cliff-gen makes: a scalar, or a 128-bit vector. A weight
// is a decimal number from MinWeight to MaxWeight; 1 changes nothing, and
// a family or type the file does not name has weight 1. Each name comes
// once. How cliff-gen applies them (lib/gen/weights.go) keeps the swarm: a
// weighted family or type is still switched off in some cases.
//
// Read reports a bad line as FILE:LINE: message; Write writes the form
// Read reads, families then types, each sorted by name.
package weights
