#!/usr/bin/env bash
# The campaign on SSH hosts (HOSTS=FILE, scripts/hosts.sh), for real. It
# makes three hosts on this machine (scripts/nshosts.sh): each a network
# namespace with Debian's sshd on its own address and host key, in its own
# PID namespace (killing it kills all it runs, as when a node dies), with
# its own home directory; a client key made here logs in. cliff is
# installed once with `make install` into the test's directory, which every
# host sees at the same path, as on a cluster's shared storage. The
# campaigns are small (PROFILE=riscv64, known findings let through,
# 80 cases in chunks of 10), and each is compared with a local run of the
# same seed: failures.jsonl.zst, every chunk's results (timings aside:
# they are all that differs) and the verdict counts.
#
#   1. SHARED=1 with OUT where no host sees it: each host is left out by
#      name ("does not see"), and with none left the campaign stops, exit 2.
#   2. Shared filesystem on h1, h2 and h3, whose QEMU is broken: h3 is left
#      out with the reason, its chunks run on h1 and h2; equal to local.
#   3. Shared filesystem, h2 killed in the middle of a chunk with
#      RETRIES=1: the campaign stops (exit 2); --resume leaves the dead h2
#      out and finishes on h1; equal to local.
#   4. No shared filesystem (SHARED=0) on h1, h2 (started again), h3 and
#      this machine (':'): the hosts cannot see OUT (each has an empty
#      directory there) and work in their own homes, so results come back
#      only by Parallel's --return; the mask and corpus are where no host
#      sees them, and are copied to the same paths (h3, which has another
#      file at the mask's path, is left out and keeps its file); h1 is
#      killed in the middle of a chunk, which runs again elsewhere
#      (--retries) without a resume; equal to a local run with the same
#      inputs, and nothing left on the live host.
#
# Everything it made (namespaces, sshd and every process on the hosts,
# keys, files) goes on any exit; every campaign and login is bounded in
# time. KEEP=1 keeps the work directory with every log, for a look after a
# failure (the hosts and keys go all the same). Needs root, openssh-server
# and rsync (scripts/setup.sh installs them). About 1 to 1.5 minutes on
# the two-core test machine; scripts/test.sh runs it. Exit status: 0
# passed, 1 a check failed, 2 it could not run.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
t0=$(date +%s)
die() { echo "hosts_test.sh: $*" >&2; exit 2; }
# shellcheck source=scripts/nshosts.sh
. "$repo/scripts/nshosts.sh"
command -v rsync >/dev/null || die "rsync is missing (scripts/setup.sh installs it)"
command -v parallel >/dev/null || die "GNU parallel is missing (scripts/setup.sh installs it)"

work=$(mktemp -d)
bg=
cleanup() {
	[ -z "$bg" ] || stop_bg
	nshosts_cleanup
	rm -rf "$work/keys"
	if [ -n "${KEEP:-}" ]; then echo "hosts_test.sh: kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
fail() {
	echo "hosts_test.sh: FAIL: $*" >&2
	local log
	for log in "$work"/*.log; do
		[ -s "$log" ] && { echo "== ${log##*/} (last lines)"; tail -n 15 "$log"; } >&2
	done
	exit 1
}

# start_bg LOG CMD... runs a campaign in its own session (Parallel puts
# each job in a process group of its own: only the session holds them all).
start_bg() {
	local log=$1
	shift
	setsid "$@" > "$log" 2>&1 &
	bg=$!
}
stop_bg() {
	local _
	for _ in $(seq 50); do
		pkill -KILL -s "$bg" 2>/dev/null || break
		sleep 0.1
	done
	wait "$bg" 2>/dev/null || true
	bg=
}
# wait_bg SECS: the campaign's exit status; 124 when it ran out of time
# (it is killed).
wait_bg() {
	local ticks=$(($1 * 10)) status=0
	while kill -0 "$bg" 2>/dev/null; do
		if [ "$ticks" -le 0 ]; then
			stop_bg
			return 124
		fi
		sleep 0.1
		ticks=$((ticks - 1))
	done
	wait "$bg" || status=$?
	bg=
	return "$status"
}
# campaign SECS LOG ENV... [-- ARGS]: a campaign run to its end, bounded.
campaign() {
	local secs=$1 log=$2 status=0
	shift 2
	start_bg "$log" env "$@"
	wait_bg "$secs" || status=$?
	return "$status"
}

