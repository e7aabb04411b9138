#!/usr/bin/env bash
# Prints cliff's speed figures: the Go benchmarks of the CLIF library and
# streams (parse, print and verify throughput over Cranelift's filetests;
# JSON-lines read/write; dominators and liveness), cliff-gen and
# cliff-refine on one core (the issue-4 target: 2,000 cases/s together)
# and on a core each,
# cliff-run's throughput per architecture and batch size (cases/s,
# compile/link/exec ms per case) and the harness's cost per job, then the wall time and records/s of
# cliff-extract over the whole filetests tree and of cliff-run over
# Cranelift's run tests.
#
#   scripts/bench.sh [-benchtime 5x]
set -euo pipefail
cd "$(dirname "$0")/.."
benchtime=${1:-}
[ "$benchtime" = "-benchtime" ] && benchtime="-benchtime=$2" || benchtime="-benchtime=5x"

echo "== Go benchmarks ($benchtime)"
go test -run '^$' -bench . "$benchtime" \
	./lib/parser ./lib/printer ./lib/verify ./lib/extract ./lib/analysis ./lib/jsonl 2>&1 |
	grep -E '^(Benchmark|ok|FAIL)'

make -s build
echo "== generation on one core (taskset -c 0): 10,000 cases at depth 5 (steady state: a campaign runs millions), CPU seconds and cases per CPU second"
gen_out=$(mktemp)
bin/cliff-gen --seed 7 -n 10000 --depth 5 > "$gen_out"
cpu() { # cpu LABEL COMMAND...: user+sys seconds of one run pinned to core 0
	local label=$1; shift
	/usr/bin/time -f "%U %S" -o "$gen_out.t" taskset -c 0 "$@" > /dev/null
	awk -v l="$label" '{ t = $1 + $2; printf "%-34s %6.2f s  %6.0f cases/s\n", l, t, 10000 / t }' "$gen_out.t"
}
cpu "cliff-gen" bin/cliff-gen --seed 7 -n 10000 --depth 5
cpu "cliff-refine" bin/cliff-refine "$gen_out"
cpu "cliff-gen --refine (in process)" bin/cliff-gen --seed 7 -n 10000 --depth 5 --refine
pipe() { # pipe LABEL GEN_CORES REFINE_CORES: wall seconds of cliff-gen | cliff-refine
	local start end
	start=$(date +%s.%N)
	taskset -c "$2" bin/cliff-gen --seed 7 -n 10000 --depth 5 | taskset -c "$3" bin/cliff-refine > /dev/null
	end=$(date +%s.%N)
	awk -v l="$1" -v s="$start" -v e="$end" 'BEGIN { printf "%-34s %6.2f s  %6.0f cases/s (wall)\n", l, e - s, 10000 / (e - s) }'
}
pipe "cliff-gen | cliff-refine, one core" 0 0
if [ "$(nproc)" -ge 2 ]; then
	pipe "the same, a core each" 0 1
fi
rm -f "$gen_out" "$gen_out.t"

filetests=${CLIFF_SHARED:-../shared}/cranelift-filetests
[ -d "$filetests" ] || { echo "no $filetests: skipping the cliff-extract timing"; exit 0; }
echo "== cliff-run: one worker, 100 cases, batches of 1, 10 and 100 (-benchtime 1x)"
go test -run '^$' -bench 'Run' -benchtime 1x ./lib/engine ./lib/harness 2>&1 | grep -E '^(Benchmark|ok|FAIL)'
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "== cliff-extract over $filetests (3 runs)"
for run in 1 2 3; do
	start=$(date +%s.%N)
	bin/cliff-extract --functions --keep-going --summary -o "$out/corpus.jsonl.zst" "$filetests" 2>"$out/stats"
	end=$(date +%s.%N)
	records=$(grep -oE '[0-9]+ unique' "$out/stats" | grep -oE '[0-9]+')
	functions=$(grep -oE '[0-9]+ function records' "$out/stats" | grep -oE '[0-9]+')
	awk -v s="$start" -v e="$end" -v r="$records" -v f="$functions" \
		'BEGIN { t = e - s; printf "run %d: %.3f s wall, %d records, %.0f records/s\n", '"$run"', t, r + f, (r + f) / t }'
done
head -n 3 "$out/stats"

echo "== cliff-run over $filetests/runtests (all targets, opt levels, interpreter)"
start=$(date +%s.%N)
bin/cliff-run --summary -o "$out/runtests.jsonl" "$filetests/runtests" 2>"$out/runtests.log" || true
end=$(date +%s.%N)
awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f s wall\n", e - s }'
grep '^runlines' "$out/runtests.log"
