#!/usr/bin/env bash
# Prints the generator's throughput in cases per CPU-second: N cases at
# depth 5 (compat profile, the known mask) through `cliff-gen | cliff-refine`,
# with crossover of the filetest functions and edge constants on (issue 25's
# bar: at least 1,000), and without them (the plain generator). CPU is
# user+sys of both processes, from GNU time.
#
#   scripts/genspeed.sh [-n N] [-r RUNS] [--against REV]
#
#   -n N           cases per run (default 20000)
#   -r RUNS        runs of each command (default 5); the median is quoted
#   --against REV  also build REV (a commit, in a temporary worktree) and
#                  run it in turn with this tree's build, A B A B ..., and
#                  print the ratio pair by pair: this machine's speed
#                  drifts by a quarter between runs, the ratio much less
#
# Crossover needs the functions corpus (out/functions.jsonl.zst, which
# scripts/setup.sh builds; override with FUNCTIONS=FILE). It does not fit
# scripts/test.sh: one run of 20,000 cases takes about 20 CPU-seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
N=20000
RUNS=5
AGAINST=
while [ $# -gt 0 ]; do
	case $1 in
	-n) N=$2; shift 2 ;;
	-r) RUNS=$2; shift 2 ;;
	--against) AGAINST=$2; shift 2 ;;
	*) echo "usage: scripts/genspeed.sh [-n N] [-r RUNS] [--against REV]" >&2; exit 2 ;;
	esac
done
FUNCTIONS=${FUNCTIONS:-out/functions.jsonl.zst}
[ -f "$FUNCTIONS" ] || { echo "genspeed: no $FUNCTIONS: run scripts/setup.sh, or set FUNCTIONS" >&2; exit 2; }

work=$(mktemp -d)
cleanup() {
	[ -z "$AGAINST" ] || git worktree remove --force "$work/src" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
build() { # build SRC DEST
	mkdir -p "$2"
	(cd "$1" && go build -o "$2/cliff-gen" ./cmd/gen && go build -o "$2/cliff-refine" ./cmd/refine)
}
build . "$work/a"
if [ -n "$AGAINST" ]; then
	git worktree add -q --detach "$work/src" "$AGAINST"
	build "$work/src" "$work/b"
fi

gen_flags=(--seed 777 -n "$N" --depth 5 --profile compat --mask lib/profile/data/known.mask)
new_flags=(--crossover "$FUNCTIONS" --features edge_constants=on)
# cpu BIN FLAGS...: user+sys seconds of one gen | refine run
cpu() {
	local bin=$1; shift
	# shellcheck disable=SC2016 # the inner shell expands them
	/usr/bin/time -f "%U %S" -o "$work/t" \
		sh -c '"$0"/cliff-gen "$@" | "$0"/cliff-refine > /dev/null' "$bin" "${gen_flags[@]}" "$@"
	awk '{ printf "%.2f\n", $1 + $2 }' "$work/t"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for mode in crossover+constants plain; do
	flags=()
	[ "$mode" = plain ] || flags=("${new_flags[@]}")
	: > "$work/a.cpu"
	: > "$work/b.cpu"
	: > "$work/ratio"
	for _ in $(seq "$RUNS"); do
		a=$(cpu "$work/a" "${flags[@]}")
		echo "$a" >> "$work/a.cpu"
		if [ -n "$AGAINST" ]; then
			b=$(cpu "$work/b" "${flags[@]}")
			echo "$b" >> "$work/b.cpu"
			awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f\n", a / b }' >> "$work/ratio"
		fi
	done
	a=$(median < "$work/a.cpu")
	printf '%-20s %d cases: %.2f CPU-s (median of %d; %s to %s), %.0f cases per CPU-second\n' \
		"$mode" "$N" "$a" "$RUNS" "$(sort -n "$work/a.cpu" | head -1)" "$(sort -n "$work/a.cpu" | tail -1)" \
		"$(awk -v n="$N" -v t="$a" 'BEGIN { print n / t }')"
	if [ -n "$AGAINST" ]; then
		b=$(median < "$work/b.cpu")
		printf '%-20s %s: %.2f CPU-s, %.0f cases per CPU-second; this tree / %s: %s (median ratio; %s to %s)\n' \
			"" "$AGAINST" "$b" "$(awk -v n="$N" -v t="$b" 'BEGIN { print n / t }')" "$AGAINST" \
			"$(median < "$work/ratio")" "$(sort -n "$work/ratio" | head -1)" "$(sort -n "$work/ratio" | tail -1)"
	fi
done
