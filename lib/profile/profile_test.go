package profile_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cliff/lib/arch"
	"cliff/lib/ir"
	"cliff/lib/profile"
)

func load(t testing.TB, name string) *profile.Profile {
	t.Helper()
	p, err := profile.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func typ(t testing.TB, s string) ir.Type {
	t.Helper()
	if s == "-" {
		return ir.Invalid
	}
	ty, ok := ir.ParseType(s)
	if !ok {
		t.Fatalf("bad type %q", s)
	}
	return ty
}

func opc(t testing.TB, s string) ir.Opcode {
	t.Helper()
	op, ok := ir.LookupOpcode(s)
	if !ok {
		t.Fatalf("bad opcode %q", s)
	}
	return op
}

var allNames = append(slices.Clone(profile.Arches), profile.CompatName)

func TestLoad(t *testing.T) {
	for _, name := range allNames {
		t.Run(name, func(t *testing.T) {
			p := load(t, name)
			if p.Name != name {
				t.Errorf("Name = %q", p.Name)
			}
			wantArches := []string{name}
			if name == profile.CompatName {
				wantArches = profile.CompatArches
			}
			if !slices.Equal(p.Arches, wantArches) {
				t.Errorf("Arches = %v, want %v", p.Arches, wantArches)
			}
			// Every profile can build a case: integers, calls, a return.
			for _, must := range []string{"iadd i32", "icmp i64", "brif i8", "load i64", "store i8", "stack_addr " + p.Pointer.String(), "call -", "return -", "iconst i32"} {
				f := strings.Fields(must)
				if !p.Allows(opc(t, f[0]), typ(t, f[1])) {
					t.Errorf("does not allow %s", must)
				}
			}
			if p.Count() < 400 || len(p.CallConvs) == 0 || len(p.ABITypes) == 0 {
				t.Errorf("suspiciously small: %d combos, %d callconvs, %d abi types", p.Count(), len(p.CallConvs), len(p.ABITypes))
			}
			if !p.AllowsCallConv(ir.CallConvSystemV) || !p.AllowsByteOrder(ir.EndianLittle) {
				t.Errorf("system_v or little-endian memory flags not allowed")
			}
		})
	}
	if _, err := profile.Load("mips"); err == nil || !strings.Contains(err.Error(), "mips") {
		t.Errorf("Load(mips) error = %v", err)
	}
}

// TestCompatIsIntersection checks that compat allows nothing some target
// rejects, and needs every setting some target needs.
func TestCompatIsIntersection(t *testing.T) {
	compat := load(t, profile.CompatName)
	for _, arch := range profile.CompatArches {
		p := load(t, arch)
		for _, op := range compat.Opcodes() {
			for _, ctrl := range compat.Types(op) {
				if !p.Allows(op, ctrl) {
					t.Errorf("compat allows %s %s, %s does not", op, ctrl, arch)
				}
				for _, free := range compat.FreeTypes(op, ctrl) {
					if !p.AllowsFree(op, ctrl, free) {
						t.Errorf("compat allows %s %s:%s, %s does not", op, ctrl, free, arch)
					}
				}
				for _, imm := range compat.Imms(op, ctrl) {
					if !p.AllowsImm(op, ctrl, imm) {
						t.Errorf("compat allows %s %s %s, %s does not", op, ctrl, imm, arch)
					}
				}
			}
		}
		for _, cc := range compat.CallConvs {
			if !p.AllowsCallConv(cc) {
				t.Errorf("compat allows callconv %s, %s does not", cc, arch)
			}
		}
		for _, ty := range compat.ABITypes {
			if !p.AllowsABIType(ty) {
				t.Errorf("compat allows abi type %s, %s does not", ty, arch)
			}
		}
		for _, s := range p.Settings {
			if !slices.Contains(compat.Settings, s) {
				t.Errorf("%s needs setting %s, compat does not have it", arch, s)
			}
		}
		if compat.Count() >= p.Count() {
			t.Errorf("compat has %d combos, %s only %d", compat.Count(), arch, p.Count())
		}
	}
}

// TestKnownFacts checks facts that profiles must reflect, one per target
// peculiarity; "want" lists the profiles that allow the combination.
func TestKnownFacts(t *testing.T) {
	all := "x86_64 aarch64 riscv64 s390x compat"
	allp := all + " pulley32 pulley64" // and Pulley
	tests := []struct {
		op, ctrl, free string
		want           string
	}{
		{"iadd", "i128", "", allp},
		{"imul", "i128", "", allp},
		{"icmp", "i128", "", allp},
		{"select", "i128", "i8", all},     // Pulley has no 128-bit select
		{"udiv", "i128", "", ""},          // 128-bit division: no backend
		{"x86_pshufb", "-", "", "x86_64"}, // x86-only opcodes
		{"x86_pmulhrsw", "i16x8", "", "x86_64"},
		{"blendv", "i8x16", "", "x86_64"}, // s390x needs vxrs_ext3
		{"iadd", "i8x16", "", allp},
		{"iadd", "i8x8", "", "aarch64 riscv64"}, // 64-bit vectors
		{"iadd", "i8x4", "", "riscv64"},         // 32-bit vectors: RVV only
		{"iadd", "i32x8", "", ""},               // nothing wider than 128 bits
		{"fadd", "f32x4", "", allp},
		{"fadd", "f128", "", "s390x"}, // f128 arithmetic: s390x only
		{"fadd", "f16", "", ""},       // f16 arithmetic: nowhere
		{"load", "f16", "", all},      // but f16 loads everywhere but Pulley
		{"f128const", "-", "", all},
		{"fcvt_from_sint", "f64", "i64", allp},
		{"fcvt_from_sint", "f64", "i128", ""}, // i128 conversions: nowhere
		{"fcvt_to_sint_sat", "i8", "f32", "aarch64 riscv64 s390x"},
		{"uadd_overflow", "i32", "", allp},
		{"sadd_overflow", "i32", "", "x86_64 aarch64 s390x"}, // riscv64 lacks it
		{"uadd_overflow_cin", "i32", "", ""},
		{"smin", "i128", "", "riscv64 s390x"},
		{"popcnt", "i32x4", "", "riscv64 s390x"},
		{"rotl", "i32x4", "i8", "s390x"},
		{"atomic_rmw", "i64", "", all}, // Pulley lowers no atomics
		{"atomic_rmw", "i128", "", ""},
		{"stack_addr", "i64", "", all + " pulley64"},
		{"stack_addr", "i32", "", "pulley32"},        // pointers are 64-bit but on pulley32
		{"fpromote", "f64", "f16", "x86_64 aarch64"}, // a finding: kept and masked
		{"ineg", "i8x8", "", "aarch64 riscv64"},      // a finding on aarch64: kept and masked
		{"swiden_low", "i32x2", "", ""},              // would widen to a scalar
		{"bitcast", "i64", "f64", allp},
		{"bitcast", "i64", "i32", ""}, // widths differ
		{"trap", "-", "", allp},
		{"debugtrap", "-", "", ""},
		{"dynamic_stack_addr", "i64", "", ""},
		{"sequence_point", "-", "", allp},
		{"band", "f32", "", all},    // Pulley panics on it (a finding)
		{"rotl", "i32", "i8", allp}, // Pulley rotates i32 and i64
		{"rotl", "i8", "i8", all},   // but nothing narrower
		{"fcvt_to_sint", "i8", "f32", "aarch64 riscv64 s390x"},
		{"vhigh_bits", "i16", "i8x16", all + " pulley32 pulley64"},
	}
	for _, tt := range tests {
		op, ctrl, free := opc(t, tt.op), typ(t, tt.ctrl), ir.Invalid
		if tt.free != "" {
			free = typ(t, tt.free)
		}
		for _, name := range allNames {
			p := load(t, name)
			want := slices.Contains(strings.Fields(tt.want), name)
			var got bool
			if tt.free == "" {
				got = p.Allows(op, ctrl)
			} else {
				got = p.AllowsFree(op, ctrl, free)
			}
			if got != want {
				t.Errorf("%s allows %s %s%s = %v, want %v", name, tt.op, tt.ctrl, map[bool]string{true: ":" + tt.free}[tt.free != ""], got, want)
			}
		}
	}
}

func TestTargetSettingsAndABI(t *testing.T) {
	tests := []struct {
		name        string
		settings    []string
		callConvs   string // must have
		noCallConvs string // must not have
		abi         string
		noABI       string
		big         bool
	}{
		{"x86_64", []string{"enable_llvm_abi_extensions=true", "preserve_frame_pointers=true", "enable_multi_ret_implicit_sret=true"},
			"fast tail system_v windows_fastcall preserve_all", "apple_aarch64 probestack", "i128 f128 i8x16", "i8x8", false},
		{"aarch64", []string{"enable_multi_ret_implicit_sret=true"}, "apple_aarch64 tail", "windows_fastcall", "i128 i8x8", "i8x4", false},
		{"riscv64", []string{"enable_multi_ret_implicit_sret=true"}, "fast tail system_v", "winch apple_aarch64", "i8x4 f16", "f16x8", false},
		{"s390x", []string{"enable_multi_ret_implicit_sret=true"}, "fast tail system_v", "winch windows_fastcall", "i128 f128 i64x2", "i8x8", true},
		{"compat", []string{"enable_llvm_abi_extensions=true", "preserve_frame_pointers=true", "enable_multi_ret_implicit_sret=true"},
			"fast tail system_v preserve_all", "winch windows_fastcall apple_aarch64", "i128 f128 f16 i8x16 f64x2", "i8x8", false},
	}
	for _, tt := range tests {
		p := load(t, tt.name)
		for _, s := range tt.settings {
			if !slices.Contains(p.Settings, s) {
				t.Errorf("%s: Settings %v lack %s", tt.name, p.Settings, s)
			}
		}
		for _, cc := range strings.Fields(tt.callConvs) {
			if !p.AllowsCallConv(ir.CallConv(cc)) {
				t.Errorf("%s: callconv %s not allowed", tt.name, cc)
			}
		}
		for _, cc := range strings.Fields(tt.noCallConvs) {
			if p.AllowsCallConv(ir.CallConv(cc)) {
				t.Errorf("%s: callconv %s allowed", tt.name, cc)
			}
		}
		for _, ty := range strings.Fields(tt.abi) {
			if !p.AllowsABIType(typ(t, ty)) {
				t.Errorf("%s: abi type %s not allowed", tt.name, ty)
			}
		}
		for _, ty := range strings.Fields(tt.noABI) {
			if p.AllowsABIType(typ(t, ty)) {
				t.Errorf("%s: abi type %s allowed", tt.name, ty)
			}
		}
		if got := p.AllowsByteOrder(ir.EndianBig); got != tt.big {
			t.Errorf("%s: big-endian flags allowed = %v, want %v", tt.name, got, tt.big)
		}
	}
}

func TestImmediates(t *testing.T) {
	fcmp := opc(t, "fcmp")
	tests := []struct {
		name, ctrl, imm string
		want            bool
	}{
		{"x86_64", "f32x4", "eq", true},
		{"x86_64", "f32x4", "ueq", false}, // not lowered for vectors
		{"x86_64", "f32", "ueq", true},
		{"aarch64", "f64x2", "ult", false}, // issue 4850
		{"aarch64", "f64", "ult", true},
		{"riscv64", "f64x2", "ult", true},
		{"compat", "f32x4", "one", false},
		{"compat", "f32x4", "lt", true},
	}
	for _, tt := range tests {
		p := load(t, tt.name)
		ctrl := typ(t, tt.ctrl)
		if got := p.AllowsImm(fcmp, ctrl, tt.imm); got != tt.want {
			t.Errorf("%s: fcmp %s %s allowed = %v, want %v", tt.name, tt.imm, tt.ctrl, got, tt.want)
		}
		if imms := p.Imms(fcmp, ctrl); imms != nil && slices.Contains(imms, tt.imm) != tt.want {
			t.Errorf("%s: Imms(fcmp, %s) = %v disagrees with AllowsImm", tt.name, tt.ctrl, imms)
		}
	}
	// Unrestricted immediates: Imms says nil, AllowsImm says yes.
	p := load(t, "x86_64")
	if imms := p.Imms(opc(t, "icmp"), ir.I32); imms != nil {
		t.Errorf("Imms(icmp, i32) = %v, want nil", imms)
	}
}

func TestTypesAndOpcodesAgreeWithAllows(t *testing.T) {
	for _, name := range allNames {
		p := load(t, name)
		ops := p.Opcodes()
		if !slices.IsSorted(ops) {
			t.Errorf("%s: Opcodes not in table order", name)
		}
		count := 0
		for _, op := range ir.Opcodes() {
			types := p.Types(op)
			if slices.Contains(ops, op) != (len(types) > 0) {
				t.Errorf("%s: %s in Opcodes = %v but Types = %v", name, op, slices.Contains(ops, op), types)
			}
			if !slices.IsSorted(types) {
				t.Errorf("%s: Types(%s) = %v not in order", name, op, types)
			}
			for _, ty := range types {
				count++
				if !p.Allows(op, ty) {
					t.Errorf("%s: Types(%s) has %s, Allows says no", name, op, ty)
				}
				if op.Info().Polymorphic == (ty == ir.Invalid) {
					t.Errorf("%s: %s listed with controlling type %s", name, op, ty)
				}
				if frees := p.FreeTypes(op, ty); frees != nil && !p.AllowsFree(op, ty, frees[0]) {
					t.Errorf("%s: FreeTypes(%s, %s) has %s, AllowsFree says no", name, op, ty, frees[0])
				}
			}
		}
		if count != p.Count() {
			t.Errorf("%s: Count = %d, Types list %d", name, p.Count(), count)
		}
		if p.Allows(opc(t, "iadd"), ir.DynamicOf(ir.I32X4)) {
			t.Errorf("%s allows a dynamic vector", name)
		}
	}
}

func TestCrashOnly(t *testing.T) {
	p := load(t, "compat")
	for _, name := range []string{"trap", "trapz", "trapnz", "uadd_overflow_trap"} {
		if !p.CrashOnly(opc(t, name)) {
			t.Errorf("%s is not crash-only", name)
		}
	}
	for _, name := range []string{"udiv", "fcvt_to_sint", "iadd"} {
		if p.CrashOnly(opc(t, name)) {
			t.Errorf("%s is crash-only", name)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"op iadd i32\n", "p.txt:1: want `arch NAME` first"},
		{"arch x\nfoo bar\n", "p.txt:2: unknown directive \"foo\""},
		{"arch x\nop nosuchop\n", "p.txt:2: unknown opcode"},
		{"arch x\n\nop iadd f32\n", "p.txt:3: iadd cannot have controlling type f32"},
		{"arch x\nop iadd\n", "p.txt:2: iadd is polymorphic"},
		{"arch x\nop nop i32\n", "p.txt:2: nop is monomorphic"},
		{"arch x\nop select i32 with\n", "p.txt:2: select i32 with: no free types"},
		{"arch x\nop select i32 with i8\nop select i64\n", "p.txt:3: select: mixes lines"},
		{"arch x\ncallconv fastest\n", "p.txt:2: unknown calling convention"},
		{"arch x\nsetting opt_level\n", "p.txt:2: setting \"opt_level\": want NAME=VALUE"},
		{"arch x\nimm fcmp f32 eq\n", "p.txt:2: imm for fcmp f32, which no `op` line allows"},
		{"arch x\nbyteorder middle\n", "p.txt:2: byte order \"middle\""},
		{"# nothing\n", "p.txt: no `arch` line"},
	}
	for _, tt := range tests {
		_, err := profile.Parse("p.txt", []byte(tt.src))
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("Parse(%q) error = %v, want prefix %q", tt.src, err, tt.want)
		}
	}
}

func TestMaskErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"iadd i32\n", "m.mask:1: want `OPCODE TYPE ARCH [OPERAND=PRODUCER...]`, got 2 fields"},
		{"# fine\niadd i32 x86_64\nnosuch i32 x86_64\n", "m.mask:3: unknown opcode \"nosuch\""},
		{"iadd i32 mips\n", "m.mask:1: unknown arch \"mips\""},
		{"iadd - x86_64\n", "m.mask:1: iadd is polymorphic"},
		{"nop i32 *\n", "m.mask:1: nop is monomorphic"},
		{"iadd f32 *\n", "m.mask:1: iadd cannot have controlling type f32"},
		{"select i32:q *\n", "m.mask:1: bad free type \"q\""},
	}
	for _, tt := range tests {
		_, err := profile.ParseMask("m.mask", []byte(tt.src))
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("ParseMask(%q) error = %v, want prefix %q", tt.src, err, tt.want)
		}
	}
	path := filepath.Join(t.TempDir(), "bad.mask")
	if err := os.WriteFile(path, []byte("\n\niadd i32\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := profile.ReadMask(path); err == nil || !strings.HasPrefix(err.Error(), path+":3: ") {
		t.Errorf("ReadMask error = %v, want %s:3: ...", err, path)
	}
}

