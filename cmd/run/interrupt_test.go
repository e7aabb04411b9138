package main

import (
	"bytes"
	"cliff/lib/driver/drivertest"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"cliff/lib/jsonl"
	"cliff/lib/record"
)

// A cliffRun is cliff-run (the test binary, installed on $PATH by
// testscript.Main) running in the background in a directory of its own,
// with a private $TMPDIR so that the test sees every scratch directory it
// leaves.
type cliffRun struct {
	cmd    *exec.Cmd
	dir    string
	tmp    string
	stderr bytes.Buffer
	done   chan error
}

func startCliffRun(t *testing.T, dir string, args ...string) *cliffRun {
	t.Helper()
	return startCliffRunIn(t, dir, t.TempDir(), args...)
}

// startCliffRunIn is startCliffRun with tmp as $TMPDIR.
func startCliffRunIn(t *testing.T, dir, tmp string, args ...string) *cliffRun {
	t.Helper()
	r := &cliffRun{dir: dir, tmp: tmp, done: make(chan error, 1)}
	r.cmd = exec.Command("cliff-run", args...)
	r.cmd.Dir = dir
	r.cmd.Env = append(os.Environ(), "CLIFF_DRIVER="+drivertest.Require(t), "TMPDIR="+r.tmp)
	r.cmd.Stderr = &r.stderr
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { r.done <- r.cmd.Wait() }()
	t.Cleanup(func() {
		if r.cmd.ProcessState == nil {
			r.cmd.Process.Kill()
			<-r.done
		}
	})
	return r
}

