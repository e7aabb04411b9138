package scratch

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A directory of a live process (this one) stays; those whose lock nobody
// holds go; one without a lock file (in the making) stays; release
// removes the directory.
func TestDir(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	live, releaseLive, err := Dir("tool")
	if err != nil {
		t.Fatal(err)
	}
	dead := filepath.Join(tmp, "tool.1.123")
	making := filepath.Join(tmp, "tool.2.456")
	other := filepath.Join(tmp, "othertool.1.789")
	for _, d := range []string{dead, making, other} {
		if err := os.MkdirAll(filepath.Join(d, "sub"), 0o777); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{dead, other} {
		if err := os.WriteFile(filepath.Join(d, lockName), nil, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	mine, release, err := Dir("tool")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir  string
		kept bool
	}{{live, true}, {mine, true}, {dead, false}, {making, true}, {other, true}} {
		if _, err := os.Stat(tc.dir); (err == nil) != tc.kept {
			t.Errorf("%s: kept = %v, want %v", filepath.Base(tc.dir), err == nil, tc.kept)
		}
	}
	release()
	releaseLive()
	if _, err := os.Stat(mine); err == nil {
		t.Error("release left the directory")
	}
}

// A file locked by another process is not abandoned; once that process
// ends (it is killed), it is.
func TestAbandoned(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	if !Abandoned(path) {
		t.Error("an unlocked file is not abandoned")
	}
	// flock(1) holds the lock (-o: its sleep does not inherit it).
	holder := exec.Command("flock", "-o", path, "sleep", "600")
	holder.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := holder.Start(); err != nil {
		t.Skip("flock(1):", err)
	}
	defer syscall.Kill(-holder.Process.Pid, syscall.SIGKILL)
	ended := make(chan struct{})
	go func() { holder.Wait(); close(ended) }()
	for Abandoned(path) { // flock(1) has not taken the lock yet
		select {
		case <-ended:
			t.Fatal("flock(1) ended")
		case <-time.After(time.Millisecond):
		}
	}
	// The whole group: killed between its fork and the child's close of
	// the lock, flock(1) would leave its sleep holding it a moment.
	syscall.Kill(-holder.Process.Pid, syscall.SIGKILL)
	<-ended
	// The kernel releases a dead process's locks as it tears the process
	// down, which may end after the wait of its parent returns.
	for deadline := time.Now().Add(10 * time.Second); !Abandoned(path); {
		if time.Now().After(deadline) {
			t.Fatal("the file of a killed process is not abandoned")
		}
		time.Sleep(time.Millisecond)
	}
	if Abandoned(filepath.Join(t.TempDir(), "missing")) {
		t.Error("a missing file is abandoned")
	}
}

// Tools that start side by side (a campaign's chunks) each remove the
// abandoned directories as they make their own: none may take another's
// directory, in the making or alive, for abandoned.
func TestDirConcurrent(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			for range 100 {
				dir, release, err := Dir("tool")
				if err == nil {
					if _, err = os.Stat(filepath.Join(dir, lockName)); err == nil {
						release()
					}
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
