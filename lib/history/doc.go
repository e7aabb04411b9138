// Package history keeps the runs of a nightly campaign
// (scripts/nightly.sh) and compares each run with every earlier one, so
// that a nightly job can say what is new since the last run, and a report
// can show the clusters over time and the findings that stopped showing.
//
// A history is a directory:
//
//	pending.json                  the run in progress: planned, not yet recorded
//	runs/ID.json                  one record.Run per recorded run: the history
//	runs/ID.clusters.jsonl.zst    that run's cluster records, representatives included
//	campaigns/ID/                 a run's campaign (scripts/campaign.sh's OUT), kept
//	                              for the pending run and the latest recorded one
//	report/                       the latest run's report and the history page (lib/report)
//
// A run goes through two steps, and a kill at any point between them
// neither loses it nor counts it twice:
//
//   - Plan writes pending.json: the run's ID (its start and seed), a fresh
//     seed, its size (a CPU budget turned into cases at the rate earlier
//     runs measured) and the Cranelift it tests, pinned (latest becomes
//     its release, so that a run resumed the next day tests the same one).
//     While pending.json names a run that is not recorded, Plan returns
//     that run again, to be resumed; one that is recorded (a kill after
//     the commit) is cleaned up and a new run planned.
//   - Record clusters the finished campaign's failing verdicts (lib/cluster)
//     and builds the run's record and the comparison; Commit then writes
//     the record with one rename, the commit point, and removes
//     pending.json. A record is never written twice for one ID.
//
// The comparison is by cluster signature (lib/cluster's hash): for each,
// the runs that saw it (first and last), its members, the Cranelift
// versions it showed on, and its status in the latest run: new (first
// seen), showing, back (seen before, but not by the run before), or gone.
// A gone signature whose last sighting was on an older Cranelift than
// every run since is what a fix upstream looks like; Absence says so, with
// the chance that the runs since missed it by luck alone at the rate it
// showed before.
package history