// waitRecords waits until the run's output (or its temporary file) holds
// at least n complete records. It polls; the backstop is only there so
// that a broken cliff-run fails the test instead of hanging it.
func (r *cliffRun) waitRecords(t *testing.T, output string, n int) {
	t.Helper()
	backstop := time.After(5 * time.Minute)
	for {
		for _, path := range r.outputFiles(t, output) {
			if len(readRecords(path)) >= n {
				return
			}
		}
		select {
		case err := <-r.done:
			r.done <- err
			t.Fatalf("cliff-run ended (%v) before writing %d records:\n%s", err, n, r.stderr.String())
		case <-backstop:
			t.Fatalf("cliff-run wrote no %d records in 5 minutes:\n%s", n, r.stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// waitExecuting waits until a harness runs jobs: its scratch directory,
// in the run's, has its job file (see harness.Executable.Run).
func (r *cliffRun) waitExecuting(t *testing.T) {
	t.Helper()
	backstop := time.After(5 * time.Minute)
	for {
		if jobs, _ := filepath.Glob(filepath.Join(r.tmp, "cliff-run.*", "cliff-run-*", "jobs")); len(jobs) > 0 {
			return
		}
		select {
		case err := <-r.done:
			r.done <- err
			t.Fatalf("cliff-run ended (%v) before running its jobs:\n%s", err, r.stderr.String())
		case <-backstop:
			t.Fatalf("cliff-run ran no jobs in 5 minutes:\n%s", r.stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// outputFiles are the output and its temporary files.
func (r *cliffRun) outputFiles(t *testing.T, output string) []string {
	entries, err := os.ReadDir(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.Name() == output || strings.HasPrefix(e.Name(), "."+output+".cliff-tmp-") {
			out = append(out, filepath.Join(r.dir, e.Name()))
		}
	}
	return out
}

// wait waits for the run to end and returns its exit status (-1 when a
// signal killed it).
func (r *cliffRun) wait(t *testing.T) int {
	t.Helper()
	err := <-r.done
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return exit.ExitCode()
	}
	t.Fatal(err)
	return 0
}

// readRecords reads the complete case records of a file, stopping
// quietly at the first error (a file still being written).
func readRecords(path string) []record.Case {
	in, closer, err := jsonl.Open(path)
	if err != nil {
		return nil
	}
	defer closer.Close()
	var out []record.Case
	for {
		var c record.Case
		if err := in.Next(&c); err != nil {
			return out
		}
		out = append(out, c)
	}
}

// readAllRecords reads every record of a file, failing the test on any
// error: a file cliff-run finished must decode to its end.
func readAllRecords(t *testing.T, path string) []record.Case {
	t.Helper()
	in, closer, err := jsonl.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	var out []record.Case
	for {
		var c record.Case
		err := in.Next(&c)
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("%s does not decode to its end: %v", path, err)
		}
		out = append(out, c)
	}
}

const goodCLIF = `test run
target x86_64

function %f(i64) -> i64 {
block0(v0: i64):
    v1 = iconst.i64 1
    v2 = iadd v0, v1
    return v2
}
; run: %f(1) == 2
`

const spinCLIF = `test run
target x86_64

function %spin(i32) -> i32 {
block0(v0: i32):
    jump block1(v0)
block1(v1: i32):
    v2 = iconst.i32 1
    v3 = iadd v1, v2
    jump block1(v3)
}
; run: %spin(1) == 0
`

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSignalStopsCleanly sends SIGINT or SIGTERM to a cliff-run in the
// middle of an endless loop (with a limit of an hour, so it is mid-run
// whenever the signal comes), or as soon as its first record is written
// (while the loop's case is being compiled and linked, usually): it must
// exit with 128+signal, kill its driver, compiler and harness, remove
// every scratch file, and leave the output renamed into place, its zstd
// frame finished, with the record finished before the signal and none of
// the interrupted one (issue 13, item 10).
func TestSignalStopsCleanly(t *testing.T) {
	zstdTool, _ := exec.LookPath("zstd")
	for _, tc := range []struct {
		sig       syscall.Signal
		exit      int
		name      string
		executing bool // wait for the loop to run, not just for the first record
	}{
		{syscall.SIGINT, 130, "SIGINT", true},
		{syscall.SIGTERM, 143, "SIGTERM", true},
		{syscall.SIGINT, 130, "SIGINT", false},
	} {
		t.Run(fmt.Sprintf("%s/executing=%v", tc.name, tc.executing), func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"good.clif": goodCLIF, "spin.clif": spinCLIF})
			r := startCliffRun(t, dir, "-j", "1", "--batch", "1", "--opt", "none", "--timeout", "1h", "-o", "out.jsonl.zst", "good.clif", "spin.clif", "good.clif")
			r.waitRecords(t, "out.jsonl.zst", 1)
			if tc.executing {
				r.waitExecuting(t)
			}
			if err := r.cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			if got := r.wait(t); got != tc.exit {
				t.Errorf("exit status %d, want %d; stderr:\n%s", got, tc.exit, r.stderr.String())
			}
			if want := "cliff-run: interrupted by " + tc.name + "\n"; r.stderr.String() != want {
				t.Errorf("stderr %q, want %q", r.stderr.String(), want)
			}
			recs := readAllRecords(t, filepath.Join(dir, "out.jsonl.zst"))
			if len(recs) != 1 || recs[0].ID != "good.clif:%f" || len(recs[0].Results) != 1 || recs[0].Results[0].Status != record.StatusOK {
				t.Errorf("output holds %+v, want good.clif:%%f alone, ok", recs)
			}
			if zstdTool != "" {
				if out, err := exec.Command(zstdTool, "-t", filepath.Join(dir, "out.jsonl.zst")).CombinedOutput(); err != nil {
					t.Errorf("zstd -t: %v\n%s", err, out)
				}
			}
			if left, _ := os.ReadDir(r.tmp); len(left) > 0 {
				var names []string
				for _, e := range left {
					names = append(names, e.Name())
				}
				t.Errorf("left in $TMPDIR: %v", names)
			}
			if files := r.outputFiles(t, "out.jsonl.zst"); len(files) != 1 {
				t.Errorf("output files %v, want out.jsonl.zst alone", files)
			}
		})
	}
}

// TestSignalBeforeFirstRecord interrupts a run before it finished any
// record: an existing output keeps what it held.
func TestSignalBeforeFirstRecord(t *testing.T) {
	dir := t.TempDir()
	old := "{\"kind\":\"case\",\"v\":1,\"id\":\"old\",\"clif\":\"function %f() {\\nblock0:\\n    return\\n}\\n\"}\n"
	writeFiles(t, dir, map[string]string{"spin.clif": spinCLIF, "out.jsonl": old})
	r := startCliffRun(t, dir, "-j", "1", "--opt", "none", "--timeout", "1h", "-o", "out.jsonl", "spin.clif")
	r.waitExecuting(t)
	if err := r.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if got := r.wait(t); got != 130 {
		t.Errorf("exit status %d, want 130; stderr:\n%s", got, r.stderr.String())
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "out.jsonl")); string(got) != old {
		t.Errorf("out.jsonl holds %q, want what it held, %q", got, old)
	}
	if files := r.outputFiles(t, "out.jsonl"); len(files) != 1 {
		t.Errorf("output files %v, want out.jsonl alone", files)
	}
}
