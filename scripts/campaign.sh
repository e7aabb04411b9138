#!/usr/bin/env bash
# A fuzzing campaign: cliff-gen | cliff-refine | cliff-run | cliff-diff,
# in chunks run side by side with GNU Parallel. Everything is kept under
# $OUT: each chunk's results (chunk-K.results.jsonl.zst), its log and
# failing verdicts, and at the end the failing verdicts of the whole
# campaign (failures.jsonl.zst).
#
#   scripts/campaign.sh [N [DEPTH [SEED]]]    a new campaign (default 1000 5, a fresh seed)
#   scripts/campaign.sh --resume              finish the interrupted campaign (or scenarios) in $OUT
#   scripts/campaign.sh --prepare [N [DEPTH [SEED]]]
#                                             a new campaign's $OUT/campaign.env only, for chunks
#                                             run elsewhere (OUT=... CAMPAIGN_CHUNK=K scripts/campaign.sh
#                                             runs the chunk of cases K, K+1, ...; scripts/slurm does)
#   scripts/campaign.sh --finish              judge such a campaign once every chunk is done: its
#                                             verdicts, as a campaign's end writes them, and its
#                                             clusters and report ($OUT/clusters.jsonl, $OUT/report/)
#   scripts/campaign.sh --scenarios [N [DEPTH [SEED]]]
#                                             CLIR's five scenarios in one go, N cases each:
#                                             compat and the four target-specific ones, in
#                                             $OUT/<scenario> (seeds SEED, SEED+1, ...), their
#                                             chunks sharing the cores; a summary per scenario
#   scripts/campaign.sh --loop [N [DEPTH [SEED]]]   rounds of campaign, cluster,
#                                             locate and mask until nothing new
#                                             (scripts/campaign_loop.sh says how)
#
# Where the cases run. PROFILE=compat (the default) runs the cases, which
# every target takes, on the four targets at every opt level, and on
# pulley64 and pulley32 where their own profiles allow every instruction
# of a case (Pulley lowers less: no f16, f128 or atomics). A target's
# profile (PROFILE=riscv64) makes cases only that target takes: they run
# on that target alone, at every opt level, and in Cranelift's
# interpreter; PROFILE=pulley64 (or pulley32) also on its big-endian form. With SWARM=1 (the default) each chunk
# compiles with configurations drawn from the targets' ISA flag sets and
# code-changing settings (cliff-run --swarm SEED:CHUNK, SETS sets per
# target: 1 for compat, 3 for a target), the same for the same seed and
# chunk, and every result names its flags and settings; SWARM=0 compiles
# with each target's default flags only.
#
# A campaign can be killed at any point (kill -9 included) and resumed:
# gen and refine are deterministic, so a chunk is made again and cliff-run
# --resume runs only the cases whose results are not already in its file;
# a finished chunk is not touched. The resumed campaign's results equal an
# uninterrupted one's (timings aside).
#
# On SSH hosts: HOSTS=FILE (a GNU Parallel --sshloginfile, 4/user@node1 a
# line, ':' this machine) runs the chunks there, on a filesystem they
# share (SHARED=1, the default) or copying inputs and results
# (SHARED=0); hosts that fail `cliff-run --check-tools` are left out by
# name, a chunk whose host dies runs again elsewhere (RETRIES), and
# --resume goes on with the hosts that work. scripts/hosts.sh says how.
#
# Environment: OUT (out/campaign), PROFILE (compat), SWARM (1), SETS (flag
# sets per target and chunk: 1 compat, 3 a target), JOBS (cores), CHUNK
# (cases per chunk, 250), REFINE (1; 0 runs the generated cases as they
# are), OPTS (none,speed,speed_and_size), CORPUS (out/corpus.jsonl.zst when
# it exists; several corpora comma-separated, drawn from as one:
# CORPUS=out/corpus.jsonl.zst,out/corpus-real.jsonl.zst), CROSSOVER (none:
# a cliff-extract --functions corpus makes the campaign's cases cross its
# functions, cliff-gen --crossover, e.g. CROSSOVER=out/functions.jsonl.zst),
# WEIGHTS (none: cliff-gen --weights FILE, e.g. one scripts/coverage.sh
# --weights wrote), MASK
# (lib/profile/data/known.mask, the findings already known; set it empty
# to find them again), HOSTS, SHARED, RETRIES, REMOTE_DIR and
# PARALLEL_SSH (scripts/hosts.sh), CRANELIFT (the Cranelift to
# test, SPECs as cliff-run --cranelift takes them, default
# $CLIFF_CRANELIFT, else the default release: CRANELIFT=0.120.2 runs a
# whole campaign on that release, its drivers built first, generation
# limited to the opcodes it knows, and its interpreter; several,
# comma-separated, make the version an axis), REF (1: every case also runs on
# cliff's own reference interpreter, --arch ref, which then decides who is
# right, and which finds reference_divergent cases, where all of
# Cranelift agrees on a wrong answer; 0 leaves it out), FEATURES (swarm
# overrides for cliff-gen --features: FEATURES=prune=on prunes every case's
# guards that never fire, prune=off none; default the swarm's draw). Paths are relative to the
# caller's directory. A new campaign replaces a finished one in $OUT and
# refuses to replace an unfinished one.
#
# Exit status: 0 no Cranelift failure found; 1 some case failed (a finding:
# see failures.jsonl.zst); 2 the campaign itself failed (bad usage, a chunk
# that could not run, harness errors): see the chunk logs.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "campaign.sh: $*" >&2; exit 2; }
. "$here/scripts/paths.sh"

