package jsonl

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"cliff/lib/scratch"
)

// readFile reads every record of path, failing the test on any error.
func readFile(t *testing.T, path string) []rec {
	t.Helper()
	r, c, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return readAll(t, r)
}

// tempFiles lists the temporary files of named outputs left in dir.
func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.Contains(e.Name(), tmpMarker) {
			out = append(out, e.Name())
		}
	}
	return out
}

// An existing output is replaced only when the Writer is closed without a
// write error; until then, and after Abort, it holds what it held.
func TestCreateReplacesOnlyAtClose(t *testing.T) {
	for _, name := range []string{"out.jsonl", "out.jsonl.zst"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, name)
			old := sampleRecords(3)
			writeFile(t, path, old)

			w, err := Create(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range sampleRecords(50) {
				w.Write(rec{N: r.N + 100})
			}
			w.Flush()
			if got := readFile(t, path); !reflect.DeepEqual(got, old) {
				t.Errorf("before Close the output holds %d records, want the old %d", len(got), len(old))
			}
			if tmp := tempFiles(t, dir); len(tmp) != 1 || !strings.HasPrefix(tmp[0], "."+name+".cliff-tmp-"+strconv.Itoa(os.Getpid())) {
				t.Errorf("temporary files %v, want one named .%s.cliff-tmp-PID", tmp, name)
			}
			if err := w.Abort(); err != nil {
				t.Fatal(err)
			}
			if got := readFile(t, path); !reflect.DeepEqual(got, old) {
				t.Errorf("after Abort the output holds %d records, want the old %d", len(got), len(old))
			}
			if tmp := tempFiles(t, dir); len(tmp) != 0 {
				t.Errorf("Abort left %v", tmp)
			}

			want := sampleRecords(7)
			writeFile(t, path, want)
			if got := readFile(t, path); !reflect.DeepEqual(got, want) {
				t.Errorf("after Close the output holds %d records, want %d", len(got), len(want))
			}
			if tmp := tempFiles(t, dir); len(tmp) != 0 {
				t.Errorf("Close left %v", tmp)
			}
		})
	}
}

// CloseAfter keeps the old output when the run failed before its first
// record, and writes what was finished when it failed later.
func TestCloseAfter(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.jsonl")
	old := sampleRecords(2)
	failed := errors.New("bad input")
	for _, tc := range []struct {
		write  int
		runErr error
		want   []rec
	}{
		{0, failed, old},
		{3, failed, sampleRecords(3)},
		{0, nil, nil},
	} {
		writeFile(t, path, old)
		w, err := Create(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range sampleRecords(tc.write) {
			w.Write(r)
		}
		if err := w.CloseAfter(tc.runErr); err != nil {
			t.Fatal(err)
		}
		if got := readFile(t, path); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%d records written, run error %v: output holds %d records, want %d", tc.write, tc.runErr, len(got), len(tc.want))
		}
	}
}

// A write error (a full disk) discards the temporary file: the target
// keeps what it held, and the error is returned once more by Close.
func TestCreateWriteErrorKeepsTarget(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.jsonl")
	old := sampleRecords(2)
	writeFile(t, path, old)
	w, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w.out.f.Close() // every write now fails, as on a full disk
	w.Write(rec{N: 1})
	if err := w.Flush(); err == nil {
		t.Fatal("Flush to a closed file succeeded")
	}
	if err := w.Close(); err == nil {
		t.Error("Close after a write error returned nil")
	}
	if got := readFile(t, path); !reflect.DeepEqual(got, old) {
		t.Errorf("output holds %d records after a write error, want the old %d", len(got), len(old))
	}
	if tmp := tempFiles(t, dir); len(tmp) != 0 {
		t.Errorf("left %v", tmp)
	}
}

