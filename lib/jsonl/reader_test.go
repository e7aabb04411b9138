package jsonl

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// rec is a small record with the characters CLIF is full of.
type rec struct {
	N    int    `json:"n"`
	Text string `json:"text,omitempty"`
}

func sampleRecords(n int) []rec {
	rs := make([]rec, n)
	for i := range rs {
		rs[i] = rec{N: i, Text: "function %f" + strings.Repeat("x", i%7) + "(i32) -> i32 { v1 = icmp slt v0, v0 & <1, 2> }"}
	}
	return rs
}

// readAll reads every record, failing the test on any error.
func readAll(t *testing.T, r *Reader) []rec {
	t.Helper()
	var got []rec
	for {
		var v rec
		err := r.Next(&v)
		if err == io.EOF {
			return got
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		got = append(got, v)
	}
}

func writeFile(t *testing.T, path string, rs []rec) {
	t.Helper()
	w, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for _, r := range rs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name       string
		compressed bool
	}{
		{"cases.jsonl", false},
		{"cases.jsonl.zst", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tc.name)
			want := sampleRecords(1000)
			writeFile(t, path, want)

			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := isZstd(data); got != tc.compressed {
				t.Errorf("file starts with zstd magic = %v, want %v", got, tc.compressed)
			}

			r, c, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if got := readAll(t, r); !reflect.DeepEqual(got, want) {
				t.Errorf("read back %d records, differ from the %d written", len(got), len(want))
			}
			if r.Compressed() != tc.compressed {
				t.Errorf("Compressed() = %v, want %v", r.Compressed(), tc.compressed)
			}
			if r.Record() != len(want) {
				t.Errorf("Record() = %d, want %d", r.Record(), len(want))
			}
		})
	}
}

// Compression is detected from content, never from the file name.
func TestDetectionByContent(t *testing.T) {
	dir := t.TempDir()
	want := sampleRecords(10)

	zst := filepath.Join(dir, "a.zst")
	writeFile(t, zst, want)
	misnamed := filepath.Join(dir, "a.jsonl")
	if err := os.Rename(zst, misnamed); err != nil {
		t.Fatal(err)
	}

	plainNamedZst := filepath.Join(dir, "b.zst")
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for _, r := range want {
		w.Write(r)
	}
	w.Close()
	if err := os.WriteFile(plainNamedZst, buf.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		path       string
		compressed bool
	}{{misnamed, true}, {plainNamedZst, false}} {
		r, c, err := Open(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		if got := readAll(t, r); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: records differ", tc.path)
		}
		if r.Compressed() != tc.compressed {
			t.Errorf("%s: Compressed() = %v, want %v", tc.path, r.Compressed(), tc.compressed)
		}
		c.Close()
	}
}

func TestIsZstd(t *testing.T) {
	for _, tc := range []struct {
		head []byte
		want bool
	}{
		{[]byte{0x28, 0xB5, 0x2F, 0xFD, 0x04}, true},
		{[]byte{0x50, 0x2A, 0x4D, 0x18}, true}, // skippable frame
		{[]byte{0x5F, 0x2A, 0x4D, 0x18}, true},
		{[]byte{0x60, 0x2A, 0x4D, 0x18}, false},
		{[]byte{0x28, 0xB5, 0x2F}, false}, // too short
		{[]byte(`{"kind":"case"}`), false},
		{nil, false},
	} {
		if got := isZstd(tc.head); got != tc.want {
			t.Errorf("isZstd(% x) = %v, want %v", tc.head, got, tc.want)
		}
	}
}

// Lines far beyond bufio.Scanner's 64 KiB default (and gron's 1 MiB) must
// come through whole, compressed or not.
func TestLongLines(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 20 MiB lines")
	}
	pattern := "v1 = iadd.i32 v0, v0 ; <&> "
	want := []rec{
		{N: 1, Text: "short"},
		{N: 2, Text: strings.Repeat(pattern, 4<<20/len(pattern))},
		{N: 3, Text: "short again"},
		{N: 4, Text: strings.Repeat(pattern, 20<<20/len(pattern))},
	}
	for _, name := range []string{"long.jsonl", "long.jsonl.zst"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), name)
			writeFile(t, path, want)
			r, c, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			for i, w := range want {
				var v rec
				if err := r.Next(&v); err != nil {
					t.Fatalf("record %d: %v", i+1, err)
				}
				if v != w {
					t.Fatalf("record %d: got %d bytes of text, want %d", i+1, len(v.Text), len(w.Text))
				}
				if len(r.Raw()) < len(w.Text) {
					t.Errorf("record %d: Raw() has %d bytes, shorter than the text", i+1, len(r.Raw()))
				}
			}
			if err := r.Next(new(rec)); err != io.EOF {
				t.Errorf("after last record: %v, want EOF", err)
			}
		})
	}
}

