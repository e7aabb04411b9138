#!/usr/bin/env bash
# Unpacks Debian 12's QEMU 7.2 (qemu-user-static from bookworm) into
# ~/.cache/cliff/qemu/7.2, beside the QEMU 10 that set-up installs, and
# prints the directory of its binaries: point cliff at it with
#
#   CLIFF_QEMU=$(scripts/qemu72.sh) bin/cliff-run ...
#
# to run under 7.2 (the fallback where bookworm-backports is out of
# reach), to re-check a QEMU finding on it, or to compare the two
# (scripts/qemuspeed.sh). Nothing is installed: the package is downloaded
# with apt-get download and unpacked with dpkg-deb -x. An unpacked copy is
# reused.
set -euo pipefail

die() {
	echo "qemu72.sh: $*" >&2
	exit 1
}

cache=${XDG_CACHE_HOME:-$HOME/.cache}/cliff/qemu/7.2
bin=$cache/root/usr/bin
if [ -x "$bin/qemu-riscv64-static" ]; then
	echo "$bin"
	exit 0
fi
# The 7.2 build bookworm itself ships (not backports' transitional one).
version=$(apt-cache madison qemu-user-static 2>/dev/null | awk -F'|' '$2 ~ /^ *1:7\.2/ {gsub(/ /, "", $2); print $2; exit}')
[ -n "$version" ] || die "no QEMU 7.2 qemu-user-static in apt's lists (apt-get update; is bookworm in the sources?)"
mkdir -p "$cache"
tmp=$(mktemp -d "$cache/.download-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# apt-get download writes into the current directory; _apt cannot write
# to a private one, so it may warn and download unsandboxed: harmless.
(cd "$tmp" && timeout 600 apt-get download -qq "qemu-user-static=$version" 2>/dev/null) ||
	die "apt-get download qemu-user-static=$version failed"
deb=$(ls "$tmp"/*.deb)
rm -rf "$cache/root"
dpkg-deb -x "$deb" "$tmp/root" || die "dpkg-deb -x $deb failed"
mv "$tmp/root" "$cache/root"
[ -x "$bin/qemu-riscv64-static" ] || die "$deb holds no qemu-riscv64-static"
echo "$bin"