func TestMaskRoundTrip(t *testing.T) {
	src := "iadd i32x4 aarch64  # comment\nnop - *\nselect i64:i128 x86_64\n"
	mask, err := profile.ParseMask("m", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"iadd i32x4 aarch64", "nop - *", "select i64:i128 x86_64"}
	for i, e := range mask {
		if e.String() != want[i] {
			t.Errorf("entry %d = %q, want %q", i, e, want[i])
		}
	}
}

// TestWithout checks that a mask removes exactly its combinations, for the
// architectures it names.
func TestWithout(t *testing.T) {
	iadd, sel, nop := opc(t, "iadd"), opc(t, "select"), opc(t, "nop")
	x86 := load(t, "x86_64")
	tests := []struct {
		mask    string
		name    string
		removed []string // op ctrl[:free]
	}{
		{"iadd i32 x86_64", "x86_64", []string{"iadd i32"}},
		{"iadd i32 aarch64", "x86_64", nil}, // another arch
		{"iadd i32 *", "x86_64", []string{"iadd i32"}},
		{"iadd i32 aarch64", "compat", []string{"iadd i32"}}, // compat covers aarch64
		{"nop - *", "riscv64", []string{"nop -"}},
		{"select i64:i128 x86_64", "x86_64", []string{"select i64:i128"}},
		{"iadd i32x8 *", "x86_64", nil}, // not in the profile: ignored
	}
	for _, tt := range tests {
		mask, err := profile.ParseMask("m", []byte(tt.mask))
		if err != nil {
			t.Fatal(err)
		}
		p := load(t, tt.name)
		q := p.Without(mask)
		removedCombos := 0
		for _, r := range tt.removed {
			if !strings.Contains(r, ":") {
				removedCombos++
			}
		}
		if q.Count() != p.Count()-removedCombos {
			t.Errorf("%s without %q: Count %d -> %d, want -%d", tt.name, tt.mask, p.Count(), q.Count(), removedCombos)
		}
		for _, op := range p.Opcodes() {
			for _, ctrl := range p.Types(op) {
				frees := p.FreeTypes(op, ctrl)
				if frees == nil {
					frees = []ir.Type{ir.Invalid}
				}
				for _, free := range frees {
					key := op.String() + " " + strings.Replace(ctrl.String(), "invalid", "-", 1)
					if free != ir.Invalid {
						key += ":" + free.String()
					}
					gone := slices.Contains(tt.removed, key) || slices.Contains(tt.removed, op.String()+" "+ctrl.String())
					if got := q.AllowsFree(op, ctrl, free); got == gone {
						t.Errorf("%s without %q: %s allowed = %v", tt.name, tt.mask, key, got)
					}
				}
			}
		}
	}
	// The original is untouched.
	if !x86.Allows(iadd, ir.I32) || !x86.AllowsFree(sel, ir.I64, ir.I128) || !x86.Allows(nop, ir.Invalid) {
		t.Errorf("Without changed the loaded profile")
	}
}

