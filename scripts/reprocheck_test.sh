#!/usr/bin/env bash
# Test of scripts/reprocheck.sh (scripts/test.sh runs it, under a second):
# issue 27's wrong repro in small. An i128 param fails x86_64 without
# enable_llvm_abi_extensions and compiles on aarch64; a header that says
# so checks OK, one that says aarch64 fails too is caught, and with the
# setting back x86_64 passes.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "reprocheck_test.sh: FAIL: $*" >&2; exit 1; }
cat > "$work/good.clif" <<'CLIF'
; compile_error x86_64/*: i128 args need enable_llvm_abi_extensions
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
echo "reprocheck_test.sh: ok"
