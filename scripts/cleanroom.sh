#!/usr/bin/env bash
# Runs the README's set-up command, then tests, in a clean room: a minimal
# Debian root (debootstrap --variant=minbase, plus ca-certificates) that has
# nothing installed by hand. CI runs on the developer's own machine, where
# packages installed by hand hide a missing install step in scripts/setup.sh;
# here such a step fails (no gcc, make, qemu or cross compiler is in the
# root until setup.sh installs it).
#
#   scripts/cleanroom.sh            setup.sh, then go vet ./... and the tests
#                                   of lib/harness, lib/engine and cmd/run
#   scripts/cleanroom.sh --full     setup.sh, then all of scripts/test.sh
#   scripts/cleanroom.sh --keep     leave the working copy (unmounted) for
#                                   debugging; the path is printed
#   scripts/cleanroom.sh --rebuild  build the base root again first
#
# Needs root, debootstrap (apt-get install debootstrap), git, go, cargo and
# ../shared (or $CLIFF_SHARED). Exit status: 0 both passed, 1 setup.sh or
# the tests failed (the step is printed), 2 the clean room itself failed.
#
# The base root is built once, from the host's Debian mirror, and kept as a
# tarball in $CLIFF_CLEANROOM_CACHE (default ~/.cache/cliff/cleanroom),
# named by BASE_VERSION below: change the recipe, bump it. Each run unpacks
# it into a fresh working copy there, copies in the host's apt sources
# (bookworm, -updates, -security: the same package versions as the host),
# resolv.conf, Go's settings file (go env -w), and the clone's files as they are in the work tree (tracked
# and untracked, not ignored: `git ls-files -co --exclude-standard`) to
# /work/main, dated now as in a fresh clone (so cargo links the driver
# again: its warm build directory would hide a missing linker or libc6-dev),
# and mounts:
#   /work/shared                    ../shared, read-only
#   $GOROOT (/usr/local/go)         the Go toolchain, read-only
#   /root/.rustup, /root/.cargo     the Rust toolchain and crate registry
#   /root/go/pkg/mod, /root/.cache/go-build      Go's module and build caches
#   /root/.cache/cliff/cargo-target the driver's cargo build directory
#   /var/cache/apt/archives         $CACHE/apt-archives: .debs downloaded once
#   /proc, and a minimal /dev on a tmpfs
# It mounts in a private mount namespace (unshare), so the host never sees
# these mounts, and unmounts them all in any case, also on failure and
# Ctrl-C; a working copy is deleted only once nothing is mounted under it,
# and one left by a killed run is removed by the next. Inside: HOME=/root,
# PATH with go and cargo, CAMPAIGN_CASES=40 (set it to override), CI
# passed through. debootstrap, apt and the two steps inside are each
# bounded by `timeout`.
#
# Times on the 2-core machine: building the base (cold) 50-80 s; the first
# run's .debs (230 MB) download in seconds; the copy 1-10 s; setup.sh 2-4
# minutes (apt 30 s, then mostly Cranelift's run tests); the default tests
# 1.5-2.5 minutes, --full 3.5. In all, a warm run 3.5-4 minutes on a quiet
# machine (6.5 on a busy one), a cold one (no cache) 5.
#
# Environment: CLIFF_CLEANROOM_CACHE, CAMPAIGN_CASES, CLIFF_SHARED,
# CLIFF_CLEANROOM_TESTS (the shell command run as the tests, in /work/main),
# CLIFF_CLEANROOM_UNSHARE=0 (mount in the host's namespace instead).
set -euo pipefail

BASE_VERSION=bookworm-minbase-1 # the recipe of build_base; bump when it changes
SUITE=bookworm
DEBOOTSTRAP_TIMEOUT=20m
APT_TIMEOUT=20m
SETUP_TIMEOUT=40m # setup.sh and the tests together: at most an hour
TESTS_TIMEOUT=20m
MARK=.cleanroom-mountpoint # left in every mount point, seen only when unmounted

die() { echo "cleanroom.sh: $*" >&2; exit 2; }

