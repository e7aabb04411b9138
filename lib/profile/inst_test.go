package profile_test

import (
	"strings"
	"testing"

	"cliff/lib/ir"
	"cliff/lib/parser"
	"cliff/lib/profile"
)

// TestCheckInst judges whole instructions: the opcode with its controlling
// type, and also the type of the free operand, the condition code and the
// byte order, which the controlling type does not say. Each function's
// last instruction before the return is the one judged.
func TestCheckInst(t *testing.T) {
	known, err := profile.KnownMask()
	if err != nil {
		t.Fatal(err)
	}
	compat := load(t, "compat")
	x86, masked := load(t, "x86_64"), load(t, "x86_64").Without(known)
	tests := []struct {
		name    string
		prof    *profile.Profile
		params  string
		inst    string
		wantErr string // "" when allowed
	}{
		{"plain", compat, "i32, i32", "v2 = iadd v0, v1", ""},
		{"monomorphic", compat, "i64", "v1 = func_addr.i64 fn0", ""},
		{"controlling type out", compat, "i32x4, i32x4", "v2 = iadd.i32x4 v0, v1", ""},
		{"controlling type not in profile", compat, "i128, i128", "v2 = udiv v0, v1", "udiv.i128: not in profile compat"},
		{"fpromote of f32", compat, "f32", "v1 = fpromote.f64 v0", ""},
		{"fpromote of f16", compat, "f16", "v1 = fpromote.f64 v0", "fpromote.f64 of f16: profile compat allows fpromote.f64 only of [f32]"},
		{"fdemote of f128", compat, "f128", "v1 = fdemote.f32 v0", "fdemote.f32 of f128"},
		{"fpromote of f16 on x86_64", x86, "f16", "v1 = fpromote.f64 v0", ""},
		{"fpromote of f16 on x86_64 masked", masked, "f16", "v1 = fpromote.f64 v0", "fpromote.f64 of f16: profile x86_64 allows fpromote.f64 only of [f32]"},
		{"uextend source", compat, "i32", "v1 = uextend.i64 v0", ""},
		{"select condition", x86, "i128, i64, i64", "v3 = select v0, v1, v2", ""},
		{"select.i128 of a param", masked, "i8, i128, i128", "v3 = select v0, v1, v2", ""},
		{"masked select.i128 of an icmp", masked, "i128, i128", "v2 = icmp ult v0, v1\n    v3 = select v2, v0, v1", "select.i128 matches the mask entry `select i128 x86_64 c=icmp`"},
		{"masked select.i128 of an extended icmp", masked, "i128, i128", "v2 = icmp ult v0, v1\n    v4 = uextend.i32 v2\n    v3 = select v4, v0, v1", "select.i128 matches the mask entry `select i128 x86_64 c=uextend(icmp)`"},
		{"select.i64 of an icmp", masked, "i64, i64", "v2 = icmp ult v0, v1\n    v3 = select v2, v0, v1", ""},
		{"shift amount", compat, "i64, i8", "v2 = ishl v0, v1", ""},
		{"condition code", compat, "f64x2, f64x2", "v2 = fcmp ueq v0, v1", "fcmp.f64x2 ueq: profile compat allows only"},
		{"allowed condition code", compat, "f64x2, f64x2", "v2 = fcmp eq v0, v1", ""},
		{"big-endian load", compat, "i64", "v1 = load.i32 notrap big v0", "load.i32: profile compat does not allow byte order big"},
		{"little-endian load", compat, "i64", "v1 = load.i32 notrap little v0", ""},
		{"big-endian load on s390x", load(t, "s390x"), "i64", "v1 = load.i32 notrap big v0", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "function %f(" + tt.params + ") {\n    sig0 = () system_v\n    fn0 = %g sig0\nblock0(" + blockParams(tt.params) + "):\n    " + tt.inst + "\n    return\n}\n"
			mod, err := parser.ParseModuleString("t.clif", src)
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			f := mod.Funcs[0]
			insts := f.Blocks[f.Layout[0]].Insts
			err = tt.prof.CheckInst(f, &f.Insts[insts[len(insts)-2]])
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("%s: %v", tt.inst, err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("%s: error %v, want %q", tt.inst, err, tt.wantErr)
			}
		})
	}
}

// blockParams names the types of a param list v0, v1, ...
func blockParams(types string) string {
	var out []string
	for i, t := range strings.Split(types, ", ") {
		out = append(out, "v"+string(rune('0'+i))+": "+t)
	}
	return strings.Join(out, ", ")
}

// TestFreeOperandIsWhatProfilesList: an opcode the profiles list free
// types for has a free operand, and one with a free operand has them
// listed, so that AllowsTypes checks what FreeTypes says.
func TestFreeOperandIsWhatProfilesList(t *testing.T) {
	for _, name := range allNames {
		p := load(t, name)
		for _, op := range p.Opcodes() {
			for _, ctrl := range p.Types(op) {
				listed := p.FreeTypes(op, ctrl) != nil
				if has := profile.FreeOperand(op) >= 0; has != listed {
					t.Errorf("%s: %s.%s: free types listed %v, FreeOperand %d", name, op, ctrl, listed, profile.FreeOperand(op))
				}
			}
		}
	}
	for op, want := range map[string]int{"fpromote": 0, "uextend": 0, "ireduce": 0, "select": 0, "ishl": 1, "bitcast": 0, "load": -1, "iadd": -1, "store": -1, "fcvt_from_sint": 0} {
		if got := profile.FreeOperand(opc(t, op)); got != want {
			t.Errorf("FreeOperand(%s) = %d, want %d", op, got, want)
		}
	}
	if profile.FreeOperand(ir.Opcode(60000)) != -1 {
		t.Errorf("FreeOperand of an unknown opcode is not -1")
	}
}