if [ "${CAMPAIGN_CHUNK:-}" != "" ]; then
	# One chunk (run by GNU Parallel below): generate, refine, run
	# everywhere. cliff-run bounds every compile and run; the caller
	# bounds the chunk. Its results are written as they are made, so a
	# kill loses only cases in flight; --resume skips the rest.
	# OUT may be relative when a chunk is run by hand (--prepare).
	OUT=$(abs "$OUT")
	# shellcheck source=/dev/null
	. "$OUT/campaign.env"
	first=$CAMPAIGN_CHUNK
	count=$((N - first < CHUNK ? N - first : CHUNK))
	file=$OUT/chunk-$first
	[ -e "$file.done" ] && exit 0
	flags=(--seed "$SEED" --depth "$DEPTH" --profile "$PROFILE" --start "$first" -n "$count")
	[ -n "$CORPUS" ] && flags+=(--corpus "$CORPUS")
	[ -n "${CROSSOVER:-}" ] && flags+=(--crossover "$CROSSOVER")
	[ -n "${WEIGHTS:-}" ] && flags+=(--weights "$WEIGHTS")
	[ -n "${CRANELIFT:-}" ] && flags+=(--cranelift "$CRANELIFT")
	[ -n "$MASK" ] && flags+=(--mask "$MASK")
	[ -n "${FEATURES:-}" ] && flags+=(--features "$FEATURES")
	# A campaign.env from before the swarm ran every case on the four
	# targets with their default flags.
	run=(--arch "${ARCHES:-x86_64,aarch64,riscv64,s390x}" --opt "$OPTS")
	[ "${SWARM:-0}" = 1 ] && run+=(--swarm "$SEED:$first" --swarm-sets "$SETS")
	[ -n "${CRANELIFT:-}" ] && run+=(--cranelift "$CRANELIFT")
	cd "$here"
	status=0
	{
		bin/cliff-gen "${flags[@]}" |
			if [ "$REFINE" = 1 ]; then bin/cliff-refine; else cat; fi |
			bin/cliff-run "${run[@]}" -j 1 --resume -o "$file.results.jsonl.zst"
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
mode=new
case ${1:-} in
--resume) mode=resume; shift ;;
--scenarios) mode=scenarios; shift ;;
--prepare) mode=prepare; shift ;;
--finish) mode=finish; shift ;;
esac
[ $# -le 3 ] || die "usage: scripts/campaign.sh [--scenarios | --prepare] [N [DEPTH [SEED]]] | --resume | --finish"
OUT=$(abs "${OUT:-out/campaign}")
root=$OUT
# The five scenarios of CLIR's dual mode: compat, and one per target.
all_scenarios="compat x86_64 aarch64 riscv64 s390x"

# new_campaign DIR PROFILE SEED writes DIR/campaign.env for a new
# campaign of the profile, after refusing to replace an unfinished one.
new_campaign() {
	local dir=$1 profile=$2 SEED=$3 arches=x86_64,aarch64,riscv64,s390x,pulley64,pulley32 sets=${SETS:-1}
	if [ -f "$dir/campaign.env" ] && [ ! -e "$dir/finished" ]; then
		die "$dir holds an unfinished campaign: resume it with scripts/campaign.sh --resume, or remove $dir"
	fi
	if [ "$profile" != compat ]; then
		arches=$profile,interp
		sets=${SETS:-3}
	fi
	# Pulley's big-endian form runs the same cases: the byte order is
	# the only difference, so it is a differential of its own.
	case $profile in pulley32 | pulley64) arches=$profile,${profile}be,interp ;; esac
	[ "$REF" = 1 ] && arches=$arches,ref
	mkdir -p "$dir"
	rm -f "$dir"/chunk-* "$dir"/failures.jsonl.zst "$dir"/finished
	# What --finish wrote for the campaign before.
	rm -rf "$dir"/clusters.jsonl "$dir"/cluster.log "$dir"/report
	for v in N DEPTH SEED CHUNK REFINE OPTS MASK CORPUS CROSSOVER WEIGHTS SWARM CRANELIFT FEATURES; do
		printf '%s=%q\n' "$v" "${!v}"
	done > "$dir/campaign.env"
	printf 'PROFILE=%q\nARCHES=%q\nSETS=%q\n' "$profile" "$arches" "$sets" >> "$dir/campaign.env"
}

