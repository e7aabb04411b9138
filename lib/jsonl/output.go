package jsonl

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"cliff/lib/scratch"
)

// Named outputs. A tool that takes -o FILE must never lose what FILE held
// because the run went wrong: an input that does not exist, an output that
// is also an input (which os.Create would empty before the first read), a
// full disk, a kill. So Create first checks the inputs, then writes to a
// temporary file beside FILE that Close renames over it:
//
//   - Close (after success, or after an error of the producer) renames the
//     temporary file: FILE holds every record written.
//   - A write error (the output itself failed, e.g. a full disk) or Abort
//     removes it: FILE is as it was.
//   - A killed process leaves FILE as it was and one temporary file,
//     .FILE.cliff-tmp-PID, which the next Create or Resume of FILE removes:
//     a writer holds its temporary file locked while it lives (see
//     lib/scratch), so an unlocked one is litter.
//
// Outputs that cannot be renamed over are written directly: stdout ("-"),
// anything under /dev or /proc (/dev/stdout, /dev/fd/N) and existing files
// that are not regular (devices such as /dev/full, pipes, terminals).

// tmpMarker names the temporary files of named outputs: ".NAME" + tmpMarker
// + PID, so that they are recognisable in a listing and by removeStale.
const tmpMarker = ".cliff-tmp-"

// A fileOutput is a named output and how its bytes become final.
type fileOutput struct {
	f     *os.File
	tmp   string // temporary file renamed to final by commit; "" when f is the output itself
	final string
	// appending says f is a resumed file (Resume), reopened when its size
	// was appendedAt: a Writer that writes no record cuts it back there,
	// so that resuming a finished run adds no empty zstd frame.
	appending  bool
	appendedAt int64
}

// commit makes what was written the output: for a temporary file, synced
// and renamed over the target.
func (o *fileOutput) commit() error {
	if o.tmp == "" {
		return o.f.Close()
	}
	err := errors.Join(o.f.Sync(), o.f.Close())
	if err == nil {
		err = os.Rename(o.tmp, o.final)
	}
	if err != nil {
		os.Remove(o.tmp)
	}
	return err
}

// abort discards what was written when it can (a temporary file); a direct
// output is only closed.
func (o *fileOutput) abort() error {
	err := o.f.Close()
	if o.tmp != "" {
		return os.Remove(o.tmp)
	}
	return err
}

// checkInputs checks, before the output is touched, that each input can be
// opened, and that none is the output itself (os.SameFile: a symlink or
// another path to the same file counts). "-" (stdin) is never a conflict:
// a named output is written to a temporary file, so even `-o f < f` reads
// f whole before it is replaced.
func checkInputs(output string, inputs []string) error {
	var out os.FileInfo
	if output != "-" {
		if st, err := os.Stat(output); err == nil && st.Mode().IsRegular() {
			out = st
		}
	}
	for _, in := range inputs {
		if in == "-" {
			continue
		}
		st, err := os.Stat(in)
		if err == nil && !st.Mode().IsRegular() {
			// A FIFO or a device: opening it here could block, or make a
			// FIFO's writer lose its reader; it is no regular output.
			continue
		}
		f, err := os.Open(in)
		if err != nil {
			return err
		}
		f.Close()
		if out != nil && os.SameFile(out, st) {
			return fmt.Errorf("output %s is also an input (%s): write to another file", output, in)
		}
	}
	return nil
}

// openOutput opens a named output for writing from scratch: through a
// temporary file if it can be renamed over, directly otherwise.
func openOutput(path string) (*fileOutput, error) {
	if direct, err := writtenDirectly(path); err != nil || direct {
		if err != nil {
			return nil, err
		}
		// Write-only, as a shell's ">": a FIFO then waits for its reader
		// (O_RDWR would not, and the records would go nowhere).
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
		if err != nil {
			return nil, err
		}
		return &fileOutput{f: f, final: path}, nil
	}
	// Replace the file a symlink points to, not the symlink.
	final := path
	mode := fs.FileMode(0o666) // less the umask, as os.Create
	st, err := os.Stat(path)
	if err == nil {
		if final, err = filepath.EvalSymlinks(path); err != nil {
			return nil, err
		}
		mode = st.Mode().Perm()
	}
	dir, base := filepath.Split(final)
	if dir == "" {
		dir = "."
	}
	removeStale(dir, base)
	f, tmp, err := createTemp(dir, base, mode)
	if err != nil {
		return nil, fmt.Errorf("output %s: cannot create a temporary file beside it: %w", path, err)
	}
	if st != nil {
		// Keep the replaced file's permissions (the umask may have cut
		// them at creation).
		if err := f.Chmod(mode); err != nil {
			f.Close()
			os.Remove(tmp)
			return nil, err
		}
	}
	return &fileOutput{f: f, tmp: tmp, final: final}, nil
}

// writtenDirectly says whether path is an output that cannot be replaced
// by renaming: a path under /dev or /proc, an existing file that is not a
// regular file, or a dangling symlink (os.Create creates its target).
func writtenDirectly(path string) (bool, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false, err
	}
	if strings.HasPrefix(abs, "/dev/") || strings.HasPrefix(abs, "/proc/") {
		return true, nil
	}
	st, err := os.Stat(path)
	switch {
	case err == nil:
		if st.IsDir() {
			return false, fmt.Errorf("output %s is a directory", path)
		}
		return !st.Mode().IsRegular(), nil
	case errors.Is(err, fs.ErrNotExist):
		lst, lerr := os.Lstat(path)
		return lerr == nil && lst.Mode()&fs.ModeSymlink != 0, nil
	}
	return false, err
}

// tempPrefix is the start of the names of base's temporary files.
func tempPrefix(base string) string { return "." + base + tmpMarker }

// createTemp creates .BASE.cliff-tmp-PID in dir (with a counter after it
// should this process write BASE twice at once), locked until it is
// closed.
func createTemp(dir, base string, mode fs.FileMode) (*os.File, string, error) {
	name := filepath.Join(dir, tempPrefix(base)+strconv.Itoa(os.Getpid()))
	for n := 2; ; n++ {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, mode)
		if err == nil {
			if err := scratch.Lock(f); err != nil {
				f.Close()
				os.Remove(name)
				return nil, "", err
			}
			return f, name, nil
		}
		if !errors.Is(err, fs.ErrExist) || n > 100 {
			return nil, "", err
		}
		name = filepath.Join(dir, tempPrefix(base)+strconv.Itoa(os.Getpid())+"."+strconv.Itoa(n))
	}
}

// removeStale removes base's temporary files left in dir by processes that
// ended before they could rename or remove them: those nobody holds
// locked. Those of running writers (this process's included) stay.
func removeStale(dir, base string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := tempPrefix(base)
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		if path := filepath.Join(dir, e.Name()); scratch.Abandoned(path) {
			os.Remove(path)
		}
	}
}