timeout 600 make -s -C "$repo" install PREFIX="$work/inst" > "$work/install.log" 2>&1 || fail "make install: $(tail -n 5 "$work/install.log")"
camp=$work/inst/share/cliff/scripts/campaign.sh
N=80 DEPTH=4 SEED=2
# A mask of no entry: the known findings come through, and SHARED=0 has a
# mask to carry.
echo '# no entry: hosts_test.sh lets the known findings through' > "$work/mask"
common=(CHUNK=10 PROFILE=riscv64 MASK="$work/mask")
# The filetests' corpus, when set-up made it: a corpus is one of the
# inputs SHARED=0 must carry to the hosts.
[ -f "$repo/out/corpus.jsonl.zst" ] && common+=(CORPUS="$repo/out/corpus.jsonl.zst")

# The hosts. /root is each one's own home; $work/private, where the
# SHARED=0 campaign keeps its OUT, is an empty directory on every host; h3
# has no QEMU for riscv64.
nshosts_init "$work/keys"
mkdir -p "$work/private"
# A QEMU that is not there: an empty file that cannot be run, over the
# binary (qemu-riscv64-static may be a link to qemu-riscv64: both go).
: > "$work/no-qemu"
qemu=$(command -v qemu-riscv64-static) || die "qemu-riscv64-static is missing (scripts/setup.sh installs it)"
for h in h1 h2 h3; do
	mkdir -p "$work/$h/home" "$work/$h/private"
	setup="mount --bind $work/$h/home /root && mount --bind $work/$h/private $work/private &&"
	[ "$h" = h3 ] && setup+=" mount --bind $work/no-qemu $qemu &&"
	nshosts_add "$h" "$setup"
done
export PARALLEL_SSH=$nshosts_ssh
h1=root@${nshosts_addr[h1]} h2=root@${nshosts_addr[h2]} h3=root@${nshosts_addr[h3]}
printf '1/%s\n' "$h1" "$h2" "$h3" > "$work/three"
printf '# two hosts of one core each\n1/%s\n\n1/%s\n' "$h1" "$h2" > "$work/two"
printf '1/%s\n1/%s\n1/%s\n1/:\n' "$h1" "$h2" "$h3" > "$work/mixed"

# A chunk's cliff-run (not the check's cliff-run --check-tools).
chunk_run='bin/cliff-run .*--resume -o '
# norm FILE: a results or verdicts file without its timings.
norm() { zstdcat "$1" | sed 's/,"timings":{[^}]*}//g'; }
# same_as LOCAL DIR: the campaign in DIR equals the local one in LOCAL.
same_as() {
	local ref=$1 dir=$2 f
	[ -e "$dir/finished" ] || fail "$dir: not finished"
	cmp -s <(norm "$ref/failures.jsonl.zst") <(norm "$dir/failures.jsonl.zst") ||
		fail "$dir: failures.jsonl.zst differs from the local run's: $(diff <(norm "$ref/failures.jsonl.zst") <(norm "$dir/failures.jsonl.zst") | head -c 600)"
	for f in "$ref"/chunk-*.results.jsonl.zst; do
		cmp -s <(norm "$f") <(norm "$dir/${f##*/}") || fail "$dir: ${f##*/} differs from the local run's"
	done
	[ "$(grep '^cases ' "$dir/diff.log")" = "$(grep '^cases ' "$ref/diff.log")" ] ||
		fail "$dir: verdicts $(grep '^cases ' "$dir/diff.log"), local $(grep '^cases ' "$ref/diff.log")"
}

