package census

import (
	"strings"
	"testing"

	"cliff/lib/ir"
	"cliff/lib/profile"
	"cliff/lib/profile/universe"
)

func TestKnownOrNew(t *testing.T) {
	k, err := LoadKnowledge()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		arch  string // "ARCH" (its default set) or "ARCH SET"
		combo universe.Combo
		f     Finding
		want  string // a part of one ref; "" when new
	}{
		{"a clean refusal of what the flag set lacks (a needs line of facts.txt)", "x86_64 sse2", universe.Combo{Op: ir.OpX86Pshufb, Ctrl: ir.I8X16},
			Finding{Class: ClassUnlowered, Detail: "error: Unsupported feature: should be implemented in ISLE: x86_pshufb.i8x16"}, "facts.txt: x86_64 lowers x86_pshufb only with has_ssse3"},
		{"new: a panic on what the flag set lacks is not excused by facts.txt", "x86_64 sse2", universe.Combo{Op: ir.OpX86Pshufb, Ctrl: ir.I8X16},
			Finding{Class: ClassPanic, Detail: "panic: something @ cranelift-codegen/src/isa/x64/lower.isle:1"}, ""},
		{"riscv64 without V: vector types panic (finding 32's claim)", "riscv64 base", universe.Combo{Op: ir.OpIadd, Ctrl: ir.I32X4},
			Finding{Class: ClassPanic, Detail: "panic: internal error: entered unreachable code @ cranelift-codegen/src/isa/riscv64/inst/args.rs:1283"}, "findings/32-riscv64-vectors-without-v-panic.clif"},
		{"new: finding 32 claims no row of a set with V", "riscv64 v", universe.Combo{Op: ir.OpIadd, Ctrl: ir.I32X4},
			Finding{Class: ClassWrong, Detail: "i32x4 one lane value"}, ""},
		{"fuzzgen's x86_64 exception (facts.txt [upstream])", "x86_64", universe.Combo{Op: ir.OpFcvtToUint, Ctrl: ir.I8, Free: ir.F64},
			Finding{Class: ClassPanic, Detail: "panic: internal error: entered unreachable code @ cranelift-codegen/src/isa/x64/inst/emit.rs:1265"}, "facts.txt:139 [upstream]"},
		{"a missing lowering facts.txt lists ([unlowered])", "aarch64", universe.Combo{Op: ir.OpUaddOverflowCin, Ctrl: ir.I64},
			Finding{Class: ClassUnlowered, Detail: "error: Unsupported feature: should be implemented in ISLE: uadd_overflow_cin.i64"}, "[unlowered] no backend has a rule"},
		{"a known.mask entry", "x86_64", universe.Combo{Op: ir.OpScalarToVector, Ctrl: ir.I8X16, Free: ir.I8},
			Finding{Class: ClassPanic, Detail: "panic: internal error: entered unreachable code: no rule matched for term bitcast_gpr_to_xmm @ src/isa/x64/inst.isle:4232"}, "known.mask: scalar_to_vector i8x16 x86_64"},
		{"a finding that quotes the panic site", "aarch64", universe.Combo{Op: ir.OpIneg, Ctrl: ir.Vector(ir.I8, 8)},
			Finding{Class: ClassPanic, Detail: "panic: assertion `left == right` failed left: Float right: Int @ cranelift-codegen/src/isa/aarch64/inst/emit.rs:98"}, "findings/04-aarch64-ineg-64bit-vectors.clif"},
		{"a combination that breaks a shape rule ([semantics])", "x86_64", universe.Combo{Op: ir.OpFcvtFromUint, Ctrl: ir.F32X4, Free: ir.I32},
			Finding{Class: ClassPanic, Detail: "panic: cannot construct Xmm from register vN with register class Int @ cranelift-codegen/src/isa/x64/inst/args.rs:369"}, "[semantics]"},
		{"new: a profile combination that panics elsewhere", "s390x", universe.Combo{Op: ir.OpIadd, Ctrl: ir.I32},
			Finding{Class: ClassPanic, Detail: "panic: something @ cranelift-codegen/src/isa/s390x/inst/emit.rs:1"}, ""},
		{"new: a wrong answer the profile allows", "riscv64", universe.Combo{Op: ir.OpIadd, Ctrl: ir.I64},
			Finding{Class: ClassWrong, Detail: "i64 value"}, ""},
		{"the QEMU finding is known", "riscv64", universe.Combo{Op: ir.OpCtz, Ctrl: ir.I32},
			Finding{Class: ClassQemu, Detail: "i32 value"}, "known.mask: ctz i32 riscv64"},
		{"a wrong value is not known from a QEMU finding of the same combination", "riscv64", universe.Combo{Op: ir.OpFcvtToSintSat, Ctrl: ir.I32X4, Free: ir.F32X4},
			Finding{Class: ClassWrong, Detail: "i32x4 one lane value"}, ""},
		{"an interpreter finding's census claim (finding 25)", "riscv64", universe.Combo{Op: ir.OpBitcast, Ctrl: ir.Vector(ir.I8, 2), Free: ir.I16},
			Finding{Class: ClassWrong, Detail: "i8x2 one lane value"}, "findings/25-interp-bitcast-int-to-vector.clif"},
		{"an interpreter finding's census claim on one target (finding 26)", "s390x", universe.Combo{Op: ir.OpFcmp, Ctrl: ir.F128, Imm: "eq"},
			Finding{Class: ClassWrong, Detail: "i8 value"}, "findings/26-interp-fcmp-f128.clif"},
		{"finding 24's entry, for its free type", "riscv64", universe.Combo{Op: ir.OpFcvtToSintSat, Ctrl: ir.Vector(ir.I16, 2), Free: ir.Vector(ir.F32, 2)},
			Finding{Class: ClassWrong, Detail: "i16x2 one lane value"}, "known.mask: fcvt_to_sint_sat i16x2:f32x2 riscv64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			arch, set, _ := strings.Cut(tt.arch, " ")
			if set == "" {
				set = "default"
			}
			refs := k.Refs(Target{arch, set}, tt.combo, tt.f)
			if tt.want == "" {
				if len(refs) > 0 {
					t.Errorf("refs %v, want none (new)", refs)
				}
				return
			}
			if !strings.Contains(strings.Join(refs, "\n"), tt.want) {
				t.Errorf("refs %v, want one with %q", refs, tt.want)
			}
		})
	}
}

