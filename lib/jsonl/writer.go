package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/klauspost/compress/zstd"
)

const writeBufferSize = 256 << 10

// A Writer writes JSON records, one per line, plain or zstd-compressed. It
// buffers: call Close (idempotent, so defer it and also check it on the
// success path) to flush and, for zstd, finish the frame. A Writer whose
// producer fails half-way still leaves every record it accepted readable once
// Close has run. A Writer on a named file (Create) writes through a
// temporary file that Close renames over the target (see output.go).
//
// A Writer is for one goroutine (see the package doc for concurrent
// producers).
type Writer struct {
	buf      *bufio.Writer
	line     bytes.Buffer  // the record being encoded (by enc)
	appended []byte        // the record being appended (by an Appender)
	enc      *json.Encoder // encodes into line
	zw       *zstd.Encoder // nil for plain output
	out      *fileOutput   // the named output of Create or Resume; nil for a bare io.Writer
	records  int
	err      error // sticky write error
	closed   bool
	closeErr error
}

// NewWriter returns a Writer producing plain JSON lines on w.
func NewWriter(w io.Writer) *Writer {
	return newWriter(w, nil, nil)
}

// NewZstdWriter returns a Writer producing a zstd-compressed stream on w.
func NewZstdWriter(w io.Writer) (*Writer, error) {
	zw, err := zstd.NewWriter(w, encoderOptions...)
	if err != nil {
		return nil, err
	}
	return newWriter(zw, zw, nil), nil
}

func newWriter(w io.Writer, zw *zstd.Encoder, out *fileOutput) *Writer {
	wr := &Writer{buf: bufio.NewWriterSize(w, writeBufferSize), zw: zw, out: out}
	// Encoding into a separate buffer keeps a value that fails to marshal
	// from leaving half a line in the output.
	wr.enc = json.NewEncoder(&wr.line)
	// CLIF is full of "<", ">" and "&" ("-> i32", "<1, 2>"): keep them
	// readable instead of escaping them as \u003c for HTML.
	wr.enc.SetEscapeHTML(false)
	return wr
}

// Create opens path for writing; "-" is stdout. A name ending in ".zst" is
// written zstd-compressed.
//
// The inputs (paths the caller will read; "-" is stdin) are checked first:
// each must open, and none may be the output itself, so that a wrong
// command line fails before anything is touched. A named output is then
// written to a temporary file beside it, renamed over it by Close, so
// that a failed or killed run leaves an existing file as it was; outputs
// that cannot be renamed over (devices, pipes, /dev/stdout) are written
// directly. See output.go.
func Create(path string, inputs ...string) (*Writer, error) {
	if err := checkInputs(path, inputs); err != nil {
		return nil, err
	}
	if path == "-" {
		growPipe(os.Stdout)
		return NewWriter(os.Stdout), nil
	}
	out, err := openOutput(path)
	if err != nil {
		return nil, err
	}
	return writerOn(path, out)
}

// writerOn returns a Writer on an opened output, compressed if the name
// says so.
func writerOn(path string, out *fileOutput) (*Writer, error) {
	if !strings.HasSuffix(path, ".zst") {
		return newWriter(out.f, nil, out), nil
	}
	zw, err := zstd.NewWriter(out.f, encoderOptions...)
	if err != nil {
		out.abort()
		return nil, err
	}
	return newWriter(zw, zw, out), nil
}

// An Appender writes itself as JSON, byte for byte as encoding/json without
// HTML escaping would, only faster: record.Case does, as cases are most of
// what cliff's streams carry.
type Appender interface {
	AppendJSON(dst []byte) ([]byte, error)
}

