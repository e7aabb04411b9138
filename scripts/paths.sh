# Path helpers the scripts source (after defining die): relative paths are
# made absolute against the caller's directory, because the scripts cd
# into the repository and GNU Parallel's jobs start elsewhere.

# abs PATH: PATH made absolute ("" stays "").
abs() { case $1 in /*|'') printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }

# abs_corpora LIST: a comma-separated list of corpora (cliff-gen --corpus
# takes several), each made absolute and required to exist; empty items
# are dropped.
abs_corpora() {
	local c out=() given
	IFS=, read -r -a given <<< "$1"
	for c in "${given[@]}"; do
		[ -z "$c" ] && continue
		c=$(abs "$c")
		[ -f "$c" ] || die "CORPUS $c: no such file"
		out+=("$c")
	done
	(IFS=,; printf '%s' "${out[*]}")
}