# 1. Shared filesystem, but no host sees OUT.
status=0
campaign 300 "$work/nosee.log" HOSTS="$work/two" OUT="$work/private/nosee" "${common[@]}" "$camp" 20 2 "$SEED" || status=$?
[ "$status" = 2 ] || fail "OUT seen by no host: exit $status, want 2"
for h in "$h1" "$h2"; do
	grep -q "host 1/$h left out: does not see $work/private/nosee" "$work/nosee.log" || fail "OUT seen by no host: $h not left out: $(cat "$work/nosee.log")"
done
grep -q "no host of $work/two can run chunks" "$work/nosee.log" || fail "OUT seen by no host: $(cat "$work/nosee.log")"

# The reference: the same campaign on this machine alone.
status=0
campaign 600 "$work/local.log" OUT="$work/local" "${common[@]}" "$camp" "$N" "$DEPTH" "$SEED" || status=$?
[ "$status" -le 1 ] || fail "local run: exit $status"
local_counts=$(grep '^cases ' "$work/local/diff.log")
[[ $local_counts == "cases $N: "* ]] || fail "local run: $local_counts"
grep -q 'harness_error 0' <<< "$local_counts" || fail "local run: $local_counts"

# 2. Shared filesystem on three hosts, one of them broken.
status=0
campaign 600 "$work/shared.log" HOSTS="$work/three" OUT="$work/shared" "${common[@]}" "$camp" "$N" "$DEPTH" "$SEED" || status=$?
[ "$status" -le 1 ] || fail "shared: exit $status"
grep -q "^== campaign: $N cases, .* on 3 hosts of $work/three (shared filesystem)" "$work/shared.log" || fail "shared: header $(head -n 1 "$work/shared.log")"
grep -q "host 1/$h3 left out: riscv64: .*qemu-riscv64" "$work/shared.log" || fail "shared: the broken host is not left out by name: $(cat "$work/shared.log")"
grep -q '^== hosts: 2 of 3 pass the check' "$work/shared.log" || fail "shared: $(cat "$work/shared.log")"
! cut -f2 "$work/shared/hosts/joblog" | grep -qx "$h3" || fail "shared: a chunk ran on the broken host"
for h in "$h1" "$h2"; do
	grep -q "^  $h *[1-9][0-9]* chunks in " "$work/shared.log" || fail "shared: no chunk on $h: $(cat "$work/shared.log")"
done
same_as "$work/local" "$work/shared"

# 3. A host dies in the middle of a chunk; no retry: the campaign stops,
# and --resume goes on without the dead host.
start_bg "$work/killed.log" env HOSTS="$work/two" RETRIES=1 OUT="$work/killed" "${common[@]}" "$camp" "$N" "$DEPTH" "$SEED"
for _ in $(seq 3000); do
	nshosts_runs h2 "$chunk_run" && break
	kill -0 "$bg" 2>/dev/null || break
	sleep 0.1
done
nshosts_runs h2 "$chunk_run" || fail "killed: h2 never ran a chunk: $(cat "$work/killed.log")"
nshosts_kill h2
status=0
wait_bg 600 || status=$?
[ "$status" = 2 ] || fail "killed: exit $status after its host died, want 2: $(cat "$work/killed.log")"
grep -q 'a chunk failed .*scripts/campaign.sh --resume' "$work/killed.log" || fail "killed: $(cat "$work/killed.log")"
grep -q "^  $h2 *0 chunks in 0 s, 1 failed" "$work/killed.log" || fail "killed: the dead host's failure is not in the summary: $(cat "$work/killed.log")"
# The chunk that the stop cut short on h1 ended there too: left running,
# it would hold its journal against its resumed self.
for _ in $(seq 100); do
	nshosts_runs h1 "$chunk_run" || break
	sleep 0.1
