#!/usr/bin/env bash
# A local checkout as a Cranelift SPEC, for real: lays out a directory the
# way wasmtime's repository holds its crates (cranelift/<crate>,
# pulley/<crate>, crates/<crate>) from the published sources of the
# default release's crates, commits it with git, and then
#   - builds it with cliff-cranelift build DIR: its label is VERSION@COMMIT;
#   - runs a test file on it with cliff-run --cranelift DIR;
#   - builds it again: found in the cache, nothing rebuilt;
#   - changes a source file without committing: a new key, labelled
#     -dirty.HASH, built incrementally, and it still runs;
#   - commits a panic and an unrelated change after it, and bisects the
#     commits (cliff-cranelift bisect --checkout): it names the panic's.
# About 5 to 10 minutes (the crates are built from their paths); run by
# scripts/test.sh --full. Exit status 0 when all holds.
set -euo pipefail
cd "$(dirname "$0")/.."
fail() { echo "checkout_test.sh: FAIL: $*" >&2; exit 1; }
make -s build >/dev/null
work=${CHECKOUT_TEST_DIR:-$HOME/.cache/cliff/checkout-test}
rm -rf "$work"
mkdir -p "$work/wasmtime"
trap 'rm -rf "$work"' EXIT

# The sources of every crate of the default release that lives in
# wasmtime's repository, as cargo downloaded them.
version=$(sed -n 's/^cranelift-codegen = { version = "=\([0-9.]*\)".*/\1/p' driver/Cargo.toml)
registry=$(find "$HOME/.cargo/registry/src" -maxdepth 1 -name 'index.crates.io-*' | head -n 1)
[ -d "$registry/cranelift-codegen-$version" ] || fail "no sources of cranelift-codegen $version in $registry (cargo fetch in driver/)"
awk '/^name = /{n=$3} /^version = /{print n, $3}' driver/Cargo.lock | tr -d '"' |
	grep -E '^(cranelift-|pulley-|wasmtime-)' | while read -r name v; do
		case $name in
		cranelift-*) dir=cranelift/${name#cranelift-} ;;
		pulley-*) dir=pulley/${name#pulley-} ;;
		*) dir=crates/${name#wasmtime-internal-} ;;
		esac
		mkdir -p "$work/wasmtime/$dir"
		cp -r "$registry/$name-$v/." "$work/wasmtime/$dir/"
	done
co=$work/wasmtime
[ -f "$co/cranelift/codegen/Cargo.toml" ] || fail "the layout has no cranelift/codegen"
git -C "$co" init -q
git -C "$co" add -A
git -C "$co" -c user.name=cliff -c user.email=cliff@localhost commit -q -m "crates of Cranelift $version"
rev=$(git -C "$co" rev-parse HEAD)

cat > "$work/add.clif" <<'CLIF'
test run
target x86_64

function %add(i64, i64) -> i64 {
block0(v0: i64, v1: i64):
    v2 = iadd v0, v1
    return v2
}
; run: %add(1, 2) == 3
CLIF

start=$(date +%s)
bin/cliff-cranelift build "$co" > "$work/path" 2> "$work/build.log" || { tail -n 20 "$work/build.log" >&2; fail "the checkout does not build"; }
grep -q "Cranelift $version@${rev:0:12}: .* (built in " "$work/build.log" || fail "label or build line: $(tail -n 1 "$work/build.log")"
echo "checkout_test.sh: built the checkout in $(($(date +%s) - start)) s"
bin/cliff-run --cranelift "$co" --summary -o /dev/null "$work/add.clif" 2> "$work/run.log" || { cat "$work/run.log" >&2; fail "cliff-run on the checkout"; }
grep -q '^runlines x86_64: 3 passed, 0 failed' "$work/run.log" || fail "run lines: $(cat "$work/run.log")"
bin/cliff-cranelift build "$co" > /dev/null 2> "$work/again.log"
grep -q "(cached" "$work/again.log" || fail "the same commit was built again: $(tail -n 1 "$work/again.log")"

# An uncommitted change is a new key, built incrementally.
echo "// changed by checkout_test.sh" >> "$co/cranelift/codegen/src/lib.rs"
start=$(date +%s)
bin/cliff-cranelift build "$co" > "$work/dirty-path" 2> "$work/dirty.log" || { tail -n 20 "$work/dirty.log" >&2; fail "the changed checkout does not build"; }
grep -q "Cranelift $version@${rev:0:12}-dirty\.[0-9a-f]\{8\}: .* (built in " "$work/dirty.log" || fail "dirty label: $(tail -n 1 "$work/dirty.log")"
[ "$(cat "$work/dirty-path")" != "$(cat "$work/path")" ] || fail "the changed checkout has the clean one's driver"
echo "checkout_test.sh: rebuilt after a change in $(($(date +%s) - start)) s"
bin/cliff-run --cranelift "$co" --summary -o /dev/null "$work/add.clif" 2> "$work/run2.log" || fail "cliff-run on the changed checkout"

# Bisecting commits: A (the release), B (a panic injected in
# Context::compile for functions named bisect_me), C (an unrelated
# change); cliff-cranelift bisect --checkout A..C finds B, each step an
# incremental build of the commit.
git -C "$co" checkout -q -- .
perl -0pi -e 's/(pub fn compile\(\n[^{]*?\{\n)/$1        assert!(!self.func.name.to_string().contains("bisect_me"), "injected by checkout_test.sh");\n/' "$co/cranelift/codegen/src/context.rs"
grep -q 'injected by checkout_test.sh' "$co/cranelift/codegen/src/context.rs" || fail "could not inject the panic"
git -C "$co" -c user.name=cliff -c user.email=cliff@localhost commit -q -am "inject a panic"
injected=$(git -C "$co" rev-parse HEAD)
echo "// unrelated" >> "$co/cranelift/entity/src/lib.rs"
git -C "$co" -c user.name=cliff -c user.email=cliff@localhost commit -q -am "an unrelated change"
cat > "$work/bisect.clif" <<'CLIF'
test run
target x86_64

function %bisect_me(i64) -> i64 {
block0(v0: i64):
    return v0
}
; run: %bisect_me(7) == 7
CLIF
start=$(date +%s)
bin/cliff-cranelift bisect --checkout "$co" --arch x86_64 "$rev..HEAD" "$work/bisect.clif" > "$work/bisect.out" 2> "$work/bisect.log" ||
	{ tail -n 20 "$work/bisect.log" >&2; fail "bisect --checkout"; }
grep -q "broken in ${injected:0:12} inject a panic (last passing: ${rev:0:12})" "$work/bisect.out" || fail "bisect answer: $(cat "$work/bisect.out")"
[ "$(git -C "$co" rev-parse HEAD)" = "$(git -C "$co" rev-parse main 2>/dev/null || git -C "$co" rev-parse master)" ] || fail "the work tree was not put back"
echo "checkout_test.sh: bisected 3 commits in $(($(date +%s) - start)) s: $(cat "$work/bisect.out")"
echo "checkout_test.sh: ok"
