package coverage

import (
	"cliff/lib/driver/drivertest"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A block's code runs from its address to the next block's, or to the end
// of its function: its lines are those of the line-table rows it overlaps.
func TestMapBlocks(t *testing.T) {
	b := &Binary{
		Files: []string{"/out/isle_x64.rs"},
		funcs: []extent{{0x100, 0x200}, {0x300, 0x340}},
		rows: []row{
			{extent{0x100, 0x110}, 0, 10},
			{extent{0x110, 0x118}, 0, 11},
			{extent{0x118, 0x200}, 0, 12},
			{extent{0x300, 0x320}, 0, 20},
			{extent{0x320, 0x340}, 0, 21},
		},
	}
	// A call at line 30, inlined: its code is the callee's lines (not
	// kept), but the block making it covers line 30.
	b.calls = []row{{extent{0x328, 0x330}, 0, 30}}
	all := map[uint64]bool{0x100: true, 0x110: true, 0x300: true, 0x320: true}
	m := b.Map(all)
	for _, tt := range []struct {
		pcs  []uint64
		want []int
	}{
		{[]uint64{0x100}, []int{10}},
		{[]uint64{0x110}, []int{11, 12}}, // to the end of its function, not to 0x300
		{[]uint64{0x320}, []int{21, 30}}, // the last block: to its function's end
		{[]uint64{0x100, 0x300}, []int{10, 20}},
		{[]uint64{0x150}, nil}, // not an instrumented block
	} {
		set := map[uint64]bool{}
		for _, pc := range tt.pcs {
			set[pc] = true
		}
		sets := map[string]LineSet{}
		m.Lines(set, sets)
		var got []int
		for l := range sets["/out/isle_x64.rs"] {
			got = append(got, l)
		}
		slices.Sort(got)
		if !slices.Equal(got, tt.want) {
			t.Errorf("blocks %x: lines %v, want %v", tt.pcs, got, tt.want)
		}
	}
}

// Inlined calls nest: each segment of code gets every call line active on
// it, once.
func TestFlattenInlinedCalls(t *testing.T) {
	calls := []row{
		{extent{0x100, 0x200}, 0, 5},
		{extent{0x140, 0x180}, 0, 7}, // inlined into the call at line 5
		{extent{0x100, 0x120}, 0, 5}, // line 5 again, overlapping itself
		{extent{0x300, 0x310}, 1, 9},
	}
	want := []row{
		{extent{0x100, 0x120}, 0, 5},
		{extent{0x120, 0x140}, 0, 5},
		{extent{0x140, 0x180}, 0, 5},
		{extent{0x140, 0x180}, 0, 7},
		{extent{0x180, 0x200}, 0, 5},
		{extent{0x300, 0x310}, 1, 9},
	}
	if got := flatten(calls); !slices.Equal(got, want) {
		t.Errorf("flatten:\n have %v\n want %v", got, want)
	}
}

// OpenBinary reads real DWARF: the line table of a small program built
// here (testdata/probe) maps its probe function's code to its lines.
func TestOpenBinaryLineTable(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "probe")
	build := exec.Command("go", "build", "-o", exe, "./testdata/probe")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	f, err := elf.Open(exe)
	if err != nil {
		t.Skipf("not an ELF platform: %v", err)
	}
	syms, err := f.Symbols()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	var fn uint64
	for _, s := range syms {
		if s.Name == "main.probe" {
			fn = s.Value
		}
	}
	if fn == 0 {
		t.Fatal("no symbol main.probe in the probe binary")
	}
	b, err := OpenBinary(exe, func(file string) bool { return filepath.Base(file) == "probe.go" })
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Files) != 1 {
		t.Fatalf("kept files %v, want only probe.go", b.Files)
	}
	src, err := os.ReadFile("testdata/probe/probe.go")
	if err != nil {
		t.Fatal(err)
	}
	bodyLine, callLine, mainLine := 0, 0, 0
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, "// probe: a line") {
			bodyLine = i + 1
		}
		if strings.Contains(l, "// probe: an inlined call") {
			callLine = i + 1
		}
		if strings.HasPrefix(l, "func main()") {
			mainLine = i + 1
		}
	}
	sets := map[string]LineSet{}
	b.Map(map[uint64]bool{fn: true}).Lines(map[uint64]bool{fn: true}, sets)
	lines := sets[b.Files[0]]
	if !lines[bodyLine] {
		t.Errorf("the probe's block maps to lines %v, want them to include %d", lines, bodyLine)
	}
	if !lines[callLine] {
		t.Errorf("the probe's block maps to lines %v, want them to include the inlined call's line %d", lines, callLine)
	}
	if lines[mainLine] {
		t.Errorf("the probe's block maps to lines %v, which include main's line %d", lines, mainLine)
	}
}

// The driver that `make` builds must not be the coverage build: the
// coverage feature is off by default (driver/Cargo.toml) and only
// scripts/coverage.sh turns it on, in a cargo target directory of its own.
func TestDefaultDriverHasNoCoverage(t *testing.T) {
	f, err := elf.Open(drivertest.Require(t))
	if err != nil {
		t.Fatalf("cliff-driver not built (%v): run `make driver`", err)
	}
	defer f.Close()
	syms, _ := f.Symbols()
	dyn, _ := f.DynamicSymbols()
	if len(syms)+len(dyn) == 0 {
		t.Fatal("cliff-driver has no symbol table to check")
	}
	for _, s := range append(syms, dyn...) {
		if strings.HasPrefix(s.Name, "__sanitizer_cov") || strings.HasPrefix(s.Name, "__start___sancov") {
			t.Errorf("the default cliff-driver has coverage symbol %s", s.Name)
		}
	}
}
