#!/usr/bin/env bash
# Test of scripts/reprocheck.sh (scripts/test.sh runs it, in a few seconds):
# issue 27's wrong repro in small. An i128 param fails x86_64 without
# enable_llvm_abi_extensions and compiles on aarch64; a header that says
# so checks OK, one that says aarch64 fails too is caught, and with the
# setting back x86_64 passes. A riscv64 panic's file that says x86_64
# fails, where x86_64 fails on the i128 param, is caught too.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "reprocheck_test.sh: FAIL: $*" >&2; exit 1; }
cat > "$work/good.clif" <<'CLIF'
; compile_crash x86_64/*: panic: i128 args/return values not supported unless LLVM ABI extensions are enabled
; fails:  x86_64/none/native
; passes: aarch64/none/qemu
test compile
set opt_level=none
target x86_64
target aarch64

function %f(i128) -> i64 {
block0(v0: i128):
    v1 = ireduce.i64 v0
    return v1
}
CLIF
sed 's/^; passes: aarch64/; fails:  aarch64/' "$work/good.clif" > "$work/bad.clif"
sed -e 's/^; fails:  x86_64/; passes: x86_64/' -e 's/^test compile/&\nset enable_llvm_abi_extensions=true/' "$work/good.clif" > "$work/abi.clif"
OUT=$work/out "$repo/scripts/reprocheck.sh" "$work/good.clif" "$work/abi.clif" > "$work/ok.log" 2>&1 || fail "good files: $(cat "$work/ok.log")"
grep -q "^OK    $work/abi.clif: passes x86_64/none/native" "$work/ok.log" || fail "the setting did not reach x86_64: $(cat "$work/ok.log")"
status=0
OUT=$work/out "$repo/scripts/reprocheck.sh" "$work/bad.clif" > "$work/bad.log" 2>&1 || status=$?
[ "$status" = 1 ] || fail "bad file: exit $status: $(cat "$work/bad.log")"
grep -q "^WRONG $work/bad.clif: the header says fails aarch64/none/qemu; alone it passes" "$work/bad.log" || fail "$(cat "$work/bad.log")"
[ -f "$work/out/bad-aarch64-none.clif" ] || fail "the wrong configuration's file was not kept"
# Issue 27's wrong repro as cliff-locate wrote it before the fix: the
# riscv64 panic's file says x86_64 fails too, which it does alone, but on
# the i128 param (the setting went), not on the panic.
cat > "$work/other.clif" <<'CLIF'
; compile_crash riscv64/*: panic: called `Option::unwrap()` on a `None` value @ cranelift-codegen/src/isa/riscv64/lower/isle.rs:64
; fails:  riscv64/none/qemu
; fails:  x86_64/none/native
test compile
set opt_level=none
target riscv64
target x86_64

function %main(i128, i32, i32) -> i128 {
block0(v9: i128, v0: i32, v1: i32):
    v2 = icmp ult v0, v1
    v3 = uextend.i128 v2
    v4 = select_spectre_guard v3, v9, v9
    return v4
}
CLIF
status=0
OUT=$work/out "$repo/scripts/reprocheck.sh" "$work/other.clif" > "$work/other.log" 2>&1 || status=$?
[ "$status" = 1 ] || fail "another reason: exit $status: $(cat "$work/other.log")"
grep -q "^OK    $work/other.clif: fails riscv64/none/qemu" "$work/other.log" || fail "the riscv64 panic: $(cat "$work/other.log")"
grep -q "^WRONG $work/other.clif: the header says fails x86_64/none/native; alone it fails for another reason than src/isa/riscv64/lower/isle.rs:64" "$work/other.log" ||
	fail "x86_64's failure on the i128 param was not told apart: $(cat "$work/other.log")"
echo "reprocheck_test.sh: ok"
