#!/usr/bin/env bash
# Re-runs each target line of reduced files alone (issue 27 section 6): a
# reduction keeps the failing set as it was, so every configuration a
# file's header lists under "fails:" fails when its target line runs
# alone, and every one under "passes:" passes.
#
#   scripts/reprocheck.sh FILE.clif|DIR...   (the files cliff-locate -d DIR wrote)
#
# For each "; fails:" and "; passes:" line (ARCH/OPT/EXECUTOR[:FLAGS][+SETTINGS];
# Cranelift's interpreter and cliff's reference have no target line and
# are skipped) it writes the file with that one target at that opt level
# and runs it with bin/cliff-run: exit 0 is a pass, 1 a failure, anything
# else is cliff's error. Prints one line per configuration and OK or
# WRONG; keeps the single-target files of wrong ones in $OUT (default
# out/reprocheck).
#
# Exit status: 0 every configuration as its header says, 1 some not, 2 an error.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || { echo "usage: scripts/reprocheck.sh FILE.clif|DIR..." >&2; exit 2; }
out=${OUT:-out/reprocheck}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
files=()
for p in "$@"; do
	if [ -d "$p" ]; then
		while IFS= read -r f; do files+=("$f"); done < <(find "$p" -name '*.clif' | sort)
	else
		files+=("$p")
	fi
done
wrong=0
checked=0
for f in "${files[@]}"; do
	while read -r want cfg; do
		want=${want%:}
		spec=${cfg%%+*}
		settings=
		[ "$spec" != "$cfg" ] && settings=${cfg#*+}
		base=${spec%%:*}
		flags=
		[ "$base" != "$spec" ] && flags=${spec#*:}
		IFS=/ read -r arch opt exec <<<"$base"
		exec=${exec%%@*}
		case $exec in interp|ref) continue ;; esac
		one="$tmp/one.clif"
		{
			grep -E '^(;|test )' "$f" | grep -v -E '^; (fails|passes):' || true
			grep -E '^set ' "$f" | grep -v '^set opt_level=' || true
			echo "set opt_level=$opt"
			for s in ${settings//,/ }; do echo "set $s"; done
			echo "target $arch${flags:+ ${flags//,/ }}"
			# The functions and run lines: everything after the header.
			awk 'f || /^function /{f=1; print}' "$f"
		} >"$one"
		rc=0
		bin/cliff-run --opt "$opt" "$one" >/dev/null 2>"$tmp/err" || rc=$?
		case $rc in
		0) got=passes ;;
		1) got=fails ;;
		*) echo "$f: $cfg: cliff-run exit $rc: $(head -c 300 "$tmp/err")" >&2; exit 2 ;;
		esac
		checked=$((checked + 1))
		if [ "$got" = "$want" ]; then
			echo "OK    $f: $want $cfg"
		else
			wrong=$((wrong + 1))
			keep="$out/$(basename "$f" .clif)-$arch-$opt.clif"
			cp "$one" "$keep"
			echo "WRONG $f: the header says $want $cfg; alone it $got ($keep)"
		fi
	done < <(sed -n -E 's/^; (fails|passes): +(.*)$/\1: \2/p' "$f")
done
echo "reprocheck: $checked configurations of ${#files[@]} files, $wrong not as their header says"
[ "$wrong" -eq 0 ]
