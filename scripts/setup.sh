#!/usr/bin/env bash
# Sets cliff up from nothing on a Debian machine and runs the main job.
#
#   scripts/setup.sh            set up, build, check the toolchains, run the main job
#   scripts/setup.sh --no-run   set up, build and check the toolchains only
#
# Set-up installs every Debian package cliff needs, builds the Rust driver
# and the Go tools, then proves each target's toolchain works: for x86_64,
# aarch64, riscv64 and s390x it compiles the C harness, links a static
# executable and runs it, natively or under qemu-user, the way cliff-run
# does (cliff-run --check-tools). A broken piece stops set-up with one line
# naming it and the package that provides it.
#
# The main job: extract the corpus of basic blocks from Cranelift's
# filetests (../shared/cranelift-filetests, or $CLIFF_SHARED/...) into
# out/corpus.jsonl.zst; run Cranelift's run tests with the real Cranelift
# on every target at every opt level and in the interpreter
# (out/runtests.jsonl, log out/runtests.log); and a short campaign
# (CAMPAIGN_CASES cases, default 200) of cliff-gen | cliff-refine |
# cliff-run | cliff-diff (out/campaign/). It ends with a summary.
#
# Exit status: 0 all is well (Cranelift bugs found are reported, not an
# error: they are what cliff is for); 1 the environment is broken: a
# missing package or tool, a target that passes no run line, run lines
# not run, or harness errors in the campaign.
set -euo pipefail
cd "$(dirname "$0")/.."

run=1
for arg in "$@"; do
	case "$arg" in
	--no-run) run=0 ;;
	*) echo "setup.sh: unknown argument $arg" >&2; exit 2 ;;
	esac
done

die() {
	echo "setup.sh: $*" >&2
	exit 1
}

