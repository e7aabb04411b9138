package extract

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

const filetests = "../../../shared/cranelift-filetests"

func filetestSources(t *testing.T, sub string) []Source {
	t.Helper()
	dir := filepath.Join(filetests, sub)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no filetests: %v", err)
	}
	srcs, err := Expand([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	return srcs
}

// TestCheckFiletests is the lint's conformance: every filetest parses, and
// every function of a file that Cranelift compiles, runs, interprets or
// optimises verifies.
func TestCheckFiletests(t *testing.T) {
	srcs := filetestSources(t, ".")
	executable := regexp.MustCompile(`(?m)^test (compile|run|interpret|optimize)\b`)
	var parsed, verified int
	for _, src := range srcs {
		if p := CheckFile(src, CheckOptions{}); len(p) > 0 {
			t.Errorf("does not parse: %s", p[0])
			continue
		}
		parsed++
		rel, _ := filepath.Rel(filetests, src.Path)
		if strings.HasPrefix(rel, "verifier/") || strings.HasPrefix(rel, "parser/") {
			continue
		}
		data, _ := os.ReadFile(src.Path)
		if !executable.Match(data) {
			continue
		}
		if p := CheckFile(src, CheckOptions{Verify: true}); len(p) > 0 {
			t.Errorf("does not verify: %s", strings.Join(p, "\n\t"))
			continue
		}
		verified++
	}
	t.Logf("%d of %d files parse; %d executable files verify", parsed, len(srcs), verified)
	if len(srcs) < 1000 {
		t.Errorf("found only %d filetests", len(srcs))
	}
}

// TestCheckVerifierErrors: for Cranelift's verifier tests, the lint reports
// a problem at every line an `; error:` comment marks (the comment's own
// line, or for a comment alone on its line the nearest code line above),
// and nowhere else.
func TestCheckVerifierErrors(t *testing.T) {
	srcs := filetestSources(t, "verifier")
	lineOf := regexp.MustCompile(`^[^:]+:(\d+)(?::\d+)?: `)
	for _, src := range srcs {
		data, err := os.ReadFile(src.Path)
		if err != nil {
			t.Fatal(err)
		}
		want := markedLines(string(data))
		got := map[int]bool{}
		for _, p := range CheckFile(src, CheckOptions{Verify: true}) {
			m := lineOf.FindStringSubmatch(p)
			if m == nil {
				t.Errorf("%s: problem without a line: %s", src.Path, p)
				continue
			}
			n, _ := strconv.Atoi(m[1])
			got[n] = true
			if !want[n] {
				t.Errorf("unexpected problem: %s", p)
			}
		}
		for n := range want {
			if !got[n] {
				t.Errorf("%s:%d: marked `; error:` but not reported", src.Path, n)
			}
		}
	}
}

// markedLines returns the lines an `; error:` comment points at.
func markedLines(src string) map[int]bool {
	lines := strings.Split(src, "\n")
	out := map[int]bool{}
	for i, l := range lines {
		c := strings.Index(l, "; error:")
		if c < 0 {
			continue
		}
		if strings.TrimSpace(l[:c]) != "" {
			out[i+1] = true
			continue
		}
		for j := i - 1; j >= 0; j-- {
			code := strings.TrimSpace(lines[j])
			if code != "" && !strings.HasPrefix(code, ";") {
				out[j+1] = true
				break
			}
		}
	}
	return out
}
