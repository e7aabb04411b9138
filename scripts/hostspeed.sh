#!/usr/bin/env bash
# What a campaign on SSH hosts (HOSTS=, scripts/hosts.sh) costs, measured:
# the figures behind the scaling model in the README's campaign section.
#
#   scripts/hostspeed.sh [CHUNKS [CHUNK [JOBS]]]     default 4 chunks of 20 cases, 8 jobs
#
#   1. The same chunks (compat, depth 5, one seed: CHUNKS chunks of CHUNK
#      cases), one at a time, three ways: on this machine (':'), on an SSH
#      host with the filesystem shared, and on it without (SHARED=0:
#      inputs sent, results returned by rsync). Each chunk's time is
#      Parallel's (--joblog), so the three differ only in the path: the
#      overhead per chunk, and as a ratio.
#   2. Dispatch: how many chunks a second one coordinator starts, each a
#      chunk that does nothing (a finished one: the chunk command exits
#      once it has read campaign.env), JOBS at a time, on this machine and
#      on the SSH host; and the coordinator's memory per running remote
#      chunk (the ssh client and Parallel's share: RSS summed).
#   3. A chunk's results on the wire: the bytes Parallel returned per
#      chunk without a shared filesystem, per case, and for a chunk of the
#      default 250 cases; the inputs each host gets once.
#   Then the model: a default chunk's time on one core (from 1), the cores
#   one coordinator keeps busy at the dispatch rate (2), its memory, and
#   the bandwidth of the results (3).
#
# The SSH host is a network namespace on this machine (scripts/nshosts.sh:
# its own sshd, home and PID namespace), so there is no network latency
# and host and coordinator share the cores: the SSH overhead is the cost
# of ssh, Parallel and rsync themselves, a lower bound for a real network
# (add a few round trips per chunk), and the dispatch rates are those of
# a coordinator that shares its cores with the host's sshd. Needs root
# (the namespace). CORPUS as scripts/campaign.sh takes it; KEEP=1 keeps
# the campaigns' directory. Prints figures; asserts nothing about time.
# About 2 minutes.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "hostspeed.sh: $*" >&2; exit 2; }
CHUNKS=${1:-4} CHUNK=${2:-20} JOBS=${3:-8}
for v in CHUNKS CHUNK JOBS; do [[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "$v=${!v}: want a positive number"; done
[ $# -le 3 ] || die "usage: scripts/hostspeed.sh [CHUNKS [CHUNK [JOBS]]]"
# shellcheck source=scripts/nshosts.sh
. "$repo/scripts/nshosts.sh"
command -v rsync >/dev/null || die "rsync is missing (scripts/setup.sh installs it)"
make -s -C "$repo" build >/dev/null || die "make build failed"

work=$(mktemp -d)
cleanup() {
	nshosts_cleanup
	rm -rf "$work/keys"
	if [ -n "${KEEP:-}" ]; then echo "hostspeed.sh: kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

nshosts_init "$work/keys"
mkdir -p "$work/h1home"
nshosts_add h1 "mount --bind $work/h1home /root &&"
export PARALLEL_SSH=$nshosts_ssh
host=root@${nshosts_addr[h1]}
printf '1/:\n' > "$work/local.slf"
printf '1/%s\n' "$host" > "$work/ssh.slf"
N=$((CHUNKS * CHUNK)) SEED=1
# The campaign's default corpus (set-up's out/corpus.jsonl.zst), or
# $CORPUS: it shapes the cases, and SHARED=0 sends it to each host.
corpus=()
if [ -n "${CORPUS:-}" ]; then
	corpus=(CORPUS="$CORPUS")
elif [ -f "$repo/out/corpus.jsonl.zst" ]; then
	corpus=(CORPUS="$repo/out/corpus.jsonl.zst")
fi

# run NAME SLF CASES [ENV...]: a campaign of the seed's first CASES cases
# (the measured chunks), one chunk at a time.
run() {
	local name=$1 slf=$2 n=$3 status=0
	shift 3
	env OUT="$work/$name" HOSTS="$slf" CHUNK="$CHUNK" "${corpus[@]}" "$@" \
		timeout 1800 "$repo/scripts/campaign.sh" "$n" 5 "$SEED" > "$work/$name.log" 2>&1 || status=$?
	[ "$status" -le 1 ] || die "$name: campaign exit $status: $(tail -n 5 "$work/$name.log")"
}
# The first campaign warms the page cache and this machine's harness
# cache for all; each host's check warms its own before the clock runs.
run warm "$work/local.slf" "$CHUNK"
run local "$work/local.slf" "$N"
run shared "$work/ssh.slf" "$N"
run private "$work/ssh.slf" "$N" SHARED=0

# Each chunk's time (Parallel's), by chunk index, in the three ways.
echo "== the same $CHUNKS chunks of $CHUNK compat cases (depth 5, seed $SEED), one at a time: seconds per chunk"
printf '%-6s %8s %12s %12s\n' chunk local "ssh shared" "ssh SHARED=0"
awk -F'\t' -v chunk="$CHUNK" -v chunks="$CHUNKS" 'FNR == 1 { f++ } $1 != "Seq" && $7 == 0 {
		match($0, /CAMPAIGN_CHUNK=[0-9]+/)
		t[substr($0, RSTART + 15, RLENGTH - 15) + 0, f] = $4
	}
	END {
		for (i = 0; i < chunks; i++) {
			k = i * chunk
			printf "%-6s %8.2f %12.2f %12.2f\n", k, t[k, 1], t[k, 2], t[k, 3]
			l += t[k, 1]; s += t[k, 2]; p += t[k, 3]
		}
		printf "mean   %8.2f %12.2f %12.2f\n", l / chunks, s / chunks, p / chunks
		printf "overhead per chunk: shared %+.2f s (ratio %.3f), SHARED=0 %+.2f s (ratio %.3f)\n", (s - l) / chunks, s / l, (p - l) / chunks, p / l
		printf "%.4f\n", l / chunks > "/dev/stderr"
	}' "$work/local/hosts/joblog" "$work/shared/hosts/joblog" "$work/private/hosts/joblog" 2> "$work/chunk-secs"

# 2. Dispatch: chunks that do nothing, JOBS at a time: the wall time
# here, and the coordinator's CPU (Parallel, ssh and rsync: bash's time
# counts the children; the host's side runs under its sshd, elsewhere).
dispatches=$((JOBS * 10))
# dispatch WHERE [PARALLEL-ARGS...] -- COMMAND: prints chunks/s and CPU
# seconds per chunk.
dispatch() {
	local where=$1 out
	shift
	out=$({
		TIMEFORMAT='%R %U %S'
		time (seq "$dispatches" | timeout 600 parallel -j "$JOBS" -S "$where" "$@" >/dev/null 2>"$work/dispatch.err")
	} 2>&1) || die "dispatch on $where failed: $(tail -n 3 "$work/dispatch.err")"
	awk -v n="$dispatches" '{ printf "%.1f chunks/s, %.3f CPU s each", n / $1, ($2 + $3) / n }' <<< "$out"
}
finished="OUT=$work/local CAMPAIGN_CHUNK=0 $repo/scripts/campaign.sh"
echo "== dispatch: $dispatches chunks that do nothing, $JOBS at a time (chunks a second here; the coordinator's CPU per chunk)"
echo "this machine (a finished chunk):        $(dispatch :  "$finished")"
shared=$(dispatch "$host" "$finished")
echo "one SSH host, shared (a finished chunk): $shared"
# SHARED=0's path: the job, then its tar returned and removed.
mkdir -p "$work/back"
private=$(dispatch "$host" --wd .cliff-hostspeed --return "$work/back/./{}.tar" --cleanup 'head -c 8192 /dev/zero > {}.tar')
echo "one SSH host, SHARED=0 (a tar back):    $private"
cpu_shared=$(sed 's/.*, \([0-9.]*\) CPU.*/\1/' <<< "$shared")
cpu_private=$(sed 's/.*, \([0-9.]*\) CPU.*/\1/' <<< "$private")
# The coordinator's memory while JOBS remote chunks run (each sleeps):
# Parallel's own, and that of each chunk's ssh client.
seq "$JOBS" | timeout 300 parallel -j "$JOBS" -S "$host" 'sleep 8' &
probe=$!
sleep 5
par=$(pgrep -P "$probe" -x parallel || pgrep -P "$probe" | head -n 1) || die "the memory probe's Parallel is gone"
read -r par_kib ssh_kib < <(ps -e -o pid=,ppid=,rss= | awk -v root="$par" '
	{ parent[$1] = $2; rss[$1] = $3 }
	END {
		for (p in parent) {
			q = p
			while (q in parent && q != root && q > 1) q = parent[q]
			if (p == root) own = rss[p]; else if (q == root) sum += rss[p]
		}
		print own, sum
	}')
wait "$probe" || die "the memory probe's jobs failed"
mem=$(awk -v k="$ssh_kib" -v j="$JOBS" 'BEGIN { printf "%.1f", k / j / 1024 }')
echo "coordinator memory: Parallel $((par_kib / 1024)) MiB, and $mem MiB per running remote chunk (its ssh client and what runs it)"

# 3. The wire: bytes returned per chunk (SHARED=0), and what each host gets once.
returned=$(awk -F'\t' '$1 != "Seq" && $7 == 0 { b += $6; n++ } END { printf "%.0f", b / n }' "$work/private/hosts/joblog")
per_case=$((returned / CHUNK))
inputs=$(du -cb "$work/private/hosts/stage/inputs"/* "$work/private/hosts/stage"/*/campaign.env 2>/dev/null | tail -n 1 | cut -f1)
echo "== on the wire (SHARED=0): $returned bytes returned per chunk of $CHUNK, $per_case per case: $((per_case * 250 / 1024)) KiB per chunk of 250; inputs once per host: $((inputs / 1024)) KiB"

# The model, at the default chunk of 250 cases.
chunk1=$(cat "$work/chunk-secs")
awk -v t="$chunk1" -v c="$CHUNK" -v cs="$cpu_shared" -v cp="$cpu_private" -v m="$mem" -v b="$per_case" \
	-v avail="$(awk '/MemAvailable/ { print $2 }' /proc/meminfo)" 'BEGIN {
	t250 = t / c * 250
	printf "== model: a chunk of 250 takes %.0f s on one core here (%.2f cases/s); per core of the coordinator,\n", t250, c / t
	printf "   shared filesystem: %.0f cores busy (%.3f CPU s a chunk); SHARED=0: %.0f cores (%.3f CPU s)\n", t250 / cs, cs, t250 / cp, cp
	printf "   memory: %.1f GiB per 1000 running chunks (%.1f GiB free here); results: %.2f MiB/s per 1000 cores (%.0f KiB a chunk)\n", 1000 * m / 1024, avail / 1048576, 1000 * b * 250 / t250 / 1048576, b * 250 / 1024
}'
