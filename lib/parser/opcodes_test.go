package parser

import (
	"testing"

	"cliff/lib/ir"
)

// TestLookupOpcode checks lookupOpcode against ir.LookupOpcode on every
// opcode name and on words near them: prefixes, extensions, one letter
// changed, other words of CLIF.
func TestLookupOpcode(t *testing.T) {
	words := []string{"", "v1", "i32", "notrap", "function", "block0", "iconst.i32", "IADD", "iadd ", " iadd"}
	for _, op := range ir.Opcodes() {
		name := op.Info().Name
		words = append(words, name, name[:len(name)-1], name+"x", name+"_imm", "x"+name, name[1:])
		for i := range len(name) {
			words = append(words, name[:i]+"_"+name[i+1:])
		}
	}
	for _, w := range words {
		gotOp, gotOK := lookupOpcode(w)
		wantOp, wantOK := ir.LookupOpcode(w)
		if gotOp != wantOp || gotOK != wantOK {
			t.Errorf("lookupOpcode(%q) = %v, %v; want %v, %v", w, gotOp, gotOK, wantOp, wantOK)
		}
	}
}

// TestValidCtrl checks validCtrl's bitmaps against TypeSet.Contains for
// every opcode's controlling type set and every type, valid or not.
func TestValidCtrl(t *testing.T) {
	for _, op := range ir.Opcodes() {
		info := op.Info()
		if len(info.TypeVars) == 0 {
			continue
		}
		set := &info.TypeVars[0].Set
		for ty := range ir.Type(1 << 10) {
			if got, want := validCtrl(op, set, ty), set.Contains(ty); got != want {
				t.Errorf("validCtrl(%s, %v) = %v, want %v", op, ty, got, want)
			}
		}
	}
}

// TestFixedResults checks fixedResults against the opcode table: the
// number of results of each opcode without varargs results, -1 for those
// with.
func TestFixedResults(t *testing.T) {
	for _, op := range append(ir.Opcodes(), ir.OpInvalid) {
		want := len(op.Info().Outs)
		for _, out := range op.Info().Outs {
			if out.Kind == ir.OperandVarargs {
				want = -1
			}
		}
		if got := int(fixedResults[op]); got != want {
			t.Errorf("fixedResults[%s] = %d, want %d", op, got, want)
		}
	}
}
