package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"

	"cliff/lib/jsonl"
	"cliff/lib/record"
)

// resumeCases writes n small case records, with an endless loop (which
// times out) at index spinAt unless it is negative, and returns the file
// name.
func resumeCases(t *testing.T, dir string, n, spinAt int) string {
	t.Helper()
	var b strings.Builder
	for i := range n {
		c := record.Case{ID: fmt.Sprintf("c%d", i),
			CLIF:   fmt.Sprintf("function %%f(i64) -> i64 {\nblock0(v0: i64):\n    v1 = iconst.i64 %d\n    v2 = iadd v0, v1\n    return v2\n}\n", i),
			Inputs: []record.InputVector{{{Type: "i64", Value: fmt.Sprint(i * 7)}}}}
		if i == spinAt {
			c.ID = "spin"
			c.CLIF = "function %spin(i32) -> i32 {\nblock0(v0: i32):\n    jump block1(v0)\nblock1(v1: i32):\n    v2 = iconst.i32 1\n    v3 = iadd v1, v2\n    jump block1(v3)\n}\n"
			c.Inputs = []record.InputVector{{{Type: "i32", Value: "1"}}}
		}
		c.Stamp()
		line, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	name := "cases.jsonl"
	if spinAt >= 0 {
		name = "spin-cases.jsonl"
	}
	writeFiles(t, dir, map[string]string{name: b.String()})
	return name
}

// comparable is a record without its timings, which no two runs share.
func comparable(c record.Case) record.Case {
	c.Results = slices.Clone(c.Results)
	for i := range c.Results {
		c.Results[i].Timings = record.Timings{}
	}
	return c
}

func sameRecords(t *testing.T, what string, got, want []record.Case) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d records, want %d", what, len(got), len(want))
		return
	}
	for i := range want {
		if g, w := comparable(got[i]), comparable(want[i]); !reflect.DeepEqual(g, w) {
			t.Errorf("%s: record %d is\n%+v\nwant\n%+v", what, i+1, g, w)
		}
	}
}

// checkFull checks that an uninterrupted run gave every case its two
// results, ok but for the endless loop's timeouts.
func checkFull(t *testing.T, full []record.Case, n int) {
	t.Helper()
	if len(full) != n {
		t.Fatalf("uninterrupted run: %d records, want %d", len(full), n)
	}
	for _, c := range full {
		want := record.StatusOK
		if c.ID == "spin" {
			want = record.StatusTimeout
		}
		if len(c.Results) != 2 || c.Results[0].Status != want || c.Results[1].Status != want {
			t.Fatalf("uninterrupted run: case %s has results %+v, want two %s", c.ID, c.Results, want)
		}
	}
}

// runCliff runs cliff-run to its end and returns its exit status.
func runCliff(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	r := startCliffRun(t, dir, args...)
	return r.wait(t), r.stderr.String()
}

var resumeArgs = []string{"-j", "1", "--batch", "1", "--arch", "x86_64", "--opt", "none,speed", "--timeout", "1s", "--resume"}

// TestResumeAfterKill kills (SIGKILL) a cliff-run --resume while an
// endless loop runs, after the records before it were written, and runs
// the same command again: the output must be the uninterrupted run's,
// record for record (timings aside), whatever the kill cut (issue 13,
// item 9). Run once more, it has nothing to do and changes nothing.
func TestResumeAfterKill(t *testing.T) {
	dir := t.TempDir()
	input := resumeCases(t, dir, 5, 2)
	args := func(out string) []string { return append(append(slices.Clone(resumeArgs), "-o", out), input) }
	if code, stderr := runCliff(t, dir, args("full.jsonl.zst")...); code != 0 {
		t.Fatalf("uninterrupted run: exit status %d\n%s", code, stderr)
	}
	full := readAllRecords(t, filepath.Join(dir, "full.jsonl.zst"))
	checkFull(t, full, 5)

	r := startCliffRun(t, dir, args("part.jsonl.zst")...)
	r.waitRecords(t, "part.jsonl.zst", 2)
	r.waitExecuting(t)
	if err := r.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	r.wait(t)
	if got := len(readRecords(filepath.Join(dir, "part.jsonl.zst"))); got < 2 {
		t.Fatalf("the killed run left %d records, want the 2 it had written", got)
	}
	if left, _ := filepath.Glob(filepath.Join(r.tmp, "cliff-run.*")); len(left) != 1 {
		t.Errorf("the killed run left scratch directories %v, want its one", left)
	}

	// The resumed run, with the same $TMPDIR, removes the killed run's
	// scratch directory.
	again := startCliffRunIn(t, dir, r.tmp, args("part.jsonl.zst")...)
	code, stderr := again.wait(t), again.stderr.String()
	if code != 0 {
		t.Fatalf("resumed run: exit status %d\n%s", code, stderr)
	}
	if left, _ := os.ReadDir(r.tmp); len(left) != 0 {
		t.Errorf("after the resumed run, $TMPDIR holds %d entries, want none", len(left))
	}
	if !strings.Contains(stderr, "cliff-run: --resume: 2 cases already in part.jsonl.zst, not run again") {
		t.Errorf("resumed run's stderr:\n%s\nwant it to say 2 cases were already done", stderr)
	}
	sameRecords(t, "resumed after the kill", readAllRecords(t, filepath.Join(dir, "part.jsonl.zst")), full)

	before, _ := os.ReadFile(filepath.Join(dir, "part.jsonl.zst"))
	if code, stderr := runCliff(t, dir, args("part.jsonl.zst")...); code != 0 || !strings.Contains(stderr, "5 cases already") {
		t.Fatalf("resuming a finished run: exit status %d\n%s", code, stderr)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "part.jsonl.zst")); !bytes.Equal(before, after) {
		t.Errorf("resuming a finished run changed its output from %d to %d bytes", len(before), len(after))
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), "cliff-tmp") {
			t.Errorf("left %s", e.Name())
		}
	}
}

