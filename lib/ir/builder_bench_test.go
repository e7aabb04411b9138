package ir_test

import (
	"testing"

	"cliff/lib/ir"
)

// BenchmarkBuilderIns builds a function of 256 instructions of the kinds
// cliff-refine's sink and decoy passes and cliff-gen append (binary
// operations taking their type from an operand, constants, compares),
// into a Builder and Function reused from the last round as the passes
// reuse theirs.
func BenchmarkBuilderIns(b *testing.B) {
	f := ir.NewFunction("%bench", ir.Signature{})
	bld := ir.NewBuilder(f)
	b.ReportAllocs()
	for b.Loop() {
		f.Layout, f.Blocks, f.Insts, f.Values = f.Layout[:0], f.Blocks[:0], f.Insts[:0], f.Values[:0]
		bld.Reset(f)
		blk := bld.CreateBlock()
		x := bld.AppendBlockParam(blk, ir.I64)
		bld.SwitchToBlock(blk)
		for k := range 64 {
			c := bld.Iconst(ir.I64, int64(k))
			y := bld.Ins(ir.OpIadd, ir.Invalid, x, c)
			z := bld.Ins(ir.OpBxor, ir.Invalid, y, x)
			bld.Icmp(ir.IntSlt, z, c)
			x = z
		}
		bld.Recycle()
	}
}
