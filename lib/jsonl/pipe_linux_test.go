package jsonl

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

const fGetPipeSize = 1032 // F_GETPIPE_SZ

func pipeCapacity(t *testing.T, f *os.File) int {
	t.Helper()
	n, _, errno := syscall.Syscall(syscall.SYS_FCNTL, f.Fd(), fGetPipeSize, 0)
	if errno != 0 {
		t.Fatalf("F_GETPIPE_SZ: %v", errno)
	}
	return int(n)
}

// TestGrowPipe: growPipe enlarges a pipe from either end, up to what the
// system allows an unprivileged process, and leaves other files alone.
func TestGrowPipe(t *testing.T) {
	want := pipeSize
	if b, err := os.ReadFile("/proc/sys/fs/pipe-max-size"); err == nil {
		if max, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && max < want && os.Geteuid() != 0 {
			want = max
		}
	}
	for _, end := range []string{"read", "write"} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		before := pipeCapacity(t, r)
		if end == "read" {
			growPipe(r)
		} else {
			growPipe(w)
		}
		if got := pipeCapacity(t, r); got != want {
			t.Errorf("%s end: pipe capacity %d after growPipe (%d before), want %d", end, got, before, want)
		}
		r.Close()
		w.Close()
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "plain"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	growPipe(f) // must neither fail nor touch a regular file
	if _, err := f.WriteString("{}\n"); err != nil {
		t.Fatal(err)
	}
}
