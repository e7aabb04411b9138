#!/usr/bin/env bash
# Prints cliff's speed figures: the Go benchmarks of the CLIF library and
# streams (parse, print and verify throughput over Cranelift's filetests;
# JSON-lines read/write; dominators and liveness), cliff-run's throughput
# per architecture and batch size (cases/s, compile/link/exec ms per case)
# and the harness's cost per job, then the wall time and records/s of
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

filetests=${CLIFF_SHARED:-../shared}/cranelift-filetests
[ -d "$filetests" ] || { echo "no $filetests: skipping the cliff-extract timing"; exit 0; }
make -s build
echo "== cliff-run: one worker, 100 cases, batches of 1, 10 and 100 (-benchtime 1x)"
go test -run '^$' -bench 'Run' -benchtime 1x ./cmd/run ./lib/harness 2>&1 | grep -E '^(Benchmark|ok|FAIL)'
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "== cliff-extract over $filetests (3 runs)"
for run in 1 2 3; do
	start=$(date +%s.%N)
	bin/cliff-extract --functions --keep-going --stats -o "$out/corpus.jsonl.zst" "$filetests" 2>"$out/stats"
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