// TestResumeDamaged resumes outputs damaged as a kill leaves them (a line
// cut in half, a zstd frame never finished and cut mid-block), holding a
// record that lacks a configuration, or a record of a case not in the
// input: every complete record is kept, the damage dropped, nothing
// fails, and the result is the uninterrupted run's.
func TestResumeDamaged(t *testing.T) {
	dir := t.TempDir()
	input := resumeCases(t, dir, 6, -1)
	args := func(out string) []string { return append(append(slices.Clone(resumeArgs), "-o", out), input) }
	if code, stderr := runCliff(t, dir, args("full.jsonl")...); code != 0 {
		t.Fatalf("uninterrupted run: exit status %d\n%s", code, stderr)
	}
	data, err := os.ReadFile(filepath.Join(dir, "full.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	full := readAllRecords(t, filepath.Join(dir, "full.jsonl"))
	checkFull(t, full, 6)
	lines := bytes.SplitAfter(data, []byte("\n"))
	prefix := func(n int) []byte { return bytes.Join(lines[:n], nil) }

	// zstdJournal is the first n records as a killed zstd journal leaves
	// them: flushed, the frame unfinished, cut cut bytes short.
	zstdJournal := func(n, cut int) []byte {
		var buf bytes.Buffer
		w, err := jsonl.NewZstdWriter(&buf)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range lines[:n] {
			w.WriteRaw(line)
		}
		w.Flush()
		w.WriteRaw(lines[n])
		w.Flush()
		return buf.Bytes()[:buf.Len()-cut]
	}
	lacking := func(i int) []byte { // record i without its speed result
		c := full[i]
		c.Results = slices.DeleteFunc(slices.Clone(c.Results), func(r record.RunResult) bool { return r.Config.OptLevel == "speed" })
		line, _ := json.Marshal(&c)
		return append(line, '\n')
	}
	stranger := []byte(`{"kind":"case","v":1,"id":"stranger","clif":"function %g() {\nblock0:\n    return\n}\n"}` + "\n")

	for _, tc := range []struct {
		name    string
		output  string
		content []byte
		kept    int    // records already done
		want    []int  // indices into full, in order; nil: full as it is
		extra   []byte // a record the output keeps before the rest
	}{
		{"line cut in half", "out.jsonl", append(prefix(2), lines[2][:len(lines[2])/2]...), 2, nil, nil},
		{"whole lines", "out.jsonl", prefix(3), 3, nil, nil},
		{"zstd frame cut mid-block", "out.jsonl.zst", zstdJournal(3, 5), 3, nil, nil},
		{"zstd frame unfinished", "out.jsonl.zst", zstdJournal(4, 0), 5, nil, nil},
		{"empty", "out.jsonl", nil, 0, nil, nil},
		// c0 lacks a configuration: run again, it ends up after c1, which
		// was done.
		{"record lacking a configuration", "out.jsonl", append(lacking(0), lines[1]...), 1, []int{1, 0, 2, 3, 4, 5}, nil},
		{"a case not in the input", "out.jsonl", append(slices.Clone(stranger), lines[0]...), 1, nil, stranger},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.output)
			os.Remove(path)
			if err := os.WriteFile(path, tc.content, 0o666); err != nil {
				t.Fatal(err)
			}
			code, stderr := runCliff(t, dir, args(tc.output)...)
			if code != 0 {
				t.Fatalf("exit status %d\n%s", code, stderr)
			}
			if tc.kept > 0 && !strings.Contains(stderr, fmt.Sprintf("--resume: %d cases already", tc.kept)) {
				t.Errorf("stderr:\n%s\nwant %d cases already done", stderr, tc.kept)
			}
			want := full
			if tc.want != nil {
				want = nil
				for _, i := range tc.want {
					want = append(want, full[i])
				}
			}
			got := readAllRecords(t, path)
			if tc.extra != nil {
				if len(got) == 0 || got[0].ID != "stranger" {
					t.Fatalf("the record of a case not in the input was not kept first: %d records", len(got))
				}
				got = got[1:]
			}
			sameRecords(t, tc.name, got, want)
		})
	}
}
