package parser

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"cliff/lib/gen"
	"cliff/lib/ir"
	"cliff/lib/printer"
	"cliff/lib/profile"
)

// recycledText is one text of TestRecyclerSameAsFresh, read as a module
// (a case's CLIF) or as a file (a filetest).
type recycledText struct {
	name string
	src  string
	file bool
}

// TestRecyclerSameAsFresh: a Recycler parses every text to what parsing it
// into new memory gives (the same IR, field for field, and the same
// error), whatever it parsed before and whatever the caller did to that:
// generated cases from tiny to deep, big ones after small ones and the
// reverse, cases cut short (errors half-way through a function), and every
// Cranelift filetest. After each text the test scribbles over the module
// (every table entry and list it can reach, and tables grown with junk),
// as a refinement pass might, so that any stale entry shows.
func TestRecyclerSameAsFresh(t *testing.T) {
	texts := generatedTexts(t)
	for _, ft := range loadFiletests(t) {
		texts = append(texts, recycledText{ft.path, string(ft.src), true})
	}
	forward := make([]int, len(texts))
	for i := range forward {
		forward[i] = i
	}
	backward := make([]int, len(texts))
	for i := range backward {
		backward[i] = len(texts) - 1 - i
	}
	shuffled := rand.New(rand.NewPCG(1, 2)).Perm(len(texts))
	var r Recycler
	for _, order := range [][]int{forward, backward, shuffled} {
		for _, i := range order {
			if !sameAsFresh(t, &r, texts[i]) {
				return
			}
		}
	}
}

// generatedTexts returns cases of cliff-gen at depths 0 to 10 in an order
// that puts big cases after small ones and small after big, each also cut
// short in the middle of a function.
func generatedTexts(t *testing.T) []recycledText {
	p, err := profile.Load("compat")
	if err != nil {
		t.Fatal(err)
	}
	var out []recycledText
	for k, depth := range []int{5, 0, 10, 1, 8, 2, 5, 10, 0} {
		g, err := gen.New(gen.DefaultOptions(p, uint64(k), depth))
		if err != nil {
			t.Fatal(err)
		}
		for i := range 4 {
			c, _, err := g.Case(uint64(i))
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("%s (depth %d)", c.ID, depth)
			out = append(out, recycledText{name, c.CLIF, false},
				recycledText{name + " cut short", c.CLIF[:len(c.CLIF)*2/3], false})
		}
	}
	return out
}

// sameAsFresh parses text with r and into new memory, reports any
// difference and scribbles over what r returned. It returns false after a
// difference.
func sameAsFresh(t *testing.T, r *Recycler, text recycledText) bool {
	t.Helper()
	var fresh, recycled any
	var freshErr, recycledErr error
	var funcs []*ir.Function
	if text.file {
		var f, rf *ir.File
		f, freshErr = ParseFile(text.name, []byte(text.src))
		rf, recycledErr = r.ParseFile(text.name, []byte(text.src))
		fresh, recycled = f, rf
		if rf != nil {
			funcs = rf.Funcs
		}
	} else {
		var m, rm *ir.Module
		m, freshErr = ParseModuleString(text.name, text.src)
		rm, recycledErr = r.ParseModuleString(text.name, text.src)
		fresh, recycled = m, rm
		if rm != nil {
			funcs = rm.Funcs
		}
	}
	if fmt.Sprint(freshErr) != fmt.Sprint(recycledErr) {
		t.Errorf("%s: recycled error %v, want %v", text.name, recycledErr, freshErr)
		return false
	}
	if !reflect.DeepEqual(fresh, recycled) {
		t.Errorf("%s: recycled IR differs from fresh", text.name)
		if m, ok := fresh.(*ir.Module); ok && m != nil {
			want := printer.Options{}.ModuleString(m)
			got := printer.Options{}.ModuleString(recycled.(*ir.Module))
			if got != want {
				t.Errorf("recycled:\n%s\nfresh:\n%s", got, want)
			}
		}
		return false
	}
	for _, f := range funcs {
		scribble(f)
	}
	return true
}

// scribble overwrites what a caller of a Recycler can reach in f, as a
// caller done with it may: every entry of its tables and of the lists they
// hold, and tables grown with junk entries (a pass adding instructions).
func scribble(f *ir.Function) {
	junkValues := []ir.Value{7, 8, 9}
	junkInst := ir.InstData{Op: ir.OpIadd, CtrlType: ir.I64, Args: junkValues, Results: junkValues,
		Dests: []ir.BlockCall{{Block: 3, Args: []ir.BlockArg{ir.ValueArg(5)}}}, Bytes: []byte{1, 2},
		Imm: 99, FloatBits: 98, IntCC: 1, FloatCC: 1, Flags: ir.MemFlags{Aligned: true}, Trap: 1, RmwOp: 1, Const: 5,
		Func: 1, Sig: 2, Slot: 3, DynSlot: 3, GV: 4, RawBlock: 5,
		Handlers: []ir.ExceptionHandler{{Dest: ir.BlockCall{Block: 4}}}, SrcLoc: ir.SrcLoc(7),
		DebugTags: []ir.DebugTag{ir.UserTag(3)}, StackMap: []ir.StackMapEntry{{Type: ir.I64, Offset: 8}}}
	for i := range f.Insts {
		d := &f.Insts[i]
		for _, list := range [][]ir.Value{d.Args, d.Results} {
			for k := range list {
				list[k] = 12345
			}
		}
		for k := range d.Dests {
			d.Dests[k].Block = 77
			for j := range d.Dests[k].Args {
				d.Dests[k].Args[j] = ir.ValueArg(54321)
			}
		}
		*d = junkInst
	}
	for i := range f.Values {
		f.Values[i] = ir.ValueData{Type: ir.I8, Kind: ir.DefResult, Inst: 5, Index: 6}
	}
	for b := range f.Blocks {
		bd := &f.Blocks[b]
		for k := range bd.Params {
			bd.Params[k] = 4321
		}
		for k := range bd.Insts {
			bd.Insts[k] = 4321
		}
		*bd = ir.BlockData{Used: true, Cold: true, Params: junkValues, Insts: []ir.Inst{1, 2}}
	}
	for i := range f.Layout {
		f.Layout[i] = 999
	}
	for i := range f.Pos.Insts {
		f.Pos.Insts[i] = ir.Pos{Line: 1, Col: 1}
	}
	for i := range f.Pos.Blocks {
		f.Pos.Blocks[i] = ir.Pos{Line: 2, Col: 2}
	}
	if f.Pos.Decls != nil {
		f.Pos.Decls["ss999"] = ir.Pos{Line: 5}
	}
	for range len(f.Insts)/2 + 3 {
		f.Insts = append(f.Insts, junkInst)
		f.Values = append(f.Values, ir.ValueData{Type: ir.I16, Kind: ir.DefParam, Block: 3})
		f.Blocks = append(f.Blocks, ir.BlockData{Used: true, Params: junkValues})
		f.Layout = append(f.Layout, 3)
		f.Pos.Insts = append(f.Pos.Insts, ir.Pos{Line: 3})
		f.Pos.Blocks = append(f.Pos.Blocks, ir.Pos{Line: 4})
	}
}
