#!/usr/bin/env bash
# A nightly fuzzing run, for a crontab line:
#
#   0 2 * * *  cd /path/to/cliff && scripts/nightly.sh 120
#
#   scripts/nightly.sh [CPU-MINUTES]     a run of that CPU budget (default 60)
#
# Each run is one campaign (scripts/campaign.sh) with a fresh seed, sized
# to the budget, kept in a history (HISTORY, default out/nightly; the
# layout is lib/history's package doc) and compared with every earlier
# run by cluster signature. The budget becomes a number of cases at the
# cases per CPU second the latest runs measured (5 before any has), so a
# night takes about its budget: CPU-MINUTES / JOBS minutes of wall time.
#
# Its output says only what no earlier run had found: nothing when
# nothing is new, so that cron sends no mail; the new clusters (signature,
# cases, known finding, report page) when some are; the error when the
# run failed. On a terminal it also prints the run's line when nothing is
# new. What each run did, the campaign's own output included, is
# appended to HISTORY/nightly.log; the latest run's report, with the
# history page (clusters over time, new per night, findings that stopped
# showing), is HISTORY/report/index.md and history.md.
#
# A run takes HISTORY/lock (flock): a second run started while one is
# going exits 2 at once. A run killed at any point, kill -9 included, is
# resumed by the next invocation, which finishes and records that run
# (its seed, size and Cranelift as they began; it then does no run of its
# own): the campaign resumes where it stopped, and a run is recorded by
# one rename at its end, so it is never counted twice.
#
# Environment: HISTORY (out/nightly); N (a number of cases instead of the
# CPU budget); SEED (a fixed seed instead of a fresh one: tests); DEPTH
# (5); CRANELIFT (the Cranelift to test: a SPEC as cliff-run --cranelift
# takes it, default $CLIFF_CRANELIFT, else the default release; latest
# follows the newest release, pinned for each run, so that the history
# shows what a release fixed); TIMEOUT (seconds the campaign may take,
# default four times its expected wall time plus ten minutes; a campaign
# stopped by it is resumed by the next run); and everything
# scripts/campaign.sh takes (PROFILE, MASK, JOBS, CHUNK, CORPUS, ...),
# which a resumed run keeps as they were when it began.
#
# Exit status: 0 nothing new since the last run; 1 new clusters (printed);
# 2 the run failed (a campaign that failed or ran out of time, another run
# holding the lock, bad usage): the message says where to look.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "nightly.sh: $*" >&2; exit 2; }
. "$here/scripts/paths.sh"

