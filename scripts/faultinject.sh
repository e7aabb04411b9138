#!/usr/bin/env bash
# Fault injection for campaigns: runs a campaign once uninterrupted, then
# again killed with SIGKILL (every process of it, as a crash of the machine
# would) at K random points and resumed after each kill, and
# compares the two. Prints cases lost, verdicts differing and temporary
# files left; all three must be 0 (exit 1 otherwise).
#
#   scripts/faultinject.sh [N [KILLS [SEED]]]     (default 5000 10 2026)
#
# Environment: WORK (out/faultinject), JOBS, CHUNK (as campaign.sh); REUSE=1
# keeps the uninterrupted run of an earlier call with the same N and SEED.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-5000} KILLS=${2:-10} SEED=${3:-2026}
WORK=${WORK:-out/faultinject}
export CHUNK=${CHUNK:-250}
if [ "${REUSE:-0}" = 1 ]; then
	rm -rf "$WORK/killed" "$WORK/tmp" "$WORK"/killed.*
else
	rm -rf "$WORK"
fi
mkdir -p "$WORK"
tmpdir=$WORK/tmp # the campaign's TMPDIR, to count what it leaves behind
mkdir -p "$tmpdir"

verdicts() { # the verdicts of a campaign, one line per case, sorted
	bin/cliff-diff -o - "$1"/chunk-*.results.jsonl.zst 2>/dev/null | LC_ALL=C sort || [ $? = 1 ]
}

echo "== uninterrupted: $N cases, seed $SEED"
if [ -e "$WORK/whole/finished" ] && [ -f "$WORK/whole.seconds" ] &&
	grep -q "^N=$N\$" "$WORK/whole/campaign.env" && grep -q "^SEED=$SEED\$" "$WORK/whole/campaign.env"; then
	# REUSE=1 keeps an earlier uninterrupted run of the same campaign.
	whole_s=$(cat "$WORK/whole.seconds")
	echo "   reused ($whole_s s)"
else
	start=$(date +%s)
	OUT=$WORK/whole TMPDIR=$tmpdir scripts/campaign.sh "$N" 5 "$SEED" > "$WORK/whole.log" 2>&1 || [ $? = 1 ]
	whole_s=$(($(date +%s) - start))
	echo "$whole_s" > "$WORK/whole.seconds"
	echo "   $whole_s s"
fi

echo "== killed $KILLS times at random points, resumed after each"
first=1
kills=0
start=$(date +%s)
while :; do
	if [ "$first" = 1 ]; then
		args=("$N" 5 "$SEED")
		first=0
	else
		args=(--resume)
	fi
	OUT=$WORK/killed TMPDIR=$tmpdir setsid scripts/campaign.sh "${args[@]}" >> "$WORK/killed.log" 2>&1 &
	pid=$!
	if [ "$kills" -lt "$KILLS" ]; then
		# A random point within the expected remaining run time.
		delay=$(awk -v s="$whole_s" -v k="$KILLS" -v r="$RANDOM" 'BEGIN { printf "%.1f", 1 + (r / 32768) * (s / k) * 0.8 }')
		sleep "$delay"
		if kill -0 "$pid" 2>/dev/null; then
			# The whole session: GNU Parallel puts each chunk in a
			# process group of its own.
			pkill -KILL -s "$pid" 2>/dev/null || true
			wait "$pid" 2>/dev/null || true
			kills=$((kills + 1))
			echo "   kill $kills at ${delay}s: $(find "$WORK/killed" -name 'chunk-*.done' | wc -l) chunks done"
			continue
		fi
	fi
	status=0
	wait "$pid" || status=$?
	[ "$status" -le 1 ] || { echo "faultinject.sh: the resumed campaign failed (exit $status), see $WORK/killed.log" >&2; exit 2; }
	break
done
echo "   $(($(date +%s) - start)) s, $kills kills"

verdicts "$WORK/whole" > "$WORK/whole.verdicts"
verdicts "$WORK/killed" > "$WORK/killed.verdicts"
cases_whole=$(wc -l < "$WORK/whole.verdicts")
cases_killed=$(wc -l < "$WORK/killed.verdicts")
lost=$((N - cases_killed))
differing=$(LC_ALL=C comm -3 "$WORK/whole.verdicts" "$WORK/killed.verdicts" | wc -l)
left=$(find "$tmpdir" "$WORK/killed" -mindepth 1 \( -name 'cliff-*' -o -name '.*cliff-tmp*' \) | wc -l)
echo "== cases: $cases_whole uninterrupted, $cases_killed killed and resumed"
echo "cases lost: $lost"
echo "verdicts differing: $differing"
echo "temporary files left: $left"
[ "$lost" = 0 ] && [ "$differing" = 0 ] && [ "$left" = 0 ] && [ "$cases_whole" = "$N" ]
