// Package batchjob sets cliff's stream tools (cliff-gen, cliff-refine) up
// as what they are: batch jobs with a small live heap (one case, the
// profile, a corpus) and a great deal of garbage, every case's, once it is
// written. Setup tunes the garbage collector and the scheduler for that.
package batchjob

import (
	"os"
	"runtime/debug"
)

// gcPercent is the GOGC the tools run at. At Go's default of 100 the
// collector ran every few cases and took a quarter of cliff-refine's time;
// at 1000 the heap peaks at about 130 MB and, measured with
// scripts/bench.sh (November 2026), cliff-gen takes 15% and
// cliff-gen | cliff-refine on one core 8% less time than at 400.
const gcPercent = 1000

// memoryLimit caps the heap softly, so that a large corpus (which the live
// heap holds, and GOGC multiplies) cannot make a tool take gigabytes: near
// the limit the collector runs more often instead.
const memoryLimit = 1 << 30

// Setup tunes the collector (unless the environment sets GOGC or
// GOMEMLIMIT) and makes the process a batch job for the scheduler.
func Setup() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	scheduleAsBatch()
}
