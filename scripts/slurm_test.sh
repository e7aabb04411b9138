#!/usr/bin/env bash
# The Slurm campaign (scripts/slurm/) on a real one-node Slurm: Debian's
# slurm-wlm 22.05 and munge, installed when missing, run on loopback as
# this machine's own cluster (its cores and memory, a partition "test",
# proctrack/linuxproc and task/none, no accounting storage, so no sacct;
# ports, key, state and logs of its own in a temporary directory). It
# checks that:
#   - a campaign submitted with scripts/slurm/submit.sh, its array cancelled
#     after its first chunk, leaves the final job (afterany) reporting the
#     unfinished chunks, exit 2;
#   - submit.sh --resume submits only the chunks not done, and the result
#     equals a local scripts/campaign.sh run of the same seed: the same
#     case IDs, the same verdicts, failures.jsonl.zst and clusters.jsonl
#     equal apart from timings (each result's "timings", a cluster's
#     first_seen and last_seen);
#   - the summary has every task run's time and peak memory from the
#     tasks' own measurements (GNU time; bash's time, no memory, for the
#     first submission, run with CLIFF_GNU_TIME pointing nowhere), and says
#     why sacct had nothing; the final job run again with a sacct that
#     prints rows as sacct does with accounting storage takes those first;
#   - submit.sh --status shows the progress, and submit.sh refuses a
#     second submission while jobs are queued, a new campaign over an
#     unfinished one, and more chunks than MaxArraySize (before it
#     submits anything); a judged campaign resubmitted submits nothing.
# Every daemon it started is stopped and its files removed on any exit;
# every wait is bounded, and a failure prints the daemons' log tails.
# Needs root (apt-get, daemons as root). scripts/test.sh runs it.
#
#   scripts/slurm_test.sh [--keep] [N [CHUNK [SEED]]]     (default 100 20 8)
#
# --keep leaves the campaigns (local/, slurm/) and the daemons' logs in
# the temporary directory, printed at the end; the daemons stop all the same.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
began=$(date +%s)
keep=0
if [ "${1:-}" = --keep ]; then keep=1; shift; fi
n=${1:-100} chunk=${2:-20} seed=${3:-8}
# A riscv64 campaign at depth 4 with the known findings let through: seed
# 8's 100 cases in chunks of 20 have a divergence, so that
# failures.jsonl.zst is not empty.
depth=4
export PROFILE=riscv64 MASK=
work=
pids=()
logs() {
	[ -n "$work" ] || return 0
	for log in "$work"/log/* "$work"/slurm/slurm/*.out; do
		[ -s "$log" ] && { echo "== ${log#"$work"/} (last lines)"; tail -n 25 "$log"; } >&2
	done
	return 0
}
fail() {
	echo "slurm_test.sh: FAIL: $*" >&2
	logs
	exit 1
}
die() { echo "slurm_test.sh: $*" >&2; exit 2; }

# stragglers prints the processes of the test's cluster, the daemons
# aside: those with its SLURM_CONF in their environment (slurmstepd has
# slurmd's, a job the submitter's), or the work directory open or as
# their directory.
stragglers() {
	local p
	for p in /proc/[0-9]*; do
		[ "${p#/proc/}" != $$ ] || continue
		[[ " ${pids[*]} " != *" ${p#/proc/} "* ]] || continue
		if grep -q -z -x "SLURM_CONF=$work/slurm.conf" "$p/environ" 2>/dev/null ||
			[[ $(readlink "$p/cwd" 2>/dev/null) == "$work"* ]] ||
			find "$p/fd" -maxdepth 1 -lname "$work/*" 2>/dev/null | grep -q .; then
			echo "${p#/proc/}"
		fi
	done
}
cleanup() {
	local status=$? pid left i deadline
	set +e
	# Out of the work directory, or this shell's subshells would count as
	# stragglers.
	cd /
	if [ -n "$work" ]; then
		# The jobs first, while slurmd is there to end them: 10 s at most.
		if [ -n "${SLURM_CONF:-}" ] && [ ${#pids[@]} -ge 3 ]; then
			timeout 10 scancel --full --user root > /dev/null 2>&1
			deadline=$(($(date +%s) + 10))
			while [ "$(date +%s)" -lt "$deadline" ] && [ -n "$(timeout 5 squeue --noheader 2>/dev/null)" ]; do
				sleep 0.2
			done
		fi
		# slurmd, slurmctld, munged: asked, then killed after 10 s.
		for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
			pid=${pids[i]}
			kill "$pid" 2>/dev/null || continue
			for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
			kill -KILL "$pid" 2>/dev/null
			wait "$pid" 2>/dev/null
		done
		# A job's slurmstepd ends a moment after squeue stops showing it:
		# 10 s at most. It ignores SIGTERM, hence SIGKILL after that.
		deadline=$(($(date +%s) + 10))
		while left=$(stragglers) && [ -n "$left" ] && [ "$(date +%s)" -lt "$deadline" ]; do
			sleep 0.2
		done
		if [ -n "$left" ]; then
			echo "slurm_test.sh: processes left in $work, killed: $(ps -o pid=,args= -p "$(paste -sd, <<< "$left")" 2>/dev/null)" >&2
			mapfile -t left <<< "$left"
			kill -KILL "${left[@]}" 2>/dev/null
			[ "$status" != 0 ] || status=1
		fi
		if [ "$keep" = 1 ]; then
			rm -rf "$work"/{state,spool,munge,key}
			echo "slurm_test.sh: kept $work" >&2
		else
			rm -rf "$work"
		fi
	fi
	exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

[ "$(id -u)" = 0 ] || die "needs root: it installs packages and runs the Slurm daemons as root"
[ -x "$repo/bin/cliff-run" ] || die "$repo/bin/cliff-run not built (make)"

# Debian's packages, installed when missing: slurm-wlm (slurmctld,
# slurmd, the client commands), munge, and GNU time, the tasks' own
# measurement. The test runs daemons of its own, with their own
# configuration, key and socket; a system daemon a package script may
# start (not here: policy-rc.d forbids it) is neither used nor touched.
missing=
for p in slurm-wlm slurmctld slurmd slurm-client munge time; do
	dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "== installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	timeout 600 apt-get -o DPkg::Lock::Timeout=300 update -qq || die "apt-get update failed (is a Debian mirror reachable?)"
	# shellcheck disable=SC2086
	timeout 900 apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends $missing > /dev/null ||
		die "apt-get install failed for:$missing"
fi
for c in slurmctld slurmd munged mungekey sbatch squeue scontrol scancel sinfo; do
	command -v "$c" > /dev/null || die "$c not found after installing slurm-wlm and munge"
done

work=$(mktemp -d /tmp/cliff-slurm.XXXXXX)
# munged wants the directories on the way to its socket searchable by all.
chmod 755 "$work"
mkdir -p "$work"/{log,state,spool,munge,key}
chmod 700 "$work/key"

# freeport prints a TCP port on loopback nobody listens on.
freeport() {
	local p
	for _ in $(seq 100); do
		p=$((20000 + RANDOM % 20000))
		if ! (exec 3<> "/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return
		fi
	done
	die "no free TCP port on 127.0.0.1"
}
ctld_port=$(freeport)
slurmd_port=$(freeport)
[ "$ctld_port" != "$slurmd_port" ] || slurmd_port=$((ctld_port + 1))

# munge: a key of the test's own, its own socket.
mungekey --create --keyfile="$work/key/munge.key" --bits=1024 > /dev/null 2>&1 || die "mungekey could not make a key"
munged --foreground --force --socket="$work/munge/munge.socket" --key-file="$work/key/munge.key" \
	--pid-file="$work/munge/munged.pid" --seed-file="$work/key/munged.seed" --log-file="$work/log/munged.log" \
	> "$work/log/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$work/munge/munge.socket" ] && break; sleep 0.2; done
[ -S "$work/munge/munge.socket" ] || fail "munged did not start"

# The one node is this machine, as it is: its cores, and its memory less
# a tenth (slurmd refuses a node configured with more than it has).
cpus=$(nproc)
mem=$(awk '$1 == "MemTotal:" { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)
export SLURM_CONF=$work/slurm.conf
cat > "$SLURM_CONF" <<EOF
# A one-node Slurm for scripts/slurm_test.sh, on loopback.
ClusterName=clifftest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
KillWait=5
# Small, so that submit.sh's check of the number of chunks is tested.
MaxArraySize=8
NodeName=cliffnode NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=cliffnode Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -f "$SLURM_CONF" > "$work/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N cliffnode > "$work/log/slurmd.out" 2>&1 &
pids+=($!)
state=
for _ in $(seq 150); do
	state=$(timeout 5 sinfo --noheader --nodes cliffnode --format %T 2>/dev/null || true)
	[ "$state" = idle ] && break
	sleep 0.2
done
[ "$state" = idle ] || fail "the node is not idle after 30 s (sinfo: ${state:-no answer})"
echo "== one-node Slurm up: $cpus CPUs, $mem MiB, ports $ctld_port and $slurmd_port"

# waitqueue SECONDS waits until no job is queued or running.
waitqueue() {
	local deadline=$(($(date +%s) + $1)) q
	while :; do
		q=$(timeout 10 squeue --noheader --format '%i %T' 2>&1) || fail "squeue failed: $q"
		[ -n "$q" ] || return 0
		[ "$(date +%s)" -lt "$deadline" ] || fail "jobs still queued after $1 s: $(tr '\n' ' ' <<< "$q")"
		sleep 0.5
	done
}

cd "$work"
echo "== local: scripts/campaign.sh $n $depth $seed, CHUNK=$chunk, PROFILE=$PROFILE"
local_status=0
OUT=local CHUNK=$chunk timeout 600 "$repo/scripts/campaign.sh" "$n" "$depth" "$seed" > local.log 2>&1 || local_status=$?
[ "$local_status" -le 1 ] || fail "local campaign: exit $local_status: $(cat local.log)"

# One task at a time, so that the array can be cancelled after its first
# chunk with others not run; the first submission's tasks measure with
# bash's time only (no GNU time where CLIFF_GNU_TIME points).
echo "== slurm: submit.sh --throttle 1 $n $depth $seed, cancelled after its first chunk"
OUT=slurm CHUNK=$chunk CLIFF_GNU_TIME=/nonexistent timeout 120 "$repo/scripts/slurm/submit.sh" --throttle 1 "$n" "$depth" "$seed" > submit1.log 2>&1 ||
	fail "submit.sh: exit $?: $(cat submit1.log)"
array=$(awk '$1 == "array" { print $2 }' slurm/slurm/jobs)
[ -n "$array" ] || fail "no array job recorded: $(cat submit1.log)"
chunks=$(((n + chunk - 1) / chunk))
grep -q "array job $array: chunks 0-$((chunks - 1)), at most 1 at once" submit1.log || fail "submission: $(cat submit1.log)"
# While it runs: its progress; no second submission into it.
OUT=slurm timeout 30 "$repo/scripts/slurm/submit.sh" --status > status.log 2>&1 || fail "submit.sh --status: $(cat status.log)"
grep -q "^$work/slurm: [0-9] of $chunks chunks done, [0-9]* failing cases so far" status.log || fail "submit.sh --status: $(cat status.log)"
grep -q 'cliff-campaign \(pending\|running\)' status.log || fail "submit.sh --status shows no task: $(cat status.log)"
status=0
OUT=slurm timeout 30 "$repo/scripts/slurm/submit.sh" --resume > refused.log 2>&1 || status=$?
if [ "$status" != 2 ] || ! grep -q 'still queued or running' refused.log; then
	fail "resubmitted while queued: exit $status, $(cat refused.log)"
fi
# Cancelled when chunk 0's task has ended (its record has a line with its
# exit status after the one that says it is running) and chunk 1's has
# run for a second (a chunk takes several): a chunk killed halfway, to be
# resumed.
deadline=$(($(date +%s) + 300))
until grep -q -v 'running$' slurm/slurm/usage/chunk-0.tsv 2>/dev/null && [ -s "slurm/slurm/usage/chunk-$chunk.tsv" ]; do
	[ "$(date +%s)" -lt "$deadline" ] || fail "chunk 0 not done and chunk 1 not started after 300 s"
	sleep 0.1
done
sleep 1
timeout 10 scancel "$array" || fail "scancel $array failed"
waitqueue 300
halfway=0
[ -e "slurm/chunk-$chunk.done" ] || halfway=1
done1=$(find slurm -maxdepth 1 -name 'chunk-*.done' | wc -l)
[ "$done1" -lt "$chunks" ] || fail "every chunk was done before the array was cancelled: nothing to resume (a slower campaign: more cases)"
[ "$(cat slurm/slurm/finish.status 2>/dev/null)" = 2 ] || fail "the final job after a cancelled array: status $(cat slurm/slurm/finish.status 2>/dev/null || echo none), want 2"
grep -q "of $chunks chunks unfinished" slurm/slurm/summary.txt || fail "the final job does not name the unfinished chunks: $(cat slurm/slurm/summary.txt)"
status=0
OUT=slurm CHUNK=$chunk timeout 30 "$repo/scripts/slurm/submit.sh" "$n" "$depth" "$seed" > refused.log 2>&1 || status=$?
if [ "$status" != 2 ] || ! grep -q 'unfinished campaign: resume it with scripts/slurm/submit.sh --resume' refused.log; then
	fail "an unfinished campaign replaced: exit $status, $(cat refused.log)"
fi
# More chunks than MaxArraySize: refused before anything is submitted,
# naming the CHUNK that fits, and no campaign left half made.
status=0
OUT=toomany CHUNK=10 timeout 30 "$repo/scripts/slurm/submit.sh" 100 2 1 > toomany.log 2>&1 || status=$?
if [ "$status" != 2 ] || ! grep -q "10 chunks of 10: more than this cluster's MaxArraySize (8) allows; CHUNK=13 or more fits" toomany.log; then
	fail "10 chunks with MaxArraySize 8: exit $status, $(cat toomany.log)"
fi
[ ! -e toomany/campaign.env ] || fail "a refused submission left toomany/campaign.env"

echo "== slurm: submit.sh --resume ($done1 of $chunks chunks done)"
OUT=slurm timeout 120 "$repo/scripts/slurm/submit.sh" --resume > submit2.log 2>&1 || fail "submit.sh --resume: exit $?: $(cat submit2.log)"
spec=$(sed -n 's/.*array job [0-9]*: chunks \([-0-9,]*\).*/\1/p' submit2.log)
want=$(for ((i = 0; i < chunks; i++)); do [ -e "slurm/chunk-$((i * chunk)).done" ] || echo "$i"; done | paste -sd' ' -)
got=$(tr ',' '\n' <<< "$spec" | awk -F- '{ for (i = $1; i <= ($2 == "" ? $1 : $2); i++) print i }' | paste -sd' ' -)
[ "$got" = "$want" ] || fail "resumed array runs chunks '$got' ($spec), want the unfinished '$want'"
waitqueue 600
slurm_status=$(cat slurm/slurm/finish.status 2>/dev/null || echo none)
[ "$slurm_status" = "$local_status" ] || fail "final job: exit $slurm_status, the local campaign $local_status"
# Judged: resubmitting submits nothing.
OUT=slurm timeout 30 "$repo/scripts/slurm/submit.sh" --resume > again.log 2>&1 || fail "submit.sh --resume of a finished campaign: $(cat again.log)"
grep -q 'the campaign is finished' again.log || fail "submit.sh --resume of a finished campaign: $(cat again.log)"
[ "$(grep -c '^array' slurm/slurm/jobs)" = 2 ] || fail "a finished campaign resubmitted: $(cat slurm/slurm/jobs)"

# The same campaign both ways. Only timings may differ: each result's
# "timings" object (compile, link and exec times, when it was done) and
# when a cluster's members were first and last seen.
untimed() { sed -e 's/"timings":{[^}]*}/"timings":{}/g' -e 's/"\(first\|last\)_seen":"[^"]*"/"\1_seen":""/g'; }
ids() { zstdcat "$1"/chunk-*.results.jsonl.zst | grep -o '^{"kind":"case","v":1,"id":"[^"]*"' | LC_ALL=C sort; }
verdicts() { "$repo/bin/cliff-diff" "$1"/chunk-*.results.jsonl.zst 2> /dev/null | untimed | LC_ALL=C sort; }
ids local > local.ids
ids slurm > slurm.ids
cases_local=$(wc -l < local.ids) cases_slurm=$(wc -l < slurm.ids)
[ "$cases_local" = "$n" ] || fail "local campaign: $cases_local cases, want $n"
[ "$cases_slurm" = "$cases_local" ] || fail "slurm campaign: $cases_slurm cases, local $cases_local"
cmp -s local.ids slurm.ids || fail "case IDs differ: $(diff local.ids slurm.ids | head -n 5)"
cmp -s <(verdicts local) <(verdicts slurm) || fail "verdicts differ from the local campaign's"
zstdcat local/failures.jsonl.zst | untimed > local.failures
zstdcat slurm/failures.jsonl.zst | untimed > slurm.failures
cmp -s local.failures slurm.failures || fail "failures.jsonl.zst differs from the local campaign's apart from timings"
failing=$(wc -l < local.failures)
# Not a failure of the test (a change to cliff or its corpus moves the
# findings), but the comparison of the failures then proves little.
[ "$failing" -gt 0 ] || echo "slurm_test.sh: warning: no failing case (without out/corpus.jsonl.zst?): failures.jsonl.zst compared empty" >&2
# The local campaign judged by --finish too, for its clusters.
OUT=local timeout 300 "$repo/scripts/campaign.sh" --finish > local-finish.log 2>&1 || [ $? = 1 ] || fail "campaign.sh --finish on the local campaign: $(cat local-finish.log)"
cmp -s <(untimed < local/clusters.jsonl) <(untimed < slurm/clusters.jsonl) || fail "clusters.jsonl differs from the local campaign's apart from timings"
[ -f slurm/report/index.md ] || fail "no report: $(ls slurm)"

# Every task run in the summary: a completed one per chunk, with its time;
# the first submission's without memory (bash's time), the resumed ones'
# with GNU time's peak; the run cancelled halfway, if any, as killed.
tasks=slurm/slurm/tasks.tsv
grep -q 'sacct: Slurm accounting storage is disabled' slurm/slurm/summary.txt || fail "the summary does not say why sacct had nothing: $(cat slurm/slurm/summary.txt)"
completed=$(awk -F'\t' '$4 == "COMPLETED" { print $1 }' "$tasks" | sort -un | wc -l)
[ "$completed" = "$chunks" ] || fail "$completed chunks with a completed task in $tasks, want $chunks: $(cat "$tasks")"
awk -F'\t' -v a="$array" 'NR > 1 && $4 == "COMPLETED" {
		if ($5 + 0 <= 0 || $6 == "-" || $8 != "self") exit 1
		if (($2 ~ "^" a "_") != ($7 == "-")) exit 1
		if ($7 != "-" && $7 + 0 <= 0) exit 1
	}' "$tasks" || fail "task times or memory missing or wrong in $tasks: $(cat "$tasks")"