full=0 keep=0 rebuild=0
for arg in "$@"; do
	case "$arg" in
	--full) full=1 ;;
	--keep) keep=1 ;;
	--rebuild) rebuild=1 ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument $arg (see --help)" ;;
	esac
done

self=$(realpath "$0")
repo=$(cd "$(dirname "$self")/.." && pwd)
[ "$(id -u)" = 0 ] || die "must run as root (debootstrap, mount and chroot)"
command -v debootstrap >/dev/null || die "debootstrap is missing: apt-get install debootstrap"
shared=$(realpath -m "${CLIFF_SHARED:-$repo/../shared}")
[ -d "$shared" ] || die "$shared (../shared, the test data) is missing; set CLIFF_SHARED"
command -v git >/dev/null || die "git is missing: apt-get install git"
command -v go >/dev/null || die "go is not on PATH"
command -v cargo >/dev/null || die "cargo is not on PATH"
cache=${CLIFF_CLEANROOM_CACHE:-$HOME/.cache/cliff/cleanroom}
mkdir -p "$cache"
cache=$(realpath "$cache")
case "$cache" in *[[:space:]\\]*) die "the cache path must not contain blanks: $cache" ;; esac

# The host's paths, mounted at the same place (GOROOT) or at the defaults
# under HOME=/root inside.
goroot=$(go env GOROOT)
gomodcache=$(go env GOMODCACHE)
gocache=$(go env GOCACHE)
goenv=$(go env GOENV)
cargo_home=${CARGO_HOME:-$HOME/.cargo}
rustup_home=${RUSTUP_HOME:-$HOME/.rustup}
cargo_target=${CARGO_TARGET_DIR:-$HOME/.cache/cliff/cargo-target}
sources=/etc/apt/sources.list.d/debian.sources
[ -f "$sources" ] || sources=/etc/apt/sources.list
[ -f "$sources" ] || die "no apt sources on the host ($sources)"
base=$cache/base-$BASE_VERSION.tar
archives=$cache/apt-archives
mkdir -p "$archives/partial" "$gomodcache" "$gocache" "$cargo_target"

start=$SECONDS
phase_start=$SECONDS
report=()
running="" # the phase under way
phase() { # NAME [NOTE]: one line for the phase that just ended
	report+=("$(printf 'cleanroom: %-9s %5ds%s' "$1" $((SECONDS - phase_start)) "${2:+  $2}")")
	phase_start=$SECONDS
	running=""
}

# ---- mounts and their undoing ----------------------------------------------
mounts=() # mount points, in the order mounted

# under DIR: the mount points at or below DIR, deepest first.
under() {
	findmnt -rn -o TARGET | awk -v d="$1" '$0 == d || index($0, d "/") == 1' | sort -r
}

