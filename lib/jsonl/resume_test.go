package jsonl

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
)

// journal writes rs as a journaled run does, flushing after each record,
// and returns the bytes and the offset at which each record became
// readable.
func journal(t *testing.T, rs []rec, compressed bool) ([]byte, []int) {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf)
	if compressed {
		var err error
		if w, err = NewZstdWriter(&buf); err != nil {
			t.Fatal(err)
		}
	}
	var ends []int
	for _, r := range rs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		ends = append(ends, buf.Len())
	}
	return buf.Bytes(), ends // never closed: a killed writer
}

// Resume keeps exactly the records that were complete where a file was
// cut (at every byte), drops the rest without failing, and what it
// appends afterwards reads back after them, with no error and no
// temporary file left.
func TestResumeCutAnywhere(t *testing.T) {
	want := sampleRecords(12)
	added := rec{N: 1000, Text: "appended after the resume"}
	for _, name := range []string{"out.jsonl", "out.jsonl.zst"} {
		t.Run(name, func(t *testing.T) {
			data, ends := journal(t, want, strings.HasSuffix(name, ".zst"))
			dir := t.TempDir()
			path := filepath.Join(dir, name)
			for cut := 0; cut <= len(data); cut++ {
				if err := os.WriteFile(path, data[:cut], 0o666); err != nil {
					t.Fatal(err)
				}
				complete := 0
				for complete < len(ends) && ends[complete] <= cut {
					complete++
				}
				scanned := 0
				w, err := Resume(path, func(i int, line []byte) error {
					if i != scanned {
						t.Fatalf("cut %d: scan got index %d, want %d", cut, i, scanned)
					}
					scanned++
					return nil
				}, nil)
				if err != nil {
					t.Fatalf("cut at %d of %d bytes: %v", cut, len(data), err)
				}
				if scanned != complete {
					t.Fatalf("cut at %d of %d bytes: scanned %d records, want the %d complete ones", cut, len(data), scanned, complete)
				}
				if err := w.Write(added); err != nil {
					t.Fatal(err)
				}
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
				got := readFile(t, path)
				if wantNow := append(append([]rec(nil), want[:complete]...), added); !reflect.DeepEqual(got, wantNow) {
					t.Fatalf("cut at %d of %d bytes: read back %d records, want %d complete ones and the one appended", cut, len(data), len(got), complete)
				}
				if tmp := tempFiles(t, dir); len(tmp) != 0 {
					t.Fatalf("cut %d: left %v", cut, tmp)
				}
			}
		})
	}
}

// An intact file is appended to, not rewritten; a .zst one gets a second
// frame, which decodes after the first.
func TestResumeIntactAppends(t *testing.T) {
	for _, name := range []string{"out.jsonl", "out.jsonl.zst"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), name)
			first := sampleRecords(5)
			writeFile(t, path, first)
			data, _ := os.ReadFile(path)
			// Nothing written: not even an empty zstd frame is added.
			w, err := Resume(path, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if again, _ := os.ReadFile(path); !bytes.Equal(again, data) {
				t.Errorf("a resume that wrote nothing changed the file from %d to %d bytes", len(data), len(again))
			}
			before, _ := os.Stat(path)
			w, err = Resume(path, nil, func(int) bool { return false })
			if err != nil {
				t.Fatal(err)
			}
			w.Write(rec{N: 99})
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			after, _ := os.Stat(path)
			if !os.SameFile(before, after) {
				t.Error("an intact file was rewritten, not appended to")
			}
			if got, want := readFile(t, path), append(first, rec{N: 99}); !reflect.DeepEqual(got, want) {
				t.Errorf("read back %v, want %v", got, want)
			}
		})
	}
}

// Records the caller drops are gone, the others keep their order; a scan
// error stops the resume and leaves the file alone.
func TestResumeDropAndScanError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.jsonl.zst")
	all := sampleRecords(10)
	writeFile(t, path, all)
	before, _ := os.ReadFile(path)

	_, err := Resume(path, func(i int, line []byte) error {
		var r rec
		if err := json.Unmarshal(line, &r); err != nil {
			return err
		}
		if r.N == 3 {
			return errors.New("not a record of this run")
		}
		return nil
	}, nil)
	if err == nil || !strings.Contains(err.Error(), "record 4: not a record of this run") {
		t.Errorf("scan error: %v, want one naming record 4", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("a failed resume changed the file")
	}

	w, err := Resume(path, nil, func(i int) bool { return i%2 == 0 })
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	var want []rec
	for _, r := range all {
		if r.N%2 == 1 {
			want = append(want, r)
		}
	}
	if got := readFile(t, path); !reflect.DeepEqual(got, want) {
		t.Errorf("read back %v, want the odd records %v", got, want)
	}
	if tmp := tempFiles(t, dir); len(tmp) != 0 {
		t.Errorf("left %v", tmp)
	}
}

