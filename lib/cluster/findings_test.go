package cluster_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"cliff/lib/arch"
	"cliff/lib/cluster"
	"cliff/lib/driver/drivertest"
	"cliff/lib/engine"
	"cliff/lib/extract"
	"cliff/lib/ir"
	"cliff/lib/jsonl"
	"cliff/lib/judge"
	"cliff/lib/parser"
	"cliff/lib/record"
)

var update = flag.Bool("update", false, "rewrite the findings' expected signatures")

// findingsDir holds the hand-reduced findings; expected/VERSION.txt
// beside them is what each function of each finding shows with Cranelift
// VERSION (the default release and each one the tests have run on:
// CLIFF_CRANELIFT=0.135.8 scripts/test.sh).
const findingsDir = "../profile/data/findings"

// TestFindingsReproduce runs every finding through cliff-run's engine (on
// its target lines and the interpreter when it says `test interpret`, at
// every opt level) and cliff-diff's judge, and checks that each function
// still shows the signature recorded in expected/VERSION.txt for the
// driver's Cranelift: the findings are regressions that say when a
// release moves past a bug. A function whose failure is gone is reported
// as fixed, one that fails otherwise as changed, and a release with no
// file fails the test until -update writes one (after checking it: a
// finding fixed there says so in its header, "fixed in").
func TestFindingsReproduce(t *testing.T) {
	drv := drivertest.Require(t)
	files, err := filepath.Glob(filepath.Join(findingsDir, "*.clif"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no findings in %s (%v)", findingsDir, err)
	}
	ctx := context.Background()
	var log strings.Builder
	e, err := engine.New(ctx, engine.Options{DriverPath: drv, Jobs: 2, Timeout: engine.DefaultTimeout,
		CompileTimeout: engine.DefaultCompileTimeout, Fuel: engine.DefaultFuel, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	// A finding for a Pulley target runs with --arch naming its targets
	// (cliff-run runs Pulley targets only then), and only those: --arch
	// overrides a file's target lines, and a function of a 64-bit target
	// is invalid on a 32-bit one. It runs on the interpreter too when it
	// says "test interpret".
	var sources []extract.Source
	var pulley []string
	for _, f := range files {
		if targets, _ := pulleyTargets(t, f); len(targets) > 0 {
			pulley = append(pulley, f)
			continue
		}
		sources = append(sources, extract.Source{Path: f})
	}
	out := filepath.Join(t.TempDir(), "findings.jsonl")
	if _, err := e.Stream(ctx, engine.StreamOptions{Sources: sources, Output: out}); err != nil {
		t.Fatal(err)
	}
	outs := []string{out}
	for i, f := range pulley {
		targets, interp := pulleyTargets(t, f)
		if interp {
			targets = append(targets, arch.Interp)
		}
		spec := engine.ConfigSpec{Arches: slices.Compact(targets)}
		out := filepath.Join(t.TempDir(), fmt.Sprintf("pulley%d.jsonl", i))
		if _, err := e.Stream(ctx, engine.StreamOptions{Configs: spec, Sources: []extract.Source{{Path: f}}, Output: out}); err != nil {
			t.Fatal(err)
		}
		outs = append(outs, out)
	}
	var got []string
	for _, out := range outs {
		got = append(got, signatures(t, out, failedRunLines(log.String()))...)
	}
	slices.Sort(got)

	version, err := drivertest.Version()
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join(findingsDir, "expected", version+".txt")
	if *update {
		header := strings.ReplaceAll(expectedHeader, "VERSION", version)
		if err := os.WriteFile(golden, []byte(header+strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if _, err := os.Stat(golden); err != nil {
		t.Fatalf("no expectations for Cranelift %s (%v): run go test ./lib/cluster -run TestFindingsReproduce -update with its driver, and check what changed against the other releases' files", version, err)
	}
	want := readExpected(t, golden)
	gotBy := byFunction(got)
	for fn, w := range byFunction(want) {
		g, ok := gotBy[fn]
		switch {
		case !ok:
			t.Errorf("%s: not run (expected %s)", fn, w)
		case g == w:
		case g == string(record.OutcomeConsistent):
			t.Errorf("%s: FIXED? it no longer fails with this Cranelift; it showed %s", fn, w)
		default:
			t.Errorf("%s: CHANGED:\n\tgot  %s\n\twant %s", fn, g, w)
		}
	}
	for fn, g := range gotBy {
		if _, ok := byFunction(want)[fn]; !ok {
			t.Errorf("%s: new function, not in expected.txt (shows %s): run with -update", fn, g)
		}
	}
}

// pulleyTargets lists the architectures of a finding's target lines
// when they are all Pulley targets, else nil, and whether it has a
// "test interpret" line.
func pulleyTargets(t *testing.T, path string) (targets []string, interp bool) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(path, src)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range f.Header {
		if h.Kind != ir.HeaderTarget || len(h.Words) == 0 {
			continue
		}
		if !arch.IsBytecode(h.Words[0]) {
			return nil, false
		}
		targets = append(targets, h.Words[0])
	}
	for _, h := range f.Tests {
		interp = interp || len(h.Words) > 0 && h.Words[0] == "interpret"
	}
	return targets, interp
}

const expectedHeader = `# What each finding's functions show with Cranelift VERSION, as
# FILE:%FUNCTION: VERDICT R: K (lib/cluster's signature) or the verdict
# alone when it is not a Cranelift failure, then the configurations
# whose run lines fail (a wrong answer no other target shows). Checked by lib/cluster's
# TestFindingsReproduce; rewritten by its -update flag.
`

// failLine is the engine's report of a failed run line or function:
// "FILE:LINE: FAIL CONFIG: [run: ]%FN...".
var failLine = regexp.MustCompile(`^(\S+):\d+: FAIL ([^:\s]+)\S*: (?:run: |compile )?(%\w+)`)

// failedRunLines maps "FILE:%FN" to the configurations (arch/opt) where
// its run lines failed, from the engine's log: a finding whose wrong
// answer no other target can tell (finding 05) shows only there.
func failedRunLines(log string) map[string][]string {
	m := map[string][]string{}
	for _, line := range strings.Split(log, "\n") {
		if f := failLine.FindStringSubmatch(line); f != nil {
			key := filepath.Base(f[1]) + ":" + f[3]
			cfg, _, _ := strings.Cut(f[2], "/native")
			cfg, _, _ = strings.Cut(cfg, "/qemu")
			cfg, _, _ = strings.Cut(cfg, "/pulley")
			if !slices.Contains(m[key], cfg) {
				m[key] = append(m[key], cfg)
			}
		}
	}
	return m
}

// signatures judges every case record of the engine's output and gives
// "FILE:%FN: SIGNATURE" per case, sorted, with the configurations whose
// run lines failed.
func signatures(t *testing.T, path string, failed map[string][]string) []string {
	t.Helper()
	r, closer, err := jsonl.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	var out []string
	for {
		var c record.Case
		if err := r.Next(&c); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			t.Fatal(err)
		}
		v := judge.Case(&c)
		sig := string(v.Verdict)
		if cluster.Clustered(v.Verdict) {
			sig = cluster.SignatureOf(&v).String()
		}
		if f := failed[filepath.Base(c.ID)]; len(f) > 0 {
			slices.Sort(f)
			sig += "; run lines fail on " + strings.Join(f, " ")
		}
		out = append(out, fmt.Sprintf("%s: %s", filepath.Base(c.ID), sig))
	}
	slices.Sort(out)
	return out
}

func readExpected(t *testing.T, path string) []string {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (make it with -update)", err)
	}
	var out []string
	for _, line := range strings.Split(string(src), "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out
}

// byFunction maps "FILE:%FN" to the rest of each line.
func byFunction(lines []string) map[string]string {
	m := map[string]string{}
	for _, l := range lines {
		fn, sig, _ := strings.Cut(l, ": ")
		m[fn] = sig
	}
	return m
}
