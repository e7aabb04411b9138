// Package ir is cliff's in-memory form of Cranelift IR (CLIF): plain data that
// the parser fills, the printer prints, the verifier checks and the generators
// build.
//
// A Module holds Functions. A Function owns its preamble (stack slots,
// signatures, function references, constants, global values, ...) and its
// blocks; blocks own instructions. Values, blocks and instructions are small
// integer IDs (v12, block3, inst7) that index slices of per-ID data inside the
// Function, never maps: generated code creates millions of them.
//
// Words follow Cranelift and wazero: a block has *params*; a branch passes
// *args* to a block call. The controlling type of a polymorphic instruction is
// its CtrlType, written as the `.type` suffix in text.
//
// Everything opcode-specific (instruction format, operand and result type
// constraints, flags) lives in one declarative table, opcodes.txt, from which
// opcodes_gen.go is generated (`go generate ./lib/ir`). Consumers ask the table
// (Opcode.Info) instead of switching on opcodes.
package ir

//go:generate go run ./internal/opgen -in opcodes.txt -out opcodes_gen.go
