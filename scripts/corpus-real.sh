#!/usr/bin/env bash
# Builds a second snippet corpus from real programs: WebAssembly modules
# lowered to CLIF by wasmtime itself, extracted by cliff-extract into
# out/corpus-real.jsonl.zst. Real code has shapes no filetest writer
# thought of: long address computations, bounds checks, call sequences,
# loops with many live values. Its modules, their sources and licences are
# in docs/corpus-real.md; nothing third-party is in the repository: this
# script fetches and builds it all.
#
#   scripts/corpus-real.sh        fetch, build, lower, extract, summarise
#
# Steps (each cached, so a second run redoes only what is missing):
#   1. wasmtime-cli, at the wasmtime release of the default Cranelift (the
#      pulley-interpreter pin of driver/Cargo.toml: Cranelift 0.M.P is
#      wasmtime (M-87).0.P), built once with `cargo install --locked` and
#      only the features `compile --emit-clif` needs, by the newest
#      installed Rust toolchain (wasmtime 50 needs 1.97: nightly), into
#      ~/.cache/cliff/wasmtime/VERSION ($CLIFF_CACHE/wasmtime/VERSION);
#      20 to 40 minutes on two busy cores the first time.
#   2. The modules, into $OUT/modules: .wasm files that npm packages ship
#      (`npm pack`), and C programs from Debian's source packages
#      (`apt-get source --download-only`, the upstream tarball) compiled
#      for wasm32-wasi with Debian's clang, lld and wasi-libc. Set-up
#      installs those Debian packages and adds a deb-src line for
#      bookworm when apt has none (as root).
#   3. `wasmtime compile --emit-clif $OUT/clif/NAME` per module: one .clif
#      file per function, as wasmtime hands it to Cranelift.
#   4. cliff-extract --keep-going --summary, run in $OUT/clif so that each
#      snippet's source file is NAME/FILE.clif (its module) and its
#      function the wasm function's name; log in $OUT/extract.log.
#   5. A summary: modules, functions, unique snippets, and the overlap
#      with the filetests' corpus (out/corpus.jsonl.zst) when it exists.
#
# Environment: OUT (out/real), CORPUS_OUT (out/corpus-real.jsonl.zst),
# WASMTIME (a wasmtime binary to use instead of building one), MODULES
# (the names to build, space-separated; default all of them).
#
# Exit status: 0 done; 1 a step failed (one line naming it).
set -euo pipefail
cd "$(dirname "$0")/.."
here=$PWD

die() {
	echo "corpus-real.sh: $*" >&2
	exit 1
}

OUT=${OUT:-$here/out/real}
CORPUS_OUT=${CORPUS_OUT:-$here/out/corpus-real.jsonl.zst}
cache=${CLIFF_CACHE:-$HOME/.cache/cliff}
mkdir -p "$OUT/modules" "$OUT/clif" "$OUT/src" "$(dirname "$CORPUS_OUT")"
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"

# The npm modules: name, package@version, the .wasm in the package,
# licence. Versions are pinned so that the corpus is the same corpus.
npm_modules=(
	"sqlite   sql.js@1.17.0                              package/dist/sql-wasm.wasm             MIT (SQLite: public domain)"
	"brotli   brotli-wasm@3.0.1                          package/pkg.node/brotli_wasm_bg.wasm   Apache-2.0 (Brotli: MIT)"
	"webp     @jsquash/webp@1.5.0                        package/codec/enc/webp_enc_simd.wasm   Apache-2.0 (libwebp: BSD-3-Clause)"
	"zstd     @bokuweb/zstd-wasm@0.0.27                  package/dist/common/zstd.wasm          MIT (Zstandard: BSD-3-Clause)"
	"quickjs  @jitl/quickjs-wasmfile-release-sync@0.32.0 package/dist/emscripten-module.wasm    MIT (QuickJS: MIT)"
	"treesit  web-tree-sitter@0.27.2                     package/web-tree-sitter.wasm           MIT"
)
# The C programs: name, Debian source package, licence.
c_modules=(
	"lua      lua5.4  MIT"
	"zlib     zlib    Zlib"
)
wanted() { [ -z "${MODULES:-}" ] || [[ " $MODULES " == *" $1 "* ]]; }

