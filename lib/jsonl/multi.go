package jsonl

import (
	"errors"
	"io"
)

// A MultiReader reads the records of several inputs one after the other,
// opening each only when the previous one is exhausted, so a tool can take any
// number of files on its command line. Record numbers and names in errors are
// those of the current input.
type MultiReader struct {
	paths  []string
	cur    *Reader
	closer io.Closer
}

// OpenAll returns a MultiReader over paths ("-" is stdin). With no paths it
// reads stdin, as Unix filters do. Files are opened lazily: an unreadable
// file is reported by Next when its turn comes.
func OpenAll(paths []string) *MultiReader {
	if len(paths) == 0 {
		paths = []string{"-"}
	}
	return &MultiReader{paths: paths}
}

// Next decodes the next record into v; io.EOF after the last record of the
// last input. A *RecordError leaves the current input open, as with
// Reader.Next. Any other error (open or read failure) abandons the current
// input: the caller may stop, or call Next again to go on with the next one.
func (m *MultiReader) Next(v any) error {
	return m.advance(func(r *Reader) error { return r.Next(v) })
}

// NextRaw returns the next record's line without decoding it; see
// Reader.NextRaw and Next.
func (m *MultiReader) NextRaw() ([]byte, error) {
	var line []byte
	err := m.advance(func(r *Reader) (err error) {
		line, err = r.NextRaw()
		return err
	})
	return line, err
}

func (m *MultiReader) advance(next func(*Reader) error) error {
	for {
		if m.cur == nil {
			if len(m.paths) == 0 {
				return io.EOF
			}
			path := m.paths[0]
			m.paths = m.paths[1:]
			r, closer, err := Open(path)
			if err != nil {
				return err
			}
			m.cur, m.closer = r, closer
		}
		err := next(m.cur)
		var bad *RecordError
		switch {
		case err == nil || errors.As(err, &bad):
			return err
		case err == io.EOF:
			if err := m.closeCurrent(); err != nil {
				return err
			}
		default:
			m.closeCurrent()
			return err
		}
	}
}

func (m *MultiReader) closeCurrent() error {
	err := m.closer.Close()
	m.cur, m.closer = nil, nil
	return err
}

// Name returns the name of the input being read ("" between inputs).
func (m *MultiReader) Name() string {
	if m.cur == nil {
		return ""
	}
	return m.cur.Name()
}

// Record returns the current record's number within its input.
func (m *MultiReader) Record() int {
	if m.cur == nil {
		return 0
	}
	return m.cur.Record()
}

// Raw returns the current record's line; see Reader.Raw.
func (m *MultiReader) Raw() []byte {
	if m.cur == nil {
		return nil
	}
	return m.cur.Raw()
}

// Close closes the current input; the remaining ones are never opened.
func (m *MultiReader) Close() error {
	m.paths = nil
	if m.cur == nil {
		return nil
	}
	return m.closeCurrent()
}