grep -q '^[0-9]* task runs, [0-9]* not completed; .* CPU s, .* peak memory [0-9.]* MiB' slurm/slurm/summary.txt ||
	fail "no totals in the summary: $(cat slurm/slurm/summary.txt)"
runs=$(($(wc -l < "$tasks") - 1))
killed=$(awk -F'\t' '$4 == "KILLED"' "$tasks" | wc -l)
if [ "$halfway" = 1 ]; then
	awk -F'\t' -v c="$chunk" -v j="${array}_1" '$1 == c && $2 == j && $4 == "KILLED" { found = 1 } END { exit !found }' "$tasks" ||
		fail "chunk $chunk's task ${array}_1, cancelled halfway, is not a killed run in $tasks: $(cat "$tasks")"
fi

# Where the cluster keeps accounting, sacct's rows come first. This one
# has none, so finish.sbatch runs again (as a plain script) with a sacct
# that prints rows as sacct --parsable2 prints them for array tasks and
# their steps: tasks with their times and peak memory (the largest
# step's), one without MaxRSS (accounting not yet written: the task's
# own record stands), a cancelled one that never ran, and the pending
# rest of an array.
second=$(awk '$1 == "array" { a = $2 } END { print a }' slurm/slurm/jobs)
mkdir -p fake
cat > fake/sacct <<EOF
#!/bin/sh
cat <<'ROWS'
${array}_3|CANCELLED by 0|00:00:00|00:00:00||None assigned
${second}_1|COMPLETED|00:01:05|01:02.500||cliffnode
${second}_1.batch|COMPLETED|00:01:05|01:02.500|1536K|cliffnode
${second}_1.extern|COMPLETED|00:01:05|00:00:00|512K|cliffnode
${second}_2|COMPLETED|00:00:03|00:02.100||cliffnode
${second}_3|COMPLETED|1-00:00:01|1:02:03||cliffnode
${second}_3.batch|COMPLETED|1-00:00:01|1:02:03|1.5G|cliffnode
${second}_[5-6]|PENDING|00:00:00|00:00:00||None assigned
ROWS
EOF
chmod +x fake/sacct
PATH=$work/fake:$PATH timeout 300 "$repo/scripts/slurm/finish.sbatch" "$repo" "$work/slurm" > refinish.log 2>&1 || [ $? = 1 ] ||
	fail "finish.sbatch with sacct: $(cat refinish.log)"