// TestKnownMaskNamesProfileCombos checks that every finding in known.mask
// is a combination its profile keeps: a masked combination the profile
// excludes anyway is a stale entry.
func TestKnownMaskNamesProfileCombos(t *testing.T) {
	mask, err := profile.KnownMask()
	if err != nil {
		t.Fatal(err)
	}
	if len(mask) == 0 {
		t.Fatal("known.mask is empty")
	}
	for _, e := range mask {
		arches := []string{e.Arch}
		if e.Arch == "*" {
			// Every machine target; Pulley takes fewer types (no f16).
			arches = profile.CompatArches
		}
		for _, a := range arches {
			p := load(t, a)
			ctrls := []ir.Type{e.Type}
			if e.AnyType {
				ctrls = p.Types(e.Op)
			}
			ok := len(ctrls) > 0
			for _, ctrl := range ctrls {
				if e.Free != ir.Invalid {
					ok = ok && p.AllowsFree(e.Op, ctrl, e.Free)
				} else {
					ok = ok && p.Allows(e.Op, ctrl)
				}
			}
			if !ok {
				t.Errorf("known.mask entry %q: the %s profile does not allow it", e, a)
			}
			q := p.Without([]profile.MaskEntry{e})
			if len(e.Operands) > 0 {
				// A pattern keeps the opcode in the tables, and goes to
				// the patterns.
				if len(q.Types(e.Op)) != len(p.Types(e.Op)) || q.Patterns().Len() != 1 {
					t.Errorf("Without(%q): types %v -> %v, %d patterns", e, p.Types(e.Op), q.Types(e.Op), q.Patterns().Len())
				}
				continue
			}
			for _, ctrl := range ctrls {
				if q.AllowsFree(e.Op, ctrl, e.Free) {
					t.Errorf("Without(%q) still allows %s", e, ctrl)
				}
			}
		}
	}
}

