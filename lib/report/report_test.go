package report

import (
	"bytes"
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"cliff/lib/cluster"
	"cliff/lib/history"
	"cliff/lib/jsonl"
	"cliff/lib/record"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// campaign clusters testdata/campaign.jsonl, trimmed real verdicts of
// Cranelift 0.135.8 (see testdata/README), with a clock that ticks a
// second per verdict.
func campaign(t *testing.T) Campaign {
	t.Helper()
	r, closer, err := jsonl.Open("testdata/campaign.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	c := cluster.NewClusterer()
	clock := time.Date(2026, 11, 26, 1, 0, 0, 0, time.UTC)
	c.Now = func() time.Time { clock = clock.Add(time.Second); return clock }
	for {
		v := new(record.Verdict)
		if err := r.Next(v); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if err := v.Validate(); err != nil {
			t.Fatal(err)
		}
		if err := c.Add(v); err != nil {
			t.Fatal(err)
		}
	}
	known, err := cluster.LoadKnown()
	if err != nil {
		t.Fatal(err)
	}
	out := Campaign{Stats: c.Stats, Timeline: c.Timeline()}
	for _, g := range c.Groups() {
		rec := g.Record()
		rec.Known = known.Match(g.Signature, g.Representative, nil).String()
		out.Clusters = append(out.Clusters, Entry{Cluster: rec, FirstCase: g.FirstCase})
	}
	return out
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs; if the change is intended, run go test -update and review the diff. Got:\n%s", path, got)
	}
}

// The report of a small real campaign, reviewed as golden files: the
// index and the page and test file of the scalar_to_vector cluster.
func TestReportGolden(t *testing.T) {
	c := campaign(t)
	dir := t.TempDir()
	if err := Write(dir, c); err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile(filepath.Join(dir, "index.md"))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "index.md", index)
	var stv *record.Cluster
	for _, e := range c.Clusters {
		if strings.Contains(e.Cluster.Signature, "bitcast_gpr_to_xmm") {
			stv = e.Cluster
		}
	}
	if stv == nil {
		t.Fatal("no scalar_to_vector cluster")
	}
	for _, ext := range []string{".md", ".clif"} {
		page, err := os.ReadFile(filepath.Join(dir, "cluster-"+stv.SignatureHash+ext))
		if err != nil {
			t.Fatal(err)
		}
		golden(t, "cluster-scalar-to-vector"+ext, page)
	}
	for _, e := range c.Clusters {
		if e.Cluster.RepresentativeVerdict.Verdict == record.OutcomeDivergent {
			page, err := os.ReadFile(filepath.Join(dir, "cluster-"+e.Cluster.SignatureHash+".md"))
			if err != nil {
				t.Fatal(err)
			}
			golden(t, "cluster-divergent.md", page)
		}
	}
}

// The plots are well-formed SVG with what they claim to show.
func TestSVG(t *testing.T) {
	c := campaign(t)
	for _, tc := range []struct {
		name, svg string
		want      []string
	}{
		{"failures", FailuresSVG(c.Timeline), []string{"failing cases", "distinct clusters", `stroke="#c0392b"`, `stroke="#2471a3"`}},
		{"no failures", FailuresSVG(nil), []string{"no failing case"}},
		{"in case order", FailuresSVG([]cluster.Point{{Case: 3, Failures: 1, Clusters: 1}, {Case: 90, Failures: 2, Clusters: 1}}),
			[]string{"case (cliff-gen index)", ">90<"}},
		{"out of case order: by verdicts read", FailuresSVG([]cluster.Point{{Case: 90, Verdicts: 40, Failures: 1, Clusters: 1}, {Case: 3, Verdicts: 7000, Failures: 2, Clusters: 2}}),
			[]string{"verdicts read (campaign order)", ">7000<", ">2<"}},
		{"targets", TargetsSVG(c.Stats.ArchStatuses), []string{">x86_64<", ">interp<", "x86_64 compile_crash: ", "compile_crash</text>"}},
		{"no targets", TargetsSVG(nil), []string{"no runs"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := xml.NewDecoder(strings.NewReader(tc.svg))
			for {
				if _, err := d.Token(); err == io.EOF {
					break
				} else if err != nil {
					t.Fatalf("not well-formed XML: %v\n%s", err, tc.svg)
				}
			}
			for _, w := range tc.want {
				if !strings.Contains(tc.svg, w) {
					t.Errorf("lacks %q:\n%s", w, tc.svg)
				}
			}
		})
	}
}

