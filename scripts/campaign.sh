#!/usr/bin/env bash
# A fuzzing campaign: cliff-gen | cliff-refine | cliff-run (all four
# targets, three opt levels) | cliff-diff, in chunks run side by side with
# GNU Parallel. Everything is kept under $OUT: each chunk's results
# (chunk-K.results.jsonl.zst), its log and failing verdicts, and at the end
# the failing verdicts of the whole campaign (failures.jsonl.zst).
#
#   scripts/campaign.sh [N [DEPTH [SEED]]]    a new campaign (default 1000 5, a fresh seed)
#   scripts/campaign.sh --resume              finish the interrupted campaign in $OUT
#   scripts/campaign.sh --loop [N [DEPTH [SEED]]]   rounds of campaign, cluster,
#                                             locate and mask until nothing new
#                                             (scripts/campaign_loop.sh says how)
#
# A campaign can be killed at any point (kill -9 included) and resumed:
# gen and refine are deterministic, so a chunk is made again and cliff-run
# --resume runs only the cases whose results are not already in its file;
# a finished chunk is not touched. The resumed campaign's results equal an
# uninterrupted one's (timings aside).
#
# Environment: OUT (out/campaign), PROFILE (compat), JOBS (cores), CHUNK
# (cases per chunk, 250), REFINE (1; 0 runs the generated cases as they
# are), OPTS (none,speed,speed_and_size), CORPUS (out/corpus.jsonl.zst when
# it exists), MASK (lib/profile/data/known.mask, the findings already
# known; set it empty to find them again). Paths are relative to the
# caller's directory. A new campaign replaces a finished one in $OUT and
# refuses to replace an unfinished one.
#
# Exit status: 0 no Cranelift failure found; 1 some case failed (a finding:
# see failures.jsonl.zst); 2 the campaign itself failed (bad usage, a chunk
# that could not run, harness errors): see the chunk logs.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
abs() { case $1 in /*|'') printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }
die() { echo "campaign.sh: $*" >&2; exit 2; }

if [ "${CAMPAIGN_CHUNK:-}" != "" ]; then
	# One chunk (run by GNU Parallel below): generate, refine, run
	# everywhere. cliff-run bounds every compile and run; the caller
	# bounds the chunk. Its results are written as they are made, so a
	# kill loses only cases in flight; --resume skips the rest.
	# shellcheck source=/dev/null
	. "$OUT/campaign.env"
	first=$CAMPAIGN_CHUNK
	count=$((N - first < CHUNK ? N - first : CHUNK))
	file=$OUT/chunk-$first
	[ -e "$file.done" ] && exit 0
	flags=(--seed "$SEED" --depth "$DEPTH" --profile "$PROFILE" --start "$first" -n "$count")
	[ -n "$CORPUS" ] && flags+=(--corpus "$CORPUS")
	[ -n "$MASK" ] && flags+=(--mask "$MASK")
	cd "$here"
	status=0
	{
		bin/cliff-gen "${flags[@]}" |
			if [ "$REFINE" = 1 ]; then bin/cliff-refine; else cat; fi |
			bin/cliff-run --arch x86_64,aarch64,riscv64,s390x --opt "$OPTS" -j 1 --resume -o "$file.results.jsonl.zst"
	} 2>> "$file.log" || status=$?
	[ "$status" = 0 ] || { echo "chunk $first: exit $status, see $file.log" >&2; exit 2; }
	# The chunk's failing verdicts, for the progress line; exit 1 is a
	# finding, not a failure of the chunk.
	bin/cliff-diff --failures -o "$file.failures.jsonl" "$file.results.jsonl.zst" 2>> "$file.log" || [ $? = 1 ]
	touch "$file.done"
	exit 0
fi

if [ "${1:-}" = "--loop" ]; then
	shift
	exec "$here/scripts/campaign_loop.sh" "$@"
fi
resume=0
if [ "${1:-}" = "--resume" ]; then
	resume=1
	shift
fi
[ $# -le 3 ] || die "usage: scripts/campaign.sh [N [DEPTH [SEED]]] | --resume"
OUT=$(abs "${OUT:-out/campaign}")
export OUT
if [ "$resume" = 1 ]; then
	[ -f "$OUT/campaign.env" ] || die "$OUT holds no campaign to resume"
	[ $# = 0 ] || die "--resume takes the campaign's own N, DEPTH and SEED (from $OUT/campaign.env)"
	# shellcheck source=/dev/null
	. "$OUT/campaign.env"
else
	if [ -f "$OUT/campaign.env" ] && [ ! -e "$OUT/finished" ]; then
		die "$OUT holds an unfinished campaign: resume it with scripts/campaign.sh --resume, or remove $OUT"
	fi
	N=${1:-${N:-1000}} DEPTH=${2:-${DEPTH:-5}}
	# A fresh seed by default, so that nightly runs differ; it is printed
	# and kept in campaign.env, and every case record states it.
	SEED=${3:-${SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}}
	PROFILE=${PROFILE:-compat} CHUNK=${CHUNK:-250} REFINE=${REFINE:-1}
	OPTS=${OPTS:-none,speed,speed_and_size}
	MASK=$(abs "${MASK-$here/lib/profile/data/known.mask}")
	CORPUS=$(abs "${CORPUS-}")
	if [ -z "$CORPUS" ] && [ -f "$here/out/corpus.jsonl.zst" ]; then
		CORPUS=$here/out/corpus.jsonl.zst
	fi
	[ -z "$CORPUS" ] || [ -f "$CORPUS" ] || die "CORPUS $CORPUS: no such file"
	[ -z "$MASK" ] || [ -f "$MASK" ] || die "MASK $MASK: no such file"
	for v in N DEPTH SEED CHUNK; do
		[[ ${!v} =~ ^[0-9]+$ ]] || die "$v=${!v}: want a number"
	done
	if [ "$N" -eq 0 ] || [ "$CHUNK" -eq 0 ]; then die "N and CHUNK must be positive"; fi
	mkdir -p "$OUT"
	rm -f "$OUT"/chunk-* "$OUT"/failures.jsonl.zst "$OUT"/finished
	for v in N DEPTH SEED PROFILE CHUNK REFINE OPTS MASK CORPUS; do
		printf '%s=%q\n' "$v" "${!v}"
	done > "$OUT/campaign.env"
fi
chunks=$(((N + CHUNK - 1) / CHUNK))
jobs=${JOBS:-$(nproc)}
jobs=$((jobs < chunks ? jobs : chunks))
verb=campaign
[ "$resume" = 1 ] && verb="campaign (resumed: $(find "$OUT" -name 'chunk-*.done' | wc -l) of $chunks chunks done)"
echo "== $verb: $N cases, depth $DEPTH, seed $SEED, profile $PROFILE, refine=$REFINE, $chunks chunks of $CHUNK on $jobs jobs, in $OUT"

# On a terminal: done/total, rate, ETA and failures so far, per chunk.
progress() {
	local start=$1 cases failures rate eta now
	while sleep 2; do
		cases=0
		for f in "$OUT"/chunk-*.done; do
			[ -e "$f" ] || continue
			k=${f##*/chunk-}
			k=${k%.done}
			cases=$((cases + (N - k < CHUNK ? N - k : CHUNK)))
		done
		failures=$(cat "$OUT"/chunk-*.failures.jsonl 2>/dev/null | wc -l)
		now=$(date +%s)
		rate=$(awk -v d="$cases" -v s="$((now - start))" 'BEGIN { printf "%.1f", s ? d / s : 0 }')
		eta=$(awk -v d="$cases" -v n="$N" -v r="$rate" 'BEGIN { if (r > 0 && d > 0) printf "%ds", (n - d) / r; else printf "?" }')
		printf '\r\033[K%d/%d cases, %s cases/s, ETA %s, %d failing' "$cases" "$N" "$rate" "$eta" "$failures" >&2
	done
}
start=$(date +%s)
progress_pid=
if [ -t 2 ]; then
	progress "$start" &
	progress_pid=$!
	trap 'kill $progress_pid 2>/dev/null; printf "\r\033[K" >&2' EXIT
