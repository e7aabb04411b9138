#!/usr/bin/env bash
# Runs every test of cliff: vet, then the unit, conformance and end-to-end
# tests of all packages, and the campaign, nightly, census, Slurm and
# hosts scripts' own tests (scripts/slurm_test.sh, 30 to 45 s, installs
# slurm-wlm and munge; scripts/hosts_test.sh, 1 to 1.5 minutes; both as
# root only). CI runs exactly this (through .ci/run). CLIFF_CRANELIFT=SPEC
# runs them all on that Cranelift (CLIFF_CRANELIFT=0.135.8 scripts/test.sh).
#
#   scripts/test.sh          what CI runs, well inside its 90 minutes
#   scripts/test.sh --full   also the slow ones: a wasmtime-like checkout
#                            built from its paths (scripts/checkout_test.sh,
#                            5 to 10 minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
full=0
for arg in "$@"; do
	case $arg in
	--full) full=1 ;;
	*) echo "test.sh: unknown argument $arg" >&2; exit 2 ;;
	esac
done
# The tests compare two releases side by side (cmd/run's versions.txtar):
# the default one make builds, and 0.135.8 from the driver cache (built
# here the first time, a few minutes; then found at once).
make -s build >/dev/null
bin/cliff-cranelift build 0.135.8 >/dev/null
go vet ./...
go test -count=1 ./...
scripts/campaign_test.sh
scripts/nightly_test.sh
scripts/census_test.sh
scripts/reprocheck_test.sh
# A one-node Slurm on loopback (30 to 45 s), and campaigns on SSH hosts
# made of network namespaces (1 to 1.5 minutes): root only (CI is root).
if [ "$(id -u)" = 0 ]; then
	scripts/slurm_test.sh
	scripts/hosts_test.sh
else
	echo "test.sh: scripts/slurm_test.sh and scripts/hosts_test.sh not run: they need root (apt-get, the Slurm daemons, network namespaces, sshd)" >&2
fi
if [ "$full" = 1 ]; then
	scripts/checkout_test.sh
fi
