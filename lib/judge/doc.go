// Package judge decides what a test case's results say about Cranelift: it
// compares the results of a case across configurations (architecture, opt
// level, flags, executor, the interpreter among them) and gives one verdict
// per case, with a one-line summary for humans. It is cliff-diff's engine,
// and what the later tools use to describe a failure the same way:
//
//   - Case judges one case: the verdict record cliff-diff writes for it.
//     cliff-locate re-judges a shrunk case with it after re-running it.
//   - Precedence, IsCraneliftFailure, NotCompared and Answered say how
//     outcomes rank and count; Failing and ConfigName describe a verdict
//     (the sides that failed, the side they are measured against, the
//     compact configuration names of the summaries), for tools that read
//     verdicts, such as cliff-cluster.
//   - Diff is the stream: it reads case and result records from several
//     inputs, joins the records of each case by case ID (the same case run
//     on several machines), judges each case as soon as no input can add to
//     it, and writes the verdicts.
//
// cliff's reference (executor ref: lib/refinterp, which shares no code with
// Cranelift) is a configuration like the others with one difference: when
// it answered, its side is right (ExpectedSide), and a case where all of
// Cranelift agrees against it is reference_divergent; when it did not
// answer, it is left out, never blamed on Cranelift.
package judge
