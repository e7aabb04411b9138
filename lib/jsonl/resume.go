package jsonl

import (
	"fmt"
	"io"
	"os"
	"strings"

	"cliff/lib/scratch"
)

// Resuming. A long run that must survive a kill (cliff-run --resume) uses
// its output file as a journal: records are appended to the file itself
// and flushed as soon as they are finished (for zstd, as complete blocks,
// which a decoder reads without the end of the frame), so that a kill
// loses only what was not finished. Such a file may end in a damaged tail:
// half a line, or a zstd frame that was never finished (which no decoder
// accepts more data after). Resume reads the file back, keeps every
// complete record, rewrites the file through a temporary file when
// something must go (the tail, records the caller drops), and opens it to
// append.

// A ScanFunc sees the complete records of a file being resumed, in order,
// with their 0-based index; an error stops the resume.
type ScanFunc func(i int, line []byte) error

// A DropFunc says, once every record has been scanned, whether record i
// is to be left out of the file.
type DropFunc func(i int) bool

// Resume reopens path, the output of an earlier run that may have been
// killed, to append records after the complete ones it holds: each is
// passed to scan; then those drop selects, and a damaged tail (a last line
// without its line ending, a zstd stream cut short), are removed by
// rewriting the file through a temporary file (renamed over it, so a kill
// then loses nothing either). A file that does not exist is created. New
// records are appended as they are written, so that flushed records
// survive a kill; a ".zst" file gets a new zstd frame after the ones it
// holds. inputs are checked as by Create.
//
// Only I/O errors and scan's errors fail: a damaged tail is expected.
func Resume(path string, scan ScanFunc, drop DropFunc, inputs ...string) (*Writer, error) {
	if err := checkInputs(path, inputs); err != nil {
		return nil, err
	}
	if path == "-" {
		return nil, fmt.Errorf("cannot resume stdout: name an output file")
	}
	if direct, err := writtenDirectly(path); err != nil || direct {
		if err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("cannot resume %s: not a regular file", path)
	}
	// Two runs resuming one file would interleave their records (a zstd
	// frame inside another is garbage to every reader): the file is
	// locked while it is read and rewritten, and again from its reopening
	// until the Writer is closed. Between the two, a second resumer may
	// take the lock: then one of them is refused, never both let in.
	held, err := lockOutput(path)
	if err != nil {
		return nil, err
	}
	err = Rewrite(path, scan, drop)
	held.Close()
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o666)
	if err != nil {
		return nil, err
	}
	if err := scratch.Lock(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot resume %s: another process is writing it (%v)", path, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return writerOn(path, &fileOutput{f: f, final: path, appending: true, appendedAt: st.Size()})
}

// lockOutput locks the file at path, if there is one, for the resumer
// (nil when there is none; closing nil is harmless).
func lockOutput(path string) (*os.File, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if err := scratch.Lock(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot resume %s: another process is writing it (%v)", path, err)
	}
	return f, nil
}

// Rewrite scans the complete records of path as Resume does and rewrites
// the file, through a temporary file renamed over it, without those drop
// selects and without a damaged tail. A file that needs neither is left
// untouched; one that does not exist is no error.
func Rewrite(path string, scan ScanFunc, drop DropFunc) error {
	rec, err := recoverRecords(path, scan)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	dropped := false
	for i := range rec.records {
		if drop != nil && drop(i) {
			dropped = true
			break
		}
	}
	if !dropped && !rec.damaged && !rec.mismatch {
		return nil
	}
	return rewrite(path, rec.records, drop)
}

// recovered is what a first reading of a file found.
type recovered struct {
	records int  // complete records
	damaged bool // something follows them: a cut line or a cut zstd stream
	// mismatch says the file's content is compressed and its name says
	// plain, or the other way round: what is appended would not decode.
	mismatch bool
}

func recoverRecords(path string, scan ScanFunc) (recovered, error) {
	var rec recovered
	f, err := os.Open(path)
	if err != nil {
		return rec, err
	}
	defer f.Close()
	src := &readErr{r: f}
	r := NewReader(path, src)
	defer r.Close()
	for {
		line, err := r.NextRaw()
		if err == io.EOF {
			break
		}
		if err != nil {
			if src.err != nil {
				return rec, err // the file, not its content, failed
			}
			rec.damaged = true // a zstd stream cut short or corrupt
			break
		}
		if r.unterminated {
			rec.damaged = true
			break
		}
		if scan != nil {
			if err := scan(rec.records, line); err != nil {
				return rec, fmt.Errorf("%s: record %d: %w", path, r.Record(), err)
			}
		}
		rec.records++
	}
	if r.lines > 0 || rec.damaged {
		rec.mismatch = r.Compressed() != strings.HasSuffix(path, ".zst")
	}
	return rec, nil
}

// rewrite copies the first n complete records of path, less those drop
// selects, to a temporary file renamed over path.
func rewrite(path string, n int, drop DropFunc) error {
	in, closer, err := Open(path)
	if err != nil {
		return err
	}
	defer closer.Close()
	w, err := Create(path)
	if err != nil {
		return err
	}
	for i := range n {
		line, err := in.NextRaw()
		if err != nil {
			w.Abort()
			return fmt.Errorf("%s changed while being resumed: %w", path, err)
		}
		if drop != nil && drop(i) {
			continue
		}
		if err := w.WriteRaw(line); err != nil {
			w.Abort()
			return err
		}
	}
	return w.Close()
}

// readErr remembers the error of the reader it wraps, so that a failing
// file can be told from a damaged stream in it.
type readErr struct {
	r   io.Reader
	err error
}

func (e *readErr) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF {
		e.err = err
	}
	return n, err
}
