package refinterp

import (
	"encoding/binary"
	"slices"
	"testing"

	"cliff/lib/ir"
)

// TestWatch: an observer sees each execution of the instructions it
// watches, in order, with their operands' values before they run, in
// every frame of the function (a callee called twice), and nothing else,
// until it says it has seen enough.
func TestWatch(t *testing.T) {
	f := mustParse(t, `
function %twice(i64) -> i64 {
    fn0 = %sq(i64) -> i64
block0(v0: i64):
    v1 = call fn0(v0)
    v2 = iconst.i64 1
    v3 = iadd v1, v2
    v4 = call fn0(v3)
    return v4
}

function %sq(i64) -> i64 {
block0(v0: i64):
    v1 = imul v0, v0
    return v1
}
`)
	mod := &f.Module
	sq := mod.Func("%sq")
	imul := sq.Blocks[sq.Layout[0]].Insts[0]
	for _, tc := range []struct {
		name      string
		watch     []ir.Inst
		stopAfter int     // executions seen before the observer says stop
		want      []int64 // the first operand of each execution seen
	}{
		{"the callee's imul, in both calls", []ir.Inst{imul}, 5, []int64{3, 10}},
		{"until the observer has seen enough", []ir.Inst{imul}, 1, []int64{3}},
		{"nothing", nil, 5, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := New(mod, DefaultLimits)
			var got []int64
			err := in.Watch(sq, tc.watch, func(g *ir.Function, inst ir.Inst, ops []ir.DataValue) bool {
				if g != sq || inst != imul || len(ops) != 2 {
					t.Errorf("saw %s inst %d with %d operands", g.Name, inst, len(ops))
				}
				got = append(got, int64(binary.LittleEndian.Uint64(ops[0].Bytes)))
				return len(got) < tc.stopAfter
			})
			if err != nil {
				t.Fatal(err)
			}
			o, err := in.Call("%twice", []ir.DataValue{i64(3)})
			if err != nil || binary.LittleEndian.Uint64(o.Results[0].Bytes) != 100 {
				t.Fatalf("%%twice(3) = %v, %v; want 100", o.Results, err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("saw %v, want %v", got, tc.want)
			}
		})
	}
	other := mustParse(t, "function %f() {\nblock0:\n    return\n}\n")
	if err := New(mod, DefaultLimits).Watch(other.Module.Func("%f"), nil, nil); err == nil {
		t.Error("watching a function of another module: no error")
	}
}
