package parser

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
)

// fuzzSeeds are filetests that together use most of the syntax.
var fuzzSeeds = []string{
	"parser/call.clif", "parser/memory.clif", "parser/branch.clif", "parser/alias.clif",
	"runtests/simd-lane-access.clif", "runtests/try_call.clif", "runtests/i128-bitrev.clif",
	"runtests/f16const.clif", "runtests/dynamic-simd-arithmetic.clif", "verifier/exceptions.clif",
	"isa/x64/debug.clif", "isa/x64/atomic-cas-bug.clif", "inline/stack-maps.clif",
}

// FuzzParse feeds arbitrary text to the parser: it must never panic, every
// error must be a positioned *Error, and whatever it accepts must satisfy
// the parser's invariants.
func FuzzParse(f *testing.F) {
	for _, name := range fuzzSeeds {
		if src, err := os.ReadFile(filepath.Join(filetestsDir, name)); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte("function %f(i32) -> i32 {\nblock0(v0: i32):\n    v1 = iadd v0, v0\n    return v1\n}\n; run: %f(1) == 2\n"))
	f.Add([]byte("function %f() {\nblock1:\n    v1 = iadd v2, v2\n    jump block0\nblock0:\n    v2 = iconst.i8 1\n    v3 -> v2\n    jump block1\n}\n"))
	f.Add([]byte(annotatedSeed))
	// wasmtime's style (alias regions, vmctx global values, user external
	// names, cold blocks, try_call trampolines): the corpus of real
	// programs is made of it (scripts/corpus-real.sh).
	if src, err := os.ReadFile("../extract/testdata/wasmtime-style.clif"); err == nil {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := ParseFile("fuzz.clif", src)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || pe.Line < 1 || pe.Col < 1 {
				t.Fatalf("bad error %v", err)
			}
		} else {
			for _, fn := range file.Funcs {
				if err := checkFunction(fn); err != nil {
					t.Fatal(err)
				}
			}
			if err := checkCommands(file); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := ParseModule("fuzz.clif", src); err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("bad error %v", err)
			}
		}
		fuzzRecycler.Lock()
		defer fuzzRecycler.Unlock()
		recycled, rerr := fuzzRecycler.ParseFile("fuzz.clif", src)
		if fmt.Sprint(rerr) != fmt.Sprint(err) || !reflect.DeepEqual(recycled, file) {
			t.Fatalf("parsed in recycled memory: %v, want %v, or other IR", rerr, err)
		}
		if recycled != nil {
			for _, fn := range recycled.Funcs {
				scribble(fn)
			}
		}
	})
}

// fuzzRecycler parses every input in the memory of the inputs before (see
// TestRecyclerSameAsFresh).
var fuzzRecycler struct {
	sync.Mutex
	Recycler
}

// annotatedSeed has a source location, debug tags and a stack map.
const annotatedSeed = `function %f(i64) -> i64 {
    ss0 = explicit_slot 16
    fn0 = %g(i64) -> i64
block0(v0: i64):
<ss0, 1> @0019 v1 = call fn0(v0), stack_map=[i64 @ ss0+8, i32 @ ss0+0]
@001a          return v1
}
`
