package gen

import (
	"fmt"
	"testing"

	"cliff/lib/canon"
	"cliff/lib/ir"
	"cliff/lib/profile/universe"
	"cliff/lib/refinterp"
	"cliff/lib/verify"
)

// TestCensusConstCaseMatchesParamForm: the constant form's output for
// tuple i is the parameter form's for input vector i, in cliff's own
// interpreter (which folds nothing): the constant form is the same
// computation, so a census difference between the forms is Cranelift's.
func TestCensusConstCaseMatchesParamForm(t *testing.T) {
	for _, c := range []universe.Combo{
		{Op: ir.OpFadd, Ctrl: ir.F32},
		{Op: ir.OpFmin, Ctrl: ir.F64X2},
		{Op: ir.OpFdemote, Ctrl: ir.F32, Free: ir.F64},
		{Op: ir.OpIadd, Ctrl: ir.I128},
		{Op: ir.OpSdiv, Ctrl: ir.I16},
		{Op: ir.OpFcvtToSint, Ctrl: ir.I32, Free: ir.F64},
		{Op: ir.OpIcmp, Ctrl: ir.I8X16, Imm: "slt"},
		{Op: ir.OpFcmp, Ctrl: ir.F16, Imm: "uno"},
		{Op: ir.OpBitselect, Ctrl: ir.I32X4},
	} {
		key := universe.Key(c)
		t.Run(key, func(t *testing.T) {
			prec, pmod, ok := CensusCase(c, 1, nil, ir.I64)
			if !ok {
				t.Fatal("no parameter form")
			}
			crec, cmod, ok := CensusConstCase(c, 1, nil, ir.I64)
			if !ok {
				t.Fatal("no constant form")
			}
			if errs := verify.Module(cmod); len(errs) > 0 {
				t.Fatalf("%v\n%s", errs, crec.CLIF)
			}
			if k, ok := CensusKey(crec.ID); !ok || k != key || !CensusConstantForm(crec.ID) || CensusConstantForm(prec.ID) {
				t.Fatalf("ID %q: key %q (%v), want %q in constant form", crec.ID, k, ok, key)
			}
			if len(crec.Inputs) != len(prec.Inputs) {
				t.Fatalf("%d tuples, %d input vectors", len(crec.Inputs), len(prec.Inputs))
			}
			pin, cin := refinterp.New(pmod, refinterp.DefaultLimits), refinterp.New(cmod, refinterp.DefaultLimits)
			vectors := censusVectors(c, pmod.Funcs[0].Sig.Params, derive(1, tag("census "+key)))
			for i, vec := range vectors {
				var args []ir.DataValue
				for k, p := range pmod.Funcs[0].Sig.Params {
					args = append(args, ir.DataValue{Type: p.Type, Bytes: vec[k]})
				}
				want, err := pin.Call("%main", args)
				if err != nil {
					t.Fatal(err)
				}
				got, err := cin.Call("%main", []ir.DataValue{{Type: ir.I32, Bytes: []byte{byte(i), 0, 0, 0}}})
				if err != nil {
					t.Fatal(err)
				}
				if g, w := fmt.Sprint(got.Trap, canon.Text(canon.Values(got.Results))), fmt.Sprint(want.Trap, canon.Text(canon.Values(want.Results))); g != w {
					t.Fatalf("tuple %d: constant form %s, parameter form %s", i, g, w)
				}
			}
		})
	}
}
