// Package printer writes cliff IR as CLIF text, spelled the way Cranelift
// 0.135 prints it (cranelift-codegen write.rs and the Display impls of its
// IR types), so that Cranelift reads whatever cliff prints and cliff's
// output can be compared with Cranelift's line by line.
//
// The layout follows write.rs: the preamble indented by four spaces in the
// order dynamic stack slots, stack slots, alias regions, global values,
// signatures, function references, constants, stack_limit (each kind sorted
// by number); a blank line before each block; `v2 -> v0` alias lines after
// the definition of their destination; the `.type` suffix only where the
// controlling type cannot be read off an operand defined in the same block;
// the `  ; v1 = 42` comments naming constant operands; `, stack_map=[...]`
// after a call's operands. When any instruction has a source location or
// debug tags, instructions start at column 36 (block headers at 32): the
// tags (`<ss0, 1> `) eat into that indentation, the source location
// (`@0019 `) is padded to what is left of it, and the alias lines after a
// tagged instruction keep the shortened indentation, as in write.rs.
//
// Where Cranelift's own printer loses information or prints text its parser
// rejects, cliff prints what the IR holds instead, so that parse -> print ->
// parse is exact:
//   - A signature without a calling convention (ir.CallConvNone, the source
//     left it out) prints none; Cranelift always has one and prints it.
//   - Dynamic types are declared (`dt0 = i32x4*gv0`, after the global
//     values) and used by name (`splat.dt0`); Cranelift drops the
//     declarations and prints `types::I32x4xN`.
//   - atomic_rmw and atomic_cas print their memory flags
//     (`atomic_rmw.i64 big add v1, v0`); Cranelift drops them.
//   - vconst and f128const with inline data print the data
//     (`vconst.i8x16 0x00ff...`, `f128const 0x1.0000000000000000000000000000p0`)
//     where Cranelift has moved it to a constant and prints `const0`.
//   - Gaps in the numbering of preamble entities stay gaps; Cranelift
//     fills them with placeholder declarations.
//   - A stack slot's `align = 1` is printed when the IR says so; Cranelift
//     stores alignment as a power of two and leaves out align 1.
//   - The `.type` suffix is also printed when the operand that would give
//     the controlling type is defined later in the block, or has another
//     type than the instruction's CtrlType (`store.i32` of an i64 value);
//     Cranelift leaves it out there and loses it. Both happen only in IR
//     its verifier rejects or in hand-written text.
//   - Every source location is printed. Cranelift stores them relative to
//     the first one set in the function and loses a location exactly one
//     below that first one (the difference is all ones, its "none").
//
// The printer never panics on malformed IR: an undefined value, a layout
// entry naming no block, a missing operand or block call, a bad opcode or
// type prints as a visible marker such as `v7<undefined>`,
// `<missing operand>` or `<bad opcode>`, and printing goes on; the text is
// then no longer valid CLIF, on purpose. A branch to a block the function
// does not define is printed as written: Cranelift's parser accepts it
// (its verifier does not), so verifier tests keep round-tripping.
package printer
