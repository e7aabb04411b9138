#!/usr/bin/env bash
# The feedback loop of the CLIR paper (its §4.5), automated: rounds of
#
#   campaign (cliff-gen with the current mask | refine | run | diff)
#   | cliff-cluster | cliff-locate --mask-out
#
# Each round's new clusters are located and reduced, and their located
# {opcode, type, arch} is appended to the loop's mask, so that the next
# round stops rediscovering them and can reach the bugs they hid. A
# cluster that persists after its mask was added is located again: a
# second bug may hide behind the same symptom. The loop stops when a round
# finds no new cluster and adds no mask entry, after ROUNDS rounds, or when
# the time budget is spent; then one report covers every round.
#
#   scripts/campaign.sh --loop [N [DEPTH [SEED]]]   (N cases per round)
#
# Environment: as scripts/campaign.sh (OUT default out/loop, PROFILE,
# JOBS, CHUNK, REFINE, OPTS, CORPUS), and MASK: the loop's starting mask
# (default none: find everything from nothing; lib/profile/data/known.mask
# to skip the known findings); ROUNDS (5); BUDGET (seconds for the whole
# loop, 7200; a round starts only while some is left); LOCATE_BUDGET
# (per failure, 5m).
#
# Everything is kept under $OUT: round-R/ (the round's campaign, its
# clusters.jsonl and locations.jsonl), mask (the loop's mask as it grew),
# repro/ (one reduced filetest per located signature), rounds.log (what
# each round found) and report/ (the final report, cliff-cluster's).
#
# Exit status: 0 no Cranelift failure found; 1 failures found (see
# report/index.md); 2 the loop itself failed.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
abs() { case $1 in /*|'') printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }
die() { echo "campaign.sh --loop: $*" >&2; exit 2; }

[ $# -le 3 ] || die "usage: scripts/campaign.sh --loop [N [DEPTH [SEED]]]"
N=${1:-${N:-1000}} DEPTH=${2:-${DEPTH:-5}}
SEED=${3:-${SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}}
ROUNDS=${ROUNDS:-5} BUDGET=${BUDGET:-7200} LOCATE_BUDGET=${LOCATE_BUDGET:-5m}
for v in N DEPTH SEED ROUNDS BUDGET; do
	[[ ${!v} =~ ^[0-9]+$ ]] || die "$v=${!v}: want a number"
done
OUT=$(abs "${OUT:-out/loop}")
start_mask=$(abs "${MASK-}")
[ -z "$start_mask" ] || [ -f "$start_mask" ] || die "MASK $start_mask: no such file"
CORPUS=$(abs "${CORPUS-}")
export CORPUS
rm -rf "$OUT"
mkdir -p "$OUT/repro"
if [ -n "$start_mask" ]; then cp "$start_mask" "$OUT/mask"; else
	echo "# The mask of a campaign loop (scripts/campaign.sh --loop): what cliff-locate located, round by round." > "$OUT/mask"
fi
mask=$OUT/mask
touch "$OUT/located" # signature hashes located so far, one per line
echo "== loop: up to $ROUNDS rounds of $N cases, depth $DEPTH, seed $SEED, budget ${BUDGET}s, in $OUT" | tee "$OUT/rounds.log"

began=$(date +%s)
found=0
for ((round = 1; round <= ROUNDS; round++)); do
	left=$((BUDGET - ($(date +%s) - began)))
	if [ "$left" -le 0 ]; then
		echo "== budget spent before round $round" | tee -a "$OUT/rounds.log"
		break
	fi
	dir=$OUT/round-$round
	echo "== round $round: seed $((SEED + round - 1)), mask $(grep -cv '^\s*\(#\|$\)' "$OUT/mask" || true) entries, ${left}s left" | tee -a "$OUT/rounds.log"
	status=0
	OUT=$dir MASK=$mask timeout "$left" "$here/scripts/campaign.sh" "$N" "$DEPTH" "$((SEED + round - 1))" > "$dir.log" 2>&1 || status=$?
	case $status in
	0)
		echo "   no failure" | tee -a "$OUT/rounds.log"
		break
		;;
	1) found=1 ;;
	124) echo "== budget spent during round $round" | tee -a "$OUT/rounds.log"; break ;;
	*) die "round $round: the campaign failed (exit $status), see $dir.log" ;;
	esac
	"$here/bin/cliff-cluster" -o "$dir/clusters.jsonl" "$dir/failures.jsonl.zst" 2> "$dir/cluster.log" || [ $? = 1 ] ||
		die "round $round: cliff-cluster failed, see $dir/cluster.log"
	# The clusters to locate: those not located before, and those located
	# before that persist although their mask was added (a second bug
	# behind the same symptom, or a mask that does not hold).
	grep -F -v -f <(sed 's/.*/"signature_hash":"&"/' "$OUT/located") "$dir/clusters.jsonl" > "$dir/new.jsonl" || true
	grep -F -f <(sed 's/.*/"signature_hash":"&"/' "$OUT/located") "$dir/clusters.jsonl" > "$dir/persisting.jsonl" || true
	new=$(wc -l < "$dir/new.jsonl") persisting=$(wc -l < "$dir/persisting.jsonl")
	echo "   $(wc -l < "$dir/clusters.jsonl") clusters: $new new, $persisting persisting after their mask" | tee -a "$OUT/rounds.log"
	sed -n 's/.*"signature":"\([^"]*\)".*"count":\([0-9]*\).*/     new: \2 x \1/p' "$dir/new.jsonl" | cut -c1-220 | tee -a "$OUT/rounds.log"
	sed -n 's/.*"signature":"\([^"]*\)".*"count":\([0-9]*\).*/     persisting: \2 x \1/p' "$dir/persisting.jsonl" | cut -c1-220 | tee -a "$OUT/rounds.log"
	entries_before=$(grep -cv '^\s*\(#\|$\)' "$OUT/mask" || true)
	cat "$dir/new.jsonl" "$dir/persisting.jsonl" > "$dir/to-locate.jsonl"
	if [ -s "$dir/to-locate.jsonl" ]; then
		"$here/bin/cliff-locate" --summary --budget "$LOCATE_BUDGET" -d "$OUT/repro" --mask-out "$OUT/mask" \
			-o "$dir/locations.jsonl" "$dir/to-locate.jsonl" 2> "$dir/locate.log" ||
			die "round $round: cliff-locate failed, see $dir/locate.log"
		grep '^located' "$dir/locate.log" | cut -c1-220 | sed 's/^/     /' | tee -a "$OUT/rounds.log" || true
	fi
	sed -n 's/.*"signature_hash":"\([0-9a-f]*\)".*/\1/p' "$dir/to-locate.jsonl" >> "$OUT/located"
	sort -u -o "$OUT/located" "$OUT/located"
	added=$(($(grep -cv '^\s*\(#\|$\)' "$OUT/mask" || true) - entries_before))
	echo "   mask entries added: $added" | tee -a "$OUT/rounds.log"
	if [ "$new" = 0 ] && [ "$added" = 0 ]; then
		echo "== round $round found nothing new: done" | tee -a "$OUT/rounds.log"
		break
	fi
done

echo "== report: $OUT/report/index.md" | tee -a "$OUT/rounds.log"
# Every verdict of every round, so that the report counts the whole
# campaign, not only its failures; chunk by chunk in campaign order (one
# cliff-diff per file: given several, it joins them by case and writes
# verdicts as cases complete).
mapfile -t results < <(printf '%s\n' "$OUT"/round-*/chunk-*.results.jsonl.zst | sort -V)
[ -e "${results[0]}" ] || die "no round ran"
locations=$OUT/locations.jsonl
cat "$OUT"/round-*/locations.jsonl > "$locations" 2>/dev/null || true
: > "$OUT/diff.log"
{
	for f in "${results[@]}"; do
		"$here/bin/cliff-diff" "$f" 2>> "$OUT/diff.log" || [ $? = 1 ] || exit 2
	done
} |
	"$here/bin/cliff-cluster" --summary --report "$OUT/report" --locations "$locations" -o "$OUT/clusters.jsonl" 2> "$OUT/cluster.log" || [ $? = 1 ] ||
	die "the final cliff-diff | cliff-cluster failed, see $OUT/diff.log and $OUT/cluster.log"
tail -n 20 "$OUT/cluster.log"
exit "$found"