// Inputs are checked before the output is touched: a missing input fails,
// an input that is the output (by any path) is refused, stdin is not.
func TestCreateChecksInputs(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "data.jsonl")
	old := sampleRecords(4)
	writeFile(t, path, old)
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink("data.jsonl", link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.jsonl")
	if err := os.Link(path, hard); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.jsonl")
	writeFile(t, other, nil)
	relative := filepath.Join(dir, ".", "sub", "..", "data.jsonl")
	os.Mkdir(filepath.Join(dir, "sub"), 0o777)
	// A FIFO without a writer yet: checking it must not open it (that
	// would wait for the writer, then take its reader away).
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o666); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name   string
		output string
		inputs []string
		err    string // "" for success
	}{
		{"missing input", path, []string{other, filepath.Join(dir, "missing.jsonl")}, "no such file"},
		{"same path", path, []string{path}, "is also an input"},
		{"symlink", link, []string{other, path}, "is also an input"},
		{"to symlink", path, []string{link}, "is also an input"},
		{"hard link", path, []string{hard}, "is also an input"},
		{"other path", relative, []string{path}, "is also an input"},
		{"stdin", path, []string{"-"}, ""},
		{"fifo", path, []string{fifo, other}, ""},
		{"other file", path, []string{other}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, err := Create(tc.output, tc.inputs...)
			if tc.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				w.Abort()
			} else if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Create: %v, want an error containing %q", err, tc.err)
				if w != nil {
					w.Abort()
				}
			}
			if got := readFile(t, path); !reflect.DeepEqual(got, old) {
				t.Errorf("the file now holds %d records, want %d", len(got), len(old))
			}
			if tmp := tempFiles(t, dir); len(tmp) != 0 {
				t.Errorf("left %v", tmp)
			}
		})
	}
}

// A symlink stays a symlink: the file it points to is replaced, with its
// permissions.
func TestCreateThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.jsonl")
	writeFile(t, target, sampleRecords(1))
	if err := os.Chmod(target, 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink("target.jsonl", link); err != nil {
		t.Fatal(err)
	}
	want := sampleRecords(5)
	writeFile(t, link, want)
	st, err := os.Lstat(link)
	if err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("link.jsonl is no longer a symlink: %v %v", st.Mode(), err)
	}
	if got := readFile(t, target); !reflect.DeepEqual(got, want) {
		t.Errorf("target holds %d records, want %d", len(got), len(want))
	}
	if st, _ := os.Stat(target); st.Mode().Perm() != 0o640 {
		t.Errorf("target's mode %v, want 0640", st.Mode().Perm())
	}
}

// Outputs that are not regular files are written directly: a FIFO gets
// the records as they are flushed, /dev/null takes them.
func TestCreateNonRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o666); err != nil {
		t.Skip("mkfifo:", err)
	}
	got := make(chan []rec)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- nil
			return
		}
		defer f.Close()
		r := NewReader("fifo", f)
		var rs []rec
		for {
			var v rec
			if r.Next(&v) != nil {
				break
			}
			rs = append(rs, v)
		}
		got <- rs
	}()
	want := sampleRecords(20)
	writeFile(t, fifo, want)
	if rs := <-got; !reflect.DeepEqual(rs, want) {
		t.Errorf("the FIFO's reader got %d records, want %d", len(rs), len(want))
	}
	if tmp := tempFiles(t, dir); len(tmp) != 0 {
		t.Errorf("left %v", tmp)
	}
	writeFile(t, "/dev/null", want)
}

// Temporary files of processes that no longer run are removed by the next
// Create of the same output; those of live writers (a file this test
// holds locked, a Writer of this process) and other outputs' stay.
func TestCreateRemovesStaleTemporaries(t *testing.T) {
	dir := t.TempDir()
	stale := []string{".out.jsonl.cliff-tmp-99999", ".out.jsonl.cliff-tmp-1.2"}
	keep := []string{".out.jsonl.cliff-tmp-7", ".other.jsonl.cliff-tmp-99999", "out.jsonl.cliff-tmp-x"}
	for _, name := range append(append([]string(nil), stale...), keep...) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("partial"), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	held, err := os.Open(filepath.Join(dir, keep[0]))
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if err := scratch.Lock(held); err != nil {
		t.Fatal(err)
	}
	other, err := Create(filepath.Join(dir, "out.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Abort()
	keep = append(keep, filepath.Base(other.out.tmp))

	writeFile(t, filepath.Join(dir, "out.jsonl"), sampleRecords(1))
	for _, name := range stale {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s (nobody's) was left", name)
		}
	}
	for _, name := range keep {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s was removed: %v", name, err)
		}
	}
}
