// Package scratch makes the litter of a killed tool recognisable, so that
// the next run can remove it. A process that SIGKILL stops cannot remove
// its temporary files and directories; cliff's tools therefore hold an
// exclusive flock(2) on each while they live (the kernel drops the lock
// with the process, however it ends), and remove those of their kind
// whose lock nobody holds. A lock, unlike a PID in the name, is right
// across PID namespaces and after PID reuse.
package scratch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Lock takes the exclusive lock that marks f as in use, until f is closed
// (by any means, the end of the process included).
func Lock(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

// Abandoned says whether path is a file that no process holds locked:
// litter of a process that ended without removing it. A file that cannot
// be opened or locked for another reason is not abandoned.
func Abandoned(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return Lock(f) == nil
}

// lockName is the lock file of a scratch directory.
const lockName = ".lock"

// Dir creates a scratch directory NAME.PID.RANDOM in $TMPDIR (os.TempDir),
// locked while the process lives, after removing the abandoned ones that
// other processes left with the same NAME. release removes it.
func Dir(name string) (dir string, release func(), err error) {
	removeAbandoned(os.TempDir(), name+".")
	dir, err = os.MkdirTemp("", fmt.Sprintf("%s.%d.", name, os.Getpid()))
	if err != nil {
		return "", nil, err
	}
	// The lock file takes its name only once locked: another tool
	// starting now removes a directory whose .lock nobody holds, and
	// would take this one, between its creation and its lock, for
	// abandoned (or, testing it, hold the lock this one then fails to
	// take).
	lock, err := os.Create(filepath.Join(dir, lockName+".new"))
	if err == nil {
		err = Lock(lock)
	}
	if err == nil {
		err = os.Rename(lock.Name(), filepath.Join(dir, lockName))
	}
	if err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("scratch directory %s: %w", dir, err)
	}
	return dir, func() {
		os.RemoveAll(dir)
		lock.Close()
	}, nil
}

// removeAbandoned removes the scratch directories in parent whose names
// start with prefix and whose lock file nobody holds. One without a lock
// file may be in the making: it stays.
func removeAbandoned(parent, prefix string) {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		dir := filepath.Join(parent, e.Name())
		if _, err := os.Stat(filepath.Join(dir, lockName)); errors.Is(err, os.ErrNotExist) {
			continue
		}
		if Abandoned(filepath.Join(dir, lockName)) {
			os.RemoveAll(dir)
		}
	}
}
