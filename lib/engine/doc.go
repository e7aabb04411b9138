// Package engine runs test cases with the real Cranelift: it is
// cliff-run's execution engine, and cliff-locate's, which re-runs shrunk
// cases on a few configurations many times.
//
// A configuration is an architecture (lib/arch) or Cranelift's
// interpreter, an opt level, ISA flags and settings (Configs). An Engine
// owns a pool of workers, each with a cliff-driver coprocess kept across
// runs: cases are compiled in batches (one object and one executable per
// batch and configuration, each module built alone when the driver dies or
// the link fails), placed where their code can run (natively, under
// qemu-user, or compiled again without the ISA flags neither executes:
// placement.go), executed in forked processes under a CPU-time limit per
// input vector (lib/harness), and each outcome classified into a
// record.RunResult whose hash is of the canonical outputs (lib/canon).
// Every external step has a timeout.
//
// Engine.Run takes case records in memory and appends their results;
// Engine.Stream reads files of cases and .clif files (checking their
// `; run:` lines, reported as it goes) and writes the records in input
// order, chunk by chunk, resumably. Both stamp results with the versions
// of cliff, Cranelift and QEMU.
package engine