[ $# -le 1 ] || die "usage: scripts/nightly.sh [CPU-MINUTES]"
budget=${1:-60}
[[ $budget =~ ^[0-9]+([.][0-9]+)?$ ]] && awk -v b="$budget" 'BEGIN { exit !(b > 0) }' ||
	die "CPU-MINUTES=$budget: want a positive number of minutes"
[ -z "${N:-}" ] || [[ $N =~ ^[1-9][0-9]*$ ]] || die "N=$N: want a positive number of cases"
[ -z "${SEED:-}" ] || [[ $SEED =~ ^[0-9]+$ ]] || die "SEED=$SEED: want a number"
DEPTH=${DEPTH:-5}
[[ $DEPTH =~ ^[0-9]+$ ]] || die "DEPTH=$DEPTH: want a number"
[ -z "${TIMEOUT:-}" ] || [[ $TIMEOUT =~ ^[1-9][0-9]*$ ]] || die "TIMEOUT=$TIMEOUT: want a positive number of seconds"
HISTORY=$(abs "${HISTORY:-out/nightly}")
mkdir -p "$HISTORY" || die "cannot make the history directory $HISTORY"
log=$HISTORY/nightly.log

# The lock is held as long as fd 9 is open: by this script and every
# process it starts, so that a campaign orphaned by a kill of this script
# alone still keeps the next run from resuming it under its feet.
exec 9>> "$HISTORY/lock"
if ! flock -n 9; then
	die "another nightly run holds $HISTORY/lock ($(cat "$HISTORY/lock.owner" 2>/dev/null || echo "owner unknown")); this one does nothing"
fi
echo "pid $$ since $(date -u '+%Y-%m-%d %H:%M:%S UTC')" > "$HISTORY/lock.owner"
echo "== nightly.sh $budget: $(date -u '+%Y-%m-%d %H:%M:%S UTC'), pid $$" >> "$log"

# The plan: a new run, or the interrupted one to resume (RESUME=1). It
# sets RUN, SEED, N, CRANELIFT, CRANELIFT_VERSION, CAMPAIGN, RESUME and
# EXPECTED_CPU. Pinning a checkout's Cranelift may build its driver.
flags=(--history "$HISTORY" --plan "$budget" --cranelift "${CRANELIFT:-${CLIFF_CRANELIFT:-default}}")
[ -n "${N:-}" ] && flags+=(--cases "$N")
[ -n "${SEED:-}" ] && flags+=(--seed "$SEED")
plan=$(timeout -k 10 3600 "$here/bin/cliff-cluster" "${flags[@]}" 2>> "$log") ||
	die "planning the run failed (exit $?): $(tail -n 1 "$log"); see $log"
eval "$plan"

jobs=${JOBS:-$(nproc)}
limit=${TIMEOUT:-$((EXPECTED_CPU * 4 / jobs + 600))}
# The campaign's CPU time is the growth of this shell's children's CPU
# seconds (user and system), which the builtin times prints on its second
# line ("XmY.Zs XmY.Zs"). times must run in this shell, not in a $(...)
# subshell, whose children are others: so to a file, read after.
times_now() { times > "$HISTORY/.times"; }
cpu_seconds() { awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.1f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$HISTORY/.times"; }
times_now
cpu_before=$(cpu_seconds)
# The campaign runs with the pinned Cranelift only: $CLIFF_CRANELIFT,
# which cliff-run reads too, must not move a resumed run to another.
status=0
if [ "$RESUME" = 1 ] && [ -f "$CAMPAIGN/campaign.env" ]; then
	if [ ! -e "$CAMPAIGN/finished" ]; then
		echo "== resuming run $RUN's campaign in $CAMPAIGN (time limit ${limit}s)" >> "$log"
		OUT=$CAMPAIGN timeout -k 60 "$limit" env -u CLIFF_CRANELIFT "$here/scripts/campaign.sh" --resume >> "$log" 2>&1 || status=$?
	fi
else
	# A new run, or one killed before its campaign began: nothing of
	# its campaign to keep.
	rm -rf "$CAMPAIGN"
	echo "== run $RUN: $N cases, depth $DEPTH, seed $SEED, Cranelift $CRANELIFT_VERSION (time limit ${limit}s)" >> "$log"
	OUT=$CAMPAIGN CRANELIFT=$CRANELIFT timeout -k 60 "$limit" env -u CLIFF_CRANELIFT "$here/scripts/campaign.sh" "$N" "$DEPTH" "$SEED" >> "$log" 2>&1 || status=$?
fi
case $status in
0 | 1) ;; # 1 is findings, which the history sorts into new and not
124 | 137) die "run $RUN: the campaign took longer than ${limit}s (TIMEOUT) and was stopped; the next run resumes it; see $log" ;;
*) die "run $RUN: the campaign failed (exit $status): $(grep 'campaign.sh:' "$log" | tail -n 1); see $log; the next run resumes it (remove $HISTORY/pending.json to abandon it)" ;;
esac
times_now
cpu_used=$(awk -v a="$cpu_before" -v b="$(cpu_seconds)" 'BEGIN { printf "%.1f", b - a }')

# Record the run: cluster its failures, write the report and the history
# page, commit the run's record and say what is new.
status=0
news=$(timeout -k 10 1800 "$here/bin/cliff-cluster" --history "$HISTORY" --cpu "$cpu_used" 2>> "$log") || status=$?
[ -z "$news" ] || printf '%s\n' "$news" >> "$log"
case $status in
0) if [ -t 1 ]; then printf '%s\n' "$news"; fi ;;
1) printf '%s\n' "$news" ;;
*) die "run $RUN: recording it failed (exit $status): $(tail -n 1 "$log"); see $log" ;;
esac
exit "$status"
