package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/klauspost/compress/zstd"
)

// readBufferSize is the bufio buffer in front of the JSON decoder. Lines
// longer than this are accumulated across reads; there is no upper limit.
const readBufferSize = 256 << 10

// A RecordError is a record that could not be decoded. The line has been
// consumed, so the caller may report the error and call Next again to go on
// with the following record.
type RecordError struct {
	Name   string // input name given to NewReader, e.g. a file name or "stdin"
	Record int    // 1-based record number (empty lines are not counted)
	Line   int    // 1-based line number in the (decompressed) input, when known
	ID     string // the record's ID, when known
	Err    error
}

func (e *RecordError) Error() string {
	if e.ID != "" {
		return fmt.Sprintf("%s: record %d (%s): %v", e.Name, e.Record, e.ID, e.Err)
	}
	return fmt.Sprintf("%s: record %d: %v", e.Name, e.Record, e.Err)
}

func (e *RecordError) Unwrap() error { return e.Err }

// A Reader reads JSON records, one per line, from a plain or zstd-compressed
// stream. Compression is detected from the first bytes; empty and blank lines
// are skipped; a trailing "\r" (CRLF line endings) is dropped; the last line
// needs no newline.
//
// Errors come in two sorts. A record that is not valid JSON, or does not fit
// the value given to Next, yields a *RecordError: the caller may go on
// reading. Any other error (a read error, a corrupt or truncated zstd stream)
// ends the stream: Next returns it again on every later call.
//
//	for {
//		err := r.Next(&c)
//		if err == io.EOF {
//			break
//		}
//		var bad *jsonl.RecordError
//		if errors.As(err, &bad) {
//			log.Print(err) // "cases.jsonl: record 17: invalid character ..."
//			continue
//		}
//		if err != nil {
//			return err
//		}
//		...
//	}
type Reader struct {
	name   string
	src    io.Reader
	in     *bufio.Reader // decompressed input; nil until the first read
	zr     *zstd.Decoder // nil for plain input
	long   []byte        // accumulates lines longer than the bufio buffer
	raw    []byte        // current record
	record int
	line   int // line number of the current record
	lines  int // lines read so far
	// unterminated says the current record is the input's last line and
	// has no line ending: what a writer killed mid-record leaves (Resume).
	unterminated bool
	err          error // sticky: io.EOF or a fatal error
}

// NewReader returns a Reader for r. The name identifies the input in error
// messages. Nothing is read until the first call to Next or NextRaw.
func NewReader(name string, r io.Reader) *Reader {
	return &Reader{name: name, src: r}
}

// Open opens a file for reading, "-" meaning stdin. The Closer releases the
// decompressor and closes the file (but not stdin).
func Open(path string) (*Reader, io.Closer, error) {
	if path == "-" {
		growPipe(os.Stdin)
		r := NewReader("stdin", os.Stdin)
		return r, r, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	r := NewReader(path, f)
	return r, closeBoth{r, f}, nil
}

// OpenEach opens every input of a tool that reads several at once (none
// means stdin, "-"), all before any is read, so that a wrong path is
// reported before anything is written (OpenAll opens them lazily, one
// after the other). The closer closes them all; on an error the ones
// already open are closed.
func OpenEach(paths []string) ([]*Reader, io.Closer, error) {
	if len(paths) == 0 {
		paths = []string{"-"}
	}
	var readers []*Reader
	var closers closeAll
	for _, path := range paths {
		r, c, err := Open(path)
		if err != nil {
			closers.Close()
			return nil, nil, err
		}
		readers = append(readers, r)
		closers = append(closers, c)
	}
	return readers, closers, nil
}

type closeAll []io.Closer

func (cs closeAll) Close() error {
	var errs []error
	for _, c := range cs {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

type closeBoth struct{ r, f io.Closer }

func (c closeBoth) Close() error {
	return errors.Join(c.r.Close(), c.f.Close())
}

// Name returns the input name given to NewReader.
func (r *Reader) Name() string { return r.name }

// Record returns the 1-based number of the current record (0 before the
// first), counting every non-empty line, decodable or not.
func (r *Reader) Record() int { return r.record }

// Line returns the line number of the current record in the decompressed
// input, which differs from Record when the input has empty lines.
func (r *Reader) Line() int { return r.line }

// Raw returns the current record's line without its line ending. It is valid
// until the next call to Next or NextRaw; copy it to keep it.
func (r *Reader) Raw() []byte { return r.raw }

// Compressed reports whether the input was detected as zstd. It is false
// until the first read.
func (r *Reader) Compressed() bool { return r.zr != nil }

// Next decodes the next record into v (with encoding/json). It returns io.EOF
// after the last record. On a *RecordError v may be partly filled.
func (r *Reader) Next(v any) error {
	line, err := r.NextRaw()
	if err != nil {
		return err
	}
	if err := json.Unmarshal(line, v); err != nil {
		return &RecordError{Name: r.name, Record: r.record, Line: r.line, Err: err}
	}
	return nil
}

// NextRaw advances to the next non-empty line and returns it, without
// decoding it (for dispatching on a record's kind first, or for passing
// records through unchanged). The slice is valid until the next call.
func (r *Reader) NextRaw() ([]byte, error) {
	r.raw = nil
	if r.err != nil {
		return nil, r.err
	}
	if r.in == nil {
		if err := r.start(); err != nil {
			r.err = fmt.Errorf("%s: %w", r.name, err)
			return nil, r.err
		}
	}
	for {
		line, err := r.readLine()
		if err != nil && err != io.EOF {
			// A partial line before a read error is most likely cut short:
			// never hand it out as a record.
			r.err = fmt.Errorf("%s: record %d: %w", r.name, r.record+1, err)
			return nil, r.err
		}
		if err == io.EOF {
			r.err = io.EOF
			if len(line) == 0 {
				return nil, io.EOF
			}
			r.unterminated = true
		}
		r.lines++
		line = trimLineEnd(line)
		if len(bytes.TrimSpace(line)) == 0 {
			if r.err != nil {
				return nil, r.err
			}
			continue
		}
		r.record++
		r.line = r.lines
		r.raw = line
		return line, nil
	}
}

// start detects compression from the first bytes.
func (r *Reader) start() error {
	br := bufio.NewReaderSize(r.src, readBufferSize)
	head, err := br.Peek(len(zstdMagic))
	if err != nil && err != io.EOF {
		return err
	}
	if !isZstd(head) {
		r.in = br
		return nil
	}
	zr, err := zstd.NewReader(br, decoderOptions...)
	if err != nil {
		return err
	}
	r.zr = zr
	r.in = bufio.NewReaderSize(zr, readBufferSize)
	return nil
}

// readLine returns the next line including its "\n" (absent on the last
// line). A line that fits the buffer is returned in place, without copying.
func (r *Reader) readLine() ([]byte, error) {
	chunk, err := r.in.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return chunk, err
	}
	r.long = append(r.long[:0], chunk...)
	for {
		chunk, err = r.in.ReadSlice('\n')
		r.long = append(r.long, chunk...)
		if err != bufio.ErrBufferFull {
			return r.long, err
		}
	}
}

func trimLineEnd(line []byte) []byte {
	line = bytes.TrimSuffix(line, []byte("\n"))
	return bytes.TrimSuffix(line, []byte("\r"))
}

// Close releases the decompressor. It does not close the underlying reader.
// Reading after Close fails.
func (r *Reader) Close() error {
	if r.zr != nil {
		r.zr.Close()
	}
	if r.err == nil || r.err == io.EOF {
		r.err = fmt.Errorf("%s: read after Close", r.name)
	}
	return nil
}
