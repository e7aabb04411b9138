package refinterp

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"cliff/lib/parser"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// runtestsDir holds Cranelift's run tests (see ../shared/cranelift-filetests/README.md).
const runtestsDir = "../../../shared/cranelift-filetests/runtests"

// explained says why run lines fail on the reference, by file (every
// failing line of the file) or file:line. A failing line without an
// explanation fails the test: each is a bug here or a semantics question
// to write down.
var explained = map[string]string{
	"simd-fmax-fmin-nondeterministic-aarch64.clif": "NaN bits: Cranelift documents NaN results' sign and payload as nondeterministic; " +
		"these lines pin one target's; the reference gives the canonical NaN",
	"simd-fmax-fmin-nondeterministic-x86_64.clif": "NaN bits, as for aarch64",
	"i128-conversion.clif:14": "Cranelift's interpreter's answer (a `test interpret` file): 0x1.fffffep127 < 2^128 " +
		"converts exactly to 0xffffff00..., not i128::MAX",
	"i128-conversion.clif:28": "Cranelift's interpreter's answer: 0x1.fffffep127 > i128::MAX, so fcvt_to_sint traps int_ovf as documented",
	"i128-conversion.clif:40": "Cranelift's interpreter's answer: in range of u128, so no saturation",
}

// TestRuntests runs every `; run:` line of Cranelift's runtests on the
// interpreter and compares the counts and the failing lines with
// testdata/runtests.golden: a line that starts failing, or a failure that
// goes away, shows in the diff.
func TestRuntests(t *testing.T) {
	if _, err := os.Stat(runtestsDir); err != nil {
		t.Skipf("runtests not available: %v", err)
	}
	var files []string
	err := filepath.WalkDir(runtestsDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".clif") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	var tally Tally
	var failures, parseErrors strings.Builder
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(runtestsDir, path)
		f, err := parser.ParseFile(rel, src)
		if err != nil {
			fmt.Fprintf(&parseErrors, "%v\n", err)
			continue
		}
		for _, r := range CheckFile(f, DefaultLimits) {
			tally.Add(r)
			switch r.Status {
			case LineFail:
				why := explained[fmt.Sprintf("%s:%d", rel, r.Line)]
				if why == "" {
					why = explained[rel]
				}
				if why == "" {
					t.Errorf("%s:%d: %s fails (got %s) without an explanation in explained", rel, r.Line, r.Text, r.Got)
				}
				fmt.Fprintf(&failures, "%s:%d: %s\n    got %s\n    why: %s\n", rel, r.Line, r.Text, r.Got, why)
			case LineError:
				fmt.Fprintf(&failures, "%s:%d: %s\n    error: %s\n", rel, r.Line, r.Text, r.Reason)
			}
		}
	}
	var b strings.Builder
	total := 0
	for _, n := range tally.Lines {
		total += n
	}
	fmt.Fprintf(&b, "# The run lines of %d runtests files on lib/refinterp (go test -run TestRuntests -update rewrites).\n", len(files))
	fmt.Fprintf(&b, "lines %d: pass %d, fail %d, unsupported %d, error %d\n", total,
		tally.Lines[LinePass], tally.Lines[LineFail], tally.Lines[LineUnsupported], tally.Lines[LineError])
	b.WriteString("\n# Lines not passed, by reason\n")
	var reasons []string
	for r := range tally.Reasons {
		reasons = append(reasons, r)
	}
	sort.Slice(reasons, func(i, j int) bool {
		if tally.Reasons[reasons[i]] != tally.Reasons[reasons[j]] {
			return tally.Reasons[reasons[i]] > tally.Reasons[reasons[j]]
		}
		return reasons[i] < reasons[j]
	})
	for _, r := range reasons {
		fmt.Fprintf(&b, "%5d %s\n", tally.Reasons[r], r)
	}
	if parseErrors.Len() > 0 {
		b.WriteString("\n# Files the parser refuses\n" + parseErrors.String())
	}
	b.WriteString("\n# Failing lines\n" + failures.String())
	checkGolden(t, "testdata/runtests.golden", b.String())
}

func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs (run with -update to accept):\n%s", path, diffLines(string(want), got))
	}
}

// diffLines lists the lines only in want (-) and only in got (+).
func diffLines(want, got string) string {
	in := func(s string) map[string]int {
		m := map[string]int{}
		for _, l := range strings.Split(s, "\n") {
			m[l]++
		}
		return m
	}
	w, g := in(want), in(got)
	var b strings.Builder
	for _, l := range strings.Split(want, "\n") {
		if g[l] == 0 {
			b.WriteString("- " + l + "\n")
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if w[l] == 0 {
			b.WriteString("+ " + l + "\n")
		}
	}
	return b.String()
}
