# A campaign's chunks on SSH hosts (HOSTS=FILE), sourced by
# scripts/campaign.sh: the host list checked, the chunks dispatched by GNU
# Parallel, progress and a summary per host.
#
# HOSTS is a GNU Parallel --sshloginfile: one host a line, with its cores
# as Parallel writes them (4/user@node1; ':' is this machine; without a
# count Parallel asks the host), '#' comments. Each host must have cliff at
# the same path as this one (a checkout built with make, or `make install
# PREFIX=DIR` and DIR/share/cliff/scripts/campaign.sh), the same Cranelift
# drivers (a shared $CLIFF_CACHE, for CRANELIFT=) and the toolchains that
# scripts/setup.sh installs; ssh logins without a prompt (keys).
#
# Two modes:
#   SHARED=1 (default)  a filesystem shared by every host (the usual HPC
#                       cluster): OUT on it, the chunks write into $OUT
#                       directly, as local chunks do.
#   SHARED=0            nothing shared. A chunk is made again on its host
#                       from seed and index, in REMOTE_DIR (relative to the
#                       login directory; default .cliff/campaign-<hash of
#                       this host and $OUT>), where Parallel puts
#                       campaign.env (--basefile), and only its results
#                       come back: one tar a chunk (--return, then
#                       --cleanup), unpacked into $OUT. The inputs (the
#                       corpora, mask, crossover parents, weights) are read
#                       at their own paths, which the cases record: a host
#                       that lacks one gets a copy there for the campaign's
#                       run, and one with another file at that path is left
#                       out. Needs rsync here and on the hosts.
#
# Before dispatch each host is checked, side by side, by the command a
# chunk needs there: cliff at the same path, `cliff-run --check-tools` for
# the campaign's targets (with CRANELIFT, its drivers), the shared
# filesystem (SHARED=1: the host reads a token written into $OUT) or rsync
# and the inputs (SHARED=0). A host that fails is reported by name, with
# the first line that says why, and left out: its chunks go to the others,
# and it cannot end the campaign with harness errors. With no host left
# the campaign stops (exit 2).
#
# A chunk whose host dies (ssh exits 255) or that fails is tried again on
# another host, RETRIES times in all (default 3, Parallel's --retries); the
# campaign stops when one fails on every try. scripts/campaign.sh --resume
# checks the hosts again (HOSTS may name others by then) and runs the
# unfinished chunks anywhere: on a shared filesystem cliff-run --resume
# keeps the cases a dead host had finished; without one a chunk is made
# again whole. $OUT/hosts/joblog (Parallel's --joblog, appended to on
# resume) says which host ran which chunk, for how long; the progress
# line (on a terminal) and the summary at the end count chunks per host.
# A coordinator killed with kill -9 leaves its running chunks running on
# the hosts to their end: a resume that starts before then finds their
# journals taken (SHARED=1: "another process is writing it") and stops;
# resume again once they are done.
#
# PARALLEL_SSH is the ssh command (Parallel's own variable); by default
# ssh in batch mode (never a password prompt) with keep-alives, so that a
# host that dies without closing its connections is noticed within a minute.