func TestPortable(t *testing.T) {
	for _, name := range allNames {
		p := load(t, name)
		q := p.Portable()
		if q.Name != name+"-portable" {
			t.Errorf("Name = %q", q.Name)
		}
		for _, op := range q.Opcodes() {
			for _, ctrl := range q.Types(op) {
				if !p.Allows(op, ctrl) {
					t.Errorf("%s portable allows %s %s, which the profile does not", name, op, ctrl)
				}
				if ctrl == ir.F16 || ctrl == ir.F128 {
					t.Errorf("%s portable allows %s %s", name, op, ctrl)
				}
				for _, free := range q.FreeTypes(op, ctrl) {
					if free == ir.F16 || free == ir.F128 {
						t.Errorf("%s portable allows %s %s:%s", name, op, ctrl, free)
					}
				}
			}
		}
		for _, gone := range []string{"x86_pshufb", "return_call", "return_call_indirect", "sequence_point", "f16const", "f128const", "uadd_overflow", "blendv"} {
			if len(q.Types(opc(t, gone))) != 0 {
				t.Errorf("%s portable allows %s", name, gone)
			}
		}
		for _, kept := range []string{"iadd i32", "brif i8", "smin i64", "load i32x4", "call -", "fadd f64", "vconst i8x16"} {
			f := strings.Fields(kept)
			if !q.Allows(opc(t, f[0]), typ(t, f[1])) {
				t.Errorf("%s portable drops %s", name, kept)
			}
		}
		if q.AllowsCallConv(ir.CallConvTail) || q.AllowsABIType(ir.F16) || !q.AllowsCallConv(ir.CallConvSystemV) {
			t.Errorf("%s portable: callconvs %v, abi %v", name, q.CallConvs, q.ABITypes)
		}
		for _, s := range q.Settings {
			if strings.HasPrefix(s, "enable_multi_ret_implicit_sret") {
				t.Errorf("%s portable keeps %s", name, s)
			}
		}
	}
}

