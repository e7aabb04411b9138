#!/usr/bin/env bash
# ISLE coverage of an input: which lines of Cranelift's generated lowering
# code (isle_<arch>.rs for x86_64, aarch64, riscv64, s390x,
# isle_pulley_shared.rs for Pulley; isle_opt.rs for the mid-end) and which
# .isle rules cliff-driver runs on it.
#
#   scripts/coverage.sh INPUT...        build the instrumented driver (once),
#                                       run each INPUT with it, report
#   scripts/coverage.sh --build         only build the instrumented driver
#   scripts/coverage.sh --report INPUT...   report inputs already run in $OUT
#   scripts/coverage.sh --weights FILE INPUT...
#                                       the same, and write to FILE cliff-gen
#                                       weights aimed at the rules the
#                                       campaigns missed (cliff-coverage
#                                       --weights; lib/weights is the format)
#
# INPUT is one of
#   runtests        Cranelift's runtests: the .clif files of the filetests
#                   that say "test run" ($CLIFF_SHARED/cranelift-filetests)
#   filetests       every filetest of that directory that cliff-run checks
#                   (test run, interpret, and compile)
#   PROFILE:N       a campaign of N cases of cliff-gen --profile PROFILE,
#                   refined, run by cliff-run at the three opt levels: compat
#                   on all four targets, a target's profile (x86_64, aarch64,
#                   riscv64, s390x, pulley64, pulley32) on that target only
#   census:ARCH     the lowering census's cases for ARCH (cliff-gen
#                   --enumerate --all: every combination of opcode and types
#                   the target's universe has, edge-value inputs), run on
#                   ARCH at the three opt levels; counted with the campaigns
#   file:PATH       a saved case file (JSON lines, plain or .zst) or .clif,
#                   run on this host's architecture (cases) or the file's
#                   targets, or on RUN_FLAGS' --arch
# Each input is run in $STEPS steps (slices of its cases or files), so that
# coverage can be drawn against cases and CPU time; each is kept in
# $OUT/<name>/ (name: runtests, filetests, the profile, the file's base name).
#
# Output, in $OUT/report: coverage.md (printed too) with, per input and for
# the union of the inputs (and of the campaigns, as "cliff"), the line coverage of each generated file (CLIR's
# metric: covered lines / instrumented lines), the coverage of the lowering
# rules (lower.isle; opts/*.isle) and of all rules of the file, with cases
# and CPU time; coverage.jsonl (the same per step); coverage-cpu.svg and
# coverage-cases.svg (coverage against CPU time and cases);
# uncovered-<target>.txt (rules no input reached, file:line, for profiles to
# aim at) and only-<input>-<target>.txt (rules only that input reached).
# With --weights FILE, the weights: each rule the campaigns missed (no
# input reached it, or the runtests did and the campaigns did not) counts for
# the opcode families its left-hand side matches and the types it names;
# WEIGHTS=FILE then generates the campaigns with them (cliff-gen --weights),
# to aim a next campaign at what this one missed.
#
# Method. The driver is built with its `coverage` feature (off by default;
# driver/src/coverage.rs) in a cargo target directory of its own,
# $COV_TARGET_DIR (default ~/.cache/cliff/cargo-cov): `make` and
# scripts/setup.sh never see it. scripts/sancov-rustc.sh, as RUSTC_WRAPPER,
# instruments only cranelift-codegen (which holds all generated ISLE code)
# with LLVM SanitizerCoverage on stable rustc (-C passes=sancov-module,
# inline bool flags, PC table; the flags of cargo-fuzz, with a flag instead
# of an 8-bit counter, which would wrap) and gives it line tables. The
# driver keeps the flag and PC sections from the instrumentation's init
# hooks and, with CLIFF_COVERAGE_DIR set, each driver process writes the PCs
# of the blocks that ran (every second and at the end of its input) to a
# file of its own, and once all instrumented PCs. cliff-coverage (Go,
# lib/coverage) merges them, maps blocks to lines with the DWARF line table
# and the call lines of inlined calls (a block's code: its address to the
# next block's), and maps lines to
# rules by the "// Rule at FILE line N." comments ISLE generates. The code
# is optimised (release profile), so these figures compare with each other
# and only roughly with cargo-llvm-cov's (CLIR's).
#
# Environment: OUT (out/coverage), STEPS (8), SEED (1), DEPTH (5), JOBS
# (cores), OPTS (none,speed,speed_and_size), MASK (lib/profile/data/known.mask;
# empty for none), CORPUS (none; several comma-separated), WEIGHTS (none:
# cliff-gen --weights for the campaigns), COV_TARGET_DIR, BUILD_TIMEOUT (60m),
# STEP_TIMEOUT (2h, per step), CLIFF_SHARED (../shared), RUN_FLAGS (more
# cliff-run flags for the campaign inputs and case files: flag sets,
# --swarm; --arch x86_64,aarch64,riscv64,s390x runs a case file on the
# four targets, which otherwise runs on this host's alone).
# Exit status: 0 reported; 2 the build, a run or the report failed.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "coverage.sh: $*" >&2; exit 2; }
. "$here/scripts/paths.sh"