echo "== Debian packages"
# gcc, libc6-dev and make build the driver (cargo links with cc) and the
# harness for this machine's architecture; each other target needs its
# cross compiler and its static C library, which the compiler package only
# recommends (and recommendations are not installed here); QEMU (below)
# runs the other targets' code, and x86_64 code this CPU cannot; parallel
# runs campaigns; zstd reads the compressed results in the scripts and
# their tests (zstdcat); ca-certificates lets cargo and go download over
# https. Campaigns on SSH hosts (HOSTS=, scripts/hosts.sh) need rsync
# without a shared filesystem, and their test (scripts/hosts_test.sh)
# makes hosts of network namespaces (iproute2), each with its own sshd
# (openssh-server; the test starts its own, on its own addresses; where
# the package's service may start, it serves port 22 as Debian's does)
# and kills them (procps).
host_deb=$(dpkg --print-architecture)
packages="ca-certificates gcc libc6-dev make parallel zstd rsync openssh-server iproute2 procps"
for target in x86_64:amd64 aarch64:arm64 riscv64:riscv64 s390x:s390x; do
	arch=${target%%:*} deb=${target#*:}
	[ "$deb" = "$host_deb" ] && continue
	packages="$packages gcc-${arch//_/-}-linux-gnu libc6-dev-$deb-cross"
done
missing=""
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
if [ -n "$missing" ]; then
	echo "installing:$missing"
	timeout 600 $sudo apt-get update -qq || die "apt-get update failed (is a Debian mirror reachable?)"
	# shellcheck disable=SC2086 # one word per package
	DEBIAN_FRONTEND=noninteractive timeout 1800 $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
		die "apt-get install failed for:$missing"
	for p in $missing; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
			die "package $p did not install (apt-get install $p)"
	done
fi

echo "== QEMU"
# QEMU 10 (Debian 13's, in bookworm-backports) runs riscv64's Zcb, Zfa,
# Zicond and Zvbb, which bookworm's QEMU 7.2 lacks; cliff probes whichever
# QEMU it finds (lib/harness/emulators.go), so 7.2 still works, with those
# flag sets skipped. On bookworm the backports suite is added, signed by
# Debian's own archive keyring, when it is missing.
qemu_installed() {
	dpkg-query -W -f='${Version}' qemu-user-static 2>/dev/null
}
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
if [ "$codename" = bookworm ] && ! dpkg --compare-versions "$(qemu_installed || echo 0)" ge 1:10; then
	if ! grep -rqs '^[^#]*bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
		echo "adding bookworm-backports to /etc/apt/sources.list.d/cliff-backports.sources"
		printf '%s\n' "Types: deb" "URIs: http://deb.debian.org/debian" "Suites: bookworm-backports" \
			"Components: main" "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" |
			$sudo tee /etc/apt/sources.list.d/cliff-backports.sources >/dev/null
	fi
	if timeout 600 $sudo apt-get update -qq &&
		DEBIAN_FRONTEND=noninteractive timeout 1800 $sudo apt-get install -y -qq --no-install-recommends \
			-t bookworm-backports qemu-user qemu-user-static >/dev/null; then
		:
	else
		echo "setup.sh: note: QEMU 10 did not install from bookworm-backports; going on with bookworm's QEMU 7.2" >&2
	fi
fi
if ! qemu_installed >/dev/null; then
	timeout 600 $sudo apt-get update -qq || die "apt-get update failed (is a Debian mirror reachable?)"
	DEBIAN_FRONTEND=noninteractive timeout 1800 $sudo apt-get install -y -qq --no-install-recommends qemu-user-static >/dev/null ||
		die "apt-get install failed for: qemu-user-static"
fi
echo "qemu-user-static $(qemu_installed)"

if ! command -v cargo >/dev/null 2>&1; then
	die "Rust (cargo) is required to build driver/: install it with rustup (https://rustup.rs)"
fi
need_go="1.26"
if ! command -v go >/dev/null 2>&1; then
	die "Go $need_go or newer is required (https://go.dev/dl); Debian's golang package is too old"
fi
have_go=$(go env GOVERSION | sed 's/^go//')
if [ "$(printf '%s\n%s\n' "$need_go" "$have_go" | sort -V | head -n1)" != "$need_go" ]; then
	die "Go $need_go or newer is required, found $have_go"
fi

echo "== Go modules"
timeout 900 go mod download || die "go mod download failed"

echo "== build bin/cliff-* and bin/cliff-driver (cargo build --release)"
timeout 3600 make -s build || die "the build failed (make build)"

echo "== toolchains: build and run a static executable for every target"
checks=$(timeout 600 bin/cliff-run --check-tools 2>&1) || {
	grep -v ': ok: ' <<< "$checks" | sed 's/^/setup.sh: /' >&2
	exit 1
}
echo "$checks"

[ "$run" = 1 ] || exit 0

shared=${CLIFF_SHARED:-../shared}
filetests="$shared/cranelift-filetests"
[ -d "$filetests" ] || die "$filetests not found (set CLIFF_SHARED)"
mkdir -p out
start=$(date +%s)

echo "== extract the corpus from $filetests into out/corpus.jsonl.zst"
# The filetests hold deliberate syntax errors (parser/, verifier/): report and
# skip those files, keep going.
if ! timeout 600 bin/cliff-extract --keep-going --summary -o out/corpus.jsonl.zst "$filetests" 2> out/extract.log; then
	tail -n 20 out/extract.log >&2
	die "cliff-extract failed, see out/extract.log"
fi
head -n 3 out/extract.log
# Every filetest function with its run lines: the parents of cliff-gen
# --crossover (CROSSOVER=out/functions.jsonl.zst scripts/campaign.sh).
if ! timeout 600 bin/cliff-extract --functions --keep-going -o out/functions.jsonl.zst "$filetests" 2>> out/extract.log; then
	tail -n 20 out/extract.log >&2
	die "cliff-extract --functions failed, see out/extract.log"
fi

echo "== cliff-run over $filetests/runtests: every target, opt level and the interpreter"
# Exit status 1 means some run line failed: a Cranelift bug (each failure
# is in out/runtests.log with its file line). 2 is an error of cliff's or
# of this machine's, such as a target whose code cannot be built or run.
status=0
timeout 3600 bin/cliff-run --summary -o out/runtests.jsonl "$filetests/runtests" 2> out/runtests.log || status=$?
grep -E ': FAIL ' out/runtests.log | head -n 10 || true
if [ "$status" -gt 1 ]; then
	grep -E '^cliff-run: not running|cannot build or run' out/runtests.log >&2 || tail -n 5 out/runtests.log >&2
	die "cliff-run failed (exit $status), see out/runtests.log"
fi
for arch in x86_64 aarch64 riscv64 s390x interp; do
	line=$(grep -E "^runlines $arch: " out/runtests.log || true)
	case "$line" in
	"") die "no run line ran on $arch, see out/runtests.log" ;;
	"runlines $arch: 0 passed"*) die "$arch passed no run line: ${line#runlines }" ;;
	*"not run"*) die "run lines not run on ${line#runlines }" ;;
	esac
