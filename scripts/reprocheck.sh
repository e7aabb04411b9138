#!/usr/bin/env bash
# Re-runs each target line of reduced files alone (issue 27 section 6): a
# reduction keeps the failing set as it was, so every configuration a
# file's header lists under "fails:" fails when its target line runs
# alone, and every one under "passes:" passes; in a compiler failure's
# file, "fails" means as the symptom says (its panic site, else its
# status), not for another reason.
#
#   scripts/reprocheck.sh FILE.clif|DIR...   (the files cliff-locate -d DIR wrote)
#
# For each "; fails:" and "; passes:" line (ARCH/OPT/EXECUTOR[:FLAGS][+SETTINGS];
# cliff's reference has no line in a file and is skipped; Cranelift's
# interpreter is the file's "test interpret" alone) it writes the file
# with that one target at that opt level
# with the case's settings (the set lines before the first opt_level) and
# the configuration's own (after + in the header), not those of the
# targets before it, and runs it with bin/cliff-run: exit 0 is a pass, 1 a failure, anything
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
	# The verdict of the symptom line: "; compile_crash riscv64/*: ...".
	symptom=$(head -1 "$f" | awk '{print $2}')
	# A panic's site, below its crate: "@ cranelift-codegen/src/isa/riscv64/lower/isle.rs:64"
	# gives src/isa/riscv64/lower/isle.rs:64, which cliff-run's FAIL line quotes.
	site=$(head -1 "$f" | sed -n -E 's/.* @ [^/ ]+\/([^ ]+:[0-9]+)$/\1/p')
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
		# cliff's reference has no line in a file: its answers are the
		# run lines' expectations.
		[ "$exec" = ref ] && continue
		one="$tmp/one.clif"
		{
			# The header's comments (not the run lines after the
			# functions), then its test lines: "test interpret" alone for
			# Cranelift's interpreter, the others for a target.
			awk '/^;/{print; next} {exit}' "$f" | grep -v -E '^; (fails|passes):' || true
			if [ "$exec" = interp ]; then
				grep -E '^test interpret' "$f" || true
			else
				grep -E '^test ' "$f" | grep -v '^test interpret' || true
			fi
			# The case's settings: the set lines before the first opt_level
			# (lib/filetest writes a configuration's own after it).
			awk '/^set opt_level=/{exit} /^set /' "$f"
			echo "set opt_level=$opt"
			for s in ${settings//,/ }; do echo "set $s"; done
			[ "$exec" = interp ] || echo "target $arch${flags:+ ${flags//,/ }}"
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
		# A compiler failure must fail as the symptom says, not for
		# another reason (issue 27: x86_64's compile_error on an i128
		# param in a riscv64 compile_crash's file).
		if [ "$got" = fails ] && [ "$want" = fails ] && case $symptom in compile_crash | compile_error) true ;; *) false ;; esac &&
			! grep -qF -- "${site:-$symptom}" "$tmp/err"; then
			got="fails for another reason than ${site:-$symptom}: $(grep -m1 FAIL "$tmp/err" | cut -c1-200)"
		fi
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
