#!/usr/bin/env bash
# Compares the speed of QEMU 10 (set-up's) with QEMU 7.2 (scripts/qemu72.sh)
# on the same batches: a fixed set of generated cases, run by cliff-run
# for each emulated architecture, with the two QEMUs in turn (A B A B ...)
# so that the machine's drift hits both alike. For each architecture it
# prints the median wall and CPU seconds of each, and the median of the
# paired CPU ratios 10/7.2 (below 1: QEMU 10 is faster). The whole process
# is timed: compiling with Cranelift is the same for both and is part of
# what a campaign pays.
#
#   scripts/qemuspeed.sh [CASES [RUNS]]     defaults: 300 cases, 5 runs
#
# The cases use the default flag sets, which both QEMUs run; the script
# also checks that both gave the same results (the same hashes).
set -euo pipefail
cd "$(dirname "$0")/.."

cases=${1:-300}
runs=${2:-5}
qemu72=$(scripts/qemu72.sh)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

bin/cliff-gen --seed 24 -n "$cases" > "$tmp/cases.jsonl"

# cpu_and_wall CMD...: runs CMD, prints "wall cpu" in seconds.
cpu_and_wall() {
	local TIMEFORMAT='%R %U %S'
	{ time "$@" > /dev/null 2>&1; } 2>&1 | awk '{ printf "%s %.3f\n", $1, $2 + $3 }'
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# hashes FILE: each result's configuration and output hash, in order.
hashes() { grep -o '"config":{[^}]*}\|"hash":"[0-9a-f]*"' "$1" | grep -v '"ms"'; }

printf '%-8s %6s %10s %10s %10s %10s %12s\n' arch runs "wall 10" "wall 7.2" "cpu 10" "cpu 7.2" "cpu 10/7.2"
for arch in riscv64 aarch64 s390x; do
	run=(bin/cliff-run --arch "$arch" -j 1 --opt none,speed "$tmp/cases.jsonl")
	: > "$tmp/a" && : > "$tmp/b" && : > "$tmp/ratio"
	for _ in $(seq "$runs"); do
		read -r wa ca < <(cpu_and_wall "${run[@]}")
		read -r wb cb < <(cpu_and_wall env CLIFF_QEMU="$qemu72" "${run[@]}")
		echo "$wa $ca" >> "$tmp/a"
		echo "$wb $cb" >> "$tmp/b"
		awk -v a="$ca" -v b="$cb" 'BEGIN { printf "%.4f\n", a / b }' >> "$tmp/ratio"
	done
	"${run[@]}" > "$tmp/out10.jsonl" 2> /dev/null || true
	CLIFF_QEMU="$qemu72" "${run[@]}" > "$tmp/out72.jsonl" 2> /dev/null || true
	same="same results"
	cmp -s <(hashes "$tmp/out10.jsonl") <(hashes "$tmp/out72.jsonl") || same="RESULTS DIFFER"
	printf '%-8s %6d %10s %10s %10s %10s %12s  %s\n' "$arch" "$runs" \
		"$(cut -d' ' -f1 "$tmp/a" | median)" "$(cut -d' ' -f1 "$tmp/b" | median)" \
		"$(cut -d' ' -f2 "$tmp/a" | median)" "$(cut -d' ' -f2 "$tmp/b" | median)" \
		"$(median < "$tmp/ratio")" "$same"
done
