# SSH hosts made on this machine, for the scripts that need more than one
# host and have one machine: scripts/hosts_test.sh and scripts/hostspeed.sh
# source it (after defining die). Each host is a network namespace with a
# veth pair to this one (addresses of 10.213.0.0/16, which nothing else
# here uses), its own PID and mount namespace, and Debian's sshd on its
# own address with its own host key; a client key made here logs in as
# root. Killing a host kills everything that runs on it, as when a node
# dies: its sshd is the PID namespace's init.
#
# Needs root, ip (iproute2), unshare (util-linux) and openssh-server
# (scripts/setup.sh installs it). Nothing outside the caller's directory
# is written: no ~/.ssh, no /etc/ssh, no /run/sshd (each host mounts its
# own /run).
#
#   nshosts_init DIR              keys and the ssh command, under DIR
#   nshosts_add NAME [SETUP]      a host; SETUP is shell run in the host's
#                                 mount namespace before sshd starts (bind
#                                 mounts that give it its own files)
#   nshosts_kill NAME             kill the host: sshd and all it runs
#   nshosts_start NAME            start a killed host again
#   nshosts_runs NAME PATTERN     whether a process matching PATTERN runs there
#   nshosts_cleanup               kill every host, delete the namespaces
#
# After nshosts_add, nshosts_addr[NAME] is its address, and $nshosts_ssh
# the ssh command (as PARALLEL_SSH takes it) that logs in without asking
# and without touching ~/.ssh/known_hosts.

nshosts_dir=
nshosts_ssh=
nshosts_names=()
declare -A nshosts_addr=() nshosts_pid=() nshosts_ns=()
# The namespaces' names and the subnets carry this shell's PID, so that two
# runs side by side do not meet.
nshosts_tag=cliff$$

nshosts_init() {
	nshosts_dir=$1
	[ "$(id -u)" = 0 ] || die "needs root (ip netns, mount namespaces)"
	local t
	for t in ip unshare ssh ssh-keygen /usr/sbin/sshd; do
		command -v "$t" >/dev/null || die "$t is missing (scripts/setup.sh installs openssh-server, iproute2 and util-linux)"
	done
	mkdir -p "$nshosts_dir"
	chmod 700 "$nshosts_dir"
	ssh-keygen -q -t ed25519 -N '' -C cliff-nshosts -f "$nshosts_dir/client" </dev/null ||
		die "ssh-keygen failed for the client key"
	cp "$nshosts_dir/client.pub" "$nshosts_dir/authorized_keys"
	# -F /dev/null: the user's ~/.ssh/config plays no part; the known hosts
	# file is /dev/null, so a host key is neither checked nor recorded.
	# BatchMode: never a prompt. ConnectTimeout and ServerAlive bound a
	# connection to a dead host.
	nshosts_ssh="ssh -F /dev/null -i $nshosts_dir/client -o IdentitiesOnly=yes -o BatchMode=yes -o UserKnownHostsFile=/dev/null -o GlobalKnownHostsFile=/dev/null -o StrictHostKeyChecking=no -o LogLevel=ERROR -o ConnectTimeout=5 -o ServerAliveInterval=2 -o ServerAliveCountMax=3"
}

# nshosts_subnet I: the third octet of host I's /30-like /24, from this
# shell's PID so that concurrent runs differ; 0 and 255 are avoided.
nshosts_subnet() { echo $(((($$ % 50) * 5 + $1) % 254 + 1)); }