done

echo "== cliff-run over the runtests that name a Pulley target, on that target"
# Pulley target lines run only when --arch names them (about 100,000 run
# lines); each target runs the files that name it, as upstream's runner
# would. Exit status 1 is again a Cranelift failure (finding 33 on
# pulley32be).
for arch in pulley32 pulley32be pulley64 pulley64be; do
	files=$(grep -rlE "^target $arch( |\$)" "$filetests/runtests" --include='*.clif' || true)
	[ -n "$files" ] || die "no runtest names $arch"
	status=0
	# shellcheck disable=SC2086 # one word per file
	timeout 1800 bin/cliff-run --summary --arch "$arch" -o "out/runtests-$arch.jsonl" $files 2> "out/runtests-$arch.log" || status=$?
	[ "$status" -le 1 ] || die "cliff-run failed on $arch (exit $status), see out/runtests-$arch.log"
	line=$(grep -E "^runlines $arch: " "out/runtests-$arch.log" || true)
	case "$line" in
	"" | "runlines $arch: 0 passed"*) die "$arch passed no run line, see out/runtests-$arch.log" ;;
	*"not run"*) die "run lines not run on ${line#runlines }" ;;
	esac
done

echo "== a short campaign: cliff-gen | cliff-refine | cliff-run (4 targets x 3 opt levels) | cliff-diff"
# Exit status 1 means Cranelift failures were found (out/campaign/failures.jsonl.zst).
cases=${CAMPAIGN_CASES:-200}
cores=$(nproc)
status=0
# One chunk per core, so that a short campaign uses them all. A fresh one
# each time (campaign.sh refuses to replace an unfinished campaign, such as
# an interrupted set-up's).
rm -rf out/campaign
OUT=out/campaign CHUNK=$(((cases + cores - 1) / cores)) timeout 3600 scripts/campaign.sh "$cases" 5 1 > out/campaign.log 2>&1 || status=$?
cat out/campaign.log
if [ "$status" -gt 1 ]; then
	die "the campaign failed (exit $status), see out/campaign/chunk-*.log"
fi
verdicts=$(grep -E '^cases [0-9]+: ' out/campaign.log || true)
[ -n "$verdicts" ] || die "the campaign printed no verdicts, see out/campaign.log"
harness_errors=$(sed -n 's/.*harness_error \([0-9]*\).*/\1/p' <<< "$verdicts")
[ "${harness_errors:-0}" = 0 ] ||
	die "the campaign had $harness_errors harness errors: cliff or this machine failed, not Cranelift (see out/campaign/chunk-*.results.jsonl.zst)"

end=$(date +%s)
echo
echo "== summary ($((end - start)) s)"
echo "toolchains:  every target builds and runs (see above)"
echo "run tests:   Cranelift's runtests, 3 opt levels (out/runtests.log; failures are Cranelift's)"
grep -E '^runlines (x86_64|aarch64|riscv64|s390x|interp): ' out/runtests.log | sed 's/^runlines /  /'
cat out/runtests-pulley*.log | grep -E '^runlines pulley' | sed 's/^runlines /  /'
echo "campaign:    $verdicts"
grep -E 'cases/s' out/campaign.log | sed 's/^/  /' || true
echo "files:       out/corpus.jsonl.zst, out/functions.jsonl.zst, out/runtests.jsonl, out/campaign/ (failures.jsonl.zst: the failing cases)"
