// Package metrics computes the figures every case record carries
// (record.Metrics) and summarises them over a stream of cases.
//
// Of takes the structural figures from lib/analysis, whose package
// documentation defines them (reachable blocks only, cyclomatic complexity
// E - N + P, dominator tree and def-use chain depth). Survival asks
// Cranelift itself, through the driver, what fraction of a module's
// instructions its mid-end keeps at opt_level=speed: code the optimiser
// deletes tests nothing in a backend. Summary is what `--summary` prints at
// the end of a run: per-figure quantiles and histograms, and the opcodes of
// the profile the stream never used. It keeps counts per value, not
// records, so its memory does not grow with the number of cases.
package metrics