OUT=$(abs "${OUT:-out/coverage}")
STEPS=${STEPS:-8} SEED=${SEED:-1} DEPTH=${DEPTH:-5} JOBS=${JOBS:-$(nproc)}
OPTS=${OPTS:-none,speed,speed_and_size}
RUN_FLAGS=${RUN_FLAGS:-} # split as words: "--isa-flags x86_64=default --isa-flags x86_64=sse2"
MASK=$(abs "${MASK-$here/lib/profile/data/known.mask}")
# CORPUS: one corpus or several, comma-separated (as campaign.sh takes it).
CORPUS=$(abs_corpora "${CORPUS:-}")
WEIGHTS=$(abs "${WEIGHTS:-}")
WRITE_WEIGHTS= # --weights FILE
COV_TARGET_DIR=${COV_TARGET_DIR:-$HOME/.cache/cliff/cargo-cov}
BUILD_TIMEOUT=${BUILD_TIMEOUT:-60m} STEP_TIMEOUT=${STEP_TIMEOUT:-2h}
SHARED=$(abs "${CLIFF_SHARED:-$here/../shared}")
DRIVER=$COV_TARGET_DIR/release/cliff-driver
for v in STEPS SEED DEPTH JOBS; do
	[[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "$v=${!v}: want a positive number"
done
[ -z "$MASK" ] || [ -f "$MASK" ] || die "MASK $MASK: no such file"
[ -z "$WEIGHTS" ] || [ -f "$WEIGHTS" ] || die "WEIGHTS $WEIGHTS: no such file"

# The instrumented driver. Cargo rebuilds only what changed; the first
# build takes 10-20 minutes on two cores (cranelift-codegen, instrumented).
build() {
	echo "== building the instrumented driver in $COV_TARGET_DIR" >&2
	mkdir -p "$COV_TARGET_DIR"
	# The default release's toolchain (its rust-version), as every build
	# of the driver chooses it.
	local tc
	[ -x "$here/bin/cliff-cranelift" ] || (cd "$here" && make -s bin/cliff-cranelift) || die "make bin/cliff-cranelift failed"
	tc=$("$here/bin/cliff-cranelift" toolchain) || die "no Rust toolchain builds the default Cranelift release"
	(cd "$here/driver" &&
		CARGO_TARGET_DIR=$COV_TARGET_DIR RUSTC_WRAPPER=$here/scripts/sancov-rustc.sh \
			CARGO_PROFILE_RELEASE_STRIP=none \
			timeout "$BUILD_TIMEOUT" rustup run "$tc" cargo build --release --locked --quiet --features coverage) ||
		die "building the instrumented driver failed (or timed out after $BUILD_TIMEOUT)"
	# (grep reads all of nm's output: with -q, nm's SIGPIPE fails the pipe)
	nm "$DRIVER" 2>/dev/null | grep __sanitizer_cov_pcs_init > /dev/null ||
		die "$DRIVER has no coverage hooks: not a coverage build"
}

# run_steps NAME TOTAL CMD...: runs CMD FIRST COUNT STEPDIR for each of
# $STEPS slices of TOTAL cases, with the instrumented driver writing to
# STEPDIR, and records the slice's cases and CPU time (user+system of the
# whole slice, the driver and executors included) in $OUT/NAME/steps.tsv.
run_steps() {
	local name=$1 total=$2
	shift 2
	local dir=$OUT/$name step=1 first=0 count cpu status
	local per=$(((total + STEPS - 1) / STEPS))
	rm -rf "$dir"
	mkdir -p "$dir"
	: > "$dir/steps.tsv"
	echo "== $name: $total cases in steps of $per" >&2
	while [ "$first" -lt "$total" ]; do
		count=$((total - first < per ? total - first : per))
		local stepdir
		stepdir=$(printf 'step-%03d' "$step")
		mkdir -p "$dir/$stepdir"
		status=0
		TIMEFORMAT='%3U %3S'
		export CLIFF_COVERAGE_DIR=$dir/$stepdir
		{ time "$@" "$first" "$count" "$dir/$stepdir" 2>> "$dir/$stepdir/log" || status=$?; } 2> "$dir/$stepdir/time"
		unset CLIFF_COVERAGE_DIR
		# cliff-run exits 1 when a run line or case failed: still coverage.
		[ "$status" -le 1 ] || die "$name step $step: exit $status (see $dir/$stepdir/log)"
		cpu=$(awk '{ print $1 + $2 }' "$dir/$stepdir/time")
		echo "$stepdir $count $cpu" >> "$dir/steps.tsv"
		echo "   step $step: $((first + count))/$total, ${cpu}s CPU" >&2
		first=$((first + count))
		step=$((step + 1))
	done
}

# The steps of each kind of input: FIRST COUNT STEPDIR. cliff-run bounds
# every compile and run itself; $STEP_TIMEOUT bounds each tool of a step.
clif_step() { # the FIRST..FIRST+COUNT-1 files of $OUT/NAME/files
	local files=$1 first=$2 count=$3
	mapfile -t slice < <(tail -n +"$((first + 1))" "$files" | head -n "$count")
	timeout "$STEP_TIMEOUT" "$here/bin/cliff-run" --driver "$DRIVER" -j "$JOBS" --opt "$OPTS" "${slice[@]}" > /dev/null
}
campaign_step() {
	local profile=$1 arches=$2 first=$3 count=$4 stepdir=$5
	local flags=(--seed "$SEED" --depth "$DEPTH" --profile "$profile" --start "$first" -n "$count")
	[ -n "$MASK" ] && flags+=(--mask "$MASK")
	[ -n "$CORPUS" ] && flags+=(--corpus "$CORPUS")
	[ -n "$WEIGHTS" ] && flags+=(--weights "$WEIGHTS")
	timeout "$STEP_TIMEOUT" "$here/bin/cliff-gen" "${flags[@]}" | timeout "$STEP_TIMEOUT" "$here/bin/cliff-refine" |
		timeout "$STEP_TIMEOUT" "$here/bin/cliff-run" --driver "$DRIVER" -j "$JOBS" --arch "$arches" --opt "$OPTS" \
			$RUN_FLAGS -o "$stepdir/results.jsonl.zst"
}
census_step() { # the FIRST..FIRST+COUNT-1 cases of the census file
	local cases=$1 arch=$2 first=$3 count=$4
	sed -n "$((first + 1)),$((first + count))p" "$cases" |
		timeout "$STEP_TIMEOUT" "$here/bin/cliff-run" --driver "$DRIVER" -j "$JOBS" --arch "$arch" --opt "$OPTS" \
			$RUN_FLAGS > /dev/null
}
case_file_step() { # a case file has no slices: one step
	local file=$1
	timeout "$STEP_TIMEOUT" "$here/bin/cliff-run" --driver "$DRIVER" -j "$JOBS" --opt "$OPTS" $RUN_FLAGS "$file" > /dev/null
}

run_input() {
	local input=$1 name files n
	case $input in
	runtests | filetests)
		name=$input
		mkdir -p "$OUT/$name"
		files=$OUT/$name.files
		if [ "$input" = runtests ]; then
			grep -rlE '^test (run|interpret)' "$SHARED/cranelift-filetests" --include='*.clif' | sort > "$files"
		else
			# (cliff-run refuses a named file with nothing it checks)
			grep -rlE '^test (run|interpret|compile)' "$SHARED/cranelift-filetests" --include='*.clif' | sort > "$files"
		fi
		n=$(wc -l < "$files")
		[ "$n" -gt 0 ] || die "no filetests in $SHARED/cranelift-filetests"
		run_steps "$name" "$n" clif_step "$files"
		;;
	compat:* | x86_64:* | aarch64:* | riscv64:* | s390x:* | pulley64:* | pulley32:*)
		local profile=${input%%:*} n=${input#*:} arches
		[[ $n =~ ^[1-9][0-9]*$ ]] || die "$input: want PROFILE:N with N a positive number"
		arches=$profile
		[ "$profile" = compat ] && arches=x86_64,aarch64,riscv64,s390x
		run_steps "$profile" "$n" campaign_step "$profile" "$arches"
		;;
	census:x86_64 | census:aarch64 | census:riscv64 | census:s390x | census:pulley64 | census:pulley32)
		local arch=${input#census:} cases
		name=census-$arch
		mkdir -p "$OUT"
		cases=$OUT/$name.cases.jsonl
		timeout "$STEP_TIMEOUT" "$here/bin/cliff-gen" --enumerate --all --profile "$arch" --seed "$SEED" > "$cases" ||
			die "$input: cliff-gen failed"
		run_steps "$name" "$(wc -l < "$cases")" census_step "$cases" "$arch"
		;;
	file:*)
		local path
		path=$(abs "${input#file:}")
		[ -f "$path" ] || die "$input: no such file"
		name=$(basename "$path")
		name=${name%%.*}
		run_steps "$name" 1 case_file_step "$path"
		;;
	*) die "unknown input $input (see --help)" ;;
	esac
}

