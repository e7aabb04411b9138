package ir_test

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"cliff/lib/ir"
)

// filetestsDir is Cranelift's own test corpus, shared by the checkout.
const filetestsDir = "../../../shared/cranelift-filetests"

var (
	// An instruction line: optional results, then the opcode with an
	// optional `.type` suffix, then operands.
	instLineRE = regexp.MustCompile(`^(?:v\d+(?:\s*,\s*v\d+)*\s*=\s*)?([a-z][a-z0-9_]*)(?:\.[A-Za-z0-9_]+)?(?:\s|$)`)
	srcLocRE   = regexp.MustCompile(`^@[0-9a-f]+\s+`)
)

// filetestOpcodes returns every word used as an instruction in the function
// bodies of the .clif files under dir, with one place it is used.
func filetestOpcodes(t *testing.T, dir string) map[string]string {
	t.Helper()
	used := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".clif") {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		inBody := false
		for n := 1; sc.Scan(); n++ {
			line := sc.Text()
			if i := strings.IndexByte(line, ';'); i >= 0 {
				line = line[:i]
			}
			line = strings.TrimSpace(line)
			switch {
			case strings.HasPrefix(line, "function "):
				inBody = strings.HasSuffix(line, "{")
				continue
			case line == "}":
				inBody = false
				continue
			case !inBody:
				continue
			}
			line = srcLocRE.ReplaceAllString(line, "")
			if strings.HasSuffix(line, ":") {
				continue // block header: block1(v0: i32): or block2 cold:
			}
			m := instLineRE.FindStringSubmatch(line)
			if m == nil || strings.Contains(line, "->") && !strings.Contains(line, "=") {
				continue // a value alias `v3 -> v2`
			}
			if strings.Contains(line, "=") && !strings.HasPrefix(line, "v") {
				continue // preamble: ss0 = ..., fn0 = ..., sig0 = ...
			}
			if _, seen := used[m[1]]; !seen {
				rel, _ := filepath.Rel(dir, path)
				used[m[1]] = rel + ":" + strconv.Itoa(n)
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	return used
}

func TestFiletestOpcodesAreInTable(t *testing.T) {
	if _, err := os.Stat(filetestsDir); err != nil {
		t.Skipf("Cranelift filetests not found: %v", err)
	}
	used := filetestOpcodes(t, filetestsDir)
	var names []string
	for name := range used {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if _, ok := ir.LookupOpcode(name); !ok {
			t.Errorf("%s (used at %s) is not in opcodes.txt", name, used[name])
		}
	}
	// Guard against a scanner that silently finds nothing: the corpus uses
	// nearly every opcode.
	if len(names) < 150 {
		t.Errorf("found only %d distinct opcodes in the filetests; the scanner is broken", len(names))
	}
}

// TestFiletestScanner checks that the scanner takes instructions and only
// instructions from function bodies.
func TestFiletestScanner(t *testing.T) {
	dir := t.TempDir()
	clif := `test compile
set opt_level=speed
target x86_64
iadd_outside_a_function

function %f(i64) -> i32 {
    ss0 = explicit_slot 8
    fn0 = %g(i32) -> i32
    sig0 = (i64) -> i64

block0(v0: i64):
    v1 = load.i32 notrap aligned v0+8 ; check: v1 = bogus_in_comment
@0004    v2, v3 = uadd_overflow v1, v1
    v4 -> v1
    istore8 v1, v0
    brif v1, block1, block2

block1 cold:
    trap user1

block2:
    return v1
}
`
	if err := os.WriteFile(filepath.Join(dir, "a.clif"), []byte(clif), 0o644); err != nil {
		t.Fatal(err)
	}
	used := filetestOpcodes(t, dir)
	var got []string
	for name := range used {
		got = append(got, name)
	}
	sort.Strings(got)
	want := []string{"brif", "istore8", "load", "return", "trap", "uadd_overflow"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("scanned opcodes %v, want %v", got, want)
	}
	if used["uadd_overflow"] != "a.clif:13" {
		t.Errorf("uadd_overflow found at %q, want a.clif:13", used["uadd_overflow"])
	}
}
