#!/usr/bin/env bash
# A cliff campaign on a Slurm cluster: one job array task per chunk
# (campaign.sbatch), then a final job that judges, clusters and reports
# once the array has ended (finish.sbatch, --dependency=afterany).
#
#   scripts/slurm/submit.sh [--throttle K] [N [DEPTH [SEED]]] [-- SBATCH-OPTION...]
#                                 a new campaign in $OUT, as scripts/campaign.sh takes it
#   scripts/slurm/submit.sh --resume [--throttle K] [-- SBATCH-OPTION...]
#                                 submit the chunks not done yet, and a new final job
#   scripts/slurm/submit.sh --status
#                                 chunks done, failing cases so far, jobs still queued
#
# The campaign's settings are scripts/campaign.sh's (OUT, CHUNK, PROFILE,
# MASK, CORPUS, CRANELIFT, ... in the environment, N DEPTH SEED as
# arguments), and so are its chunks and verdicts: the same seed gives the
# same cases and verdicts as scripts/campaign.sh on one machine.
# --throttle K runs at most K tasks at once (sbatch --array=...%K). The
# options after -- go to both sbatch calls (--partition, --account,
# --qos, --time, --mem, --exclude ...); so do Slurm's SBATCH_*
# variables. cliff's checkout and OUT must be on a filesystem every node
# sees, at the same path; see scripts/slurm/README.md.
#
# Kept in $OUT besides the campaign's own files: slurm/jobs (each
# submission's job IDs), slurm/task-ARRAY_I.out and slurm/finish-JOB.out
# (the jobs' output), slurm/usage/ (each task's own time and memory),
# and, from the final job, slurm/summary.txt, slurm/tasks.tsv and
# slurm/finish.status.
#
# Exit status: 0 submitted (or --status printed); 2 it was not (a
# campaign still queued, bad usage, sbatch refused: the message says).
set -euo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
die() { echo "submit.sh: $*" >&2; exit 2; }
. "$here/scripts/paths.sh"

mode=new throttle=
while [ $# -gt 0 ]; do
	case $1 in
	--resume) mode=resume; shift ;;
	--status) mode=status; shift ;;
	--throttle)
		[ $# -ge 2 ] || die "--throttle takes a number of tasks"
		throttle=$2
		shift 2
		;;
	--throttle=*) throttle=${1#--throttle=}; shift ;;
	--) break ;;
	-*) die "unknown option $1 (usage: submit.sh [--resume | --status] [--throttle K] [N [DEPTH [SEED]]] [-- SBATCH-OPTION...])" ;;
	*) break ;;
	esac