// Write writes v as one line of JSON (encoding/json, without HTML escaping;
// v's own AppendJSON if it is an Appender).
// A value that cannot be marshalled writes nothing and does not spoil the
// Writer; a write error is sticky.
func (w *Writer) Write(v any) error {
	if err := w.usable(); err != nil {
		return err
	}
	var line []byte
	if a, ok := v.(Appender); ok {
		var err error
		if w.appended, err = a.AppendJSON(w.appended[:0]); err != nil {
			return fmt.Errorf("jsonl: record %d: %w", w.records+1, err)
		}
		line = append(w.appended, '\n')
		w.appended = line
	} else {
		w.line.Reset()
		if err := w.enc.Encode(v); err != nil {
			return fmt.Errorf("jsonl: record %d: %w", w.records+1, err)
		}
		line = w.line.Bytes()
	}
	if _, err := w.buf.Write(line); err != nil {
		w.err = err
		return err
	}
	w.records++
	return nil
}

// WriteRaw writes line, which must be one JSON record without a line break
// inside (a trailing "\n" is allowed), as it is: for passing records through
// unchanged.
func (w *Writer) WriteRaw(line []byte) error {
	if err := w.usable(); err != nil {
		return err
	}
	line = bytes.TrimSuffix(line, []byte("\n"))
	if bytes.IndexByte(line, '\n') >= 0 {
		return fmt.Errorf("jsonl: record %d: line break inside a raw record", w.records+1)
	}
	if _, err := w.buf.Write(line); err != nil {
		w.err = err
		return err
	}
	if err := w.buf.WriteByte('\n'); err != nil {
		w.err = err
		return err
	}
	w.records++
	return nil
}

func (w *Writer) usable() error {
	if w.closed {
		return errors.New("jsonl: write after Close")
	}
	return w.err
}

// Records returns the number of records written so far.
func (w *Writer) Records() int { return w.records }

// Err returns the sticky write error, if any.
func (w *Writer) Err() error { return w.err }

// Flush pushes buffered records through to the underlying writer (for zstd, as
// a complete block the reader can decode), so a downstream tool sees them
// without waiting for Close. Flushing after every record costs compression
// ratio; flush on a timer or every few hundred records.
func (w *Writer) Flush() error {
	if err := w.usable(); err != nil {
		return err
	}
	if err := w.buf.Flush(); err != nil {
		w.err = err
		return err
	}
	if w.zw != nil {
		if err := w.zw.Flush(); err != nil {
			w.err = err
			return err
		}
	}
	return nil
}

// Close flushes the buffer, finishes the zstd frame and closes the file
// opened by Create, renaming its temporary file over the target. It runs
// once; later calls (and Abort) return the first call's result. It
// finishes the zstd frame even after a write error, so whatever reached a
// direct output stays decodable; a temporary file that saw a write error is
// removed instead of renamed (the output itself failed: the target keeps
// what it held).
func (w *Writer) Close() error { return w.finish(true) }

// Abort closes the Writer and discards what it wrote where it can: the
// temporary file of a named output is removed, the target is untouched.
// Stdout, devices and a resumed file (Resume) keep what reached them, as
// with Close.
func (w *Writer) Abort() error { return w.finish(false) }

// CloseAfter closes a Writer whose producer ended with runErr: if the run
// failed before writing any record, it aborts, so that a run that failed
// at once (bad input, an interrupt) leaves an existing output as it was;
// otherwise it closes, so that the records finished before an error are
// in the output. It returns the error of closing.
func (w *Writer) CloseAfter(runErr error) error {
	if runErr != nil && w.records == 0 {
		return w.Abort()
	}
	return w.Close()
}

func (w *Writer) finish(commit bool) error {
	if w.closed {
		return w.closeErr
	}
	w.closed = true
	var errs []error
	if w.err == nil {
		errs = append(errs, w.buf.Flush())
	} else {
		errs = append(errs, w.err)
	}
	if w.zw != nil {
		errs = append(errs, w.zw.Close())
	}
	if w.out != nil {
		if w.records == 0 && w.out.appending && firstError(errs) == nil {
			errs = append(errs, w.out.f.Truncate(w.out.appendedAt))
		}
		if commit && firstError(errs) == nil {
			errs = append(errs, w.out.commit())
		} else {
			errs = append(errs, w.out.abort())
		}
	}
	w.closeErr = firstError(errs)
	return w.closeErr
}

func firstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