func TestLineHandling(t *testing.T) {
	for _, tc := range []struct {
		name    string
		input   string
		want    []int // the n of each record
		records int   // Record() at EOF
		lines   int   // Line() of the last record
	}{
		{"empty input", "", nil, 0, 0},
		{"only blank lines", "\n\n  \n\r\n", nil, 0, 0},
		{"LF", "{\"n\":1}\n{\"n\":2}\n", []int{1, 2}, 2, 2},
		{"CRLF", "{\"n\":1}\r\n{\"n\":2}\r\n", []int{1, 2}, 2, 2},
		{"last line without newline", "{\"n\":1}\n{\"n\":2}", []int{1, 2}, 2, 2},
		{"single short record without newline", "{}", []int{0}, 1, 1},
		{"empty lines skipped, not counted", "\n{\"n\":1}\n\n\t\n{\"n\":2}\n\n", []int{1, 2}, 2, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReader("in", strings.NewReader(tc.input))
			var got []int
			for _, v := range readAll(t, r) {
				got = append(got, v.N)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("records %v, want %v", got, tc.want)
			}
			if r.Record() != tc.records {
				t.Errorf("Record() = %d, want %d", r.Record(), tc.records)
			}
			if r.Line() != tc.lines {
				t.Errorf("Line() = %d, want %d", r.Line(), tc.lines)
			}
		})
	}
}

func TestRawHasNoLineEnding(t *testing.T) {
	r := NewReader("in", strings.NewReader("{\"n\":1}\r\n"))
	line, err := r.NextRaw()
	if err != nil {
		t.Fatal(err)
	}
	if string(line) != `{"n":1}` || string(r.Raw()) != `{"n":1}` {
		t.Errorf("NextRaw = %q, Raw = %q, want %q", line, r.Raw(), `{"n":1}`)
	}
}

// A bad record is reported with the input name and record number, and the
// caller can go on to the next one.
func TestBadRecordContinue(t *testing.T) {
	input := strings.Join([]string{
		`{"n":1}`,
		``,
		`{"n":2,`, // truncated JSON
		`{"n":3}`,
		`{"n":"four"}`, // wrong type
		`not json`,
		`{"n":5}`,
	}, "\n")
	r := NewReader("cases.jsonl", strings.NewReader(input))
	var got []int
	var errs []string
	for {
		var v rec
		err := r.Next(&v)
		if err == io.EOF {
			break
		}
		var bad *RecordError
		if errors.As(err, &bad) {
			errs = append(errs, err.Error())
			if bad.Record != r.Record() || bad.Line != r.Line() {
				t.Errorf("RecordError at record %d line %d, reader at %d, %d", bad.Record, bad.Line, r.Record(), r.Line())
			}
			continue
		}
		if err != nil {
			t.Fatalf("unexpected fatal error: %v", err)
		}
		got = append(got, v.N)
	}
	if want := []int{1, 3, 5}; !reflect.DeepEqual(got, want) {
		t.Errorf("good records %v, want %v", got, want)
	}
	wantPrefixes := []string{"cases.jsonl: record 2: ", "cases.jsonl: record 4: ", "cases.jsonl: record 5: "}
	if len(errs) != len(wantPrefixes) {
		t.Fatalf("errors %q, want %d", errs, len(wantPrefixes))
	}
	for i, p := range wantPrefixes {
		if !strings.HasPrefix(errs[i], p) {
			t.Errorf("error %q, want prefix %q", errs[i], p)
		}
	}
	if !strings.Contains(errs[1], "string") {
		t.Errorf("type error %q does not say what is wrong", errs[1])
	}
}

