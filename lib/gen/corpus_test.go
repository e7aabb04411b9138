package gen

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"

	"cliff/lib/extract"
	"cliff/lib/ir"
)

// TestLoadCorpora checks that several corpora load as one, in order, and
// that the record's hash names each file's exact bytes: one file keeps
// the hash it always had, so cases made before several were possible
// keep their identity.
func TestLoadCorpora(t *testing.T) {
	data, err := os.ReadFile(testCorpus)
	if err != nil {
		t.Fatal(err)
	}
	hash := fmt.Sprintf("%016x", xxhash.Sum64(data))
	one, err := LoadCorpus(testCorpus)
	if err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "none.jsonl")
	tests := []struct {
		paths    string
		wantLen  int
		wantHash string
		err      string
	}{
		{paths: testCorpus, wantLen: one.Len(), wantHash: hash},
		{paths: testCorpus + "," + testCorpus, wantLen: 2 * one.Len(), wantHash: hash + "," + hash},
		{paths: testCorpus + ",", wantLen: one.Len(), wantHash: hash},
		{paths: testCorpus + "," + missing, err: "none.jsonl"},
		{paths: ",", err: "no corpus file"},
	}
	for _, tt := range tests {
		c, err := LoadCorpus(tt.paths)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("LoadCorpus(%q): error %v, want one with %q", tt.paths, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("LoadCorpus(%q): %v", tt.paths, err)
			continue
		}
		if c.Len() != tt.wantLen || c.Hash != tt.wantHash || c.Path != tt.paths {
			t.Errorf("LoadCorpus(%q) = %d snippets, hash %s, path %s; want %d, %s, %s",
				tt.paths, c.Len(), c.Hash, c.Path, tt.wantLen, tt.wantHash, tt.paths)
		}
	}
}

// TestSnippetMemory checks that a corpus load and store (of a wasm heap,
// say) become accesses of a stack slot that keep the snippet's dataflow:
// the load's result is what the snippet's imul squares, and the imul's
// result is what the store writes. With snippet_memory off they are left
// out, as before it existed.
func TestSnippetMemory(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "heap.clif")
	clif := `function %f(i64 vmctx, i64, i32) tail {
block0(v0: i64, v1: i64, v2: i32):
    v3 = uextend.i64 v2
    v4 = load.i64 notrap aligned readonly can_move v0+96
    v5 = iadd v4, v3
    v6 = load.i32 little region0 v5
    v7 = imul v6, v6
    store little region0 v7, v5+4
    return
}
`
	if err := os.WriteFile(src, []byte(clif), 0o644); err != nil {
		t.Fatal(err)
	}
	corpusPath := filepath.Join(dir, "corpus.jsonl")
	if _, err := extract.Run(context.Background(), extract.Options{Sources: []extract.Source{{Path: src}}, Output: corpusPath}); err != nil {
		t.Fatal(err)
	}
	corpus, err := LoadCorpus(corpusPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, on := range []bool{true, false} {
		features := map[string]bool{"snippets": true, "stack": true, "snippet_memory": on, "i128": false}
		g := newGenWith(t, "compat", 2, features, corpus)
		g.opts.Mutation = 0
		var sum squares
		for i := uint64(0); i < 40; i++ {
			_, mod, err := g.Case(i)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range mod.Funcs {
				sum.add(squaresOfLoads(f))
			}
		}
		t.Logf("snippet_memory=%v: %+v", on, sum)
		if on && (sum.chains == 0 || sum.kept < sum.follow*9/10) {
			t.Errorf("snippet_memory on: %+v: want imuls right after a slot's load.i32 to square it (90%%), and some stored back", sum)
		}
		if !on && sum.chains != 0 {
			t.Errorf("snippet_memory off: %+v: want no slot load squared and stored back", sum)
		}
	}
}

// squares counts, in generated code, the imul.i32 right after a load.i32
// of a stack slot (follow), those of them that square the loaded value
// (kept: the snippet's dataflow), and those whose result the next store
// writes to a stack slot (chains).
type squares struct{ follow, kept, chains int }

func (s *squares) add(o squares) {
	s.follow, s.kept, s.chains = s.follow+o.follow, s.kept+o.kept, s.chains+o.chains
}

// squaresOfLoads counts f's squares (stack_addr scaffolding between
// the instructions aside).
func squaresOfLoads(f *ir.Function) (s squares) {
	slotAddr := func(v ir.Value) bool {
		d := f.Values[f.Resolve(v)]
		return d.Kind == ir.DefResult && f.Insts[d.Inst].Op == ir.OpStackAddr
	}
	for _, b := range f.Layout {
		var load, square ir.Value = ir.NoValue, ir.NoValue
		for _, i := range f.Blocks[b].Insts {
			d := &f.Insts[i]
			if d.Op == ir.OpStackAddr {
				continue
			}
			switch {
			case d.Op == ir.OpImul && d.CtrlType == ir.I32 && load != ir.NoValue:
				s.follow++
				if d.Args[0] == load && d.Args[1] == load {
					s.kept++
					square = d.Results[0]
				}
			case d.Op == ir.OpStore && square != ir.NoValue && d.Args[0] == square && slotAddr(d.Args[1]):
				s.chains++
			}
			load = ir.NoValue
			if d.Op == ir.OpLoad && d.CtrlType == ir.I32 && slotAddr(d.Args[0]) {
				load = d.Results[0]
			}
			if d.Op != ir.OpImul {
				square = ir.NoValue
			}
		}
	}
	return s
}

// TestPickBalancesCorpora checks that with several corpora each is drawn
// with the same chance, whatever its size: a one-snippet corpus beside
// the sample of the filetests' gets about half of the draws.
func TestPickBalancesCorpora(t *testing.T) {
	small := filepath.Join(t.TempDir(), "small.jsonl")
	line := `{"kind":"snippet","v":1,"id":"0000000000000001","source":{"file":"m/f.clif","function":"u0:1","block":"block0","line":5},"level":"block","params":["i64"],"insts":[{"opcode":"imul","ctrl_type":"i64","args":["in0","in0"],"arg_types":["i64","i64"],"result_types":["i64"],"text":"v1 = imul v0, v0"}],"count":1}` + "\n"
	if err := os.WriteFile(small, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		paths    string
		min, max float64 // the share of draws of the small corpus's snippet
	}{
		{testCorpus + "," + small, 0.45, 0.55},
		{small + "," + testCorpus, 0.45, 0.55},
		{testCorpus, 0, 0},
	} {
		c, err := LoadCorpus(tt.paths)
		if err != nil {
			t.Fatal(err)
		}
		r := newRng(1)
		hits := 0
		const n = 4000
		for range n {
			sn := c.pick(&r)
			if len(sn.insts) == 1 && sn.insts[0].ot == (opType{ir.OpImul, ir.I64}) && sn.insts[0].args[0].Input {
				hits++
			}
		}
		if share := float64(hits) / n; share < tt.min || share > tt.max {
			t.Errorf("%s: the small corpus's snippet drawn %.3f of the time, want %.2f to %.2f", tt.paths, share, tt.min, tt.max)
		}
	}
}
