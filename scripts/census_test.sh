#!/usr/bin/env bash
# End-to-end test of scripts/census.sh (scripts/test.sh runs it): the x86_64
# census, run from another directory with a relative OUT, through the real
# driver. It must find and classify fcvt_to_uint.i8 of an f64, which
# panics in x64/inst/emit.rs (its line moves between releases) at every opt level (known from facts.txt:
# fuzzgen's x86_64 exceptions, upstream issue 4897), report imul.i8x16 as
# unlowered, write census.md with the counts and the time taken, add the
# constant forms with --constants, and refuse an unknown target.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "census_test.sh: FAIL: $*" >&2; exit 1; }
cd "$work"
mkdir tmp
export TMPDIR=$work/tmp

status=0
OUT=rel JOBS=2 SETS=default,sse2 OPTS=none,speed "$repo/scripts/census.sh" x86_64 > run.log 2>&1 || status=$?
[ "$status" -le 1 ] || fail "exit $status: $(cat run.log)"
[ -f rel/census.md ] && [ -f rel/census.jsonl ] && [ -f rel/x86_64.default.results.jsonl.zst ] && [ -f rel/x86_64.sse2.results.jsonl.zst ] || fail "outputs: $(ls rel)"
grep -q '"arch":"x86_64","flag_set":"default","key":"fcvt_to_uint.i8.f64","class":"panic","opt_levels":\["none","speed"\],.*emit.rs:[0-9]*.*"new":false' rel/census.jsonl ||
	fail "fcvt_to_uint.i8.f64: $(grep -o '"key":"fcvt_to_uint.i8.f64"[^}]*' rel/census.jsonl)"
grep -q '"flag_set":"default","key":"imul.i8x16","class":"unlowered"' rel/census.jsonl || fail "imul.i8x16 is not unlowered"
# At SSE2 the census compiles what the runs refuse (x86_pshufb needs SSSE3):
# Cranelift must refuse it cleanly.
grep -q '"flag_set":"sse2","key":"x86_pshufb[^"]*","class":"unlowered"' rel/census.jsonl || fail "x86_pshufb at SSE2: $(grep -o '"flag_set":"sse2","key":"x86_pshufb[^}]*' rel/census.jsonl | head -n 2)"
grep -q '^| x86_64 (default) | [0-9]* | [0-9]* | [1-9][0-9]* | [1-9][0-9]* |' rel/census.md || fail "counts: $(grep '^| x86_64' rel/census.md)"
grep -q '^| x86_64 (sse2) | [0-9]* |' rel/census.md || fail "no sse2 row: $(grep '^| x86_64' rel/census.md)"
grep -q '^- x86_64 (sse2): [0-9]*s$' rel/census.md || fail "timing: $(tail -n4 rel/census.md)"
grep -q '^- x86_64: [0-9]*s in all, generating [0-9]*s (census of x86_64: [0-9]* of [0-9]* combinations written' rel/census.md || fail "timing: $(tail -n4 rel/census.md)"

# --constants adds the constant forms in a section of their own: fneg.f16
# is unlowered at opt level none only (the mid-end folds it at speed), and
# imul.i8x16 is unlowered in both forms.
status=0
OUT=const JOBS=2 SETS=default OPTS=none,speed "$repo/scripts/census.sh" --constants x86_64 > const.log 2>&1 || status=$?
[ "$status" -le 1 ] || fail "--constants: exit $status: $(cat const.log)"
[ -f const/x86_64.const-cases.jsonl.zst ] || fail "--constants: outputs: $(ls const)"
grep -q '"key":"fneg.f16","class":"unlowered","opt_levels":\["none"\],.*"case_id":"census-const:fneg.f16","constants":true,"param_class":"unlowered"' const/census.jsonl ||
	fail "--constants: fneg.f16: $(grep -o '"key":"fneg.f16".*' const/census.jsonl)"
grep -q '"key":"imul.i8x16","class":"unlowered",.*"constants":true,"param_class":"unlowered"' const/census.jsonl || fail "--constants: imul.i8x16"
grep -q '^# Constant operands$' const/census.md && grep -q '^| x86_64 (default) | [0-9]* |' const/census.md || fail "--constants: census.md: $(grep '^#\|^| x86_64' const/census.md)"
grep -q 'parameter and constant forms' const/census.md || fail "--constants: run line: $(tail -n4 const/census.md)"

if "$repo/scripts/census.sh" x86 > bad.log 2>&1; then fail "an unknown target accepted"; fi
grep -q '^census.sh: unknown target x86: want x86_64, aarch64, riscv64, s390x, pulley32 or pulley64$' bad.log || fail "$(cat bad.log)"
echo "census_test.sh: ok"
