// Package report writes a campaign's report for the Cranelift maintainer
// who reads it: index.md (the campaign in numbers and a table of the
// clusters, new ones first), one Markdown page per cluster in the shape of
// wasmtime's Cranelift bug template (test case, steps to reproduce,
// expected and actual results, versions and environment) with its .clif
// file beside it, and two SVG plots (failures and distinct clusters over
// the campaign; the outcome mix per target), drawn as plain SVG.
//
// A cluster's test case is its representative's CLIF, made a Cranelift
// filetest (test, set and target lines; a run line with the expected
// answer for a wrong result), or the reduced reproducer of its Location
// when cliff-locate has made one.
package report
