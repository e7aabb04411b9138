package printer

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"cliff/lib/ir"
	"cliff/lib/parser"
)

const filetestsDir = "../../../shared/cranelift-filetests"

// clifFiles lists the .clif files under the Cranelift filetests, or skips.
func clifFiles(tb testing.TB) []string {
	tb.Helper()
	if _, err := os.Stat(filetestsDir); err != nil {
		tb.Skipf("no filetests: %v", err)
	}
	var files []string
	err := filepath.WalkDir(filetestsDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".clif") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return files
}

// TestRoundTripFiletests checks, for every filetest that parses, that
// parse -> print -> parse gives the same IR and that printing is
// idempotent.
func TestRoundTripFiletests(t *testing.T) {
	var parsed, same, failed int
	for _, path := range clifFiles(t) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f1, err := parser.ParseFile(path, src)
		if err != nil {
			continue
		}
		parsed++
		var text1 bytes.Buffer
		if err := File(&text1, f1); err != nil {
			t.Fatal(err)
		}
		f2, err := parser.ParseFile(path+" (printed)", text1.Bytes())
		if err != nil {
			failed++
			t.Errorf("%s: printed text does not parse: %v\n%s", path, err, excerpt(text1.String(), err))
			continue
		}
		if diff := diffFiles(f1, f2); diff != "" {
			failed++
			t.Errorf("%s: IR changed in the round trip: %s", path, diff)
			continue
		}
		var text2 bytes.Buffer
		if err := File(&text2, f2); err != nil {
			t.Fatal(err)
		}
		if text1.String() != text2.String() {
			failed++
			t.Errorf("%s: printing is not idempotent:\n%s", path, firstDiff(text1.String(), text2.String()))
			continue
		}
		same++
	}
	t.Logf("%d files parsed, %d round-tripped exactly, %d failed", parsed, same, failed)
}

// annotationPatterns find source locations, debug tags naming stack slots
// and user stack maps in CLIF text.
var annotationPatterns = map[string]*regexp.Regexp{
	"source locations":  regexp.MustCompile(`(?m)^(<[^>]*> *)?@[0-9a-fA-F]+ `),
	"stack slot tags":   regexp.MustCompile(`(?m)^<[^>]*\bss[0-9]+`),
	"stack map entries": regexp.MustCompile(`\S+ @ ss[0-9]+\+[0-9]+`),
}

// countAnnotations counts what annotationPatterns find outside comments.
func countAnnotations(text string) map[string]int {
	var code strings.Builder
	for _, line := range strings.Split(text, "\n") {
		line, _, _ = strings.Cut(line, ";")
		code.WriteString(line)
		code.WriteString("\n")
	}
	n := map[string]int{}
	for what, re := range annotationPatterns {
		n[what] = len(re.FindAllStringIndex(code.String(), -1))
	}
	return n
}

// TestRoundTripKeepsAnnotations checks that printing a parsed filetest
// writes every source location, stack slot debug tag and stack map entry
// its instructions carry.
func TestRoundTripKeepsAnnotations(t *testing.T) {
	total := map[string]int{}
	for _, path := range clifFiles(t) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want := countAnnotations(string(src))
		if want["source locations"]+want["stack slot tags"]+want["stack map entries"] == 0 {
			continue
		}
		f, err := parser.ParseFile(path, src)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		var text bytes.Buffer
		if err := File(&text, f); err != nil {
			t.Fatal(err)
		}
		if got := countAnnotations(text.String()); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the source has %v, the printed text %v", path, want, got)
		}
		for what, n := range want {
			total[what] += n
		}
	}
	t.Logf("annotations kept: %v", total)
	for what := range annotationPatterns {
		if total[what] == 0 {
			t.Errorf("found no %s in the filetests", what)
		}
	}
}

// excerpt shows the lines around an error's line number, when it has one.
func excerpt(text string, err error) string {
	var line int
	if pe, ok := err.(*parser.Error); ok {
		line = pe.Line
	}
	lines := strings.Split(text, "\n")
	lo, hi := max(0, line-4), min(len(lines), line+2)
	if line == 0 {
		lo, hi = 0, min(len(lines), 20)
	}
	return strings.Join(lines[lo:hi], "\n")
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for k := range min(len(al), len(bl)) {
		if al[k] != bl[k] {
			return fmt.Sprintf("line %d:\n  first:  %q\n  second: %q", k+1, al[k], bl[k])
		}
	}
	return fmt.Sprintf("lengths %d and %d lines", len(al), len(bl))
}

// diffFiles compares two parsed files, ignoring source positions, file
// names, the text of run commands and nil versus empty slices; preamble
// declarations are compared in number order (the printer sorts them).
func diffFiles(a, b *ir.File) string {
	return diffValues("file", reflect.ValueOf(normFile(a)), reflect.ValueOf(normFile(b)))
}

// diffFuncs is diffFiles for single functions.
func diffFuncs(a, b *ir.Function) string {
	return diffValues("function", reflect.ValueOf(normFunc(a)), reflect.ValueOf(normFunc(b)))
}

func normFile(f *ir.File) *ir.File {
	g := *f
	g.Name = ""
	g.Tests = slices.Clone(g.Tests)
	for k := range g.Tests {
		g.Tests[k].Line = 0
	}
	g.Header = slices.Clone(g.Header)
	for k := range g.Header {
		g.Header[k].Line = 0
	}
	g.Commands = slices.Clone(g.Commands)
	for k := range g.Commands {
		g.Commands[k].Line, g.Commands[k].Text = 0, ""
	}
	g.Funcs = nil
	for _, fn := range f.Funcs {
		g.Funcs = append(g.Funcs, normFunc(fn))
	}
	return &g
}