// A zstd stream cut short is a fatal error, not a clean EOF and not a
// continuable record error, and the records before the cut are intact.
func TestTruncatedZstd(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewZstdWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	want := sampleRecords(20000)
	for i := range want {
		want[i].Text += strings.Repeat(string(rune('a'+i%26)), i%50)
	}
	for _, r := range want {
		w.Write(r)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	cut := buf.Bytes()[:buf.Len()/2]

	r := NewReader("cut.zst", bytes.NewReader(cut))
	n := 0
	var err2 error
	for {
		var v rec
		if err2 = r.Next(&v); err2 != nil {
			break
		}
		if v != want[n] {
			t.Fatalf("record %d corrupt before the cut", n+1)
		}
		n++
	}
	if err2 == io.EOF {
		t.Fatalf("truncated stream ended with a clean EOF after %d records", n)
	}
	var bad *RecordError
	if errors.As(err2, &bad) {
		t.Fatalf("truncation reported as a continuable record error: %v", err2)
	}
	if !strings.HasPrefix(err2.Error(), "cut.zst: record ") {
		t.Errorf("error %q does not name the input and record", err2)
	}
	if n == 0 || n >= len(want) {
		t.Errorf("read %d records before the error, want some but not all of %d", n, len(want))
	}
	if again := r.Next(new(rec)); again != err2 {
		t.Errorf("error not sticky: then %v, now %v", err2, again)
	}
}

func TestCorruptZstdHeader(t *testing.T) {
	input := append(zstdMagic[:], 0xff, 0xff, 0xff, 0xff, 0xff)
	r := NewReader("bad.zst", bytes.NewReader(input))
	err := r.Next(new(rec))
	if err == nil || err == io.EOF {
		t.Fatalf("corrupt zstd frame: got %v, want an error", err)
	}
	if !strings.HasPrefix(err.Error(), "bad.zst: ") {
		t.Errorf("error %q does not name the input", err)
	}
}

func TestReadAfterClose(t *testing.T) {
	r := NewReader("in", strings.NewReader("{\"n\":1}\n{\"n\":2}\n"))
	if err := r.Next(new(rec)); err != nil {
		t.Fatal(err)
	}
	r.Close()
	if err := r.Next(new(rec)); err == nil || err == io.EOF {
		t.Errorf("Next after Close: %v, want an error", err)
	}
}

func TestMultiReader(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.jsonl")
	b := filepath.Join(dir, "b.jsonl.zst")
	missing := filepath.Join(dir, "missing.jsonl")
	bad := filepath.Join(dir, "bad.jsonl")
	writeFile(t, a, []rec{{N: 1}, {N: 2}})
	writeFile(t, b, []rec{{N: 3}})
	if err := os.WriteFile(bad, []byte("{\"n\":4}\nnope\n{\"n\":5}"), 0o666); err != nil {
		t.Fatal(err)
	}

	m := OpenAll([]string{a, missing, b, bad})
	defer m.Close()
	var got []int
	var errs []string
	var names []string
	for {
		var v rec
		err := m.Next(&v)
		if err == io.EOF {
			break
		}
		if err != nil {
			errs = append(errs, err.Error())
			continue // both a bad record and a missing file are skippable here
		}
		got = append(got, v.N)
		names = append(names, filepath.Base(m.Name()))
	}
	if want := []int{1, 2, 3, 4, 5}; !reflect.DeepEqual(got, want) {
		t.Errorf("records %v, want %v", got, want)
	}
	if want := []string{"a.jsonl", "a.jsonl", "b.jsonl.zst", "bad.jsonl", "bad.jsonl"}; !reflect.DeepEqual(names, want) {
		t.Errorf("names %v, want %v", names, want)
	}
	if len(errs) != 2 || !strings.Contains(errs[0], "missing.jsonl") || !strings.HasPrefix(errs[1], bad+": record 2: ") {
		t.Errorf("errors %q, want the missing file then %s record 2", errs, bad)
	}
}

// OpenEach opens all inputs before any is read: a missing one is an error
// naming it, and none means stdin.
func TestOpenEach(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "a.jsonl")
	if err := os.WriteFile(good, []byte("{\"x\":1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rs, c, err := OpenEach([]string{good, good})
	if err != nil || len(rs) != 2 {
		t.Fatalf("OpenEach(two files) = %d readers, %v", len(rs), err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if _, _, err := OpenEach([]string{good, filepath.Join(dir, "missing.jsonl")}); err == nil || !strings.Contains(err.Error(), "missing.jsonl") {
		t.Errorf("a missing input: %v, want an error naming it", err)
	}
	rs, _, err = OpenEach(nil)
	if err != nil || len(rs) != 1 || rs[0].Name() != "stdin" {
		t.Errorf("no inputs: %v %v, want stdin", rs, err)
	}
}
