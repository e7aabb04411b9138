package refine

import (
	"testing"

	"cliff/lib/ir"
)

// convertTypes are the types sink converts from and folds into.
var convertTypes = []ir.Type{ir.I8, ir.I16, ir.I32, ir.I64, ir.I128, ir.F32, ir.F64,
	ir.I8X16, ir.I16X8, ir.I32X4, ir.I64X2, ir.F32X4, ir.F64X2}

// TestAccInsts: accInsts and foldInsts say how many instructions toAcc
// and foldInto append, so that sink makes room for them in one step (a
// wrong count only costs a second growth, which nothing else would catch).
func TestAccInsts(t *testing.T) {
	for _, typ := range convertTypes {
		f := ir.NewFunction("%f", ir.Signature{Params: abi([]ir.Type{typ, accType})})
		b := ir.NewBuilder(f)
		entry := b.CreateBlock()
		b.SwitchToBlock(entry)
		x, acc := b.AppendBlockParam(entry, typ), b.AppendBlockParam(entry, accType)
		if foldable(typ) {
			before := len(f.Insts)
			toAcc(b, x)
			if got, want := len(f.Insts)-before, accInsts(typ); got != want {
				t.Errorf("toAcc of %s appends %d instructions, accInsts says %d", typ, got, want)
			}
		}
		if slotRank(typ) >= 0 {
			before := len(f.Insts)
			foldInto(b, x, acc, true)
			if got, want := len(f.Insts)-before, foldInsts(typ); got != want {
				t.Errorf("foldInto %s appends %d instructions, foldInsts says %d", typ, got, want)
			}
		}
	}
}
