package jsonl

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestWriterKeepsCLIFReadable(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	if err := w.Write(rec{N: 1, Text: "function %f(i32) -> i32 { <1, 2> & }"}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	want := `{"n":1,"text":"function %f(i32) -> i32 { <1, 2> & }"}` + "\n"
	if buf.String() != want {
		t.Errorf("got %q\nwant %q", buf.String(), want)
	}
}

// Records accepted before a producer fails are all in the output once the
// deferred Close has run, plain or compressed.
func TestCloseFlushesOnEarlyReturn(t *testing.T) {
	for _, name := range []string{"out.jsonl", "out.jsonl.zst"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), name)
			want := sampleRecords(50)
			produce := func() error {
				w, err := Create(path)
				if err != nil {
					return err
				}
				defer w.Close()
				for i, r := range want {
					if err := w.Write(r); err != nil {
						return err
					}
					if i == len(want)-1 {
						return errors.New("producer failed")
					}
				}
				return w.Close()
			}
			if err := produce(); err == nil {
				t.Fatal("producer did not fail")
			}
			r, c, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if got := readAll(t, r); !reflect.DeepEqual(got, want) {
				t.Errorf("read back %d records, want %d", len(got), len(want))
			}
		})
	}
}

func TestCloseIdempotentAndFinal(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewZstdWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(rec{N: 1})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	n := buf.Len()
	if err := w.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if buf.Len() != n {
		t.Errorf("second Close wrote %d more bytes", buf.Len()-n)
	}
	if err := w.Write(rec{N: 2}); err == nil {
		t.Error("Write after Close succeeded")
	}
	if err := w.WriteRaw([]byte(`{}`)); err == nil {
		t.Error("WriteRaw after Close succeeded")
	}
}

// Flush makes records visible downstream before Close, for zstd too.
func TestFlushMakesRecordsReadable(t *testing.T) {
	for _, compressed := range []bool{false, true} {
		var buf bytes.Buffer
		w := NewWriter(&buf)
		if compressed {
			var err error
			if w, err = NewZstdWriter(&buf); err != nil {
				t.Fatal(err)
			}
		}
		w.Write(rec{N: 1})
		w.Write(rec{N: 2})
		if buf.Len() != 0 && !compressed {
			t.Errorf("plain: %d bytes reached the output before Flush: not buffered", buf.Len())
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		r := NewReader("flushed", bytes.NewReader(buf.Bytes()))
		var got []int
		for {
			var v rec
			if err := r.Next(&v); err != nil {
				break // an unfinished zstd frame ends in an error after the records
			}
			got = append(got, v.N)
		}
		if !reflect.DeepEqual(got, []int{1, 2}) {
			t.Errorf("compressed=%v: after Flush the reader sees %v, want [1 2]", compressed, got)
		}
		w.Close()
	}
}

// A value that cannot be marshalled writes nothing and the Writer goes on.
func TestMarshalErrorWritesNothing(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	w.Write(rec{N: 1})
	if err := w.Write(map[string]float64{"x": math.Inf(1)}); err == nil || !strings.Contains(err.Error(), "record 2") {
		t.Errorf("marshalling +Inf: %v, want an error naming record 2", err)
	}
	if err := w.Write(rec{N: 2}); err != nil {
		t.Errorf("Write after a marshal error: %v", err)
	}
	w.Close()
	if want := "{\"n\":1}\n{\"n\":2}\n"; buf.String() != want {
		t.Errorf("output %q, want %q", buf.String(), want)
	}
	if w.Records() != 2 {
		t.Errorf("Records() = %d, want 2", w.Records())
	}
}

// appender writes itself as its text, or fails when the text is empty.
type appender string

func (a appender) AppendJSON(dst []byte) ([]byte, error) {
	if a == "" {
		return dst, errors.New("nothing to write")
	}
	return append(dst, a...), nil
}

// TestAppender: an Appender writes its own bytes, one line each; one that
// fails writes nothing and leaves the Writer usable, the records around it
// whole, even when a longer record came before (the buffer is reused).
func TestAppender(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	w.Write(appender(`{"long":"record"}`))
	if err := w.Write(appender("")); err == nil || !strings.Contains(err.Error(), "record 2") {
		t.Errorf("failing Appender: %v, want an error naming record 2", err)
	}
	w.Write(appender(`{"n":2}`))
	w.Write(rec{N: 3})
	w.Close()
	if want := "{\"long\":\"record\"}\n{\"n\":2}\n{\"n\":3}\n"; buf.String() != want {
		t.Errorf("output %q, want %q", buf.String(), want)
	}
}

type failingWriter struct{ after int }

func (f *failingWriter) Write(p []byte) (int, error) {
	if f.after -= len(p); f.after < 0 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

func TestWriteErrorSticky(t *testing.T) {
	w := NewWriter(&failingWriter{after: 10})
	big := rec{Text: strings.Repeat("x", writeBufferSize)}
	var err error
	for i := 0; i < 3 && err == nil; i++ {
		err = w.Write(big)
	}
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("writes past the failure: %v, want disk full", err)
	}
	if w.Err() != err {
		t.Errorf("Err() = %v, want %v", w.Err(), err)
	}
	if err := w.Write(rec{N: 1}); err == nil {
		t.Error("Write after a write error succeeded")
	}
	if err := w.Close(); err == nil {
		t.Error("Close after a write error returned nil")
	}
}

func TestWriteRaw(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	if err := w.WriteRaw([]byte(`{"n":1}`)); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteRaw([]byte("{\"n\":2}\n")); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteRaw([]byte("{\"n\":3}\n{\"n\":4}")); err == nil {
		t.Error("WriteRaw accepted two lines")
	}
	w.Close()
	if want := "{\"n\":1}\n{\"n\":2}\n"; buf.String() != want {
		t.Errorf("output %q, want %q", buf.String(), want)
	}
}

func ExampleReader_Next() {
	input := "{\"id\":\"a\"}\n{\"id\":\n\n{\"id\":\"c\"}\n"
	r := NewReader("cases.jsonl", strings.NewReader(input))
	for {
		var c struct {
			ID string `json:"id"`
		}
		err := r.Next(&c)
		if err == io.EOF {
			break
		}
		var bad *RecordError
		if errors.As(err, &bad) {
			fmt.Println("skip:", err)
			continue
		}
		if err != nil {
			fmt.Println("fatal:", err)
			return
		}
		fmt.Println("case", c.ID)
	}
	// Output:
	// case a
	// skip: cases.jsonl: record 2: unexpected end of JSON input
	// case c
}
