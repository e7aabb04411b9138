package parser

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// filetestsDir holds Cranelift's own test files (see its README.md).
const filetestsDir = "../../../shared/cranelift-filetests"

type filetest struct {
	path string // relative to filetestsDir
	src  []byte
}

func loadFiletests(tb testing.TB) []filetest {
	tb.Helper()
	if _, err := os.Stat(filetestsDir); err != nil {
		tb.Skipf("filetests not available: %v", err)
	}
	var out []filetest
	err := filepath.WalkDir(filetestsDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".clif") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(filetestsDir, path)
		out = append(out, filetest{filepath.ToSlash(rel), src})
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

var (
	errorMarker = regexp.MustCompile(`;\s*error:`)
	// runLine matches the comment lines that are run commands: `run` or
	// `print` followed by ':' or by nothing.
	runLine      = regexp.MustCompile(`^\s*;+[ \t]*(run|print)(:|\s*$)`)
	functionLine = regexp.MustCompile(`^\s*function\b`)
	testRunLine  = regexp.MustCompile(`(?m)^test (run|interpret)\b`)
)

// errorLines returns the lines (1-based) carrying a `; error:` comment.
func errorLines(src []byte) map[int]bool {
	lines := map[int]bool{}
	for i, l := range bytes.Split(src, []byte("\n")) {
		if errorMarker.Match(l) {
			lines[i+1] = true
		}
	}
	return lines
}

// expectedRunCommands counts the run command lines after the first
// function (earlier ones belong to no function and are ignored), in files
// that run them.
func expectedRunCommands(src []byte) int {
	if !testRunLine.Match(src) {
		return 0
	}
	n, seenFunc := 0, false
	for _, l := range strings.Split(string(src), "\n") {
		seenFunc = seenFunc || functionLine.MatchString(l)
		if seenFunc && runLine.MatchString(l) {
			n++
		}
	}
	return n
}

// TestFiletests parses every Cranelift filetest. Files under parser/ marked
// with `; error:` must fail on a marked line; every other file (including
// the verifier/ files, whose errors are semantic) must parse, and every run
// command in it must be read.
func TestFiletests(t *testing.T) {
	files := loadFiletests(t)
	var parsed, failedAsMarked, commands, runtestCommands int
	var acceptedErrorFiles []string
	for _, ft := range files {
		marked := strings.HasPrefix(ft.path, "parser/") && errorMarker.Match(ft.src)
		f, err := ParseFile(ft.path, ft.src)
		if marked {
			if err == nil {
				acceptedErrorFiles = append(acceptedErrorFiles, ft.path)
				continue
			}
			var pe *Error
			if !errors.As(err, &pe) {
				t.Errorf("%s: error is not a *parser.Error: %v", ft.path, err)
				continue
			}
			if !errorLines(ft.src)[pe.Line] {
				t.Errorf("%s: failed on line %d, which has no '; error:' comment: %v", ft.path, pe.Line, err)
				continue
			}
			failedAsMarked++
			continue
		}
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		parsed++
		if len(f.Funcs) == 0 {
			t.Errorf("%s: no functions", ft.path)
		}
		for _, fn := range f.Funcs {
			if err := checkFunction(fn); err != nil {
				t.Errorf("%s: %v", ft.path, err)
			}
		}
		if err := checkCommands(f); err != nil {
			t.Errorf("%s: %v", ft.path, err)
		}
		if want := expectedRunCommands(ft.src); len(f.Commands) != want {
			t.Errorf("%s: %d run commands, want %d", ft.path, len(f.Commands), want)
		}
		commands += len(f.Commands)
		if strings.HasPrefix(ft.path, "runtests/") {
			runtestCommands += len(f.Commands)
		}
	}
	sort.Strings(acceptedErrorFiles)
	t.Logf("%d files: %d parsed, %d failed on their '; error:' line, %d error-marked files accepted (semantic errors) %v",
		len(files), parsed, failedAsMarked, len(acceptedErrorFiles), acceptedErrorFiles)
	t.Logf("%d run commands, %d of them in runtests/", commands, runtestCommands)
	if runtestCommands < 11000 && !t.Failed() {
		t.Errorf("only %d run commands in runtests/, want about 11,500", runtestCommands)
	}
}

// BenchmarkParseFiletests parses the whole filetest tree per iteration.
func BenchmarkParseFiletests(b *testing.B) {
	files := loadFiletests(b)
	var size int64
	for _, ft := range files {
		size += int64(len(ft.src))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, ft := range files {
			_, _ = ParseFile(ft.path, ft.src)
		}
	}
}