nshosts_add() {
	local name=$1 i=$((${#nshosts_names[@]} + 1)) net dir
	local ns=$nshosts_tag-$name veth=vc$(($$ % 100000))h$i
	net=10.213.$(nshosts_subnet "$i")
	if ip -4 -o addr show | grep -q " $net\."; then
		die "$net.0/24 is in use here: another hosts test running? (ip -4 addr)"
	fi
	dir=$nshosts_dir/$name
	mkdir -p "$dir"
	printf '%s\n' "${2:-}" > "$dir/setup"
	ssh-keygen -q -t ed25519 -N '' -C "cliff-nshosts-$name" -f "$dir/hostkey" </dev/null || die "ssh-keygen failed for $name's host key"
	cat > "$dir/sshd_config" <<-EOF
		ListenAddress $net.2
		Port 22
		HostKey $dir/hostkey
		PidFile none
		AuthorizedKeysFile $nshosts_dir/authorized_keys
		PermitRootLogin prohibit-password
		PubkeyAuthentication yes
		PasswordAuthentication no
		KbdInteractiveAuthentication no
		UsePAM no
		# The test's files live under /tmp, which is world-writable.
		StrictModes no
		PrintMotd no
		PrintLastLog no
		UseDNS no
		# Parallel opens a connection per job, and more to transfer.
		MaxStartups 100
		MaxSessions 100
		LogLevel ERROR
	EOF
	nshosts_names+=("$name")
	nshosts_ns[$name]=$ns
	ip netns add "$ns" || die "ip netns add $ns failed"
	ip link add "$veth" type veth peer name "${veth}p" || die "ip link add $veth failed"
	ip link set "${veth}p" netns "$ns"
	ip addr add "$net.1/24" dev "$veth"
	ip link set "$veth" up
	ip -n "$ns" link set lo up
	ip -n "$ns" link set "${veth}p" name eth0
	ip -n "$ns" addr add "$net.2/24" dev eth0
	ip -n "$ns" link set eth0 up
	nshosts_addr[$name]=$net.2
	nshosts_start "$name"
}

# nshosts_start NAME starts the host's sshd (again, after nshosts_kill)
# and waits until it takes a login.
nshosts_start() {
	local name=$1 dir=$nshosts_dir/$1 tries
	# sshd is PID 1 of its own PID namespace: --kill-child makes the
	# namespace die with this unshare, and with it every process the host
	# runs. Its own /run holds sshd's privilege separation directory.
	setsid ip netns exec "${nshosts_ns[$name]}" unshare --pid --mount-proc --kill-child=SIGKILL --propagation private \
		/bin/sh -c "mount -t tmpfs nshost-run /run && mkdir -p /run/sshd && chmod 755 /run/sshd && $(cat "$dir/setup")
			exec /usr/sbin/sshd -D -e -f '$dir/sshd_config'" \
		</dev/null >"$dir/sshd.log" 2>&1 &
	nshosts_pid[$name]=$!
	for tries in $(seq 50); do
		# shellcheck disable=SC2086 # the ssh command is words
		if timeout 10 $nshosts_ssh "root@${nshosts_addr[$name]}" true 2>/dev/null; then return 0; fi
		kill -0 "${nshosts_pid[$name]}" 2>/dev/null || die "host $name: sshd exited: $(tail -n 5 "$dir/sshd.log")"
		sleep 0.2
	done
	die "host $name (${nshosts_addr[$name]}): no login after 10 s: $(tail -n 5 "$dir/sshd.log")"
}

# nshosts_runs NAME PATTERN: true when a process whose command line
# (arguments joined by spaces) matches the grep PATTERN runs on the host.
nshosts_runs() {
	local p
	for p in $(ip netns pids "${nshosts_ns[$1]}" 2>/dev/null); do
		# A process may end between the listing and the read.
		{ tr '\0' ' ' < "/proc/$p/cmdline"; } 2>/dev/null | grep -q -- "$2" && return 0
	done
	return 1
}

nshosts_kill() {
	local pid=${nshosts_pid[$1]:-}
	[ -n "$pid" ] || return 0
	kill -KILL "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	nshosts_pid[$1]=
}

nshosts_cleanup() {
	local name
	for name in "${nshosts_names[@]}"; do
		nshosts_kill "$name"
		# The veth pair goes with the namespace.
		ip netns del "${nshosts_ns[$name]}" 2>/dev/null || true
	done
	nshosts_names=()
}