func BenchmarkAllows(b *testing.B) {
	p := load(b, "compat")
	ops := ir.Opcodes()
	types := []ir.Type{ir.I8, ir.I32, ir.I128, ir.F64, ir.I32X4, ir.F32X4}
	n := 0
	for i := 0; b.Loop(); i++ {
		if p.Allows(ops[i%len(ops)], types[i%len(types)]) {
			n++
		}
	}
	_ = n
}

func BenchmarkLoadWithoutMask(b *testing.B) {
	mask, err := profile.KnownMask()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		p := load(b, "x86_64")
		_ = p.Without(mask)
	}
}

func TestProfileOf(t *testing.T) {
	for target, want := range map[string]string{"pulley64be": "pulley64", "pulley32be": "pulley32", "pulley64": "pulley64", "x86_64": "x86_64", "s390x": "s390x"} {
		if got := profile.ProfileOf(target); got != want {
			t.Errorf("ProfileOf(%s) = %s, want %s", target, got, want)
		}
	}
}

// TestNeedsFlag: the needs lines of facts.txt (which took the place of
// lib/arch's opcode-to-flag map) reach each target's profile; the flags
// they name are among the target's default flags, with which the
// profiles are made; and compat, an intersection, names none.
func TestNeedsFlag(t *testing.T) {
	x := load(t, "x86_64")
	xa, _ := arch.Lookup("x86_64")
	for _, tt := range []struct {
		p     *profile.Profile
		op    ir.Opcode
		flags []string
		want  string
	}{
		{x, ir.OpX86Pshufb, []string{}, "has_ssse3"},
		{x, ir.OpX86Pmaddubsw, []string{}, "has_ssse3"},
		{x, ir.OpX86Pmulhrsw, []string{"has_sse3"}, "has_ssse3"},
		{x, ir.OpX86Pshufb, []string{"has_sse3", "has_ssse3"}, ""},
		{x, ir.OpBlendv, []string{"has_ssse3"}, "has_sse41"},
		{x, ir.OpBlendv, []string{"has_sse41=true"}, ""},
		{x, ir.OpBlendv, []string{"has_sse41", "has_sse41=false"}, "has_sse41"},
		{x, ir.OpBlendv, xa.DefaultISAFlags, ""},
		{x, ir.OpIadd, []string{}, ""},
		{load(t, "riscv64"), ir.OpBlendv, []string{}, ""}, // riscv64 lowers it without a flag
		{load(t, profile.CompatName), ir.OpX86Pshufb, []string{}, ""},
	} {
		if got := tt.p.NeedsFlag(tt.op, tt.flags); got != tt.want {
			t.Errorf("%s.NeedsFlag(%s, %v) = %q, want %q", tt.p.Name, tt.op, tt.flags, got, tt.want)
		}
	}
	for _, name := range profile.Arches {
		p := load(t, name)
		a, ok := arch.Lookup(name)
		for _, op := range ir.Opcodes() {
			need := p.NeedsFlag(op, nil)
			if need == "" {
				continue
			}
			if !ok || !slices.Contains(a.DefaultISAFlags, need) {
				t.Errorf("%s: %s needs %s, which is not among the default flags", name, op, need)
			}
		}
	}
}
