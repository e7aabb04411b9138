#!/usr/bin/env bash
# Prints cliff-run's speed on each Cranelift release given, on the same
# generated compat cases (made for every one of them), one worker, the
# runs interleaved (A B A B ...) so that a drifting machine slows each
# alike: per release the median wall time of R runs, cases/s, the median
# compile time per case from the results, and each release's cases/s
# against the first's. Every release must give the same outputs (cliff-diff
# over the releases side by side finds no difference), or the figures
# compare different work: the differences are printed.
#
#   scripts/versionspeed.sh [N cases, default 500] [R runs, default 3] [ARCH, default x86_64] [SPEC...]
#                           default SPECs: 0.135.8 and the default release
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-500}
runs=${2:-3}
arch=${3:-x86_64}
shift $(($# < 3 ? $# : 3))
specs=("$@")
[ ${#specs[@]} -gt 0 ] || specs=(0.135.8 default)
make -s build
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for s in "${specs[@]}"; do
	bin/cliff-cranelift build "$s" > /dev/null 2> "$dir/build.log" || { tail -n 3 "$dir/build.log" >&2; exit 2; }
done
all=$(IFS=,; echo "${specs[*]}")
bin/cliff-gen --seed 23 --profile compat --refine --cranelift "$all" -n "$n" -o "$dir/cases.jsonl"

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for r in $(seq "$runs"); do
	for i in "${!specs[@]}"; do
		start=$(date +%s.%N)
		bin/cliff-run --jobs 1 --arch "$arch" --cranelift "${specs[$i]}" -o "$dir/run-$i.jsonl" "$dir/cases.jsonl" 2> "$dir/run-$i.log" || true
		end=$(date +%s.%N)
		echo "$end - $start" | bc >> "$dir/times-$i"
	done
done
first=""
for i in "${!specs[@]}"; do
	t=$(median < "$dir/times-$i")
	compile=$(zstdcat -f "$dir/run-$i.jsonl" | grep -o '"compile_ms":[0-9.]*' | cut -d: -f2 | median)
	rate=$(echo "$n / $t" | bc -l)
	[ -n "$first" ] || first=$rate
	printf '%-10s median %7.2f s over %d runs  %7.1f cases/s  compile %.2f ms per configuration  %.2fx the first\n' \
		"${specs[$i]}" "$t" "$runs" "$rate" "$compile" "$(echo "$rate / $first" | bc -l)"
done
bin/cliff-run --jobs 2 --arch "$arch" --cranelift "$all" -o "$dir/both.jsonl" "$dir/cases.jsonl" 2> /dev/null || true
bin/cliff-diff --summary --failures -o /dev/null "$dir/both.jsonl" 2>&1 | head -n 1