mnt() { # mount ARGS... TARGET: mounts and records TARGET (the last argument)
	local target=${!#}
	mkdir -p "$target"
	mounts+=("$target")
	mount "$@"
}

binds=() # the bind mounts' points, each marked underneath
bind() { # SRC DST [ro]
	mkdir -p "$2"
	touch "$2/$MARK"
	binds+=("$2")
	mnt --bind "$1" "$2"
	if [ "${3:-}" = ro ]; then
		mount -o remount,bind,ro "$2"
	fi
}

# kill_inside ROOT: ends the processes whose root is ROOT (the chroot's), by id.
kill_inside() {
	local sig p pids
	for sig in TERM TERM TERM KILL; do
		pids=()
		for p in /proc/[0-9]*; do
			[ "$(readlink "$p/root" 2>/dev/null)" = "$1" ] && pids+=("${p#/proc/}")
		done
		[ ${#pids[@]} = 0 ] && return 0
		kill -s "$sig" "${pids[@]}" 2>/dev/null
		sleep 2
	done
}

# release DIR: unmounts everything at or under DIR, the recorded mounts in
# reverse order first, lazily when busy. Fails when anything is left.
release() {
	local dir=$1 i t
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		t=${mounts[i]}
		case "$t" in "$dir"/*) ;; *) continue ;; esac
		if mountpoint -q "$t"; then
			umount "$t" 2>/dev/null || umount -l "$t" || true
		fi
	done
	for t in $(under "$dir"); do # what debootstrap or a killed run left
		umount "$t" 2>/dev/null || umount -l "$t" || true
	done
	[ -z "$(under "$dir")" ]
}

# remove DIR: deletes a working copy, only when nothing is mounted under it
# and every bind mount point shows its mark again (a bind mount of the
# host's toolchain or caches still in place would otherwise be emptied too:
# they are on the same file system, which --one-file-system cannot tell).
remove() {
	local dir=$1 t
	[ -e "$dir" ] || return 0
	if ! release "$dir"; then
		echo "cleanroom: NOT deleting $dir: still mounted there: $(under "$dir" | tr '\n' ' ')" >&2
		return 1
	fi
	for t in "${binds[@]}"; do
		case "$t" in "$dir"/*) ;; *) continue ;; esac
		if mountpoint -q "$t" || [ ! -e "$t/$MARK" ]; then
			echo "cleanroom: NOT deleting $dir: $t may still be mounted" >&2
			return 1
		fi
	done
	rm -rf --one-file-system -- "$dir"
}

# ---- the lock, what killed runs left, the namespace --------------------------
# In the host's namespace: one run at a time (the lock is inherited through
# the exec below), and the working copies of a run that was killed, with
# anything still mounted there, removed.
if [ "${_CLIFF_CLEANROOM_NS:-}" != 1 ]; then
	exec 9>"$cache/lock"
	flock -n 9 || die "another clean room run holds $cache/lock"
	for d in "$cache"/work.* "$cache"/build.*; do
		[ -d "$d" ] || continue
		if [ -e "$d/KEEP" ]; then
			echo "cleanroom: note: $d was kept by --keep"
			continue
		fi
		echo "cleanroom: removing $d, left by an earlier run"
		kill_inside "$d/root"
		remove "$d" || die "could not unmount everything under $d"
	done

	# Everything else runs in a mount namespace of its own: the host never
	# sees the mounts, and they vanish with its last process, whatever
	# happens to this one.
	if [ "${CLIFF_CLEANROOM_UNSHARE:-1}" != 0 ]; then
		if unshare --mount --propagation private true 2>/dev/null; then
			export _CLIFF_CLEANROOM_NS=1
			exec unshare --mount --propagation private -- bash "$self" "$@"
		fi
		echo "cleanroom: unshare --mount does not work here; mounting in the host's namespace"
	fi
fi

# ---- clean-up, on every exit ------------------------------------------------
child=""      # the timeout process of the step running inside
workdirs=()   # working copies to release (and delete unless --keep)
builddirs=()  # base builds to release and delete
failed=""     # the step that failed

on_signal() {
	echo "cleanroom: interrupted ($1), cleaning up" >&2
	failed=${failed:-"interrupted by SIG$1"}
	trap - INT TERM HUP
	exit $((128 + $(kill -l "$1")))
}

cleanup() {
	local status=$? d ok=1 cleanup_start=$SECONDS
	set +e
	trap - INT TERM HUP
	if [ -n "$child" ]; then
		kill -s TERM "$child" 2>/dev/null
		for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$child" 2>/dev/null || break; sleep 1; done
		kill -s KILL "$child" 2>/dev/null
	fi
	for d in "${builddirs[@]}" "${workdirs[@]}"; do
		[ -d "$d" ] && kill_inside "$d/root"
	done
	for d in "${builddirs[@]}"; do
		remove "$d" || ok=0
	done
	for d in "${workdirs[@]}"; do
		[ -d "$d" ] || continue
		if [ "$keep" = 1 ]; then
			if release "$d"; then
				touch "$d/KEEP"
				echo "cleanroom: kept $d/root (nothing mounted; rm -rf --one-file-system $d when done)"
			else
				ok=0
				echo "cleanroom: could not unmount everything under $d" >&2
			fi
		else
			remove "$d" || ok=0
		fi
	done
	if [ -n "$running" ]; then # with the time it took up to the failure
		report+=("$(printf 'cleanroom: %-9s %5ds  %s' "$running" $((cleanup_start - phase_start)) "not finished")")
		phase_start=$cleanup_start
	fi
	phase cleanup
	for line in "${report[@]}"; do echo "$line"; done
	echo "cleanroom: total     $((SECONDS - start))s"
	if [ "$ok" = 0 ]; then
		echo "cleanroom: FAILED to clean up (see above)" >&2
		[ "$status" = 0 ] && status=2
	fi
	if [ -n "$failed" ]; then
		echo "cleanroom: FAILED: $failed" >&2
	elif [ "$status" != 0 ]; then
		echo "cleanroom: FAILED: the clean room itself (exit $status, see above)" >&2
		status=2
	else
		echo "cleanroom: passed"
	fi
	exit "$status"
}
trap cleanup EXIT
trap 'on_signal INT' INT
trap 'on_signal TERM' TERM
trap 'on_signal HUP' HUP

# Runs a command in the background, bounded, so that a signal reaches the
# trap at once; returns its status.
bounded() { # LIMIT CMD...
	timeout --kill-after=30s "$@" 9>&- &
	child=$!
	local status=0
	wait "$child" || status=$?
	child=""
	return "$status"
}

# ---- the root ---------------------------------------------------------------
# A working root's system files: the host's apt sources, its Acquire
# settings (e.g. Check-Valid-Until for a snapshot mirror), name resolution,
# no services started by packages.
etc_files() { # ROOT
	local r=$1 f
	rm -f "$r/etc/apt/sources.list" "$r"/etc/apt/sources.list.d/*
	cp "$sources" "$r/etc/apt/${sources#/etc/apt/}"
	for f in /etc/apt/apt.conf.d/*; do
		[ -f "$f" ] || continue
		if grep -q '^[[:space:]]*Acquire::' "$f" && ! grep -q 'Invoke' "$f"; then
			cp "$f" "$r/etc/apt/apt.conf.d/"
		fi
	done
	cp -L /etc/resolv.conf "$r/etc/resolv.conf"
	# The network's own certificate authorities (a TLS-inspecting egress
	# proxy's, which the host keeps in /usr/local/share/ca-certificates):
	# part of the network, as resolv.conf is, not something set-up could
	# install. cliff-run asks crates.io which rust-version a release needs.
	if compgen -G '/usr/local/share/ca-certificates/*.crt' > /dev/null; then
		mkdir -p "$r/usr/local/share/ca-certificates"
		cp /usr/local/share/ca-certificates/*.crt "$r/usr/local/share/ca-certificates/"
		cat /usr/local/share/ca-certificates/*.crt >> "$r/etc/ssl/certs/ca-certificates.crt"
	fi
	printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n' > "$r/etc/hosts"
	printf '#!/bin/sh\nexit 101\n' > "$r/usr/sbin/policy-rc.d"
	chmod 755 "$r/usr/sbin/policy-rc.d"
}

# /proc, and a minimal /dev on a tmpfs (with a devpts of its own, for
# apt's log).
sys_mounts() { # ROOT
	local r=$1
	mnt -t proc proc "$r/proc"
	mnt -t tmpfs -o mode=755,nosuid devtmp "$r/dev"
	mknod -m 666 "$r/dev/null" c 1 3
	mknod -m 666 "$r/dev/zero" c 1 5
	mknod -m 666 "$r/dev/full" c 1 7
	mknod -m 666 "$r/dev/random" c 1 8
	mknod -m 666 "$r/dev/urandom" c 1 9
	mknod -m 666 "$r/dev/tty" c 5 0
	mkdir -m 1777 "$r/dev/shm"
	mnt -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts "$r/dev/pts"
	ln -s pts/ptmx "$r/dev/ptmx"
	ln -s /proc/self/fd "$r/dev/fd"
	ln -s /proc/self/fd/0 "$r/dev/stdin"
	ln -s /proc/self/fd/1 "$r/dev/stdout"
	ln -s /proc/self/fd/2 "$r/dev/stderr"
}

# in_root ROOT: sets cmd to the command prefix that runs a command in the
# root with a clean environment.
in_root() {
	cmd=(chroot "$1" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}"
		PATH="$goroot/bin:/root/.cargo/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
		CI="${CI:-}" CAMPAIGN_CASES="${CAMPAIGN_CASES:-40}" DEBIAN_FRONTEND=noninteractive)
}

# The host's mirror for SUITE, from its sources.
mirror() {
	awk -v s="$SUITE" 'BEGIN { RS = "" }
		$0 ~ "(^|\n)Suites:([^\n]* )?" s "( |\n|$)" && match($0, /(^|\n)URIs: *[^ \n]+/) {
			u = substr($0, RSTART, RLENGTH); sub(/.*URIs: */, "", u); print u; exit }' "$sources"
	awk -v s="$SUITE" '$1 == "deb" && $3 == s { print $2; exit }' "$sources"
}

build_base() {
	local b r url
	b=$(mktemp -d "$cache/build.XXXXXX")
	builddirs+=("$b")
	r=$b/root
	url=$(mirror | head -n 1)
	url=${url:-http://deb.debian.org/debian}
	echo "cleanroom: building the base root ($BASE_VERSION) from $url"
	bounded "$DEBOOTSTRAP_TIMEOUT" debootstrap --variant=minbase --include=ca-certificates \
		"$SUITE" "$r" "$url" > "$b/debootstrap.log" 2>&1 || {
		tail -n 20 "$b/debootstrap.log" >&2
		die "debootstrap failed (log above)"
	}
	release "$r" || die "debootstrap left mounts under $r"
	# The point release and security updates the host gets: nothing new
	# installed, the same versions as the host.
	etc_files "$r"
	sys_mounts "$r"
	in_root "$r"
	bounded "$APT_TIMEOUT" "${cmd[@]}" sh -c 'apt-get update && apt-get upgrade -y && apt-get clean' \
		> "$b/upgrade.log" 2>&1 || {
		tail -n 20 "$b/upgrade.log" >&2
		die "apt-get upgrade of the base root failed (log above)"
	}
	release "$r" || die "could not unmount under $r"
	rm -rf "${r:?}"/var/lib/apt/lists/* "$r/etc/resolv.conf"
	timeout 10m tar -C "$r" --numeric-owner -cpf "$base.tmp" .
	mv "$base.tmp" "$base"
	rm -f "$cache"/base-*.tar.tmp
	for f in "$cache"/base-*.tar; do
		[ "$f" = "$base" ] || rm -f "$f"
	done
	remove "$b" || die "could not delete $b"
}

# ---- 1. the base ------------------------------------------------------------
running=base
if [ "$rebuild" = 1 ] || [ ! -f "$base" ]; then
	build_base
	phase base "built $(basename "$base") ($(du -m "$base" | cut -f1) MB)"
else
	phase base "reused $(basename "$base")"
fi

# ---- 2. the working copy ----------------------------------------------------
running=copy
work=$(mktemp -d "$cache/work.XXXXXX")
workdirs+=("$work")
root=$work/root
mkdir "$root"
timeout 10m tar -C "$root" --numeric-owner -xpf "$base"
etc_files "$root"
if [ -f "$goenv" ]; then # the Go toolchain's settings (go env -w)
	mkdir -p "$root/root/.config/go"
	cp "$goenv" "$root/root/.config/go/env"
fi
mkdir -p "$root/work/main"
(
	cd "$repo"
	git ls-files -z -co --exclude-standard |
		while IFS= read -r -d '' f; do
			if [ -e "$f" ] || [ -L "$f" ]; then printf '%s\0' "$f"; fi # not deleted
		done |
		tar --null -T - -cf -
) | tar -C "$root/work/main" -xpmf - # -m: the time of copying, as in a fresh clone
files=$(git -C "$repo" ls-files -co --exclude-standard | wc -l)
sys_mounts "$root"
bind "$shared" "$root/work/shared" ro
bind "$goroot" "$root$goroot" ro
bind "$rustup_home" "$root/root/.rustup"
bind "$cargo_home" "$root/root/.cargo"
bind "$gomodcache" "$root/root/go/pkg/mod"
bind "$gocache" "$root/root/.cache/go-build"
bind "$cargo_target" "$root/root/.cache/cliff/cargo-target"
bind "$archives" "$root/var/cache/apt/archives"
phase copy "$files files of the work tree, $work"

# ---- 3. setup.sh and the tests inside ---------------------------------------
echo "== cleanroom: scripts/setup.sh (CAMPAIGN_CASES=${CAMPAIGN_CASES:-40})"
running=setup.sh
status=0
in_root "$root"
bounded "$SETUP_TIMEOUT" "${cmd[@]}" bash -c 'cd /work/main && scripts/setup.sh' || status=$?
if [ "$status" != 0 ]; then
	[ "$status" = 124 ] && failed="setup.sh timed out after $SETUP_TIMEOUT" ||
		failed="scripts/setup.sh exited $status"
	phase setup.sh "failed (exit $status)"
	phase tests "skipped"
	exit 1
fi
phase setup.sh "passed"

if [ -n "${CLIFF_CLEANROOM_TESTS:-}" ]; then
	tests=$CLIFF_CLEANROOM_TESTS
elif [ "$full" = 1 ]; then
	tests=scripts/test.sh
else
	tests="go vet ./... && go test -count=1 ./lib/harness/... ./lib/engine/... ./cmd/run/..."
fi
echo "== cleanroom: $tests"
running=tests
bounded "$TESTS_TIMEOUT" "${cmd[@]}" bash -c "cd /work/main && $tests" || status=$?
if [ "$status" != 0 ]; then
	[ "$status" = 124 ] && failed="the tests timed out after $TESTS_TIMEOUT" ||
		failed="the tests ($tests) exited $status"
	phase tests "failed (exit $status)"
	exit 1
fi
phase tests "passed"

# ---- 4. a missing piece stops set-up with one line --------------------------
# Only here may a package be removed. Without libc6-dev-arm64-cross (what
# apt leaves out when gcc-aarch64-linux-gnu is installed without its
# recommendations) the toolchain check must name it; setup.sh must put it
# back; and a cross compiler that still lacks its C library (a stand-in
# first on PATH) must stop setup.sh with one line naming the package.
echo "== cleanroom: a missing C library stops set-up with one line"
running=broken
# shellcheck disable=SC2016 # expands inside the clean room
broken='set -u
cd /work/main
want="(install the Debian package libc6-dev-arm64-cross)"
dpkg -r --force-depends libc6-dev-arm64-cross >/dev/null 2>&1 || { echo "dpkg -r libc6-dev-arm64-cross failed"; exit 1; }
out=$(bin/cliff-run --check-tools --arch aarch64 2>&1); status=$?
echo "without the package: $out (exit $status)"
[ "$status" = 2 ] && [ "$(wc -l <<< "$out")" = 1 ] && grep -qF "$want" <<< "$out" || { echo "the check did not name the package in one line"; exit 1; }
scripts/setup.sh --no-run >/dev/null 2>&1 || { echo "setup.sh did not put the package back"; exit 1; }
dpkg-query -W -f="\${Status}" libc6-dev-arm64-cross | grep -q "install ok installed" || { echo "setup.sh did not reinstall libc6-dev-arm64-cross"; exit 1; }
mkdir -p /tmp/fake
printf "#!/bin/sh\nPATH=\${PATH#*:}\nexec aarch64-linux-gnu-gcc -nostdinc -isystem \"\$(aarch64-linux-gnu-gcc -print-file-name=include)\" \"\$@\"\n" > /tmp/fake/aarch64-linux-gnu-gcc
chmod 755 /tmp/fake/aarch64-linux-gnu-gcc
err=$(PATH=/tmp/fake:$PATH scripts/setup.sh --no-run 2>&1 >/dev/null); status=$?
echo "with a compiler that lacks its C library, setup.sh said: $err (exit $status)"
[ "$status" = 1 ] && [ "$(wc -l <<< "$err")" = 1 ] && grep -q "^setup.sh: aarch64: .*$want" <<< "$err" || { echo "setup.sh did not stop with one line naming the package"; exit 1; }'
bounded 10m "${cmd[@]}" bash -c "$broken" || status=$?
if [ "$status" != 0 ]; then
	failed="the missing-piece check exited $status"
	phase broken "failed (exit $status)"
	exit 1
fi
phase broken "passed"
