package gen

import (
	"reflect"
	"testing"

	"cliff/lib/ir"
	"cliff/lib/printer"
)

// TestBranchesAsBuilderMakesThem: the branches built with lists from the
// arena (jump, brif) are the instructions ir.Builder's Jump and Brif make,
// with and without block args.
func TestBranchesAsBuilderMakesThem(t *testing.T) {
	g := newGen(t, "compat", 0, nil)
	type branches struct {
		jump func(dest ir.Block, args ...ir.Value)
		brif func(c ir.Value, then ir.Block, thenArgs []ir.Value, els ir.Block, elsArgs []ir.Value)
	}
	build := func(use func(fg *funcGen) branches) *ir.Function {
		fg := &funcGen{c: newCaseGen(g, 1), f: ir.NewFunction("%f", ir.Signature{})}
		fg.b = ir.NewBuilder(fg.f)
		br := use(fg)
		entry, a, b := fg.newBlock(), fg.newBlock(), fg.newBlock()
		fg.b.SwitchToBlock(entry)
		x := fg.b.Iconst(ir.I32, 7)
		y := fg.b.Iconst(ir.I64, -1)
		br.brif(x, a, nil, b, []ir.Value{x, y})
		fg.b.SwitchToBlock(a)
		br.jump(b, y, x)
		fg.b.SwitchToBlock(b)
		fg.b.AppendBlockParam(b, ir.I32)
		fg.b.AppendBlockParam(b, ir.I64)
		br.brif(x, a, []ir.Value{}, entry, nil)
		fg.b.SwitchToBlock(entry)
		br.jump(a)
		return fg.f
	}
	want := build(func(fg *funcGen) branches {
		return branches{
			jump: func(dest ir.Block, args ...ir.Value) { fg.b.Jump(dest, args...) },
			brif: func(c ir.Value, then ir.Block, ta []ir.Value, els ir.Block, ea []ir.Value) {
				fg.b.Brif(c, then, ta, els, ea)
			},
		}
	})
	got := build(func(fg *funcGen) branches {
		return branches{
			jump: func(dest ir.Block, args ...ir.Value) { fg.jump(dest, args...) },
			brif: func(c ir.Value, then ir.Block, ta []ir.Value, els ir.Block, ea []ir.Value) {
				fg.brif(c, then, ta, els, ea)
			},
		}
	})
	if !reflect.DeepEqual(got.Insts, want.Insts) {
		t.Errorf("branches from the arena:\n%s\nir.Builder's:\n%s", printer.FunctionString(got), printer.FunctionString(want))
	}
}
