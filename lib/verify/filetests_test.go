package verify

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cliff/lib/ir"
	"cliff/lib/parser"
)

// Conformance with Cranelift's own filetests: functions Cranelift compiles,
// runs or optimizes verify clean, and the verifier filetests' `; error:`
// comments are reported on their lines.

const filetestDir = "../../../shared/cranelift-filetests"

// filetest is one parsed .clif file with its text.
type filetest struct {
	rel   string // path below filetestDir
	src   string
	lines []string
	file  *ir.File
}

// loadFiletests parses every .clif file below filetestDir/sub (all of them
// when sub is ""), skipping the test when the directory is missing. Files
// the parser rejects are returned in failed.
func loadFiletests(t testing.TB, sub string, keep func(rel string) bool) (tests []filetest, failed map[string]error) {
	t.Helper()
	root := filetestDir
	if _, err := os.Stat(root); err != nil {
		t.Skipf("no Cranelift filetests at %s: %v", root, err)
	}
	failed = make(map[string]error)
	err := filepath.WalkDir(filepath.Join(root, sub), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".clif") {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if !keep(rel) {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		file, perr := parser.ParseFile(rel, src)
		if perr != nil {
			failed[rel] = perr
			return nil
		}
		tests = append(tests, filetest{rel: rel, src: string(src), lines: strings.Split(string(src), "\n"), file: file})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tests, failed
}

// testKinds are the `test` lines under which Cranelift verifies every
// function before doing anything else.
var testKinds = []string{"compile", "run", "interpret", "optimize"}

func isVerifiedKind(file *ir.File) bool {
	for _, h := range file.Tests {
		if len(h.Words) > 0 && slices.Contains(testKinds, h.Words[0]) {
			return true
		}
	}
	return false
}

func TestFiletestsVerifyClean(t *testing.T) {
	tests, failed := loadFiletests(t, "", func(rel string) bool {
		return !strings.HasPrefix(rel, "verifier/") && !strings.HasPrefix(rel, "parser/")
	})
	files, funcs, bad := 0, 0, 0
	for _, ft := range tests {
		if !isVerifiedKind(ft.file) {
			continue
		}
		files++
		opts := OptionsFor(ft.file)
		for _, f := range ft.file.Funcs {
			funcs++
			if errs := FunctionWith(f, opts); errs != nil {
				bad++
				t.Errorf("%s: %s:\n%v", ft.rel, f.Name, errs)
			}
		}
	}
	t.Logf("%d files (%d not parsed), %d functions verified, %d with errors", files, len(failed), funcs, bad)
	for rel, err := range failed {
		t.Logf("not parsed: %s: %v", rel, err)
	}
}

func TestFiletestsVerifierErrors(t *testing.T) {
	tests, failed := loadFiletests(t, "verifier", func(string) bool { return true })
	for rel, err := range failed {
		t.Errorf("not parsed: %s: %v", rel, err)
	}
	funcs, withErrors, matched := 0, 0, 0
	for _, ft := range tests {
		opts := OptionsFor(ft.file)
		exps := parseExpectations(ft.src)
		ranges := funcRanges(ft.file, len(ft.lines))
		for k, f := range ft.file.Funcs {
			funcs++
			lo, hi := ranges[k][0], ranges[k][1]
			var mine []expectation
			for _, x := range exps {
				if x.line >= lo && x.line <= hi {
					mine = append(mine, x)
				}
			}
			if len(mine) > 0 {
				withErrors++
			}
			m := match(mine, FunctionWith(f, opts), ft.lines, lo, hi)
			if !m.ok() {
				t.Errorf("%s: %s (line %d):%s", ft.rel, f.Name, lo, m)
				continue
			}
			matched++
		}
	}
	t.Logf("%d functions, %d with expected errors, %d matched exactly", funcs, withErrors, matched)
}

// BenchmarkVerifyFiletests verifies every function of the filetests that
// parse; it reports functions verified per second.
func BenchmarkVerifyFiletests(b *testing.B) {
	tests, _ := loadFiletests(b, "", func(rel string) bool { return !strings.HasPrefix(rel, "parser/") })
	var funcs []*ir.Function
	var opts []Options
	for _, ft := range tests {
		for _, f := range ft.file.Funcs {
			funcs = append(funcs, f)
			opts = append(opts, OptionsFor(ft.file))
		}
	}
	b.ResetTimer()
	n := 0
	for b.Loop() {
		for k, f := range funcs {
			FunctionWith(f, opts[k])
		}
		n += len(funcs)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "functions/s")
}
