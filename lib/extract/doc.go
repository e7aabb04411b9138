// Package extract turns real CLIF (Cranelift's filetests, dumps of compiled
// programs) into cliff's corpus: one record per basic block (or per
// function), with each instruction's opcode, types and immediates and its
// operands abstracted into snippet inputs, so that a generator can
// re-instantiate the block anywhere its input types are available.
// Snippets are deduplicated by the xxhash64 of their normalised form.
//
// It also implements `cliff-extract --check`, the parse-and-verify lint a
// Cranelift developer runs on a hand-written reproducer.
package extract