done
args=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do args+=("$1"); shift; done
[ "${1:-}" != -- ] || shift
extra=("$@")
[ -z "$throttle" ] || [[ $throttle =~ ^[1-9][0-9]*$ ]] || die "--throttle $throttle: want a positive number of tasks"
[ "$mode" = new ] || [ ${#args[@]} = 0 ] || die "--$mode takes the campaign's own N, DEPTH and SEED (from \$OUT/campaign.env)"
[ ${#args[@]} -le 3 ] || die "usage: submit.sh [--throttle K] [N [DEPTH [SEED]]] [-- SBATCH-OPTION...]"

OUT=$(abs "${OUT:-out/campaign}")
slurm=$OUT/slurm
for tool in sbatch squeue scontrol; do
	command -v "$tool" > /dev/null || die "$tool not found: run this where Slurm's client commands are (a login node)"
done

# queued prints the array and final jobs of earlier submissions that are
# still pending or running, one ID a line.
queued() {
	[ -f "$slurm/jobs" ] || return 0
	local mine
	mine=$(squeue --noheader --user "$(id -un)" --format '%F') || die "squeue failed"
	awk 'NR == FNR { q[$1] = 1; next } ($2 in q) { print $2 }' <(printf '%s\n' "$mine") "$slurm/jobs" | sort -u
}
# chunks_left prints the array index of every chunk not done.
chunks_left() {
	local k
	for k in $(seq 0 "$CHUNK" $((N - 1))); do
		[ -e "$OUT/chunk-$k.done" ] || echo $((k / CHUNK))
	done
}
# ranges turns sorted indices, one a line, into sbatch's 0-3,5,7-9.
ranges() {
	awk 'NR == 1 { a = b = $1; next }
		$1 == b + 1 { b = $1; next }
		{ printf "%s%s,", a, (a == b ? "" : "-" b); a = b = $1 }
		END { if (NR) printf "%s%s\n", a, (a == b ? "" : "-" b) }'
}
load() {
	[ -f "$OUT/campaign.env" ] || die "$OUT holds no campaign (start one: submit.sh N DEPTH)"
	[ ! -f "$OUT/scenarios.env" ] || die "$OUT holds scenarios, which run on one machine (scripts/campaign.sh --scenarios)"
	# shellcheck source=/dev/null
	. "$OUT/campaign.env"
}

if [ "$mode" = status ]; then
	load
	chunks=$(((N + CHUNK - 1) / CHUNK))
	done=$(find "$OUT" -maxdepth 1 -name 'chunk-*.done' | wc -l)
	failing=$(find "$OUT" -maxdepth 1 -name 'chunk-*.failures.jsonl' -exec cat {} + | wc -l)
	echo "$OUT: $done of $chunks chunks done, $failing failing cases so far"
	q=$(queued | paste -sd, -)
	if [ -n "$q" ]; then
		# --array: a line per task, not one for the pending rest. A job
		# that ends meanwhile makes squeue complain; the count stands.
		{ squeue --noheader --array --jobs "$q" --format '%i %j %T' || true; } |
			awk '{ n[$2 " " tolower($3)]++ } END { for (s in n) printf "  %d %s\n", n[s], s }' | sort -k2
	else
		echo "  no job of it is queued"
	fi
	if [ -f "$slurm/finish.status" ]; then
		echo "  finished with exit $(cat "$slurm/finish.status"): $slurm/summary.txt"
	fi
	exit 0
fi

q=$(queued | paste -sd, -)
[ -z "$q" ] || die "jobs of the campaign in $OUT are still queued or running ($q): wait for them, or scancel them and resubmit with --resume"

if [ "$mode" = new ]; then
	if [ -f "$OUT/campaign.env" ] && [ ! -e "$OUT/finished" ]; then
		die "$OUT holds an unfinished campaign: resume it with scripts/slurm/submit.sh --resume, or remove $OUT"
	fi
	# The campaign's env, as scripts/campaign.sh would start it.
	"$here/scripts/campaign.sh" --prepare "${args[@]}" || exit 2
	rm -rf "$slurm"
	load
else
	load
	# Judged (0 or 1): nothing to resume. A final job that failed (2) or
	# never ran is submitted again, alone when every chunk is done.
	case $(cat "$slurm/finish.status" 2>/dev/null) in
	0 | 1)
		echo "$OUT: the campaign is finished (exit $(cat "$slurm/finish.status")); see $slurm/summary.txt"
		exit 0
		;;
	esac
	rm -f "$slurm/finish.status"
fi
mkdir -p "$slurm/usage"

# Slurm refuses array indices from MaxArraySize up (1001 by default).
max=$(scontrol show config | awk '$1 == "MaxArraySize" { print $3 }')
chunks=$(((N + CHUNK - 1) / CHUNK))
if [ -n "$max" ] && [ "$chunks" -gt "$max" ]; then
	# Nothing ran: no campaign is left half made.
	[ "$mode" = resume ] || rm -f "$OUT/campaign.env"
	die "$chunks chunks of $CHUNK: more than this cluster's MaxArraySize ($max) allows; CHUNK=$(((N + max - 1) / max)) or more fits"
fi
spec=$(chunks_left | ranges)
submitted=()
if [ -n "$spec" ]; then
	array=$(sbatch --parsable --array="$spec${throttle:+%$throttle}" --job-name=cliff-campaign \
		--output="$slurm/task-%A_%a.out" "${extra[@]}" "$here/scripts/slurm/campaign.sbatch" "$here" "$OUT") ||
		die "sbatch refused the array ($spec); resubmit with scripts/slurm/submit.sh --resume [-- SBATCH-OPTION...]"
	array=${array%%;*}
	printf 'array %s %s %s\n' "$array" "$spec${throttle:+%$throttle}" "$(date -u +%FT%TZ)" >> "$slurm/jobs"
	submitted+=("array job $array: chunks $spec${throttle:+, at most $throttle at once}")
	dep=(--dependency="afterany:$array")
else
	# Every chunk is done: only the judging is left.
	dep=()
fi
final=$(sbatch --parsable "${dep[@]}" --job-name=cliff-finish --output="$slurm/finish-%j.out" \
	"${extra[@]}" "$here/scripts/slurm/finish.sbatch" "$here" "$OUT") || {
	# Without its final job the array would run for nothing.
	[ -z "$spec" ] || scancel "$array" || true
	die "sbatch refused the final job${spec:+ (array job $array cancelled)}; resubmit with scripts/slurm/submit.sh --resume [-- SBATCH-OPTION...]"
}
final=${final%%;*}
printf 'finish %s afterany:%s %s\n' "$final" "${array:-none}" "$(date -u +%FT%TZ)" >> "$slurm/jobs"
submitted+=("final job $final${spec:+ after it}")
echo "== submitted $N cases, depth $DEPTH, seed $SEED, profile $PROFILE, $chunks chunks of $CHUNK, in $OUT"
printf '   %s\n' "${submitted[@]}"
echo "   progress: scripts/slurm/submit.sh --status; summary: $slurm/summary.txt"