# verdicts DIR judges a finished campaign: DIR/failures.jsonl.zst and
# DIR/diff.log; the status is cliff-diff's (0, or 1: findings).
verdicts() {
	local dir=$1 diff_status=0
	"$here/bin/cliff-diff" --summary --failures -o "$dir/failures.jsonl.zst" "$dir"/chunk-*.results.jsonl.zst 2> "$dir/diff.log" || diff_status=$?
	[ "$diff_status" -le 1 ] || die "cliff-diff failed (exit $diff_status), see $dir/diff.log"
	touch "$dir/finished"
	return "$diff_status"
}
# configs DIR says where a campaign's cases ran.
configs() {
	# shellcheck source=/dev/null
	(
		. "$1/campaign.env"
		levels=$(tr ',' '\n' <<< "$OPTS" | grep -c .)
		if [ "$PROFILE" = compat ] || [ -z "${ARCHES:-}" ]; then
			printf 'each on 4 targets (and Pulley where it lowers the case) x %d opt levels' "$levels"
		else
			printf 'each on %s x %d opt levels' "$(tr ',' '\n' <<< "$ARCHES" | grep -v -x -e interp -e ref | paste -sd,)" "$levels"
		fi
		if [ "${SWARM:-0}" = 1 ]; then
			printf ', %d flag set(s) per target drawn per chunk' "$SETS"
		fi
		if [[ ${ARCHES:-} == *interp* ]]; then printf ' and the interpreter'; fi
		if [[ ${ARCHES:-} == *ref* ]]; then printf " and cliff's reference"; fi
	)
}
failing_lines() {
	cat "$1"/chunk-*.failures.jsonl | head -n "$2" |
		sed -n 's/.*"case_id":"\([^"]*\)","verdict":"\([^"]*\)".*"summary":"\([^"]*\)".*/  \1 \2: \3/p' | cut -c1-200 || true
}
# finish judges the campaign in $OUT whose chunks ran elsewhere
# (--finish), and exits with cliff-diff's status.
finish() {
	local k missing=() chunks=$(((N + CHUNK - 1) / CHUNK)) diff_status all
	# The chunks ran elsewhere, each on its own: a chunk missing here is
	# one that failed or never ran, and the verdicts would lack its cases.
	for k in $(seq 0 "$CHUNK" $((N - 1))); do [ -e "$OUT/chunk-$k.done" ] || missing+=("$k"); done
	[ ${#missing[@]} = 0 ] ||
		die "${#missing[@]} of $chunks chunks unfinished (the chunks of cases ${missing[*]:0:8}$([ ${#missing[@]} -le 8 ] || echo ' ...')): run them (OUT=$OUT CAMPAIGN_CHUNK=K scripts/campaign.sh, or scripts/slurm/submit.sh --resume), then --finish again"
	echo "== verdicts"
	diff_status=0
	verdicts "$OUT" || diff_status=$?
	grep -v '^cliff-diff: [0-9]* of [0-9]* cases failed$' "$OUT/diff.log" | tail -n 3
	echo "$N cases in $chunks chunks of $CHUNK, $(configs "$OUT")"
	if [ "$diff_status" = 1 ]; then
		echo "failing cases: $OUT/failures.jsonl.zst (cliff-diff's verdicts; the first ones below)"
		failing_lines "$OUT" 10
	fi
	# Every verdict, so that the report counts the whole campaign; chunk
	# by chunk in campaign order (given several files, cliff-diff joins
	# them by case and writes verdicts only as cases complete). Through a
	# file, not a pipe: cliff-cluster's exit 1 (a new cluster) would hide
	# a failed cliff-diff.
	echo "== clusters: $OUT/clusters.jsonl, report $OUT/report/index.md"
	all=$OUT/.verdicts.jsonl
	for k in $(seq 0 "$CHUNK" $((N - 1))); do
		"$here/bin/cliff-diff" "$OUT/chunk-$k.results.jsonl.zst" 2>> "$OUT/diff.log" || [ $? = 1 ] ||
			die "cliff-diff failed on chunk $k, see $OUT/diff.log"
	done > "$all"
	"$here/bin/cliff-cluster" --summary --report "$OUT/report" -o "$OUT/clusters.jsonl" "$all" 2> "$OUT/cluster.log" || [ $? = 1 ] ||
		die "cliff-cluster failed, see $OUT/cluster.log"
	rm -f "$all"
	tail -n 20 "$OUT/cluster.log"
	exit "$diff_status"
}

dirs=()
if [ "$mode" = resume ] || [ "$mode" = finish ]; then
	[ $# = 0 ] || die "--$mode takes the campaign's own N, DEPTH and SEED (from $OUT/campaign.env)"
	if [ -f "$root/scenarios.env" ]; then
		[ "$mode" = resume ] || die "--finish judges one campaign; $root holds scenarios (scripts/campaign.sh --resume runs and judges them)"
		# shellcheck source=/dev/null
		. "$root/scenarios.env"
		for sc in $SCENARIOS; do dirs+=("$root/$sc"); done
	else
		[ -f "$OUT/campaign.env" ] || die "$OUT holds no campaign to $mode"
		dirs=("$OUT")
	fi
	for d in "${dirs[@]}"; do [ -f "$d/campaign.env" ] || die "$d holds no campaign to $mode"; done
	# shellcheck source=/dev/null
	. "${dirs[0]}/campaign.env"
	[ "$mode" != finish ] || finish
else
	N=${1:-${N:-1000}} DEPTH=${2:-${DEPTH:-5}}
	# A fresh seed by default, so that nightly runs differ; it is printed
	# and kept in campaign.env, and every case record states it.
	SEED=${3:-${SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}}
	PROFILE=${PROFILE:-compat} CHUNK=${CHUNK:-250} REFINE=${REFINE:-1} SWARM=${SWARM:-1} REF=${REF:-1}
	CRANELIFT=${CRANELIFT:-${CLIFF_CRANELIFT:-}}
	FEATURES=${FEATURES:-}
	OPTS=${OPTS:-none,speed,speed_and_size}
	MASK=$(abs "${MASK-$here/lib/profile/data/known.mask}")
	# CORPUS is one corpus or several, comma-separated (the filetests'
	# and out/corpus-real.jsonl.zst, say).
	CORPUS=$(abs_corpora "${CORPUS-}")
	if [ -z "$CORPUS" ] && [ -f "$here/out/corpus.jsonl.zst" ]; then
		CORPUS=$here/out/corpus.jsonl.zst
	fi
	CROSSOVER=$(abs "${CROSSOVER-}")
	[ -z "$CROSSOVER" ] || [ -f "$CROSSOVER" ] || die "CROSSOVER $CROSSOVER: no such file"
	WEIGHTS=$(abs "${WEIGHTS-}")
	[ -z "$WEIGHTS" ] || [ -f "$WEIGHTS" ] || die "WEIGHTS $WEIGHTS: no such file"
	[ -z "$MASK" ] || [ -f "$MASK" ] || die "MASK $MASK: no such file"
	for v in N DEPTH SEED CHUNK; do
		[[ ${!v} =~ ^[0-9]+$ ]] || die "$v=${!v}: want a number"
	done
	[[ $SWARM =~ ^[01]$ ]] || die "SWARM=$SWARM: want 0 or 1"
	[[ $REF =~ ^[01]$ ]] || die "REF=$REF: want 0 or 1"
	[ -z "${SETS:-}" ] || [[ $SETS =~ ^[1-9][0-9]*$ ]] || die "SETS=$SETS: want a positive number"
	if [ "$N" -eq 0 ] || [ "$CHUNK" -eq 0 ]; then die "N and CHUNK must be positive"; fi
	if [ "$mode" = scenarios ]; then
		if [ -f "$root/scenarios.env" ] && [ ! -e "$root/finished" ]; then
			die "$root holds unfinished scenarios: resume them with scripts/campaign.sh --resume, or remove $root"
		fi
		# Scenario k has the seed SEED+k: a case's ID (g<seed>-<index>)
		# names one case across the scenarios, which cliff-diff joins by
		# ID.
		k=0
		for sc in $all_scenarios; do
			new_campaign "$root/$sc" "$sc" $((SEED + k))
			dirs+=("$root/$sc")
			k=$((k + 1))
		done
		rm -f "$root/finished"
		SCENARIOS=$all_scenarios
		printf 'SCENARIOS=%q\n' "$SCENARIOS" > "$root/scenarios.env"
	else
		if [ -f "$root/scenarios.env" ] && [ ! -e "$root/finished" ]; then
			die "$root holds unfinished scenarios: resume them with scripts/campaign.sh --resume, or remove $root"
		fi
		rm -f "$root/scenarios.env"
		case $PROFILE in compat | x86_64 | aarch64 | riscv64 | s390x | pulley32 | pulley64) ;; *) die "PROFILE=$PROFILE: want compat, x86_64, aarch64, riscv64, s390x, pulley32 or pulley64" ;; esac
		new_campaign "$OUT" "$PROFILE" "$SEED"
		dirs=("$OUT")
	fi
fi
if [ -n "${HOSTS:-}" ]; then
	# shellcheck source=scripts/hosts.sh
	. "$here/scripts/hosts.sh"
	hosts_init
fi
if [ -n "${CRANELIFT:-}" ]; then
	# Build (or find) the drivers once, before the chunks ask for them
	# side by side; a release that cannot be built stops here, in one line.
	IFS=, read -r -a specs <<< "$CRANELIFT"
	"$here/bin/cliff-cranelift" build "${specs[@]}" > /dev/null 2> "$root/cranelift.log" ||
		die "$(grep -m1 'cannot build\|not a release\|cliff-cranelift:' "$root/cranelift.log" || tail -n 1 "$root/cranelift.log")"
fi
chunks=$(((N + CHUNK - 1) / CHUNK))
if [ "$mode" = prepare ]; then
	echo "== prepared: $N cases, depth $DEPTH, seed $SEED, profile $PROFILE, $chunks chunks of $CHUNK, in $OUT"
	exit 0
fi
total=$((chunks * ${#dirs[@]}))
jobs=${JOBS:-$(nproc)}
jobs=$((jobs < total ? jobs : total))
where="$jobs jobs"
[ -z "${HOSTS:-}" ] || where=$(hosts_where)
if [ "$mode" = new ] || [ ! -f "$root/scenarios.env" ]; then
	verb=campaign
	[ "$mode" = resume ] && verb="campaign (resumed: $(find "$OUT" -name 'chunk-*.done' | wc -l) of $chunks chunks done)"
	echo "== $verb: $N cases, depth $DEPTH, seed $SEED, profile $PROFILE, refine=$REFINE, swarm=${SWARM:-0}, cranelift=${CRANELIFT:-default}, $chunks chunks of $CHUNK on $where, in $OUT"
else
	verb=scenarios
	[ "$mode" = resume ] && verb="scenarios (resumed: $(find "$root" -name 'chunk-*.done' | wc -l) of $total chunks done)"
	echo "== $verb: $SCENARIOS, $N cases each, depth $DEPTH, seed $SEED, refine=$REFINE, swarm=${SWARM:-0}, $total chunks of $CHUNK on $where, in $root"
fi
[ -z "${HOSTS:-}" ] || hosts_check

# On a terminal: done/total, rate, ETA and failures so far, per chunk.
progress() {
	local start=$1 cases failures rate eta now all=$((N * ${#dirs[@]}))
	while sleep 2; do
		cases=0 failures=0
		for d in "${dirs[@]}"; do
			for f in "$d"/chunk-*.done; do
				[ -e "$f" ] || continue
				k=${f##*/chunk-}
				k=${k%.done}
				cases=$((cases + (N - k < CHUNK ? N - k : CHUNK)))
			done
			failures=$((failures + $(cat "$d"/chunk-*.failures.jsonl 2>/dev/null | wc -l)))
		done
		now=$(date +%s)
		rate=$(awk -v d="$cases" -v s="$((now - start))" 'BEGIN { printf "%.1f", s ? d / s : 0 }')
		eta=$(awk -v d="$cases" -v n="$all" -v r="$rate" 'BEGIN { if (r > 0 && d > 0) printf "%ds", (n - d) / r; else printf "?" }')
		printf '\r\033[K%s%d/%d cases, %s cases/s, ETA %s, %d failing' "$([ -z "${HOSTS:-}" ] || hosts_progress)" "$cases" "$all" "$rate" "$eta" "$failures" >&2
	done
}
start=$(date +%s)
progress_pid=
if [ -t 2 ]; then
	progress "$start" &
	progress_pid=$!
	trap 'kill $progress_pid 2>/dev/null || true; printf "\r\033[K" >&2' EXIT
fi

# Every unfinished chunk of every campaign, one job each: the scenarios
# share the cores. (A finished chunk would end at once here, but not on a
# host that does not share $OUT.)
status=0
for d in "${dirs[@]}"; do
	for k in $(seq 0 "$CHUNK" $((N - 1))); do [ -e "$d/chunk-$k.done" ] || printf '%s\t%s\n' "$d" "$k"; done
done |
	if [ -n "${HOSTS:-}" ]; then
		hosts_dispatch
	else
		parallel -j "$jobs" --colsep '\t' --halt now,fail=1 'OUT={1}' 'CAMPAIGN_CHUNK={2}' timeout 3600 "$0"
	fi || status=$?
end=$(date +%s)
if [ -n "$progress_pid" ]; then
	kill "$progress_pid" 2>/dev/null || true
	printf '\r\033[K' >&2
fi
if [ -n "${HOSTS:-}" ] && ! hosts_finish && [ "$status" = 0 ]; then status=2; fi
[ "$status" = 0 ] || die "a chunk failed (exit $status); see $root/**/chunk-*.log, then scripts/campaign.sh --resume"

if [ "$verb" = campaign ] || [[ $verb == campaign* ]]; then
	echo "== verdicts"
	diff_status=0
	verdicts "$OUT" || diff_status=$?
	grep -v '^cliff-diff: [0-9]* of [0-9]* cases failed$' "$OUT/diff.log" | tail -n 3
	awk -v n="$N" -v s="$((end - start))" -v c="$(configs "$OUT")" 'BEGIN { printf "%d cases in %d s: %.1f cases/s, %s\n", n, s, n / (s ? s : 1), c }'
	if [ "$diff_status" = 1 ]; then
		echo "failing cases: $OUT/failures.jsonl.zst (cliff-diff's verdicts; the first ones below)"
		failing_lines "$OUT" 10
	fi
	exit "$diff_status"
fi

# The scenarios' summary: one line each, then the failing cases.
echo "== verdicts per scenario"
worst=0
for d in "${dirs[@]}"; do
	s=0
	verdicts "$d" || s=$?
	[ "$s" -le "$worst" ] || worst=$s
	printf '%-8s %s; %s\n' "${d##*/}" "$(grep '^cases ' "$d/diff.log" | tail -n 1)" "$(configs "$d")"
done
touch "$root/finished"
awk -v n="$((N * ${#dirs[@]}))" -v s="$((end - start))" 'BEGIN { printf "%d cases in %d s: %.1f cases/s over the scenarios\n", n, s, n / (s ? s : 1) }'
if [ "$worst" = 1 ]; then
	echo "failing cases: $root/<scenario>/failures.jsonl.zst (cliff-diff's verdicts; the first ones below)"
	for d in "${dirs[@]}"; do
		[ -s "$d/failures.jsonl.zst" ] || continue
		failing_lines "$d" 3 | sed "s/^/${d##*\/}:/"
	done
fi
exit "$worst"
