package extract

import (
	"bytes"
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"cliff/lib/jsonl"
	"cliff/lib/record"
)

// TestWasmtimeStyle extracts functions in the style of `wasmtime compile
// --emit-clif` (testdata/wasmtime-style.clif, written for this test): a
// wasm function with alias regions, vmctx global values, user external
// names, a cold block, heap accesses behind select_spectre_guard, a
// call_indirect through a table with its signature check; and an entry
// trampoline (get_frame_pointer, try_call). Every block becomes a
// snippet that keeps what a re-instantiation needs: the accesses with
// their flags and offsets (cliff-gen places them on its own slots), the
// traps and calls (which it leaves out), and where it came from. With
// --verify the trampoline is skipped, as Cranelift's verifier rejects
// get_frame_pointer without an ISA.
func TestWasmtimeStyle(t *testing.T) {
	for _, verify := range []bool{true, false} {
		out := filepath.Join(t.TempDir(), "corpus.jsonl")
		var log bytes.Buffer
		sum, err := Run(context.Background(), Options{
			Sources: []Source{{Path: "testdata/wasmtime-style.clif"}}, Output: out, Verify: verify, Log: &log,
		})
		if err != nil {
			t.Fatal(err)
		}
		// Counts: files, failed files, functions, rejected, blocks, snippets.
		want := [6]int{1, 0, 2, 1, 3, 3}
		if !verify {
			// The trampoline's block1, block2 and block3 (block0 is a jump).
			want = [6]int{1, 0, 2, 0, 6, 6}
		}
		got := [6]int{sum.Files, sum.FailedFiles, sum.Functions, sum.Rejected, sum.Blocks, sum.Snippets}
		if got != want {
			t.Fatalf("verify=%v: summary %+v, want %+v; log:\n%s", verify, got, want, log.String())
		}
		if verify {
			checkWasmFunction(t, readSnippets(t, out))
		}
	}
}

// checkWasmFunction checks the snippets of the wasm function u0:7.
func checkWasmFunction(t *testing.T, snips []record.Snippet) {
	t.Helper()
	tests := []struct {
		block  string
		line   int
		params []string
		// insts picks instructions by index: opcode, then the immediates
		// that matter for it.
		insts map[int]string
	}{
		{"block0", 23, []string{"i32", "i64", "i32"}, map[int]string{
			3:  "load flags=notrap aligned region2 offset=+104",
			10: "select_spectre_guard",
			11: "load flags=little region3 offset=",
			16: "store flags=little region3 offset=+8",
		}},
		{"block2", 43, []string{"i64", "i32", "i32"}, map[int]string{
			9:  "load flags=user7 aligned offset=",
			15: "trapz trap=user9",
			18: "call_indirect entity=sig0",
		}},
		{"block3", 65, []string{"i64", "i32", "i32"}, map[int]string{
			0: "call entity=fn0",
			2: "call entity=fn1",
		}},
	}
	if len(snips) != len(tests) {
		t.Fatalf("%d snippets, want %d", len(snips), len(tests))
	}
	for k, tt := range tests {
		s := snips[k]
		src := s.Source
		if src.File != "testdata/wasmtime-style.clif" || src.Function != "u0:7" || src.Block != tt.block || src.Line != tt.line {
			t.Errorf("snippet %d from %+v, want u0:7 %s at line %d", k, src, tt.block, tt.line)
		}
		if strings.Join(s.Params, " ") != strings.Join(tt.params, " ") {
			t.Errorf("%s: params %v, want %v", tt.block, s.Params, tt.params)
		}
		for i, want := range tt.insts {
			if i >= len(s.Insts) {
				t.Errorf("%s: no instruction %d (%d)", tt.block, i, len(s.Insts))
				continue
			}
			if got := describe(s.Insts[i]); got != want {
				t.Errorf("%s: instruction %d (%s) is %q, want %q", tt.block, i, s.Insts[i].Text, got, want)
			}
		}
	}
}

// describe says an instruction's opcode and its immediates of interest.
func describe(in record.SnippetInst) string {
	parts := []string{in.Opcode}
	im := in.Imms
	if im.Flags != "" || im.Offset != "" {
		parts = append(parts, "flags="+im.Flags, "offset="+im.Offset)
	}
	if im.Trap != "" {
		parts = append(parts, "trap="+im.Trap)
	}
	if im.Entity != "" {
		parts = append(parts, "entity="+im.Entity)
	}
	return strings.Join(parts, " ")
}

func readSnippets(t *testing.T, path string) []record.Snippet {
	t.Helper()
	rd, closer, err := jsonl.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	var out []record.Snippet
	for {
		var s record.Snippet
		if err := rd.Next(&s); errors.Is(err, io.EOF) {
			return out
		} else if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
}
