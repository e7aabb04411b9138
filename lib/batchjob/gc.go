// Package gctune sets the garbage collector up for cliff's stream tools
// (cliff-gen, cliff-refine): a small live heap (one case, the profile, a
// corpus) and a great deal of garbage, every case's, once it is written.
package gctune

import (
	"os"
	"runtime/debug"
)

// percent is the GOGC the tools run at. At Go's default of 100 the
// collector ran every few cases and took a quarter of cliff-refine's time;
// at 1000 the heap peaks at about 130 MB and, measured with
// scripts/bench.sh (November 2026), cliff-gen takes 15% and
// cliff-gen | cliff-refine on one core 8% less time than at 400.
const percent = 1000

// limit caps the heap softly, so that a large corpus (which the live heap
// holds, and GOGC multiplies) cannot make a tool take gigabytes: near the
// limit the collector runs more often instead.
const limit = 1 << 30

// ForStreams applies percent and limit unless the environment sets
// GOGC or GOMEMLIMIT.
func ForStreams() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(percent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(limit)
	}
}
