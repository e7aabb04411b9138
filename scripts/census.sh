#!/usr/bin/env bash
# The lowering census: every opcode x controlling type x free type x
# condition code of each target's universe that cliff's verifier accepts
# (cliff-gen --enumerate --all: the profile's exclusions and known.mask
# ignored), compiled for the target with each of its named flag sets
# (lib/arch: riscv64 without V, x86_64 at SSE2, ...) at each opt level and
# run on edge-value inputs, natively or under QEMU, and in the interpreter
# as the reference; cliff-diff joins every target's results by
# combination, and cliff-census classifies each failing combination per
# target and flag set (unlowered, panic, wrong, qemu; invalid when
# Cranelift's verifier rejects what cliff's accepts) and marks it known
# (facts.txt, known.mask, findings/) or new. What a flag set lacks a
# feature for (vectors without V) is compiled anyway (cliff-run
# --compile-refused): Cranelift must refuse it cleanly, or the panic is a
# row.
#
#   scripts/census.sh [--constants] [ARCH...]     (default: x86_64 aarch64 riscv64 s390x pulley32 pulley64)
#
# --constants adds each combination's constant form (cliff-gen --enumerate
# --constants: every operand a constant, one block per edge-value tuple,
# so that the mid-end folds it), run beside the parameter form and
# reported in census.md's own section, each row with its parameter form's
# class on the same target.
#
# Writes into $OUT: ARCH.cases.jsonl.zst (and ARCH.const-cases.jsonl.zst), ARCH.SET.results.jsonl.zst and
# ARCH.log per target and flag set, verdicts.jsonl.zst (every verdict), census.jsonl
# (the rows: each failing combination per target, and each fine one a
# profile excludes) and census.md (the report, with the time taken).
# Each target's run is a cliff-run --resume journal: a census killed at
# any point and started again runs only what is missing.
#
# Environment: OUT (out/census), SETS (all: every named flag set of each
# target; default: the default set only; or names, comma-separated, each
# run on the targets that have it), JOBS (cores; cliff-run's parallel
# workers), OPTS (none,speed,speed_and_size), SEED (1; the census's inputs
# and immediates, the same on every target), CENSUS_RUN_FLAGS (more
# cliff-run flags, e.g. "--isa-flags riscv64=has_v,has_zbb --set
# regalloc_algorithm=single_pass"; results under other flags join the
# earlier ones, and flag sets of one target must agree), CASE_TIMEOUT
# (cliff-run's --timeout per case, 10s), TARGET_TIMEOUT (wall limit of
# each target's run, 60m). Paths are relative to the caller's directory.
#
# Exit status: 0 no new failing combination; 1 some are new (see
# census.md); 2 the census itself failed (bad usage, a target whose run
# failed or timed out: see its log).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
abs() { case $1 in /*|'') printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }
die() { echo "census.sh: $*" >&2; exit 2; }

OUT=$(abs "${OUT:-out/census}")
JOBS=${JOBS:-$(nproc)}
OPTS=${OPTS:-none,speed,speed_and_size}
SEED=${SEED:-1}
CASE_TIMEOUT=${CASE_TIMEOUT:-10s}
TARGET_TIMEOUT=${TARGET_TIMEOUT:-60m}
SETS=${SETS:-all}
read -r -a run_flags <<< "${CENSUS_RUN_FLAGS:-}"
constants=0
if [ "${1:-}" = --constants ]; then
	constants=1
	shift
fi
arches=("$@")
[ ${#arches[@]} -gt 0 ] || arches=(x86_64 aarch64 riscv64 s390x pulley32 pulley64)
for a in "${arches[@]}"; do
	case $a in x86_64|aarch64|riscv64|s390x|pulley32|pulley64) ;; *) die "unknown target $a: want x86_64, aarch64, riscv64, s390x, pulley32 or pulley64" ;; esac
done
mkdir -p "$OUT"
cd "$here"
[ -x bin/cliff-census ] || die "bin/cliff-census is missing: run make first"

failed=0
timing=$OUT/timing.txt
: > "$timing"
start_all=$(date +%s)
for a in "${arches[@]}"; do
	log=$OUT/$a.log
	: > "$log"
	t0=$(date +%s)
	bin/cliff-gen --enumerate --all --profile "$a" --seed "$SEED" -o "$OUT/$a.cases.jsonl.zst" 2>> "$log" ||
		die "$a: cliff-gen failed, see $log"
	case_files=("$OUT/$a.cases.jsonl.zst")
	if [ "$constants" = 1 ]; then
		bin/cliff-gen --enumerate --constants --profile "$a" --seed "$SEED" -o "$OUT/$a.const-cases.jsonl.zst" 2>> "$log" ||
			die "$a: cliff-gen --constants failed, see $log"
		case_files+=("$OUT/$a.const-cases.jsonl.zst")
	fi
	cases=$(grep -o 'census of [^:]*: [0-9]* of [0-9]* combinations written; [0-9]* rejected by cliff.s verifier' "$log" | awk 'NR > 1 { printf "; " } { printf "%s", $0 }' || true)
	t1=$(date +%s)
	sets=()
	while read -r _ set; do
		case ,$SETS, in ,all,|*,$set,*) sets+=("$set") ;; esac
	done < <(bin/cliff-run --flag-sets --arch "$a")
	[ ${#sets[@]} -gt 0 ] || { echo "census.sh: $a: no flag set in SETS=$SETS" >&2; continue; }
	for set in "${sets[@]}"; do
		# The interpreter, the reference, runs once per target, with its
		# default set.
		targets=$a
		[ "$set" = default ] && targets="$a,interp"
		status=0
		s0=$(date +%s)
		timeout --kill-after=30s "$TARGET_TIMEOUT" \
			bin/cliff-run --arch "$targets" --isa-flags "$a=$set" --compile-refused --opt "$OPTS" -j "$JOBS" \
			--timeout "$CASE_TIMEOUT" "${run_flags[@]}" \
			--resume -o "$OUT/$a.$set.results.jsonl.zst" "${case_files[@]}" 2>> "$log" || status=$?
		# cliff-run's compile errors are the census's findings, not its
		# failures (they go to the log); 2 is a machine that cannot build or
		# run the target's code, 124 and up a timeout or a kill.
		if [ "$status" -ge 2 ]; then
			echo "census.sh: $a ($set): cliff-run exit $status, see $log" >&2
			failed=1
		fi
		printf '%s (%s): %ss\n' "$a" "$set" "$(($(date +%s) - s0))" | tee -a "$timing" >&2
	done
	printf '%s: %ss in all, generating %ss (%s)\n' "$a" "$(($(date +%s) - t0))" "$((t1 - t0))" "$cases" | tee -a "$timing" >&2
done
results=()
for a in "${arches[@]}"; do
	for f in "$OUT/$a".*.results.jsonl.zst; do
		[ -s "$f" ] && results+=("$f")
	done
done
[ ${#results[@]} -gt 0 ] || die "no target produced results"
# --hold: the targets' universes differ, so a combination's records are
# not at the same place in every file.
bin/cliff-diff --hold -o "$OUT/verdicts.jsonl.zst" "${results[@]}" 2>> "$OUT/diff.log" || [ $? = 1 ] ||
	die "cliff-diff failed, see $OUT/diff.log"
status=0
bin/cliff-census --summary --md "$OUT/census.md" -o "$OUT/census.jsonl" "$OUT/verdicts.jsonl.zst" || status=$?
[ "$status" -le 1 ] || die "cliff-census failed"
end_all=$(date +%s)
{
	printf '\n## Run\n\n'
	forms=parameter
	[ "$constants" = 1 ] && forms="parameter and constant"
	printf 'Targets %s, flag sets %s, opt levels %s, seed %s, %s forms, cliff-run flags `%s`, %s workers; %ss in all (generate and run per target and flag set, then judge and classify):\n\n' \
		"${arches[*]}" "$SETS" "$OPTS" "$SEED" "$forms" "${CENSUS_RUN_FLAGS:-(none)}" "$JOBS" "$((end_all - start_all))"
	sed 's/^/- /' "$timing"
} >> "$OUT/census.md"
echo "census.sh: $OUT/census.md" >&2
[ "$failed" = 0 ] || exit 2
exit "$status"
