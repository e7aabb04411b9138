package judge

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"cliff/lib/jsonl"
	"cliff/lib/record"
)

// TestCaseIsWhatDiffWrites checks that Case, given a case with all its
// results, gives byte for byte the verdict Diff writes for that case joined
// from two inputs, the run both inputs report merged in both; and that
// Case leaves its argument as it was.
func TestCaseIsWhatDiffWrites(t *testing.T) {
	clif := "function %f(i32) -> i32 {\nblock0(v0: i32):\n    return v0\n}\n"
	inputs := []record.InputVector{{{Type: "i32", Value: "1"}}}
	repeated := ok(x86Speed, hashA, "i32 0x1")
	repeated.Timings.ExecMS = 7 // the same run, timed differently elsewhere
	first := []record.RunResult{ok(x86Speed, hashA, "i32 0x1"), ok(interp, hashA, "i32 0x1")}
	second := []record.RunResult{repeated, ok(riscv, hashB, "i32 0x2")}

	dir := t.TempDir()
	var paths []string
	for i, results := range [][]record.RunResult{first, second} {
		path := filepath.Join(dir, []string{"a.jsonl", "b.jsonl"}[i])
		w, err := jsonl.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		c := &record.Case{ID: "k", CLIF: clif, Inputs: inputs, Results: results}
		c.Stamp()
		if err := w.Write(c); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	out := filepath.Join(dir, "verdicts.jsonl")
	tally, err := Diff(context.Background(), Options{Inputs: paths, Output: out})
	if err != nil {
		t.Fatal(err)
	}
	if tally.Cases != 1 || tally.Verdicts[record.OutcomeDivergent] != 1 || tally.Failures() != 1 {
		t.Errorf("tally %+v, want one divergent case", tally)
	}
	written, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}

	c := &record.Case{ID: "k", CLIF: clif, Inputs: inputs, Results: append(append([]record.RunResult{}, first...), second...)}
	v := Case(c)
	var buf bytes.Buffer
	w := jsonl.NewWriter(&buf)
	if err := w.Write(&v); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), written) {
		t.Errorf("Case gives\n%s\nDiff wrote\n%s", buf.Bytes(), written)
	}
	if v.Case == nil || len(v.Case.Results) != 3 {
		t.Errorf("the verdict's case should carry the 3 distinct runs, got %+v", v.Case)
	}
	if c.Kind != "" || len(c.Results) != 4 {
		t.Errorf("Case changed its argument: kind %q, %d results", c.Kind, len(c.Results))
	}
}

// TestNotRunnableHereIsCountedNotCompared: a result the machine could not
// run (record.NotRunnableHere) changes no verdict, and the summary counts
// it; an unsupported result for another reason is not counted.
func TestNotRunnableHereIsCountedNotCompared(t *testing.T) {
	clif := "function %f(i32) -> i32 {\nblock0(v0: i32):\n    return v0\n}\n"
	avx512 := x86Speed
	avx512.Flags = []string{"has_avx512f"}
	results := []record.RunResult{
		ok(x86Speed, hashA, "i32 0x1"), ok(interp, hashA, "i32 0x1"),
		{Config: avx512, Status: record.StatusUnsupported, Message: record.NotRunnableHere + "x86_64: ISA flag has_avx512f needs avx512f, which this host's CPU lacks"},
		{Config: riscv, Status: record.StatusUnsupported, Message: "external name %memcpy"},
	}
	path := filepath.Join(t.TempDir(), "a.jsonl")
	w, err := jsonl.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	c := &record.Case{ID: "k", CLIF: clif, Inputs: []record.InputVector{{{Type: "i32", Value: "1"}}}, Results: results}
	c.Stamp()
	if err := w.Write(c); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tally, err := Diff(context.Background(), Options{Inputs: []string{path}, Output: filepath.Join(t.TempDir(), "v.jsonl")})
	if err != nil {
		t.Fatal(err)
	}
	if tally.Verdicts[record.OutcomeConsistent] != 1 || tally.NotRunnableHere != 1 {
		t.Errorf("tally %+v, want one consistent case and one result not runnable here", tally)
	}
	var buf bytes.Buffer
	tally.Write(&buf)
	if want := "; 1 results skipped, not runnable on the machine that ran them"; !bytes.Contains(buf.Bytes(), []byte(want)) {
		t.Errorf("summary %q, want it to contain %q", buf.String(), want)
	}
}
