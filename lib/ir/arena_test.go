package ir_test

import (
	"reflect"
	"slices"
	"testing"

	"cliff/lib/ir"
	"cliff/lib/printer"
)

// TestValueArenaRecycle: lists taken between two Recycles never overlap,
// and they read what was written, not old values; once the arena has seen
// a round, the next round of the same size allocates nothing.
func TestValueArenaRecycle(t *testing.T) {
	var a ir.ValueArena
	sizes := []int{3, 300, 1, 0, 40, 255, 2}
	round := func(r int) {
		a.Reserve(10)
		var lists [][]ir.Value
		for k, n := range sizes {
			l := a.Take(n)
			if len(l) != 0 || cap(l) != n {
				t.Fatalf("round %d: Take(%d) has len %d cap %d", r, n, len(l), cap(l))
			}
			for i := range n {
				l = append(l, ir.Value(1000*r+100*k+i))
			}
			lists = append(lists, l)
		}
		for k, l := range lists {
			for i, v := range l {
				if want := ir.Value(1000*r + 100*k + i); v != want {
					t.Fatalf("round %d: list %d[%d] = %d, want %d: lists overlap", r, k, i, v, want)
				}
			}
		}
		a.Recycle()
	}
	for r := range 3 {
		round(r)
	}
	if n := testing.AllocsPerRun(5, func() {
		var lists [8][]ir.Value // what round does, without its checks
		a.Reserve(10)
		for k, n := range sizes {
			lists[k] = a.Take(n)
		}
		a.Recycle()
	}); n != 0 {
		t.Errorf("a recycled round allocated %v times, want 0", n)
	}
}

// TestBuilderReset: a Builder reset onto a function builds what a new one
// does, and one recycled after its functions are dropped too.
func TestBuilderReset(t *testing.T) {
	build := func(b *ir.Builder, f *ir.Function) {
		blk := b.CreateBlock()
		x := b.AppendBlockParam(blk, ir.I64)
		b.SwitchToBlock(blk)
		y := b.Ins(ir.OpIadd, ir.Invalid, x, b.Iconst(ir.I64, 1))
		c := b.Icmp(ir.IntSlt, x, y)
		next := b.CreateBlock()
		b.Brif(c, next, []ir.Value{y}, next, []ir.Value{x})
		z := b.AppendBlockParam(next, ir.I64)
		b.SwitchToBlock(next)
		b.Return(b.Ins(ir.OpImul, ir.Invalid, z, z))
	}
	sig := ir.Signature{Params: []ir.AbiParam{{Type: ir.I64}}, Returns: []ir.AbiParam{{Type: ir.I64}}}
	want := ir.NewFunction("%f", sig)
	build(ir.NewBuilder(want), want)

	var b ir.Builder
	var kept []*ir.Function
	for round := range 3 {
		for range 4 {
			f := ir.NewFunction("%f", sig)
			b.Reset(f)
			build(&b, f)
			kept = append(kept, f)
		}
		for i, f := range kept {
			checkConsistent(t, f)
			if !reflect.DeepEqual(f, want) {
				t.Fatalf("round %d, function %d built after Reset:\n%s\nwant:\n%s", round, i,
					printer.Options{}.FunctionString(f), printer.Options{}.FunctionString(want))
			}
		}
		kept = slices.Delete(kept, 0, len(kept))
		b.Recycle()
	}
}