fi

status=0
seq 0 "$CHUNK" $((N - 1)) |
	parallel -j "$jobs" --halt now,fail=1 CAMPAIGN_CHUNK={} timeout 3600 "$0" || status=$?
end=$(date +%s)
if [ -n "$progress_pid" ]; then
	kill "$progress_pid" 2>/dev/null || true
	printf '\r\033[K' >&2
fi
[ "$status" = 0 ] || die "a chunk failed (exit $status); see $OUT/chunk-*.log, then scripts/campaign.sh --resume"

echo "== verdicts"
diff_status=0
bin_diff=$here/bin/cliff-diff
"$bin_diff" --summary --failures -o "$OUT/failures.jsonl.zst" "$OUT"/chunk-*.results.jsonl.zst 2> "$OUT/diff.log" || diff_status=$?
grep -v '^cliff-diff: [0-9]* of [0-9]* cases failed$' "$OUT/diff.log" | tail -n 3
[ "$diff_status" -le 1 ] || die "cliff-diff failed (exit $diff_status), see $OUT/diff.log"
touch "$OUT/finished"
awk -v n="$N" -v s="$((end - start))" 'BEGIN { printf "%d cases in %d s: %.1f cases/s, each on 4 targets x 3 opt levels\n", n, s, n / (s ? s : 1) }'
if [ "$diff_status" = 1 ]; then
	echo "failing cases: $OUT/failures.jsonl.zst (cliff-diff's verdicts; the first ones below)"
	cat "$OUT"/chunk-*.failures.jsonl | head -n 10 |
		sed -n 's/.*"case_id":"\([^"]*\)","verdict":"\([^"]*\)".*"summary":"\([^"]*\)".*/  \1 \2: \3/p' | cut -c1-200 || true
fi
exit "$diff_status"