echo "== Debian packages"
# clang, lld and wasi-libc build the C programs for wasm32-wasi (clang
# links compiler-rt's wasm32 builtins); npm fetches the packaged modules;
# zstd and jq read the corpora for the summary.
packages="clang lld wasi-libc libclang-rt-14-dev-wasm32 zstd jq bzip2 xz-utils"
missing=""
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
# Any npm will do (Node's own, or Debian's package).
command -v npm >/dev/null 2>&1 || missing="$missing npm"
if [ -n "$missing" ]; then
	echo "installing:$missing"
	timeout 600 $sudo apt-get update -qq || die "apt-get update failed"
	# shellcheck disable=SC2086 # one word per package
	DEBIAN_FRONTEND=noninteractive timeout 1800 $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
		die "apt-get install failed for:$missing"
fi
if ! grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
	echo "adding bookworm's deb-src to apt (for apt-get source)"
	printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' |
		$sudo tee /etc/apt/sources.list.d/cliff-deb-src.sources >/dev/null
	timeout 600 $sudo apt-get update -qq || die "apt-get update failed"
fi

echo "== wasmtime"
version=$(sed -n 's/^pulley-interpreter = { version = "=\([0-9.]*\)".*/\1/p' driver/Cargo.toml)
[ -n "$version" ] || die "no pulley-interpreter pin in driver/Cargo.toml"
wasmtime=${WASMTIME:-$cache/wasmtime/$version/bin/wasmtime}
if [ ! -x "$wasmtime" ]; then
	# The newest installed toolchain: wasmtime's rust-version follows
	# stable closely, so it is nightly more often than not.
	toolchain=""
	best=""
	for tc in $(rustup toolchain list | awk '{print $1}'); do
		v=$(rustc "+$tc" --version 2>/dev/null | awk '{print $2}') || continue
		if [ -z "$best" ] || [ "$(printf '%s\n%s\n' "$best" "$v" | sort -V | tail -1)" = "$v" ]; then
			best=$v toolchain=$tc
		fi
	done
	[ -n "$toolchain" ] || die "no Rust toolchain (rustup) to build wasmtime-cli $version"
	echo "building wasmtime-cli $version with $toolchain (rustc $best) into $cache/wasmtime/$version (log: $cache/wasmtime/build.log)"
	mkdir -p "$cache/wasmtime"
	# compile and cranelift for --emit-clif, threads for modules with
	# shared memories and atomics, wat for hand-written test modules.
	CARGO_TARGET_DIR=$cache/wasmtime/target timeout 5400 nice -n 19 cargo "+$toolchain" install --locked \
		--root "$cache/wasmtime/$version" "wasmtime-cli@$version" --no-default-features \
		--features compile,cranelift,threads,wat > "$cache/wasmtime/build.log" 2>&1 ||
		die "wasmtime-cli $version did not build (see $cache/wasmtime/build.log)"
fi
"$wasmtime" --version

echo "== modules"
npmdir=$OUT/src/npm
mkdir -p "$npmdir"
for row in "${npm_modules[@]}"; do
	read -r name spec path _ <<< "$row"
	wanted "$name" || continue
	[ -f "$OUT/modules/$name.wasm" ] && continue
	tgz=$(cd "$npmdir" && timeout 300 npm pack --silent "$spec" | tail -1) || die "npm pack $spec failed"
	tar -xzOf "$npmdir/$tgz" "$path" > "$OUT/modules/$name.wasm.tmp" || die "$spec: no $path in the package"
	mv "$OUT/modules/$name.wasm.tmp" "$OUT/modules/$name.wasm"
	echo "$name npm:$spec $path" >> "$OUT/modules/origins.txt"
	echo "$name: $spec $path"