done
! nshosts_runs h1 "$chunk_run" || fail "killed: a chunk still runs on h1 after the campaign stopped"
status=0
campaign 600 "$work/resumed.log" HOSTS="$work/two" OUT="$work/killed" "$camp" --resume || status=$?
[ "$status" -le 1 ] || fail "resumed: exit $status"
grep -q '^== campaign (resumed: [0-9]* of 8 chunks done)' "$work/resumed.log" || fail "resumed: header $(head -n 1 "$work/resumed.log")"
grep -q "host 1/$h2 left out: " "$work/resumed.log" || fail "resumed: the dead host is not left out: $(cat "$work/resumed.log")"
same_as "$work/local" "$work/killed"

# 4. No shared filesystem; a host dies and its chunk runs elsewhere. The
# inputs (mask, corpus) are where no host sees them: they are copied to
# the same paths there, and the results equal a local run's with them; h3
# has another file at the mask's path and is left out.
mkdir -p "$work/private/in" "$work/h3/private/in"
cp "$work/mask" "$work/private/in/mask"
echo '# not the campaign mask' > "$work/h3/private/in/mask"
common4=(CHUNK=10 PROFILE=riscv64 MASK="$work/private/in/mask")
if [ -f "$repo/out/corpus.jsonl.zst" ]; then
	cp "$repo/out/corpus.jsonl.zst" "$work/private/in/corpus.jsonl.zst"
	common4+=(CORPUS="$work/private/in/corpus.jsonl.zst")
fi
status=0
campaign 600 "$work/local2.log" OUT="$work/local2" "${common4[@]}" "$camp" "$N" "$DEPTH" "$SEED" || status=$?
[ "$status" -le 1 ] || fail "local run with the private inputs: exit $status"
nshosts_start h2
start_bg "$work/private.log" env HOSTS="$work/mixed" SHARED=0 OUT="$work/private/out" "${common4[@]}" "$camp" "$N" "$DEPTH" "$SEED"
for _ in $(seq 3000); do
	nshosts_runs h1 "$chunk_run" && break
	kill -0 "$bg" 2>/dev/null || break
	sleep 0.1
done
nshosts_runs h1 "$chunk_run" || fail "SHARED=0: h1 never ran a chunk: $(cat "$work/private.log")"
nshosts_kill h1
status=0
wait_bg 600 || status=$?
[ "$status" -le 1 ] || fail "SHARED=0: exit $status after a host died: $(cat "$work/private.log")"
grep -q "host 1/$h3 left out: another $work/private/in/mask is there" "$work/private.log" ||
	fail "SHARED=0: the host with another mask is not left out: $(cat "$work/private.log")"
grep -q "^== campaign: $N cases, .* on 4 hosts of $work/mixed (no shared filesystem, in ~/.cliff/campaign-[0-9]*)" "$work/private.log" ||
	fail "SHARED=0: header $(head -n 1 "$work/private.log")"
# h2's chunks came back by rsync: the bytes it returned are in the joblog.
awk -F'\t' -v h="$h2" '$2 == h && $7 == 0 && $6 > 0 { n++ } END { exit !n }' "$work/private/out/hosts/joblog" ||
	fail "SHARED=0: no chunk came back from h2: $(cat "$work/private/out/hosts/joblog")"
awk -F'\t' '$2 == ":" && $7 == 0 { n++ } END { exit !n }' "$work/private/out/hosts/joblog" ||
	fail "SHARED=0: no chunk ran on this machine: $(cat "$work/private/out/hosts/joblog")"
same_as "$work/local2" "$work/private/out"
left=$(find "$work/h2/home" "$work/h2/private" -type f \( -path '*/.cliff/*' -o -path '*/in/*' \) | head -n 3)
[ -z "$left" ] || fail "SHARED=0: files left on h2: $left"
[ -f "$work/h3/private/in/mask" ] || fail "SHARED=0: h3's own file at the mask's path is gone"

echo "hosts_test.sh: ok ($(($(date +%s) - t0)) s)"
