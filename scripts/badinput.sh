#!/usr/bin/env bash
# Bad-input probes: each tool given what a new user might give it (typos,
# broken records, outputs that are inputs, files with nothing to check).
# Prints each probe with its exit status and the first line it wrote to
# stderr; every one must be a clear one-line refusal (exit 2) or, for a
# Cranelift failure, exit 1, and keep.jsonl must keep its record. For the
# closing notes of issue 13; the tests check each of these one by one.
#
#   scripts/badinput.sh
set -u
B=$(cd "$(dirname "$0")/.." && pwd)/bin
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2
good='{"kind":"case","v":1,"id":"neg","clif":"function %neg(i64) -> i64 {\nblock0(v0: i64):\n    v1 = ineg v0\n    return v1\n}\n","inputs":[[{"type":"i64","value":"1"}]]}'
echo "$good" > good.jsonl
printf '%s\n' "$good" '{"kind":"case","v":1,"id":"x","clif":"function %f(i32) -> i32 {\nblock0(v0: i32):\n    v1 = iadd v0,\n    return v1\n}\n"}' > syntax.jsonl
printf '%s\n' "$good" '{"kind":"case","v":1,"id":"x","clif":"function %f(i32) -> i64 {\nblock0(v0: i32):\n    return v0\n}\n"}' > verify.jsonl
printf '%s\n' "$good" '{"kind":"case","v":1,"id":"x","clif":"function %f() {\nblock0:\n    return\n}\nfunction %f() {\nblock0:\n    return\n}\n"}' > twice.jsonl
printf '%s\n' "$good" '{"kind":"case","v":1,"id":"x","clif":"function %f(i32) -> i32 {\nblock0(v0: i32):\n    return v0\n}\n","inputs":[[{"type":"i32","value":"1"},{"type":"i32","value":"2"}]]}' > count.jsonl
printf '%s\n' "$good" '{"kind":"case","v":1,"id":"x","clif":"function %f(i32) -> i32 {\nblock0(v0: i32):\n    return v0\n}\n","inputs":[[{"type":"i64","value":"1"}]]}' > type.jsonl
printf '%s\n' "$good" '{"kind":"case","v":1,"id":"x", oops' > json.jsonl
printf 'test run\ntarget x86_64\nfunction %%f() -> i32 {\nblock0:\n    v0 = iconst.i32 1\n    return v0\n}\n' > norun.clif
printf 'test compile\ntarget x86_64\nfunction %%f(i64) -> i64 {\nblock0(v0: i64):\n    v1 = load.i64 big v0\n    return v1\n}\n' > rejected.clif
printf 'test run\ntarget x86_64\nfunction %%f() -> i32 {\nblock0:\n    v0 = iconst.i32 1\n    return v0\n}\n; run: %%f() == 1\n' > x86only.clif
printf 'family lanes 2\n\ntype i7 2\n' > weights.txt
printf 'family lanes 2\n' > wgood.txt
printf 'test optimize\ntarget x86_64\nfunction %%f() {\nblock0:\n    return\n}\n' > optimize.clif
mkdir -p emptydir
cp good.jsonl keep.jsonl
probe() {
	"$B/$1" "${@:2}" 2>err.txt >stdout.txt
	local rc=$?
	printf '%-66s exit %d  %s\n' "$*" "$rc" "$(head -n1 err.txt | cut -c1-150)"
}
probe cliff-run --arch interp -o o.jsonl syntax.jsonl
probe cliff-run --arch interp -o o.jsonl verify.jsonl
probe cliff-run --arch interp -o o.jsonl twice.jsonl
probe cliff-run --arch interp -o o.jsonl count.jsonl
probe cliff-run --arch interp -o o.jsonl type.jsonl
probe cliff-run --arch interp -o o.jsonl json.jsonl
probe cliff-run --set bogus=1 good.jsonl
probe cliff-run --isa-flags x86_64=has_bogus good.jsonl
probe cliff-run --set opt_level=none good.jsonl
probe cliff-run --driver /nonexistent good.jsonl
probe cliff-run --timeout 0s good.jsonl
probe cliff-run --timeout -1s good.jsonl
probe cliff-run --arch sparc good.jsonl
probe cliff-run --bogus good.jsonl
probe cliff-run norun.clif
probe cliff-run optimize.clif
probe cliff-run --opt none rejected.clif
probe cliff-run --arch riscv64 --opt none --summary x86only.clif
probe cliff-run emptydir
probe cliff-run -o keep.jsonl keep.jsonl
probe cliff-run -o keep.jsonl missing.jsonl
probe cliff-refine -o keep.jsonl missing.jsonl
probe cliff-refine -o keep.jsonl keep.jsonl
probe cliff-diff -o keep.jsonl keep.jsonl
probe cliff-extract -o keep.jsonl missing.clif
probe cliff-run --arch interp -o /dev/full good.jsonl
probe cliff-gen -n -5
probe cliff-gen --enumerate -n 3
probe cliff-gen --enumerate --corpus good.jsonl
probe cliff-gen --weights weights.txt
probe cliff-gen --weights wgood.txt -o wgood.txt
probe cliff-extract --check -o x.jsonl norun.clif
probe cliff-extract emptydir
probe cliff-extract --bogus
probe cliff-diff --bogus
probe cliff-refine --bogus
probe cliff-gen --bogus
echo "keep.jsonl still has $(wc -l < keep.jsonl) record(s)"