func normFunc(f *ir.Function) *ir.Function {
	g := *f
	g.Pos = ir.Positions{}
	g.StackSlots = sortedByNum(g.StackSlots, func(d *ir.StackSlotDecl) uint32 { return uint32(d.Num) })
	g.DynStackSlots = sortedByNum(g.DynStackSlots, func(d *ir.DynStackSlotDecl) uint32 { return uint32(d.Num) })
	g.DynTypes = sortedByNum(g.DynTypes, func(d *ir.DynTypeDecl) uint32 { return uint32(d.Num) })
	g.Regions = sortedByNum(g.Regions, func(d *ir.RegionDecl) uint32 { return uint32(d.Num) })
	g.GlobalValues = sortedByNum(g.GlobalValues, func(d *ir.GlobalValueDecl) uint32 { return uint32(d.Num) })
	g.Sigs = sortedByNum(g.Sigs, func(d *ir.SigDecl) uint32 { return uint32(d.Num) })
	g.FuncRefs = sortedByNum(g.FuncRefs, func(d *ir.FuncRefDecl) uint32 { return uint32(d.Num) })
	g.Constants = sortedByNum(g.Constants, func(d *ir.ConstantDecl) uint32 { return uint32(d.Num) })
	return &g
}

// diffValues is reflect.DeepEqual that treats nil and empty slices as equal
// and says where the first difference is.
func diffValues(path string, a, b reflect.Value) string {
	if a.Kind() != b.Kind() {
		return fmt.Sprintf("%s: kinds %s and %s", path, a.Kind(), b.Kind())
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path + ": one pointer is nil"
			}
			return ""
		}
		return diffValues(path, a.Elem(), b.Elem())
	case reflect.Struct:
		for k := range a.NumField() {
			if d := diffValues(path+"."+a.Type().Field(k).Name, a.Field(k), b.Field(k)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: lengths %d and %d", path, a.Len(), b.Len())
		}
		for k := range a.Len() {
			if d := diffValues(fmt.Sprintf("%s[%d]", path, k), a.Index(k), b.Index(k)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Map:
		if !reflect.DeepEqual(a.Interface(), b.Interface()) {
			return fmt.Sprintf("%s: maps differ", path)
		}
		return ""
	}
	if !a.Equal(b) {
		return fmt.Sprintf("%s: %v and %v", path, a, b)
	}
	return ""
}

// TestBuiltFunctionsRoundTrip checks that IR made with ir.Builder reads
// back from its text as the same IR: the builder fills the data the way
// the parser does, and the printer loses nothing.
func TestBuiltFunctionsRoundTrip(t *testing.T) {
	for name, build := range map[string]func() *ir.Function{
		"branches": buildBranches, "preamble": buildPreamble, "debug_tags": buildDebugTags,
		"memory": buildMemory, "calls": buildCalls, "values": buildValues, "annotations": buildAnnotations,
	} {
		t.Run(name, func(t *testing.T) {
			f := build()
			text := FunctionString(f)
			m, err := parser.ParseModule(name, []byte(text))
			if err != nil {
				t.Fatalf("%v\n%s", err, excerpt(text, err))
			}
			if diff := diffFuncs(f, m.Funcs[0]); diff != "" {
				t.Errorf("%s\n%s", diff, text)
			}
		})
	}
}

// TestCompactRoundTrips checks that the compact layout (four-space
// indentation whatever the annotations, no constant comments) reads back
// as the same IR: printing the re-parsed text the default way gives the
// default text of the original, for every filetest with annotations.
func TestCompactRoundTrips(t *testing.T) {
	checked := 0
	for _, path := range clifFiles(t) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if want := countAnnotations(string(src)); want["source locations"]+want["stack slot tags"] == 0 {
			continue
		}
		f, err := parser.ParseFile(path, src)
		if err != nil {
			continue // TestRoundTripKeepsAnnotations reports it
		}
		var want, compact, again bytes.Buffer
		if err := File(&want, f); err != nil {
			t.Fatal(err)
		}
		if err := (Options{Compact: true}).File(&compact, f); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(compact.String(), "\n        ") || strings.Contains(compact.String(), "  ; v") {
			t.Errorf("%s: compact text keeps wide indentation or constant comments", path)
		}
		g, err := parser.ParseFile(path, compact.Bytes())
		if err != nil {
			t.Errorf("%s: compact text does not parse: %v", path, err)
			continue
		}
		if err := File(&again, g); err != nil {
			t.Fatal(err)
		}
		if again.String() != want.String() {
			t.Errorf("%s: compact text reads back differently", path)
		}
		checked++
	}
	if checked == 0 {
		t.Error("no filetest with annotations")
	}
}

// TestReusedPrinter checks that a printer reused for many functions, as
// the pooled one is, leaves nothing of one function in the text of the
// next: every filetest function, printed in turn by one printer in both
// layouts, gives the text a fresh printer gives.
func TestReusedPrinter(t *testing.T) {
	var reused funcPrinter
	n := 0
	for _, path := range clifFiles(t) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		file, err := parser.ParseFile(path, src)
		if err != nil {
			continue
		}
		for _, f := range file.Funcs {
			for _, o := range []Options{{}, {Compact: true}} {
				var fresh funcPrinter
				want := string(fresh.appendFunction(nil, o, f))
				if got := string(reused.appendFunction(nil, o, f)); got != want {
					t.Fatalf("%s: %s printed by a reused printer: %s", path, f.Name, firstDiff(got, want))
				}
				n++
			}
		}
	}
	if n == 0 {
		t.Fatal("no function printed")
	}
}
