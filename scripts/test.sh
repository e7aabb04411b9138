#!/usr/bin/env bash
# Runs every test of cliff: vet, then the unit, conformance and end-to-end
# tests of all packages, and the campaign and census scripts' own tests. CI runs
# exactly this (through .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
go vet ./...
go test -count=1 ./...
scripts/campaign_test.sh
scripts/census_test.sh