# The report; the campaigns together are also the group "cliff", when
# there is something to compare them with or more than one.
report() {
	local args=() name campaigns=()
	for input in "$@"; do
		case $input in
		runtests | filetests) name=$input ;;
		file:*) name=$(basename "${input#file:}"); name=${name%%.*} ;;
		census:*) name=census-${input#census:}; campaigns+=("$name") ;;
		*) name=${input%%:*}; campaigns+=("$name") ;;
		esac
		[ -f "$OUT/$name/steps.tsv" ] || die "$input has not been run in $OUT"
		args+=("$name=$OUT/$name")
	done
	if [ ${#campaigns[@]} -gt 1 ] || { [ ${#campaigns[@]} = 1 ] && [ $# -gt 1 ]; }; then
		args=(--group "cliff=$(IFS=,; echo "${campaigns[*]}")" "${args[@]}")
	fi
	[ -z "$WRITE_WEIGHTS" ] || args=(--weights "$WRITE_WEIGHTS" "${args[@]}")
	"$here/bin/cliff-coverage" --driver "$DRIVER" --report "$OUT/report" "${args[@]}" ||
		die "cliff-coverage failed"
	echo "== report in $OUT/report" >&2
}

case ${1:-} in
-h | --help | '') sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; [ $# -gt 0 ]; exit $? ;;
--build) build; exit 0 ;;
--report) shift; [ $# -gt 0 ] || die "--report wants the inputs"; report "$@"; exit 0 ;;
--weights)
	[ $# -gt 2 ] || die "--weights wants a FILE and the inputs"
	WRITE_WEIGHTS=$(abs "$2")
	shift 2
	report "$@"
	echo "== weights in $WRITE_WEIGHTS" >&2
	exit 0
	;;
esac
(cd "$here" && make -s build) || die "make build failed"
build
mkdir -p "$OUT"
for input in "$@"; do
	run_input "$input"
done
report "$@"