// A location's reduced reproducer replaces the representative's CLIF, and
// the index names the location.
func TestLocatedCluster(t *testing.T) {
	c := campaign(t)
	e := c.Clusters[0]
	e.Location = &record.Location{CaseID: e.Cluster.Representative, Function: "%main", Block: "block0",
		Inst: record.InstLocation{Index: 0, Text: "v1 = scalar_to_vector.i8x16 v0"}, Repro: "test compile\ntarget x86_64\nfunction %f(i8) -> i8x16 {\nblock0(v0: i8):\n    v1 = scalar_to_vector.i8x16 v0\n    return v1\n}"}
	if got := TestFile(e); got != e.Location.Repro+"\n" {
		t.Errorf("test file:\n%s", got)
	}
	page := ClusterPage(e, "x.clif")
	if !strings.Contains(page, "Reduced by cliff-locate") || !strings.Contains(page, "- Location: %main block0: `v1 = scalar_to_vector.i8x16 v0`") {
		t.Errorf("page:\n%s", page)
	}
	if index := Index(c.Stats, []Entry{e}); !strings.Contains(index, "| %main block0: `v1 = scalar_to_vector.i8x16 v0` |") {
		t.Errorf("index:\n%s", index)
	}
}

// A crash's test file runs every input with the reference's answers; a
// trapping answer is a comment, not a run line.
func TestRunLines(t *testing.T) {
	interp := record.Config{Arch: "interp", OptLevel: "none", Executor: record.ExecInterp}
	s390x := record.Config{Arch: "s390x", OptLevel: "none", Executor: record.ExecQemu}
	c := &record.Case{ID: "c", CLIF: "function %f(i32) -> i32 {\nblock0(v0: i32):\n    return v0\n}\n\nfunction %g() {\nblock0:\n    return\n}\n",
		Inputs: []record.InputVector{{{Type: "i32", Value: "1"}}, {{Type: "i32", Value: "0"}}},
		Results: []record.RunResult{
			{Config: interp, Status: record.StatusOK, Hash: "0000000000000001", Outputs: []string{"i32 0x1", "trap int_divz"}},
			{Config: s390x, Status: record.StatusCrash, Signal: "SIGSEGV"},
		}}
	c.Stamp()
	v := &record.Verdict{CaseID: "c", Verdict: record.OutcomeCrash, Case: c, Sides: []record.Side{
		{Configs: []record.Config{s390x}, Status: record.StatusCrash},
		{Configs: []record.Config{interp}, Status: record.StatusOK},
	}}
	v.Stamp()
	cl := &record.Cluster{Signature: "crash s390x/*: crash SIGSEGV", Count: 1, Representative: "c", RepresentativeVerdict: v, Verdict: record.OutcomeCrash}
	got := TestFile(Entry{Cluster: cl})
	for _, want := range []string{"\ntest run\n", "\ntarget s390x\n", "\n}\n; run: %f(1) == 1\n\nfunction %g() {", "\n; the reference traps with int_divz on (0): a run line cannot say so\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("test file lacks %q:\n%s", want, got)
		}
	}
}

