// Package census classifies the lowering census: the results of every
// combination of a target's universe (cliff-gen --enumerate --all, one
// minimal case per opcode, controlling type, free type and condition
// code) compiled on each target at each opt level and run against the
// interpreter. It is cliff-census's engine.
//
// For each target and combination, Classify reads the case's results
// (from cliff-diff's verdict, which joins every target's results and the
// interpreter's) and gives one Class: the worst of its configurations'
//
//   - unlowered: Cranelift refuses it, "should be implemented in ISLE" (or
//     another "Unsupported" error): a missing lowering;
//   - panic: Cranelift panicked; the detail is lib/cluster's diagnostic K
//     (the ISLE rule line or the panic site);
//   - wrong: the compiled code answered otherwise than the expected
//     answer, trapped where it did not, or crashed or timed out. The
//     expected answer is the interpreter's answer when a compiled configuration shares it;
//     when the interpreter alone differs from two or more targets that
//     agree, their answer (and the targets that give it are `interp`: the
//     interpreter's fault); without the interpreter's answer, the answer
//     most targets give. Targets vote, not configurations: the opt levels
//     of one backend are not independent witnesses.
//   - qemu: the emulator's fault, not Cranelift's: QEMU aborted on an
//     assertion (cliff-run's harness_error with QEMU's message), or a
//     wrong answer under QEMU that known.mask lists as a QEMU bug;
//   - invalid: Cranelift's verifier rejects what cliff's verifier accepted:
//     a discrepancy of cliff's verifier, not a Cranelift bug;
//   - error: another compile error; harness: cliff's own failure;
//   - interp: the target is right, the interpreter differs from every
//     target that answered (an interpreter bug, or cliff's);
//   - fine: every configuration compiled it and gave the expected answer.
//
// Known says what already knows a combination: the facts.txt lines that
// exclude it from the profile (lib/profile/universe: [upstream],
// [unlowered], [types], [semantics], with upstream's issue numbers), the
// known.mask entry for it, a finding whose header claims it (a line
// "; Census: ARCH PATTERN...": how an interpreter bug, which has no
// diagnostic, marks its rows), and the known.mask paragraph or finding
// that quotes its diagnostic (lib/cluster's Known). A failing combination
// nothing knows is new. A fine combination that a profile excludes is a
// candidate to re-enable.
//
// A combination's constant form (cliff-gen --enumerate --constants, case
// IDs census-const:KEY: its operands constants, folded by the mid-end) is
// classified the same way but tallied apart, and its rows, each with its
// parameter form's class on the same target, are a section of their own.
//
// Run reads the verdicts and writes one Row per failing combination and
// target, and per re-enable candidate, as JSON lines, and the report
// census.md (Report).
package census
