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
#   SHARED=0            nothing shared: Parallel copies the campaign's
#                       inputs (campaign.env, the corpora, mask, crossover
#                       parents and weights: --basefile, once per host) to
#                       REMOTE_DIR (relative to the login directory; default
#                       .cliff/campaign-<hash of this host and $OUT>), a
#                       chunk is made again there from seed and index, and
#                       only its results come back (--return, then
#                       --cleanup). Needs rsync here and on the hosts.
#
# Before dispatch each host is checked, side by side, by the command a
# chunk needs there: cliff at the same path, `cliff-run --check-tools` for
# the campaign's targets (with CRANELIFT, its drivers), the shared
# filesystem (SHARED=1: the host reads a token written into $OUT) or rsync
# (SHARED=0). A host that fails is reported by name, with the first line
# that says why, and left out: its chunks go to the others, and it cannot
# end the campaign with harness errors. With no host left the campaign
# stops (exit 2).
#
# A chunk whose host dies (ssh exits 255) or that fails is tried again on
# another host, RETRIES times in all (default 3, Parallel's --retries); the
# campaign stops when one fails on every try. scripts/campaign.sh --resume
# checks the hosts again (HOSTS may name others by then) and runs the
# unfinished chunks anywhere: on a shared filesystem cliff-run --resume
# keeps the cases a dead host had finished; without one a chunk is made
# again whole. $OUT/hosts/joblog (Parallel's --joblog, appended to on
# resume) says which host ran which chunk, for how long.
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
	local i why status arches token q_here q_token
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
	: > "$hosts_dir/sshlogins"
	: > "$hosts_dir/dropped"
	for i in "${!hosts_lines[@]}"; do
		status=0
		wait "${pids[$i]}" || status=$?
		if [ "$status" = 0 ]; then
			printf '%s\n' "${hosts_lines[$i]}" >> "$hosts_dir/sshlogins"
			continue
		fi
		case $status in
		124) why="no answer in 300 s" ;;
		*) why=$(grep -v -e ': ok: ' -e '^parallel: Warning' "$hosts_dir/check/$i.log" | grep -m1 . || echo "check failed (exit $status)") ;;
		esac
		printf '%s\t%s\n' "${hosts_lines[$i]}" "$why" >> "$hosts_dir/dropped"
		echo "campaign.sh: host ${hosts_lines[$i]} left out: $why" >&2
	done
	[ -s "$hosts_dir/sshlogins" ] || die "no host of $HOSTS can run chunks (see $hosts_dir/check/*.log)"
	echo "== hosts: $(wc -l < "$hosts_dir/sshlogins") of ${#hosts_lines[@]} pass the check"
	hosts_stage
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
	# the chunk runs in REMOTE_DIR/NAME on its host, and its results
	# come back to BASE/NAME (--return's /./ splits the two).
	local stage n d src dst f var value list vals corpus mask crossover weights files
	if [ "${dirs[0]}" = "$root" ]; then hosts_base=$(dirname "$root"); else hosts_base=$root; fi
	stage=$hosts_dir/stage
	rm -rf "$stage" "$hosts_dir/local"
	mkdir -p "$stage/inputs"
	local -A staged=()
	for d in "${dirs[@]}"; do
		n=${d#"$hosts_base"/}
		mkdir -p "$stage/$n"
		cp "$d/campaign.env" "$stage/$n/campaign.env"
		# The inputs under their staged names, as the host sees them
		# ($PWD is the work dir when the chunk reads campaign.env).
		vals=$(. "$d/campaign.env" && printf '%s\t%s\t%s\t%s' "${CORPUS:-}" "${MASK:-}" "${CROSSOVER:-}" "${WEIGHTS:-}")
		IFS=$'\t' read -r corpus mask crossover weights <<< "$vals"
		for var in CORPUS MASK CROSSOVER WEIGHTS; do
			case $var in CORPUS) value=$corpus ;; MASK) value=$mask ;; CROSSOVER) value=$crossover ;; WEIGHTS) value=$weights ;; esac
			[ -n "$value" ] || continue
			list=
			IFS=, read -r -a files <<< "$value"
			for src in "${files[@]}"; do
				[ -f "$src" ] || die "$var $src: no such file"
				if [ -z "${staged[$src]:-}" ]; then
					f=${src##*/}
					dst=${#staged[@]}-${f//[^A-Za-z0-9._-]/_}
					ln -f "$src" "$stage/inputs/$dst" 2>/dev/null || cp "$src" "$stage/inputs/$dst"
					staged[$src]=$dst
				fi
				list+=${list:+,}\$PWD/inputs/${staged[$src]}
			done
			printf '%s="%s"\n' "$var" "$list" >> "$stage/$n/campaign.env"
		done
		hosts_args+=(--basefile "$stage/./$n/campaign.env")
	done
	for f in "$stage"/inputs/*; do
		[ -e "$f" ] && hosts_args+=(--basefile "$stage/./inputs/${f##*/}")
	done
	for f in results.jsonl.zst failures.jsonl log done; do
		hosts_args+=(--return "$hosts_base/./{3}/chunk-{2}.$f")
	done
	hosts_args+=(--wd "$REMOTE_DIR" --cleanup)
	hosts_cmd="OUT=\$PWD/{3} CAMPAIGN_CHUNK={2} $script"
	# This machine (':') runs its chunks in REMOTE_DIR under Parallel's
	# working directory, without transfers: a link makes that BASE.
	mkdir -p "$hosts_dir/local/$(dirname "$REMOTE_DIR")"
	ln -sfn "$hosts_base" "$hosts_dir/local/$REMOTE_DIR"
}

# hosts_dispatch reads the chunks (DIR TAB INDEX lines) and runs them on
# the hosts; its status is Parallel's.
hosts_dispatch() {
	if [ "$SHARED" = 1 ]; then
		parallel "${hosts_args[@]}" "$hosts_cmd"
		return
	fi
	local d k
	while IFS=$'\t' read -r d k; do printf '%s\t%s\t%s\n' "$d" "$k" "${d#"$hosts_base"/}"; done |
		(cd "$hosts_dir/local" && parallel "${hosts_args[@]}" "$hosts_cmd")
}

# hosts_progress: chunks finished per host, for the progress line.
hosts_progress() {
	[ -s "$hosts_dir/joblog" ] || return 0
	awk -F'\t' '$1 != "Seq" && $7 == 0 { n[$2]++ } END { for (h in n) printf "%s %d, ", h, n[h] }' "$hosts_dir/joblog" |
		sed 's/, $/ | /'
}

# hosts_summary: each host's chunks and time over the campaign (resumed
# runs included), and the hosts left out this time.
hosts_summary() {
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
}
