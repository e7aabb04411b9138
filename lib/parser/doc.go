// Package parser reads CLIF text (Cranelift IR) into cliff's IR, package
// cliff/lib/ir.
//
// The grammar follows Cranelift 0.135's reader (cranelift-reader: lexer.rs,
// parser.rs, run_command.rs): it accepts what Cranelift's parser accepts and
// rejects what it rejects at the syntax level, and leaves semantic checks
// (dominance, branch arguments, operand types beyond what inference needs) to
// the verifier. Two deliberate differences:
//
//   - Forward references: Cranelift infers an instruction's controlling type
//     only from an operand defined earlier in the text. This parser defers such
//     instructions and types them once the whole function is read, so
//     `v1 = iadd v2, v0` parses when v2 is defined further down (in a loop
//     body written before its header, say).
//   - Run commands belong to the function that contains or precedes them, as
//     in Cranelift; RunCommand.Func names that function (the name written in
//     the command is informational in Cranelift and kept only in Text).
//
// Instruction operands are read per instruction format, and everything
// opcode-specific (controlling type variable, result types, flags) comes from
// the opcode table (ir.Opcode.Info).
//
// IDs keep their source numbers and index slices, so block numbers must be
// below 100,000 (as in Cranelift) and value numbers below 2^20. Source
// locations (`@00c7`), debug tags (`<ss0, 1>`) and user stack maps
// (`, stack_map=[i64 @ ss0+8]`) are kept in the instruction's SrcLoc,
// DebugTags and StackMap; as in Cranelift, the stack slots they name need not
// be declared (the verifier checks them).
//
// A Recycler parses text after text in the memory of the ones before, for
// a caller done with each result before it parses the next (cliff-refine).
//
// Errors are *Error values carrying file, line and column (1-based; the
// column counts characters) of the offending token.
package parser
