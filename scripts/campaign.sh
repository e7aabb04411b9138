#!/usr/bin/env bash
# A fuzzing campaign: cliff-gen | cliff-refine | cliff-run (all four
# targets, three opt levels) | cliff-diff, in chunks run side by side with
# GNU Parallel. Prints the verdict counts, the failing cases' ids and the
# throughput; everything is kept under $OUT.
#
#   scripts/campaign.sh [N [DEPTH [SEED]]]      (default 1000 5 1)
#
# Environment: OUT (default out/campaign), PROFILE (compat), JOBS (cores),
# CHUNK (cases per chunk, 250), REFINE (1; 0 runs the generated cases as
# they are), OPTS (none,speed,speed_and_size), CORPUS (out/corpus.jsonl.zst
# when it exists), MASK (lib/profile/data/known.mask, the findings already
# known; set it empty to generate them too).
set -euo pipefail
cd "$(dirname "$0")/.."
export N=${1:-${N:-1000}} DEPTH=${2:-${DEPTH:-5}} SEED=${3:-${SEED:-1}}
export OUT=${OUT:-out/campaign} PROFILE=${PROFILE:-compat} CHUNK=${CHUNK:-250}
export OPTS=${OPTS:-none,speed,speed_and_size} REFINE=${REFINE:-1}
export MASK=${MASK-lib/profile/data/known.mask} CORPUS=${CORPUS:-out/corpus.jsonl.zst}

if [ "${CAMPAIGN_CHUNK:-}" != "" ]; then
	# One chunk: generate, refine, run everywhere (cliff-run bounds every
	# compile and run; the caller bounds the chunk).
	first=$CAMPAIGN_CHUNK
	count=$((N - first < CHUNK ? N - first : CHUNK))
	flags=(--seed "$SEED" --depth "$DEPTH" --profile "$PROFILE" --start "$first" -n "$count")
	[ -f "$CORPUS" ] && flags+=(--corpus "$CORPUS")
	[ -n "$MASK" ] && flags+=(--mask "$MASK")
	file=$OUT/chunk-$first
	bin/cliff-gen "${flags[@]}" 2> "$file.log" |
		if [ "$REFINE" = 1 ]; then bin/cliff-refine 2>> "$file.log"; else cat; fi |
		bin/cliff-run --arch x86_64,aarch64,riscv64,s390x --opt "$OPTS" -j 1 -o "$file.results.jsonl" 2>> "$file.log"
	exit
fi

mkdir -p "$OUT"
rm -f "$OUT"/chunk-*
jobs=${JOBS:-$(nproc)}
echo "== campaign: $N cases, depth $DEPTH, seed $SEED, profile $PROFILE, refine=$REFINE, $jobs jobs of $CHUNK cases"
start=$(date +%s)
seq 0 "$CHUNK" $((N - 1)) |
	parallel -j "$jobs" --halt now,fail=1 CAMPAIGN_CHUNK={} timeout 3600 "$0"
end=$(date +%s)

cat "$OUT"/chunk-*.results.jsonl > "$OUT/results.jsonl"
echo "== verdicts"
status=0
bin/cliff-diff --summary --failures -o "$OUT/failures.jsonl" "$OUT/results.jsonl" 2>&1 | tail -n 3 || status=$?
awk -v n="$N" -v s="$((end - start))" 'BEGIN { printf "%d cases in %d s: %.1f cases/s, each on 4 targets x 3 opt levels\n", n, s, n / (s ? s : 1) }'
grep -ho '"id":"[^"]*"' "$OUT/failures.jsonl" | head -n 20 || true
exit "$status"