// TestLocationText: the index names where a failure showed and, when
// cliff-locate found one, the culprit its mask entry names.
func TestLocationText(t *testing.T) {
	for _, tc := range []struct {
		loc  *record.Location
		want string
	}{
		{nil, "–"},
		{&record.Location{Function: "%f1", Block: "block0", Inst: record.InstLocation{Text: "v43 = bitcast.i64x2 little v8"}, Mask: []string{"swizzle - riscv64 y=splat"}},
			"%f1 block0: `v43 = bitcast.i64x2 little v8`; culprit `swizzle - riscv64 y=splat`"},
		{&record.Location{Function: "%main"}, "%main"},
	} {
		if got := locationText(tc.loc); got != tc.want {
			t.Errorf("locationText = %q, want %q", got, tc.want)
		}
	}
}

// A reference_divergent cluster: the page says the expected answer is
// cliff's reference's and that all of Cranelift disagrees; the test file
// has Cranelift's targets and a run line expecting the reference's
// answer, and no target line for the reference, which is no Cranelift
// target.
func TestReferenceDivergentPage(t *testing.T) {
	ref := record.Config{Arch: "ref", OptLevel: "none", Executor: record.ExecRef}
	interp := record.Config{Arch: "interp", OptLevel: "none", Executor: record.ExecInterp}
	x86 := record.Config{Arch: "x86_64", OptLevel: "none", Executor: record.ExecNative}
	c := &record.Case{ID: "c", CLIF: "function %f(i32) -> i32 {\nblock0(v0: i32):\n    return v0\n}\n",
		Inputs: []record.InputVector{{{Type: "i32", Value: "1"}}},
		Results: []record.RunResult{
			{Config: x86, Status: record.StatusOK, Hash: "0000000000000002", Outputs: []string{"i32 0x2"}},
			{Config: interp, Status: record.StatusOK, Hash: "0000000000000002", Outputs: []string{"i32 0x2"}},
			{Config: ref, Status: record.StatusOK, Hash: "0000000000000001", Outputs: []string{"i32 0x1"}},
		}}
	c.Stamp()
	v := &record.Verdict{CaseID: "c", Verdict: record.OutcomeReferenceDivergent, Case: c, Input: record.InputIndex(0), Sides: []record.Side{
		{Configs: []record.Config{ref}, Status: record.StatusOK, Hash: "0000000000000001", Output: "i32 0x1"},
		{Configs: []record.Config{x86, interp}, Status: record.StatusOK, Hash: "0000000000000002", Output: "i32 0x2"},
	}}
	v.Stamp()
	if err := v.Validate(); err != nil {
		t.Fatal(err)
	}
	cl := &record.Cluster{Signature: "reference_divergent cranelift/*: i32 value", Count: 1, Representative: "c", RepresentativeVerdict: v, Verdict: v.Verdict}
	e := Entry{Cluster: cl, FirstCase: -1}
	page := ClusterPage(e, "c.clif")
	for _, want := range []string{"    i32 0x1\n\nas on ref/none.", "cliff's reference interpreter", "every configuration of Cranelift that ran agrees on another", "On x86_64/none, interp/none:\n\n    i32 0x2"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q:\n%s", want, page)
		}
	}
	file := TestFile(e)
	for _, want := range []string{"\ntest interpret\n", "\ntarget x86_64\n", "; run: %f(1) == 1\n"} {
		if !strings.Contains(file, want) {
			t.Errorf("test file lacks %q:\n%s", want, file)
		}
	}
	if strings.Contains(file, "target ref") {
		t.Errorf("test file names the reference as a target:\n%s", file)
	}
}

// nightRun is a nightly run on day d of November 2026 with its clusters
// as "signature=count".
func nightRun(d int, cranelift string, clusters ...string) *record.Run {
	started := time.Date(2026, 11, d, 2, 0, 0, 0, time.UTC)
	r := &record.Run{ID: started.Format("20060102T150405Z") + "-" + strconv.Itoa(d), Seed: uint64(d),
		Started: started, Finished: started.Add(30 * time.Minute), Cranelift: cranelift, Profile: "compat", Depth: 5,
		Mask: "known.mask", BudgetMinutes: 60, Cases: 20000, CPUSeconds: 3540}
	for i, c := range clusters {
		at := strings.LastIndex(c, "=") // signatures hold "=="
		sig, n := c[:at], c[at+1:]
		count, err := strconv.Atoi(n)
		if err != nil {
			panic(c)
		}
		r.Clusters = append(r.Clusters, record.RunCluster{Signature: sig, SignatureHash: record.HashString(sig),
			Verdict: record.OutcomeCompileCrash, Count: count, Representative: fmt.Sprintf("g%016x-%d", d, i)})
		r.Failures += count
	}
	r.Stamp()
	return r
}

