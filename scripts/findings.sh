#!/usr/bin/env bash
# The findings matrix: every finding file (lib/profile/data/findings) run
# on every Cranelift release given, one driver at a time.
#
#   scripts/findings.sh [SPEC...]     default: the newest patch release of
#                                     every minor release from 0.120 on
#
# Writes $OUT/matrix.md (OUT=out/findings): one row per finding, one
# column per release (reproduces, fails otherwise, fixed, cannot build,
# cannot run, with the reasons; a finding reproduces where it fails the
# way it does on 0.135.8, where the findings were made,
# findings/expected/0.135.8.txt), the first and last release that reproduce each finding,
# the build time of each driver (0 when cached) and the whole run's time.
# Drivers are built as cliff-cranelift builds them and stay in
# ~/.cache/cliff/drivers: a second run builds nothing. ARCH=x86_64 (say)
# runs the findings on one architecture only.
#
# Exit status: 0 the matrix is written, 2 an error.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-out/findings}
mkdir -p "$out"
make -s build >/dev/null
specs=()
for s in "$@"; do specs+=(--cranelift "$s"); done
arch=()
[ -n "${ARCH:-}" ] && arch=(--arch "$ARCH")
start=$(date +%s)
bin/cliff-cranelift matrix "${specs[@]}" "${arch[@]}" --expect lib/profile/data/findings/expected/0.135.8.txt \
	-o "$out/matrix.md" lib/profile/data/findings/*.clif 2> "$out/findings.log" || {
	tail -n 20 "$out/findings.log" >&2
	echo "findings.sh: the matrix failed, see $out/findings.log" >&2
	exit 2
}
echo "findings.sh: $out/matrix.md in $(($(date +%s) - start)) s"