func TestResumeRefuses(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	writeFile(t, in, sampleRecords(2))
	for _, tc := range []struct {
		path   string
		inputs []string
		err    string
	}{
		{"-", nil, "stdout"},
		{"/dev/null", nil, "not a regular file"},
		{in, []string{in}, "is also an input"},
		{filepath.Join(dir, "new.jsonl"), []string{filepath.Join(dir, "missing")}, "no such file"},
	} {
		if _, err := Resume(tc.path, nil, nil, tc.inputs...); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("Resume(%s, inputs %v): %v, want an error containing %q", tc.path, tc.inputs, err, tc.err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "new.jsonl")); err == nil {
		t.Error("a refused resume created its output")
	}
	// A file that cannot be read is an error, not a damaged tail to drop.
	if err := Rewrite(dir, nil, nil); err == nil {
		t.Error("Rewrite of a directory succeeded")
	}
	// A file that does not exist is created.
	w, err := Resume(filepath.Join(dir, "fresh.jsonl.zst"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(rec{N: 1})
	w.Close()
	if got := readFile(t, filepath.Join(dir, "fresh.jsonl.zst")); !reflect.DeepEqual(got, []rec{{N: 1}}) {
		t.Errorf("fresh file holds %v", got)
	}
}

// killedWriterEnv makes the test binary a writer that a SIGKILL stops:
// see TestKilledWriter.
const killedWriterEnv = "JSONL_KILLED_WRITER"

// TestKilledWriter kills (SIGKILL) a process in the middle of writing:
// with Create, the target keeps what it held and one temporary file is
// left, which the next Create removes; with Resume, every flushed record
// is kept and the next Resume goes on after them.
func TestKilledWriter(t *testing.T) {
	if spec := os.Getenv(killedWriterEnv); spec != "" {
		killedWriter(spec)
		return
	}
	for _, name := range []string{"out.jsonl", "out.jsonl.zst"} {
		for _, mode := range []string{"create", "resume"} {
			t.Run(mode+"/"+name, func(t *testing.T) {
				dir := t.TempDir()
				path := filepath.Join(dir, name)
				old := sampleRecords(3)
				writeFile(t, path, old)
				cmd := exec.Command(os.Args[0], "-test.run=^TestKilledWriter$")
				cmd.Env = append(os.Environ(), killedWriterEnv+"="+mode+":"+path)
				err := cmd.Run()
				var exit *exec.ExitError
				if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
					t.Fatalf("writer: %v, want killed by SIGKILL", err)
				}
				switch mode {
				case "create":
					if got := readFile(t, path); !reflect.DeepEqual(got, old) {
						t.Errorf("target holds %d records after the kill, want the old %d", len(got), len(old))
					}
					if tmp := tempFiles(t, dir); len(tmp) != 1 {
						t.Errorf("temporary files %v, want the killed writer's one", tmp)
					}
					writeFile(t, path, old)
				case "resume":
					want := append(append([]rec(nil), old...), sampleRecords(killedFlushed)...)
					w, err := Resume(path, nil, nil)
					if err != nil {
						t.Fatal(err)
					}
					w.Write(rec{N: -1})
					if err := w.Close(); err != nil {
						t.Fatal(err)
					}
					if got := readFile(t, path); !reflect.DeepEqual(got, append(want, rec{N: -1})) {
						t.Errorf("after the kill and a resume: %d records, want %d", len(got), len(want)+1)
					}
				}
				if tmp := tempFiles(t, dir); len(tmp) != 0 {
					t.Errorf("left %v", tmp)
				}
			})
		}
	}
}

// killedFlushed is how many records the killed writer flushes.
const killedFlushed = 40

// killedWriter writes killedFlushed records, flushing each, then one more
// without flushing, then half of one more straight to the file, and kills
// itself.
func killedWriter(spec string) {
	mode, path, _ := strings.Cut(spec, ":")
	var w *Writer
	var err error
	if mode == "create" {
		w, err = Create(path)
	} else {
		w, err = Resume(path, nil, nil)
	}
	if err != nil {
		panic(err)
	}
	for _, r := range sampleRecords(killedFlushed) {
		w.Write(r)
		if err := w.Flush(); err != nil {
			panic(err)
		}
	}
	w.Write(rec{N: 12345})
	w.out.f.Write([]byte(`{"n":678`))
	syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {}
}

// TestResumeLocked: while one run resumes a file, a second cannot (its
// frames would land inside the first's); once the first is done, it can.
func TestResumeLocked(t *testing.T) {
	for _, name := range []string{"out.jsonl", "out.jsonl.zst"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), name)
			first, err := Resume(path, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := first.Write(map[string]int{"i": 1}); err != nil {
				t.Fatal(err)
			}
			if err := first.Flush(); err != nil {
				t.Fatal(err)
			}
			if w, err := Resume(path, nil, nil); err == nil || !strings.Contains(err.Error(), "another process is writing it") {
				if w != nil {
					w.Close()
				}
				t.Fatalf("second Resume while the first writes: %v, want refused", err)
			}
			if err := first.Close(); err != nil {
				t.Fatal(err)
			}
			second, err := Resume(path, nil, nil)
			if err != nil {
				t.Fatalf("Resume after the first closed: %v", err)
			}
			second.Write(map[string]int{"i": 2})
			if err := second.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
