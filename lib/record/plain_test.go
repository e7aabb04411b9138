package record

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestPlainRun puts every byte value at every position of a run of plain
// bytes, after plain bytes of every value, and checks plainRun against
// the byte-at-a-time definition from every start.
func TestPlainRun(t *testing.T) {
	want := func(s []byte, i int) int {
		for i < len(s) && plainInJSON[s[i]] {
			i++
		}
		return i
	}
	for c := range 256 {
		for pos := range 20 {
			for _, filler := range []byte{' ', '!', '#', '[', ']', '~', 0x7f, 'a'} {
				s := bytes.Repeat([]byte{filler}, 20)
				s[pos] = byte(c)
				for start := range 20 {
					if got, w := plainRun(s, start), want(s, start); got != w {
						t.Fatalf("byte %#x at %d among %q, from %d: plainRun = %d, want %d", c, pos, filler, start, got, w)
					}
					if got, w := plainRun(string(s), start), want(s, start); got != w {
						t.Fatalf("string: byte %#x at %d, from %d: plainRun = %d, want %d", c, pos, start, got, w)
					}
				}
			}
		}
	}
}

// BenchmarkCaseJSON decodes and encodes a case record the size of a
// refined depth-5 case (30 KB of CLIF, 8 input vectors of 11 values).
func BenchmarkCaseJSON(b *testing.B) {
	line, err := os.ReadFile("testdata/case.json")
	if err != nil {
		b.Fatal(err)
	}
	var c Case
	if err := json.Unmarshal(line, &c); err != nil {
		b.Fatal(err)
	}
	var clif strings.Builder
	for clif.Len() < 30000 {
		clif.WriteString("    v123 = iadd.i64 v45, v67\n    brif v12, block3(v4, v5), block7\n")
	}
	c.CLIF = clif.String()
	c.Results = nil // cliff-refine's input has none
	c.Inputs = nil
	for range 8 {
		var vec InputVector
		for range 11 {
			vec = append(vec, Value{Type: "i64", Value: "-7882115407203555533"})
		}
		c.Inputs = append(c.Inputs, vec)
	}
	line, err = c.AppendJSON(nil)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(line)))
	b.Run("decode", func(b *testing.B) {
		for b.Loop() {
			if _, ok := decodeCaseFast(line); !ok {
				b.Fatal("slow path")
			}
		}
	})
	b.Run("encode", func(b *testing.B) {
		var buf []byte
		for b.Loop() {
			buf, _ = c.AppendJSON(buf[:0])
		}
	})
}

// BenchmarkCaseRecords decodes and encodes real records: a depth-5 case as
// cliff-gen writes it and the same case as cliff-refine writes it, then a
// crossover case (with parents) likewise (testdata/cases.jsonl), with
// their input vectors, features and opcode counts.
func BenchmarkCaseRecords(b *testing.B) {
	data, err := os.ReadFile("testdata/cases.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	for i, name := range []string{"gen", "refined", "crossover-gen", "crossover-refined"} {
		line := lines[i]
		c, ok := decodeCaseFast(line)
		if !ok {
			b.Fatalf("%s: slow path", name)
		}
		b.Run(name+"/decode", func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			for b.Loop() {
				if _, ok := decodeCaseFast(line); !ok {
					b.Fatal("slow path")
				}
			}
		})
		b.Run(name+"/encode", func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			var buf []byte
			for b.Loop() {
				buf, _ = c.AppendJSON(buf[:0])
			}
		})
	}
}
