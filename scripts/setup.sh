#!/usr/bin/env bash
# Sets cliff up from nothing on a Debian machine and runs the main job.
#
#   scripts/setup.sh            set up, build, run the main job
#   scripts/setup.sh --no-run   set up and build only
#
# The main job today: extract the corpus of basic blocks from Cranelift's
# filetests (../shared/cranelift-filetests, or $CLIFF_SHARED/cranelift-filetests)
# into out/corpus.jsonl.zst, then run Cranelift's run tests with the real
# Cranelift on x86_64 (native), aarch64, riscv64 and s390x (qemu-user) at
# every opt level and in the interpreter (out/runtests.jsonl, summary in
# out/runtests.log). Later issues extend it to a full campaign.
set -euo pipefail
cd "$(dirname "$0")/.."

run=1
for arg in "$@"; do
	case "$arg" in
	--no-run) run=0 ;;
	*) echo "setup.sh: unknown argument $arg" >&2; exit 2 ;;
	esac
done

echo "== Debian packages"
# Cross compilers (with their static glibc) link the harness for each
# target; qemu-user runs what is not x86_64.
packages="gcc make qemu-user-static gcc-aarch64-linux-gnu gcc-riscv64-linux-gnu gcc-s390x-linux-gnu parallel"
missing=""
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	sudo=""
	[ "$(id -u)" = 0 ] || sudo="sudo"
	echo "installing:$missing"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

if ! command -v cargo >/dev/null 2>&1; then
	echo "setup.sh: Rust (cargo) is required to build driver/: install it with rustup (https://rustup.rs)" >&2
	exit 1
fi

need_go="1.26"
if ! command -v go >/dev/null 2>&1; then
	echo "setup.sh: Go $need_go or newer is required (https://go.dev/dl); Debian's golang package is too old" >&2
	exit 1
fi
have_go=$(go env GOVERSION | sed 's/^go//')
if [ "$(printf '%s\n%s\n' "$need_go" "$have_go" | sort -V | head -n1)" != "$need_go" ]; then
	echo "setup.sh: Go $need_go or newer is required, found $have_go" >&2
	exit 1
fi

echo "== Go modules"
go mod download

echo "== build bin/cliff-* and bin/cliff-driver (cargo build --release)"
make -s build

[ "$run" = 1 ] || exit 0

shared=${CLIFF_SHARED:-../shared}
filetests="$shared/cranelift-filetests"
if [ ! -d "$filetests" ]; then
	echo "setup.sh: $filetests not found (set CLIFF_SHARED)" >&2
	exit 1
fi
mkdir -p out
echo "== extract the corpus from $filetests into out/corpus.jsonl.zst"
# The filetests hold deliberate syntax errors (parser/, verifier/): report and
# skip those files, keep going.
bin/cliff-extract --keep-going --stats -o out/corpus.jsonl.zst "$filetests" 2> out/extract.log || {
	echo "setup.sh: cliff-extract failed, see out/extract.log" >&2
	tail -n 20 out/extract.log >&2
	exit 1
}
head -n 3 out/extract.log

echo "== cliff-run over $filetests/runtests: every target, opt level and the interpreter"
# Exit status 1 means some run line failed (see out/runtests.log for each
# failure with its file line); 2 is an error of cliff's.
status=0
bin/cliff-run --summary -o out/runtests.jsonl "$filetests/runtests" 2> out/runtests.log || status=$?
grep -E '^(runlines|.*: FAIL )' out/runtests.log | tail -n 20
if [ "$status" -gt 1 ]; then
	echo "setup.sh: cliff-run failed, see out/runtests.log" >&2
	tail -n 20 out/runtests.log >&2
	exit 1
fi

echo "== a short campaign: cliff-gen | cliff-refine | cliff-run (4 targets x 3 opt levels) | cliff-diff"
# Exit status 1 means Cranelift failures were found (out/campaign/failures.jsonl).
status=0
OUT=out/campaign scripts/campaign.sh "${CAMPAIGN_CASES:-200}" 5 1 || status=$?
if [ "$status" -gt 1 ]; then
	echo "setup.sh: the campaign failed, see out/campaign/chunk-*.log" >&2
	exit 1
fi