# hosts_init checks HOSTS and the mode, and sets what the others use;
# called once $root and $mode are known. A new campaign forgets the hosts
# of the one it replaces.
hosts_init() {
	HOSTS=$(abs "$HOSTS")
	[ -f "$HOSTS" ] || die "HOSTS=$HOSTS: no such file"
	SHARED=${SHARED:-1}
	[[ $SHARED =~ ^[01]$ ]] || die "SHARED=$SHARED: want 1 (a filesystem shared with the hosts) or 0 (none: files travel by rsync)"
	RETRIES=${RETRIES:-3}
	[[ $RETRIES =~ ^[1-9][0-9]*$ ]] || die "RETRIES=$RETRIES: want the number of tries of a chunk, 1 or more"
	[ -z "${JOBS:-}" ] || [[ $JOBS =~ ^[1-9][0-9]*$ ]] || die "JOBS=$JOBS: want the number of chunks per host"
	command -v parallel >/dev/null || die "GNU parallel is missing (apt-get install parallel)"
	hosts_lines=()
	local line
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line#"${line%%[![:space:]]*}"}
		line=${line%"${line##*[![:space:]]}"}
		case $line in '' | '#'*) continue ;; esac
		hosts_lines+=("$line")
	done < "$HOSTS"
	[ ${#hosts_lines[@]} -gt 0 ] || die "HOSTS=$HOSTS lists no host"
	hosts_dir=$root/hosts
	if [ "$SHARED" = 0 ]; then
		command -v rsync >/dev/null || die "SHARED=0 moves files with rsync, which is missing here (apt-get install rsync)"
		# Relative: Parallel's work dir on a host is under its login
		# directory, and this machine (':') finds it under $hosts_dir/local.
		REMOTE_DIR=${REMOTE_DIR:-.cliff/campaign-$(printf '%s:%s' "$(hostname)" "$root" | cksum | cut -d' ' -f1)}
		[[ $REMOTE_DIR =~ ^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*$ && ! $REMOTE_DIR =~ (^|/)\.\.?(/|$) ]] ||
			die "REMOTE_DIR=$REMOTE_DIR: want a plain path relative to the hosts' login directory"
	fi
	export PARALLEL_SSH=${PARALLEL_SSH:-ssh -o BatchMode=yes -o ServerAliveInterval=15 -o ServerAliveCountMax=4}
	[ "$mode" = resume ] || rm -rf "$hosts_dir"
	mkdir -p "$hosts_dir"
}

# hosts_where: where the chunks run, for the campaign's header line.
hosts_where() {
	local n=${#hosts_lines[@]} s=s
	[ "$n" = 1 ] && s=
	printf '%d host%s of %s (%s)' "$n" "$s" "$HOSTS" "$([ "$SHARED" = 1 ] && echo shared filesystem || echo "no shared filesystem, in ~/$REMOTE_DIR")"
}

# hosts_check runs the check on every host side by side and writes the
# hosts that passed into $hosts_dir/sshlogins, Parallel's host list.
hosts_check() {
	local i status arches token q_here q_token
	arches=$(for d in "${dirs[@]}"; do (. "$d/campaign.env" && echo "${ARCHES:-x86_64,aarch64,riscv64,s390x}"); done | tr , '\n' | sort -u | paste -sd,)
	token=$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')
	printf '%s\n' "$token" > "$hosts_dir/token"
	printf -v q_here %q "$here"
	printf -v q_token %q "$token"
	# POSIX shell, run by the host's login shell through Parallel.
	local cmd="test -x $q_here/bin/cliff-run || { echo 'no cliff at '$q_here' (install it at the same path on every host)'; exit 3; }"
	if [ "$SHARED" = 1 ]; then
		local q_tok
		printf -v q_tok %q "$hosts_dir/token"
		cmd+="; [ \"\$(cat $q_tok 2>/dev/null)\" = $q_token ] || { echo 'does not see '$(printf %q "$root")' (no shared filesystem there? SHARED=0 runs without one)'; exit 3; }"
	else
		cmd+="; command -v rsync >/dev/null || { echo 'no rsync (SHARED=0 moves files with it)'; exit 3; }"
		# Each input where it is here: the same file, or none (then
		# it is copied there), never another.
		local f q_f sum
		hosts_list_inputs
		for f in "${hosts_inputs[@]}"; do
			printf -v q_f %q "$f"
			sum=$(cksum < "$f")
			cmd+="; if [ -e $q_f ]; then [ \"\$(cksum < $q_f)\" = '$sum' ] || { echo 'another '$q_f' is there'; exit 3; }; else echo need $q_f; fi"
		done
	fi
	cmd+="; $q_here/bin/cliff-run --check-tools --arch $(printf %q "$arches")"
	[ -n "${CRANELIFT:-}" ] && cmd+=" --cranelift $(printf %q "$CRANELIFT")"
	rm -rf "$hosts_dir/check"
	mkdir -p "$hosts_dir/check"
	local pids=()
	for i in "${!hosts_lines[@]}"; do
		printf '%s\n' "${hosts_lines[$i]}" > "$hosts_dir/check/$i.slf"
		timeout 300 parallel --slf "$hosts_dir/check/$i.slf" --nonall "$cmd" > "$hosts_dir/check/$i.log" 2>&1 &
		pids[i]=$!
	done
	# why[i] is empty for a host that passed.
	local -a why=()
	for i in "${!hosts_lines[@]}"; do
		status=0
		wait "${pids[$i]}" || status=$?
		case $status in
		0) why[i]= ;;
		124) why[i]="no answer in 300 s" ;;
		*) why[i]=$(grep -v -e ': ok: ' -e '^parallel: Warning' -e '^need ' "$hosts_dir/check/$i.log" | grep -m1 . || echo "check failed (exit $status)") ;;
		esac
	done
	# SHARED=0: the inputs a host lacks go to their paths there, side by
	# side (Parallel's --basefile keeps an absolute path); hosts_finish
	# removes them.
	pids=()
	for i in "${!hosts_lines[@]}"; do
		[ -z "${why[$i]}" ] || continue
		sed -n 's/^need //p' "$hosts_dir/check/$i.log" > "$hosts_dir/check/$i.need"
		[ -s "$hosts_dir/check/$i.need" ] || continue
		local bf=() f
		while IFS= read -r f; do bf+=(--basefile "$f"); done < "$hosts_dir/check/$i.need"
		timeout 1800 parallel --slf "$hosts_dir/check/$i.slf" --nonall "${bf[@]}" true > "$hosts_dir/check/$i.copy.log" 2>&1 &
		pids[i]=$!
	done
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}" ||
			why[i]="cannot copy the inputs there: $(grep -m1 . "$hosts_dir/check/$i.copy.log" || echo "no answer in 1800 s")"
	done
	: > "$hosts_dir/sshlogins"
	: > "$hosts_dir/dropped"
	for i in "${!hosts_lines[@]}"; do
		if [ -z "${why[$i]}" ]; then
			printf '%s\n' "${hosts_lines[$i]}" >> "$hosts_dir/sshlogins"
		else
			printf '%s\t%s\n' "${hosts_lines[$i]}" "${why[$i]}" >> "$hosts_dir/dropped"
			echo "campaign.sh: host ${hosts_lines[$i]} left out: ${why[$i]}" >&2
		fi
	done
	[ -s "$hosts_dir/sshlogins" ] || die "no host of $HOSTS can run chunks (see $hosts_dir/check/*.log)"
	echo "== hosts: $(wc -l < "$hosts_dir/sshlogins") of ${#hosts_lines[@]} pass the check"
	# What a coordinator killed before it unpacked them left.
	hosts_collect
	hosts_stage
}

