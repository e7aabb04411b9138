package printer

import (
	"bytes"
	"io"
	"os"
	"testing"

	"cliff/lib/ir"
	"cliff/lib/parser"
)

// FuzzRoundTrip is the image/png FuzzDecode oracle for CLIF: whatever
// parses must print, parse again to the same IR, and print the same text
// again. It is seeded with the Cranelift filetests.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte("function %f(i32) -> i32 fast {\nblock0(v0: i32):\n    v1 = iadd v0, v0\n    return v1\n}\n"))
	f.Add([]byte("function %f(i64) -> i64 {\n    ss0 = explicit_slot 16\n    fn0 = %g(i64) -> i64\nblock0(v0: i64):\n" +
		"<ss0, 1> @0019 v1 = call fn0(v0), stack_map=[i64 @ ss0+8]\n    v2 -> v1\n@001a return v2\n}\n"))
	if _, err := os.Stat(filetestsDir); err == nil {
		for _, path := range clifFiles(f) {
			src, err := os.ReadFile(path)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		f1, err := parser.ParseFile("fuzz", src)
		if err != nil {
			return
		}
		var text1 bytes.Buffer
		if err := File(&text1, f1); err != nil {
			t.Fatal(err)
		}
		f2, err := parser.ParseFile("printed", text1.Bytes())
		if err != nil {
			t.Fatalf("printed text does not parse: %v\n%s", err, excerpt(text1.String(), err))
		}
		if diff := diffFiles(f1, f2); diff != "" {
			t.Fatalf("IR changed in the round trip: %s\n%s", diff, text1.String())
		}
		var text2 bytes.Buffer
		if err := File(&text2, f2); err != nil {
			t.Fatal(err)
		}
		if text1.String() != text2.String() {
			t.Fatalf("printing is not idempotent: %s", firstDiff(text1.String(), text2.String()))
		}
	})
}

// BenchmarkPrint prints every function of the filetests; the MB/s figure
// is printed CLIF per second.
func BenchmarkPrint(b *testing.B) {
	var funcs []*ir.Function
	for _, path := range clifFiles(b) {
		src, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		if file, err := parser.ParseFile(path, src); err == nil {
			funcs = append(funcs, file.Funcs...)
		}
	}
	m := &ir.Module{Funcs: funcs}
	var size countingWriter
	if err := Module(&size, m); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if err := Module(io.Discard, m); err != nil {
			b.Fatal(err)
		}
	}
}

type countingWriter int

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}