// TestCensusClaimsKeepToTheirTarget: finding 26 claims s390x's fcmp.f128
// rows, not another target's.
func TestCensusClaimsKeepToTheirTarget(t *testing.T) {
	k, err := LoadKnowledge()
	if err != nil {
		t.Fatal(err)
	}
	refs := k.Refs(Target{"x86_64", "default"}, universe.Combo{Op: ir.OpFcmp, Ctrl: ir.F128, Imm: "eq"}, Finding{Class: ClassWrong, Detail: "i8 value"})
	if strings.Contains(strings.Join(refs, "\n"), "findings/26") {
		t.Errorf("x86_64's fcmp.f128.eq is known from %v, want not from finding 26 (an s390x claim)", refs)
	}
}

// TestCensusClaimsOfPulley: a claim may name a Pulley target (finding 40
// claims pulley64's band.f32), and keeps to it.
func TestCensusClaimsOfPulley(t *testing.T) {
	k, err := LoadKnowledge()
	if err != nil {
		t.Fatal(err)
	}
	c := universe.Combo{Op: ir.OpBand, Ctrl: ir.F32}
	f := Finding{Class: ClassPanic, Detail: "panic: called `Option::unwrap()` on a `None` value"}
	if refs := k.Refs(Target{"pulley64", "default"}, c, f); !strings.Contains(strings.Join(refs, "\n"), "findings/40") {
		t.Errorf("pulley64's band.f32 is known from %v, want from finding 40", refs)
	}
	if refs := k.Refs(Target{"x86_64", "default"}, c, f); strings.Contains(strings.Join(refs, "\n"), "findings/40") {
		t.Errorf("x86_64's band.f32 is known from %v, want not from finding 40 (a Pulley claim)", refs)
	}
}

// TestCensusClaimErrors: a malformed "; Census:" line is an error that
// names the finding and the line.
func TestCensusClaimErrors(t *testing.T) {
	for _, tt := range []struct{ header, want string }{
		{"; Finding 99\n; Census: mips bitcast.*\n", "findings/99.clif:2: want"},
		{"; Census: s390x\n", "findings/99.clif:1: want"},
		{"; Census: * bitcast.[\n", `pattern "bitcast.["`},
		{"; Census: riscv64() iadd.*\n", "findings/99.clif:1: want"},
	} {
		_, err := parseCensusClaims(profile.FindingHeader{Name: "99.clif", Header: tt.header})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want one with %q", tt.header, err, tt.want)
		}
	}
}

func TestQemuKnown(t *testing.T) {
	k, err := LoadKnowledge()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		arch  string
		combo universe.Combo
		want  bool
	}{
		{"riscv64", universe.Combo{Op: ir.OpCtz, Ctrl: ir.I32}, true},
		{"s390x", universe.Combo{Op: ir.OpAtomicCas, Ctrl: ir.I8}, true},
		{"riscv64", universe.Combo{Op: ir.OpTrunc, Ctrl: ir.F32X4}, true},
		{"x86_64", universe.Combo{Op: ir.OpCtz, Ctrl: ir.I32}, false},
		{"aarch64", universe.Combo{Op: ir.OpFpromote, Ctrl: ir.F64, Free: ir.F16}, false}, // Cranelift's, though the paragraph mentions QEMU
		{"x86_64", universe.Combo{Op: ir.OpScalarToVector, Ctrl: ir.I8X16, Free: ir.I8}, false},
	}
	for _, tt := range tests {
		if got := k.QemuKnown(tt.arch, tt.combo); got != tt.want {
			t.Errorf("QemuKnown(%s, %s) = %v, want %v", tt.arch, universe.Key(tt.combo), got, tt.want)
		}
	}
}