done
debdir=$OUT/src/debian
mkdir -p "$debdir"
# wasi-libc has no setjmp: Lua's errors abort instead of unwinding (the
# code paths stay; nothing here runs them), and what WASI lacks (tmpfile,
# system) is left as an import (--allow-undefined).
stubs=$debdir/stubs
mkdir -p "$stubs"
printf 'typedef int jmp_buf[1];\n' > "$stubs/setjmp.h"
wasicc=(clang --target=wasm32-wasi -O2 -w -Wl,--allow-undefined)
for row in "${c_modules[@]}"; do
	read -r name pkg _ <<< "$row"
	wanted "$name" || continue
	[ -f "$OUT/modules/$name.wasm" ] && continue
	(cd "$debdir" && timeout 600 apt-get source --download-only -qq "$pkg" > /dev/null 2>&1) || die "apt-get source $pkg failed"
	orig=$(ls "$debdir"/"${pkg}"_*.orig.tar.* | tail -1)
	src=$debdir/$name
	rm -rf "$src" && mkdir -p "$src"
	tar -xf "$orig" -C "$src" --strip-components=1
	case $name in
	lua)
		(cd "$src/src" && timeout 600 nice "${wasicc[@]}" -I"$stubs" -D_WASI_EMULATED_SIGNAL -D_WASI_EMULATED_PROCESS_CLOCKS \
			'-DLUAI_THROW(L,c)=abort()' '-DLUAI_TRY(L,c,a)={a}' -Dluai_jmpbuf=int \
			-DLUA_TMPNAMBUFSIZE=32 '-Dlua_tmpnam(b,e)=(e=1)' \
			-o "$OUT/modules/$name.wasm" $(ls ./*.c | grep -v luac.c) \
			-lwasi-emulated-signal -lwasi-emulated-process-clocks) || die "lua did not build for wasm32-wasi"
		;;
	zlib)
		# The library and its minigzip command.
		(cd "$src" && timeout 600 nice "${wasicc[@]}" -DHAVE_UNISTD_H -o "$OUT/modules/$name.wasm" \
			adler32.c compress.c crc32.c deflate.c gzclose.c gzlib.c gzread.c gzwrite.c infback.c \
			inffast.c inflate.c inftrees.c trees.c uncompr.c zutil.c test/minigzip.c) || die "zlib did not build for wasm32-wasi"
		;;
	esac
	echo "$name debian:$(basename "$orig")" >> "$OUT/modules/origins.txt"
	echo "$name: Debian $(basename "$orig")"
done

echo "== lower to CLIF"
for m in "$OUT"/modules/*.wasm; do
	name=$(basename "$m" .wasm)
	wanted "$name" || continue
	[ -f "$OUT/clif/$name/.done" ] && continue
	rm -rf "${OUT:?}/clif/$name" && mkdir -p "$OUT/clif/$name"
	timeout 1800 nice "$wasmtime" compile --emit-clif "$OUT/clif/$name" -o "$OUT/clif/$name.cwasm" "$m" ||
		die "wasmtime compile $m failed"
	rm -f "$OUT/clif/$name.cwasm"
	touch "$OUT/clif/$name/.done"
	echo "$name: $(find "$OUT/clif/$name" -name '*.clif' | wc -l) functions"
done

echo "== extract into $CORPUS_OUT"
make -s bin/cliff-extract
(cd "$OUT/clif" && timeout 1800 nice "$here/bin/cliff-extract" --keep-going --summary -o "$CORPUS_OUT" .) 2> "$OUT/extract.log" ||
	die "cliff-extract failed (see $OUT/extract.log)"
grep -E '^(files|functions|snippets):' "$OUT/extract.log"

echo "== summary"
# Where each module came from and the bytes it had (origins.txt is
# appended as each module is fetched or built).
(cd "$OUT/modules" && sha256sum ./*.wasm) > "$OUT/modules/sha256.txt"
ids() { zstdcat -f "$1" | jq -r 'select(.level == "block") | .id' | sort -u; }
ids "$CORPUS_OUT" > "$OUT/ids-real.txt"
echo "modules: $(ls "$OUT"/modules/*.wasm | wc -l); real snippets: $(wc -l < "$OUT/ids-real.txt")"
if [ -f out/corpus.jsonl.zst ]; then
	ids out/corpus.jsonl.zst > "$OUT/ids-filetests.txt"
	echo "filetest snippets: $(wc -l < "$OUT/ids-filetests.txt"); in both: $(comm -12 "$OUT/ids-real.txt" "$OUT/ids-filetests.txt" | wc -l)"
fi
# The 20 commonest opcodes and types of each corpus's instructions (a
# type is the controlling type, else the first result's), as
# cliff-extract --summary counts them.
top() {
	zstdcat -f "$1" | jq -r 'select(.level == "block") | .insts[] | "\(.opcode) \(.ctrl_type // (.result_types[0] // "-"))"' > "$OUT/insts.txt"
	echo "$2: $(wc -l < "$OUT/insts.txt") instructions"
	for k in 1 2; do
		printf '  %s:' "$([ $k = 1 ] && echo opcodes || echo types)"
		cut -d' ' -f$k "$OUT/insts.txt" | sort | uniq -c | sort -k1,1nr -k2 | head -20 | awk '{ printf " %s=%s", $2, $1 }'
		echo
	done
}
top "$CORPUS_OUT" real
[ -f out/corpus.jsonl.zst ] && top out/corpus.jsonl.zst filetests
echo "corpus: $CORPUS_OUT (campaign: CORPUS=out/corpus.jsonl.zst,$CORPUS_OUT scripts/campaign.sh)"
