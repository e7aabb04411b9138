#!/usr/bin/env bash
# Runs every test of cliff: vet, then the unit, conformance and end-to-end
# tests of all packages. CI runs exactly this (through .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
go vet ./...
go test -count=1 ./...
