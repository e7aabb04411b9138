#!/usr/bin/env bash
# End-to-end test of scripts/nightly.sh (scripts/test.sh runs it; about a
# minute on two cores): six small nightly runs into one history.
#
# The runs are 80 cases of the x86_64 profile at depth 3 with SEED=8 and
# N=80 fixed: a fresh seed may find a cluster no earlier run had, which is
# the point of a nightly but would make "nothing new" a matter of luck.
# With the known mask, seed 8's first 80 cases find nothing; without it,
# two x86_64 panics that known.mask holds back (put_in_xmm_mem_32 of an
# f16, put_in_xmm_mem_64 of an f128).
#
#   1, 2  nothing new: exit 0 and no output (cron sends no mail)
#   3     MASK=: the two unmasked findings reported as new, exit 1
#   4     killed with SIGKILL halfway; meanwhile a second run is refused
#         by the lock (exit 2)
#   5     resumes run 4's campaign and records run 4, once, as resumed
#   6     after a kill past run 5's commit (its pending.json put back): the
#         leftover is cleaned up and a new run, sized from a CPU budget at
#         the measured rate, is recorded once
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
session=
cleanup() {
	if [ -n "$session" ]; then pkill -KILL -s "$session" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT
fail() {
	echo "nightly_test.sh: FAIL: $*" >&2
	[ -f "$HISTORY/nightly.log" ] && { echo "== nightly.log (last lines)"; tail -n 30 "$HISTORY/nightly.log"; } >&2
	exit 1
}
mkdir "$work/tmp"
export TMPDIR=$work/tmp HISTORY=$work/h PROFILE=x86_64 DEPTH=3 N=80 SEED=8 CHUNK=20 JOBS=2
unset MASK CRANELIFT CLIFF_CRANELIFT
cd "$work"
runs() { find "$HISTORY/runs" -name '*.json' 2>/dev/null | wc -l; }
# nightly N ARGS...: runs scripts/nightly.sh into run-N.out and run-N.err,
# under a time limit; its exit status is in $status.
nightly() {
	local n=$1
	shift
	status=0
	timeout -k 10 600 "$repo/scripts/nightly.sh" "$@" > "run-$n.out" 2> "run-$n.err" || status=$?
}
start=$(date +%s)

# 1 and 2: the same seed and size, nothing found, nothing new.
for n in 1 2; do
	nightly $n 1
	[ "$status" = 0 ] || fail "run $n: exit $status, want 0: $(cat "run-$n.out" "run-$n.err")"
	[ ! -s "run-$n.out" ] && [ ! -s "run-$n.err" ] || fail "run $n said something: $(cat "run-$n.out" "run-$n.err")"
	[ "$(runs)" = "$n" ] || fail "run $n: $(runs) runs recorded, want $n"
done
grep -q '^run [0-9TZ]*-8: seed 8, Cranelift [0-9.]*, 80 cases, .*: 0 clusters, nothing new since the last run' "$HISTORY/nightly.log" ||
	fail "run 2's news is not in the log"

# 3: the known mask let go: its findings are new.
MASK='' nightly 3 1
[ "$status" = 1 ] || fail "run 3 (MASK=): exit $status, want 1: $(cat run-3.out run-3.err)"
grep -q '^run [0-9TZ]*-8: .*: 2 clusters, 2 new since the last run' run-3.out || fail "run 3: $(cat run-3.out)"
grep -q '^changed since the last run: mask .*known.mask → none$' run-3.out || fail "run 3 does not say the mask changed: $(cat run-3.out)"
grep -q '^new: 2 cases  compile_crash x86_64/\*: .*put_in_xmm_mem_32: .* f16 ' run-3.out || fail "run 3: no f16 cluster: $(cat run-3.out)"
grep -q '^new: 1 case  compile_crash x86_64/\*: .*put_in_xmm_mem_64: .* f128 ' run-3.out || fail "run 3: no f128 cluster: $(cat run-3.out)"
for page in $(sed -n 's/^     report: //p' run-3.out) "$HISTORY/report/history.md"; do
	[ -f "$page" ] || fail "run 3 names $page, which is not there"
done
grep -q '^| 1 | \*\*new\*\* | \[compile_crash x86_64' "$HISTORY/report/history.md" || fail "history.md: $(cat "$HISTORY/report/history.md")"

# 4: killed halfway, with JOBS=1 so that half is long enough to try a
# second run meanwhile, which the lock refuses.
JOBS=1 setsid "$repo/scripts/nightly.sh" 1 > run-4.out 2> run-4.err &
session=$!
disown # bash would report its death by SIGKILL on stderr
# Its campaign is the one pending.json names (run 3's is kept beside it).
for _ in $(seq 600); do
	id=$(sed -n 's/.*"id":"\([^"]*\)".*/\1/p' "$HISTORY/pending.json" 2>/dev/null || true)
	[ -n "$id" ] && [ -e "$HISTORY/campaigns/$id/chunk-0.done" ] && break
	kill -0 "$session" 2>/dev/null || break
	sleep 0.1
done
nightly 4b 1
[ "$status" = 2 ] && grep -q '^nightly.sh: another nightly run holds .*/lock (pid [0-9]* since .*); this one does nothing$' run-4b.err ||
	fail "a second run while one holds the lock: exit $status, $(cat run-4b.out run-4b.err)"
# The session: a process forked while pkill reads the process list
# escapes it, so again until none is left.
for _ in $(seq 50); do
	pkill -KILL -s "$session" 2>/dev/null || break
	sleep 0.1
done
! pgrep -s "$session" > /dev/null || fail "run 4's processes outlived SIGKILL: $(pgrep -a -s "$session")"
session=
[ "$(runs)" = 3 ] || fail "run 4 finished before it was killed ($(runs) runs): nothing to resume"
[ -f "$HISTORY/pending.json" ] || fail "the killed run left no pending.json"
killed=$(sed -n 's/.*"id":"\([^"]*\)".*/\1/p' "$HISTORY/pending.json")
cp "$HISTORY/pending.json" pending-4.json

# 5: resumes run 4 and records it, once; the same verdicts as run 2's
# (same seed, size and mask): nothing new.
nightly 5 1
[ "$status" = 0 ] || fail "run 5: exit $status, want 0: $(cat run-5.out run-5.err)"
[ ! -s run-5.out ] && [ ! -s run-5.err ] || fail "run 5 said something: $(cat run-5.out run-5.err)"
[ "$(runs)" = 4 ] || fail "after the resume: $(runs) runs, want 4"
grep -q "^cliff-cluster: run $killed (seed 8, started .*) was interrupted: resuming it, attempt 2" "$HISTORY/nightly.log" || fail "run 5 did not resume run 4"
grep -q "^== resuming run $killed's campaign" "$HISTORY/nightly.log" || fail "run 5 did not resume run 4's campaign"
grep -q '^== campaign (resumed: [1-3] of 4 chunks done)' "$HISTORY/nightly.log" || fail "run 5 kept none of run 4's chunks: $(grep '^== campaign (resumed' "$HISTORY/nightly.log")"
rec=$HISTORY/runs/$killed.json
[ -f "$rec" ] || fail "run 4 ($killed) is not recorded: $(ls "$HISTORY/runs")"
grep -q '"resumed":true' "$rec" && grep -q '"cases":80,' "$rec" && grep -q '"failures":0' "$rec" || fail "run 4's record: $(cat "$rec")"
grep -q "^run $killed: .*, resumed after a kill: 0 clusters, nothing new since the last run (.*), 2 no longer seen$" "$HISTORY/nightly.log" ||
	fail "run 5's news: $(tail -n 3 "$HISTORY/nightly.log")"

# 6: killed past run 5's commit: its pending.json is back. The next run
# cleans it up and does a run of its own, sized from its CPU budget at
# the rate the runs measured (at most 80 cases, which hold nothing with
# the mask).
cp pending-4.json "$HISTORY/pending.json"
N='' nightly 6 0.05
[ "$status" = 0 ] || fail "run 6: exit $status, want 0: $(cat run-6.out run-6.err)"
grep -q "^cliff-cluster: run $killed was recorded and then interrupted: its pending.json removed$" "$HISTORY/nightly.log" ||
	fail "run 6 did not clean up run 4's leftover"
grep -q '^cliff-cluster: run [0-9TZ]*-8: seed 8, [0-9]* cases for 0.05 CPU minutes at [0-9.]* cases per CPU second, measured over the last 3 runs, Cranelift ' "$HISTORY/nightly.log" ||
	fail "run 6's size: $(grep '^cliff-cluster: run' "$HISTORY/nightly.log" | tail -n 1)"
[ "$(runs)" = 5 ] || fail "after run 6: $(runs) runs, want 5"
ids=$(cat "$HISTORY"/runs/*.json | sed -n 's/.*"id":"\([^"]*\)".*/\1/p' | sort | uniq -d)
[ -z "$ids" ] || fail "runs recorded twice: $ids"

# The history page after all this: the two findings of run 3 stopped
# showing when the mask came back; one campaign kept, no leftovers.
grep -q '^## Stopped showing' "$HISTORY/report/history.md" &&
	[ "$(grep -c "the campaign's settings changed since (mask none → .*known.mask)" "$HISTORY/report/history.md")" = 2 ] ||
	fail "history.md: $(cat "$HISTORY/report/history.md")"
[ "$(find "$HISTORY/campaigns" -mindepth 1 -maxdepth 1 | wc -l)" = 1 ] || fail "campaigns kept: $(ls "$HISTORY/campaigns")"
left=$(find "$HISTORY" "$TMPDIR" -mindepth 1 \( -name '.*cliff-tmp*' -o -name 'report.new' -o -name 'report.old' -o -name 'cliff-*' \) | wc -l)
[ "$left" = 0 ] || fail "$left temporary files left: $(find "$HISTORY" "$TMPDIR" -name '*cliff-tmp*' -o -name 'report.*')"
echo "nightly_test.sh: ok ($(($(date +%s) - start)) s)"
