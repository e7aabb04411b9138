#!/usr/bin/env bash
# Prints the speed of cliff's reference (cliff-run --arch ref: lib/refinterp in
# process) against Cranelift's interpreter through the driver (--arch
# interp) on the same generated compat cases, one worker each: the median
# wall time of R runs, cases/s, and the ratio. Both runs must give every
# case the same outputs (cliff-diff finds no failure), or the figures
# compare different work.
#
#   scripts/refspeed.sh [N cases, default 1000] [R runs, default 3]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000}
runs=${2:-3}
make -s build
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
bin/cliff-gen --seed 16 --profile compat --refine -n "$n" -o "$dir/cases.jsonl"

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
declare -A med
for a in ref interp; do
	for _ in $(seq "$runs"); do
		start=$(date +%s.%N)
		bin/cliff-run --jobs 1 --arch "$a" -o "$dir/$a.jsonl" "$dir/cases.jsonl" 2> "$dir/$a.log"
		end=$(date +%s.%N)
		echo "$end - $start" | bc
	done > "$dir/$a.times"
	med[$a]=$(median < "$dir/$a.times")
	awk -v a="$a" -v n="$n" -v t="${med[$a]}" 'BEGIN { printf "%-7s median %7.2f s over '"$runs"' runs  %8.0f cases/s\n", a, t, n / t }'
done
awk -v r="${med[ref]}" -v i="${med[interp]}" 'BEGIN { printf "ref is %.1fx the interpreter'"'"'s cases/s\n", i / r }'

# The same work: the two runs' results judged together agree.
bin/cliff-diff --summary --failures "$dir/ref.jsonl" "$dir/interp.jsonl" > "$dir/verdicts.jsonl" 2> "$dir/diff.log" || true
cat "$dir/diff.log"
