// Package cluster groups cliff-diff's failing verdicts by root cause, so
// that a campaign's hundreds of failing cases become a handful of bugs to
// look at, each with one representative case.
//
// The grouping key is CLIR's signature S = ⟨R, K⟩, made canonical
// (SignatureOf):
//
//   - R, the failing configurations, abstracted where the failure does not
//     depend on them: the architectures on the failing side, each with "*"
//     for its opt levels when the failure is there without optimisation
//     ("opt" when only the optimising levels fail: the mid-end made the
//     failing code), and ISA flags, settings or executor only when they
//     separate the failing runs of an architecture from its passing ones;
//     "*" for the architectures when every compiled one fails.
//   - K, the diagnostic, normalised: a panic's message with value numbers,
//     hex and decimal numbers, paths, crate versions and build hashes
//     erased, plus the panic site (for an ISLE "no rule matched" panic the
//     .isle rule line named in the message); a rejected function's "should
//     be implemented in ISLE" as opcode.type; for a divergence, per output
//     that differs its type and kind of difference (sign, NaN, one lane,
//     lanes, value) against the expected side (judge.ExpectedSide), for
//     a trap its code and what the expected side did.
//
// A Clusterer takes verdicts one at a time and keeps, per signature, the
// count, first and last sighting, a bounded list of members and the
// representative: the member with the fewest instructions, then the
// simplest control flow (cyclomatic number, then blocks), then the smallest
// case ID, so that the choice does not depend on input order. Memory grows
// with the number of clusters, not of cases: only the representative's
// verdict is kept.
//
// Known matches a cluster against the findings cliff already knows
// (lib/profile's known.mask and findings/*.clif), so that a report marks
// it known instead of new: by its panic, its located culprit, or the
// shape of its reduced file a finding's header names (shape.go). The
// Clusterer's Stats count the cases lost to harness errors per executor
// and version (harness.go), which no cluster holds.
//
// Run is cliff-cluster's engine: it reads verdict files, clusters them and
// writes the cluster records; lib/report turns its Result into the
// campaign report.
package cluster
