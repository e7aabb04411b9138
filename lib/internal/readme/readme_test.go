package readme

import (
	"flag"
	"fmt"
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"cliff/lib/census"
	"cliff/lib/cluster"
	"cliff/lib/judge"
)

var update = flag.Bool("update", false, "rewrite the README's generated parts")

const (
	readmePath = "../../../README.md"
	libDir     = "../.."
)

// parts renders each generated part of the README by name.
func parts(t *testing.T) map[string]string {
	return map[string]string{
		"verdicts":       indent(judge.VerdictList()),
		"census-classes": indent(census.ClassList()),
		"clustered":      cluster.ClusteredSentence(),
		"layout":         layout(t),
	}
}

// A part stands between its begin marker and the end marker.
var partRE = regexp.MustCompile(`(?s)(<!-- generated: ([a-z-]+)[^>]*-->\n)(.*?)(<!-- end generated -->)`)

func TestReadme(t *testing.T) {
	b, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	want := parts(t)
	seen := map[string]bool{}
	out := partRE.ReplaceAllStringFunc(string(b), func(m string) string {
		sub := partRE.FindStringSubmatch(m)
		name := sub[2]
		seen[name] = true
		w, ok := want[name]
		if !ok {
			t.Errorf("README.md: unknown generated part %q", name)
			return m
		}
		if sub[3] != w && !*update {
			t.Errorf("README.md's part %q is stale (go test ./lib/internal/readme -update):\n%s\nwant:\n%s", name, sub[3], w)
		}
		return sub[1] + w + sub[4]
	})
	for name := range want {
		if !seen[name] {
			t.Errorf("README.md has no generated part %q", name)
		}
	}
	if *update && out != string(b) {
		if err := os.WriteFile(readmePath, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// indent makes a --help list a Markdown code block.
func indent(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" {
			b.WriteString("  " + l)
		}
	}
	return "\n" + b.String() + "\n"
}

// layout is the table of lib's packages, each with its doc's first
// sentence.
func layout(t *testing.T) string {
	type row struct{ path, what string }
	var rows []row
	err := filepath.WalkDir(libDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if d.Name() == "testdata" {
			return filepath.SkipDir
		}
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, path, func(fi fs.FileInfo) bool {
			return !strings.HasSuffix(fi.Name(), "_test.go")
		}, parser.ParseComments|parser.PackageClauseOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(libDir, path)
		for name, pkg := range pkgs {
			var text string
			for _, f := range pkg.Files {
				if f.Doc != nil {
					text = f.Doc.Text()
					break
				}
			}
			if text == "" {
				t.Errorf("lib/%s: package %s has no doc", rel, name)
				continue
			}
			what := (&doc.Package{Name: name}).Synopsis(text)
			for _, kind := range []string{"Package ", "Command "} {
				what = strings.TrimPrefix(what, kind+name+" ")
			}
			rows = append(rows, row{"lib/" + filepath.ToSlash(rel), what})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(rows, func(a, b row) int { return strings.Compare(a.path, b.path) })
	var b strings.Builder
	b.WriteString("\n| package | what it is |\n|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| `%s` | %s |\n", r.path, r.what)
	}
	b.WriteString("\n")
	return b.String()
}