row() { awk -F'\t' -v j="$1" -v OFS='|' '$2 == j { $1 = $1; print }' "$tasks"; }
[ "$(row "${array}_3")" = "$((3 * chunk))|${array}_3|None assigned|CANCELLED by 0|0|0.0|-|sacct" ] || fail "sacct's row of ${array}_3: $(row "${array}_3")"
[ "$(row "${second}_1")" = "$chunk|${second}_1|cliffnode|COMPLETED|65|62.5|1.5|sacct" ] || fail "sacct's row of ${second}_1: $(row "${second}_1")"
[[ $(row "${second}_2") == "$((2 * chunk))|${second}_2|cliffnode|COMPLETED|"*"|self" ]] || fail "${second}_2, no MaxRSS in sacct: $(row "${second}_2")"
[ "$(row "${second}_3")" = "$((3 * chunk))|${second}_3|cliffnode|COMPLETED|86401|3723.0|1536.0|sacct" ] || fail "sacct's row of ${second}_3: $(row "${second}_3")"
[ "$(awk -F'\t' '$2 ~ /\[/' "$tasks")" = "" ] || fail "the pending rest of an array became a row: $(cat "$tasks")"
grep -q '; sacct: 4 task(s))$' slurm/slurm/summary.txt || fail "the summary does not say sacct answered: $(grep '== tasks' slurm/slurm/summary.txt)"

echo "== equal: $cases_slurm cases both ways, the same case IDs and verdicts, $failing failing (failures.jsonl.zst and clusters.jsonl equal apart from timings); $runs task runs in the summary ($killed cancelled halfway)"
echo "slurm_test.sh: ok in $(($(date +%s) - began)) s"
