#!/usr/bin/env bash
# RUSTC_WRAPPER for scripts/coverage.sh's build: instruments only
# cranelift-codegen (where the generated ISLE code lives: isle_<arch>.rs and
# isle_opt.rs) with SanitizerCoverage, and gives it line tables for mapping
# PCs back to source lines. Every other crate is compiled as usual, so the
# instrumented driver is not slower than it must be.
#   cargo calls it as: sancov-rustc.sh <rustc> <args...>
set -euo pipefail
rustc=$1
shift
for arg in "$@"; do
	if [ "$arg" = cranelift_codegen ] && [ "${prev:-}" = --crate-name ]; then
		exec "$rustc" "$@" \
			-C passes=sancov-module \
			-C llvm-args=-sanitizer-coverage-level=3 \
			-C llvm-args=-sanitizer-coverage-inline-bool-flag \
			-C llvm-args=-sanitizer-coverage-pc-table \
			-C debuginfo=line-tables-only
	fi
	prev=$arg
done
exec "$rustc" "$@"
