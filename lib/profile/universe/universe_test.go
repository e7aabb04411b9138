package universe

import (
	"slices"
	"strings"
	"testing"

	"cliff/lib/ir"
	"cliff/lib/profile"
)

func load(t *testing.T) *Universe {
	t.Helper()
	u, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestUniverseHasWhatProfilesExclude: the universe keeps the combinations
// facts.txt excludes (the census must see them), names the line that does
// it, and holds everything the profile allows.
func TestUniverseHasWhatProfilesExclude(t *testing.T) {
	u := load(t)
	tests := []struct {
		arch     string
		combo    Combo
		excluded string // a word of the facts line, "" when the profile has it
	}{
		{"x86_64", Combo{Op: ir.OpFcvtToUint, Ctrl: ir.I8, Free: ir.F64}, "[upstream] fuzzgen x86_64 exceptions"},
		{"x86_64", Combo{Op: ir.OpFcmp, Ctrl: ir.F32X4, Imm: "ueq"}, "UnorderedOrEqual"},
		{"x86_64", Combo{Op: ir.OpFcmp, Ctrl: ir.F32X4, Imm: "eq"}, ""},
		{"aarch64", Combo{Op: ir.OpUaddOverflowCin, Ctrl: ir.I32}, "[unlowered] no backend has a rule for uadd_overflow_cin"},
		{"riscv64", Combo{Op: ir.OpIabs, Ctrl: ir.I128}, "[upstream] fuzzgen riscv64"},
		{"s390x", Combo{Op: ir.OpIadd, Ctrl: ir.I32}, ""},
		{"x86_64", Combo{Op: ir.OpFcvtFromUint, Ctrl: ir.F32X4, Free: ir.I32}, "[semantics] conversions work lane by lane"},
		{"s390x", Combo{Op: ir.OpAtomicRmw, Ctrl: ir.I64, Imm: "xchg"}, ""},
	}
	for _, tt := range tests {
		combos, err := u.Combos(tt.arch)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(combos, tt.combo) {
			t.Errorf("%s: universe lacks %s", tt.arch, Key(tt.combo))
		}
		ex := u.Excluded(tt.arch, tt.combo)
		switch {
		case tt.excluded == "" && len(ex) > 0:
			t.Errorf("%s %s: excluded by %v, want none", tt.arch, Key(tt.combo), ex)
		case tt.excluded != "" && (len(ex) == 0 || !strings.Contains(String(ex[0]), tt.excluded)):
			t.Errorf("%s %s: excluded by %v, want a line saying %q", tt.arch, Key(tt.combo), ex, tt.excluded)
		}
	}
}

// TestUniverseCoversProfile: every (opcode, type, free type) a profile
// allows is in the universe, and the never opcodes are not.
func TestUniverseCoversProfile(t *testing.T) {
	u := load(t)
	for _, arch := range profile.Arches {
		p, err := profile.Load(arch)
		if err != nil {
			t.Fatal(err)
		}
		combos, err := u.Combos(arch)
		if err != nil {
			t.Fatal(err)
		}
		in := map[[3]ir.Type]map[ir.Opcode]bool{}
		for _, c := range combos {
			k := [3]ir.Type{c.Ctrl, c.Free}
			if in[k] == nil {
				in[k] = map[ir.Opcode]bool{}
			}
			in[k][c.Op] = true
			if c.Op == ir.OpGetFramePointer || c.Op == ir.OpSymbolValue {
				t.Errorf("%s: universe has never-opcode %s", arch, Key(c))
			}
		}
		for _, op := range p.Opcodes() {
			for _, ctrl := range p.Types(op) {
				frees := p.FreeTypes(op, ctrl)
				if frees == nil {
					frees = []ir.Type{ir.Invalid}
				}
				for _, free := range frees {
					if !in[[3]ir.Type{ctrl, free}][op] {
						t.Errorf("%s: profile allows %s.%s:%s, universe lacks it", arch, op, ctrl, free)
					}
				}
			}
		}
	}
}

func TestKeyRoundTrip(t *testing.T) {
	for _, c := range []Combo{
		{Op: ir.OpFcvtToUint, Ctrl: ir.I8, Free: ir.F64},
		{Op: ir.OpFcmp, Ctrl: ir.F32X4, Imm: "ueq"},
		{Op: ir.OpNop},
		{Op: ir.OpIadd, Ctrl: ir.I128},
		{Op: ir.OpAtomicRmw, Ctrl: ir.I16, Imm: "and"},
		{Op: ir.OpSelect, Ctrl: ir.F64, Free: ir.I128},
	} {
		got, err := Parse(Key(c))
		if err != nil || got != c {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", Key(c), got, err, c)
		}
	}
	for _, bad := range []string{"nosuchop.i32", "iadd.i32.i64.i8", "iadd.i32..x"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q): no error", bad)
		}
	}
}