// nightly is a history of five nights: a finding fixed by 0.138.0, a
// rare one, one back, one new, and a mask let go on the last night.
func nightly() *history.Comparison {
	const (
		fixed = "compile_crash x86_64/*: panic: assertion `left == right` failed: put_in_xmm_mem_32 @ cranelift-codegen/src/isa/x64/lower/isle.rs:1277"
		rare  = "divergent riscv64/opt: i8x16 one lane"
		back  = "compile_crash aarch64/*: panic: no rule matched for term ineg @ cranelift-codegen/src/isa/aarch64/lower.isle:2301"
		fresh = "crash s390x/*: crash SIGSEGV"
	)
	last := nightRun(5, "0.138.0", back+"=2", fresh+"=1")
	last.Mask = ""
	resumed := nightRun(3, "0.138.0")
	resumed.Resumed, resumed.CPUSeconds = true, 610
	return history.Compare([]*record.Run{
		nightRun(1, "0.137.1", fixed+"=12", rare+"=1", back+"=1"),
		nightRun(2, "0.137.1", fixed+"=9"),
		resumed,
		nightRun(4, "0.138.0"),
		last,
	})
}

// The history page of a small history, reviewed as a golden file, and
// its plot.
func TestHistoryPage(t *testing.T) {
	c := nightly()
	golden(t, "history.md", []byte(HistoryPage(c)))
	svg := HistorySVG(c)
	d := xml.NewDecoder(strings.NewReader(svg))
	for {
		if _, err := d.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, svg)
		}
	}
	for _, want := range []string{">0.138.0<", "2026-11-05: 1 new", "2026-11-05: 1 cluster seen before", "2026-11-02: 2 no longer seen",
		"Cranelift 0.137.1 → 0.138.0", ">mask<", "distinct signatures so far"} {
		if !strings.Contains(svg, want) {
			t.Errorf("history.svg lacks %q:\n%s", want, svg)
		}
	}
	for _, empty := range []*history.Comparison{history.Compare(nil)} {
		if page := HistoryPage(empty); !strings.Contains(page, "No run is recorded yet.") {
			t.Errorf("empty history page:\n%s", page)
		}
		if svg := HistorySVG(empty); !strings.Contains(svg, "no run recorded") {
			t.Errorf("empty history plot:\n%s", svg)
		}
	}
}

// A campaign that is a nightly run gets the history page beside its
// report, a row in its index, and Replace leaves no page of an earlier
// report behind.
func TestReplaceWithHistory(t *testing.T) {
	c := campaign(t)
	c.History = nightly()
	dir := filepath.Join(t.TempDir(), "report")
	if err := os.MkdirAll(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cluster-0000000000000000.md"), []byte("last night's"), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := Replace(dir, c); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"index.md", "history.md", "history.svg", "failures.svg"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "cluster-0000000000000000.md")); err == nil {
		t.Error("an earlier report's page survived Replace")
	}
	index, err := os.ReadFile(filepath.Join(dir, "index.md"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "| nightly run | 20261105T020000Z-5: seed 5, Cranelift 0.138.0, 20000 cases; 1 new since the last run; [the history of 5 runs](history.md) |\n"; !strings.Contains(string(index), want) {
		t.Errorf("index lacks %q:\n%s", want, index)
	}
	if left, _ := filepath.Glob(dir + ".*"); len(left) > 0 {
		t.Errorf("Replace left %v", left)
	}
}