# hosts_list_inputs sets hosts_inputs: the files the campaigns read
# (CORPUS, MASK, CROSSOVER, WEIGHTS), each once. A case records their
# paths, so a host reads them at the same paths as this machine: the
# results are the same, byte for byte.
hosts_list_inputs() {
	local d vals v f values list
	local -A seen=()
	hosts_inputs=()
	for d in "${dirs[@]}"; do
		# Split at \037, which read does not merge as it merges tabs: an
		# empty CORPUS stays empty.
		vals=$(. "$d/campaign.env" && printf '%s\037%s\037%s\037%s' "${CORPUS:-}" "${MASK:-}" "${CROSSOVER:-}" "${WEIGHTS:-}")
		IFS=$'\037' read -r -a values <<< "$vals"
		for v in "${values[@]}"; do
			IFS=, read -r -a list <<< "$v"
			for f in "${list[@]}"; do
				[ -n "$f" ] && [ -z "${seen[$f]:-}" ] || continue
				[ -f "$f" ] || die "$f, an input of $d/campaign.env: no such file"
				seen[$f]=1
				hosts_inputs+=("$f")
			done
		done
	done
}

# hosts_stage makes Parallel's arguments (hosts_args, hosts_cmd) and, for
# SHARED=0, the files the hosts get; in the campaign's shell, so that a
# problem stops it with its own message before any chunk runs.
hosts_stage() {
	# Parallel's --timeout, not timeout(1) in the command: timeout puts
	# the chunk in a process group of its own, which Parallel's remote
	# kill (on --halt, a failed chunk elsewhere) then misses, and the
	# chunk would run on, holding its journal, beside its resumed self.
	hosts_args=(--colsep '\t' --halt now,fail=1 --timeout 3600 --slf "$hosts_dir/sshlogins" --retries "$RETRIES" --joblog "+$hosts_dir/joblog")
	[ -n "${JOBS:-}" ] && hosts_args+=(-j "$JOBS")
	local script
	printf -v script %q "$here/scripts/campaign.sh"
	if [ "$SHARED" = 1 ]; then
		hosts_cmd="OUT={1} CAMPAIGN_CHUNK={2} $script"
		return
	fi
	# No shared filesystem. A campaign's directory is NAME under BASE:
	# the chunk runs in REMOTE_DIR/NAME on its host, with its
	# campaign.env, and its results come back to BASE/NAME (--return's
	# /./ splits the two). The inputs are at their own paths there
	# (hosts_check).
	local n d f
	if [ "${dirs[0]}" = "$root" ]; then hosts_base=$(dirname "$root"); else hosts_base=$root; fi
	rm -rf "$hosts_dir/stage" "$hosts_dir/local"
	for d in "${dirs[@]}"; do
		n=${d#"$hosts_base"/}
		mkdir -p "$hosts_dir/stage/$n"
		cp "$d/campaign.env" "$hosts_dir/stage/$n/campaign.env"
		hosts_args+=(--basefile "$hosts_dir/stage/./$n/campaign.env")
	done
	# A chunk's files come back as one tar: Parallel opens an ssh
	# connection for each file it returns and another to remove it,
	# nine a chunk for four files, and they cost the coordinator more
	# CPU than the chunk's own (scripts/hostspeed.sh). The tar is
	# renamed into place once whole, and lists .done last: a chunk
	# whose tar is unpacked in part is not done. A chunk that fails
	# sends its log back too.
	hosts_args+=(--return "$hosts_base/./{3}/chunk-{2}.tar" --wd "$REMOTE_DIR" --cleanup)
	hosts_cmd="OUT=\$PWD/{3} CAMPAIGN_CHUNK={2} $script; s=\$?; cd {3} && set -- &&"
	hosts_cmd+=" for f in results.jsonl.zst failures.jsonl log done; do [ ! -e chunk-{2}.\$f ] || set -- \"\$@\" chunk-{2}.\$f; done &&"
	hosts_cmd+=" tar -cf chunk-{2}.tar.part \"\$@\" && rm -f \"\$@\" && mv chunk-{2}.tar.part chunk-{2}.tar ||"
	hosts_cmd+=" { echo \"chunk {2}: its results cannot be packed\" >&2; s=2; }; exit \$s"
	# This machine (':') runs its chunks in REMOTE_DIR under Parallel's
	# working directory, without transfers: a link makes that BASE.
	mkdir -p "$hosts_dir/local/$(dirname "$REMOTE_DIR")"
	ln -sfn "$hosts_base" "$hosts_dir/local/$REMOTE_DIR"
}

# hosts_collect unpacks the chunks that came back (SHARED=0: a tar each)
# into their campaign's directory. A tar goes once all of it is out, so
# a collection cut short is done again; one collector at a time.
hosts_collect() {
	(
		flock 9
		local d t
		for d in "${dirs[@]}"; do
			for t in "$d"/chunk-*.tar; do
				[ -e "$t" ] || continue
				if tar -xf "$t" -C "$d"; then rm -f "$t"; else echo "campaign.sh: cannot unpack $t" >&2; fi
			done
		done
	) 9> "$hosts_dir/collect.lock"
}

# hosts_dispatch reads the chunks (DIR TAB INDEX lines) and runs them on
# the hosts; its status is Parallel's.
hosts_dispatch() {
	if [ "$SHARED" = 1 ]; then
		parallel "${hosts_args[@]}" "$hosts_cmd"
		return
	fi
	# Unpacked as they come, for the progress line and the next resume.
	(while sleep 2; do hosts_collect; done) &
	local d k collector=$! status=0
	while IFS=$'\t' read -r d k; do printf '%s\t%s\t%s\n' "$d" "$k" "${d#"$hosts_base"/}"; done |
		(cd "$hosts_dir/local" && parallel "${hosts_args[@]}" "$hosts_cmd") || status=$?
	kill "$collector" 2>/dev/null || true
	wait "$collector" 2>/dev/null || true
	return "$status"
}

# hosts_progress: chunks finished per host, for the progress line.
hosts_progress() {
	[ -s "$hosts_dir/joblog" ] || return 0
	awk -F'\t' '$1 != "Seq" && $7 == 0 { n[$2]++ } END { for (h in n) print h, n[h] }' "$hosts_dir/joblog" |
		sort | paste -sd, - | sed 's/,/, /g; s/$/ | /'
}

# hosts_finish collects what came back and prints each host's chunks and
# time over the campaign (resumed runs included) and the hosts left out
# this time; its status is 1 when a chunk is not done, which Parallel's
# status alone would not say should a chunk's results be lost on the way.
hosts_finish() {
	hosts_collect
	# The inputs copied to the hosts (SHARED=0), gone from the live ones.
	local i q f pids=()
	for i in "${!hosts_lines[@]}"; do
		[ -s "$hosts_dir/check/$i.need" ] && grep -qxF -- "${hosts_lines[$i]}" "$hosts_dir/sshlogins" || continue
		q=$(while IFS= read -r f; do printf ' %q' "$f"; done < "$hosts_dir/check/$i.need")
		timeout 120 parallel --slf "$hosts_dir/check/$i.slf" --nonall "rm -f --$q" > /dev/null 2>&1 &
		pids+=($!)
	done
	for i in "${pids[@]}"; do wait "$i" || true; done
	echo "== chunks per host (joblog $hosts_dir/joblog)"
	if [ -s "$hosts_dir/joblog" ]; then
		awk -F'\t' '$1 != "Seq" { if ($7 == 0) { n[$2]++; t[$2] += $4 } else f[$2]++; h[$2] = 1 }
			END { for (x in h) printf "  %-30s %d chunks in %d s%s\n", x, n[x], t[x], f[x] ? sprintf(", %d failed", f[x]) : "" }' \
			"$hosts_dir/joblog" | sort
	fi
	local line why
	while IFS=$'\t' read -r line why; do
		printf '  %-30s left out: %s\n' "$line" "$why"
	done < "$hosts_dir/dropped"
	local missing=0 k d
	for d in "${dirs[@]}"; do
		for k in $(seq 0 "$CHUNK" $((N - 1))); do [ -e "$d/chunk-$k.done" ] || missing=$((missing + 1)); done
	done
	[ "$missing" = 0 ] || { echo "campaign.sh: $missing chunks not done" >&2; return 1; }
}
