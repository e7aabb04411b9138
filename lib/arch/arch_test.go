package arch

import (
	"slices"
	"strings"
	"testing"
)

// TestTable pins what every caller relies on: the names in the order the
// tools print them, every row complete and unique, and the interpreter
// kept out of the compiled architectures.
func TestTable(t *testing.T) {
	if got, want := Names(), []string{"x86_64", "aarch64", "riscv64", "s390x"}; !slices.Equal(got, want) {
		t.Errorf("Names() = %v, want %v", got, want)
	}
	seen := map[string]bool{}
	for _, a := range All() {
		if a.Name == "" || a.GOARCH == "" || a.Debian == "" || a.DefaultISAFlags == nil {
			t.Errorf("%+v: a field is missing", a)
		}
		for _, k := range []string{"name " + a.Name, "goarch " + a.GOARCH} {
			if seen[k] {
				t.Errorf("%s twice", k)
			}
			seen[k] = true
		}
	}
	if Known(Interp) {
		t.Errorf("Known(%q): the interpreter is not compiled for", Interp)
	}
}

func TestLookupAndHost(t *testing.T) {
	tests := []struct {
		goarch, host string
	}{
		{"amd64", "x86_64"}, {"arm64", "aarch64"}, {"riscv64", "riscv64"}, {"s390x", "s390x"}, {"ppc64le", ""}, {"386", ""},
	}
	for _, tt := range tests {
		if got := forGOARCH(tt.goarch); got != tt.host {
			t.Errorf("forGOARCH(%q) = %q, want %q", tt.goarch, got, tt.host)
		}
	}
	if a, ok := Lookup("aarch64"); !ok || a.Debian != "arm64" || !slices.Equal(a.DefaultISAFlags, []string{"has_lse"}) {
		t.Errorf("Lookup(aarch64) = %+v, %v", a, ok)
	}
	if _, ok := Lookup("mips64"); ok {
		t.Errorf("Lookup(mips64) found an architecture cliff does not compile for")
	}
	for name, ptr := range map[string]int{"pulley32": 4, "pulley32be": 4, "pulley64": 8, "pulley64be": 8, "x86_64": 8} {
		a, ok := Lookup(name)
		if !ok || a.PointerBytes != ptr || a.Bytecode != strings.HasPrefix(name, "pulley") || IsBytecode(name) != a.Bytecode {
			t.Errorf("Lookup(%s) = %+v, %v", name, a, ok)
		}
		if a.Bytecode && slices.Contains(Names(), name) {
			t.Errorf("Names() lists the bytecode target %s", name)
		}
	}
	if got, want := len(BackendNames()), len(Names())+4; got != want {
		t.Errorf("BackendNames() = %v", BackendNames())
	}
	// All returns a copy: a caller cannot change the table.
	All()[0].Name = "changed"
	if Names()[0] != "x86_64" {
		t.Errorf("All() shares the table")
	}
}

// TestFlagSets: every architecture's sets start with its default flags,
// have unique names that cannot be taken for an ISA flag (--isa-flags
// reads both), and are found again by their flags.
func TestFlagSets(t *testing.T) {
	for _, a := range All() {
		if len(a.FlagSets) == 0 || a.FlagSets[0].Name != DefaultSet || !slices.Equal(a.FlagSets[0].Flags, a.DefaultISAFlags) {
			t.Errorf("%s: the first flag set must be %q, the default flags", a.Name, DefaultSet)
		}
		seen := map[string]bool{}
		for _, s := range a.FlagSets {
			if seen[s.Name] || s.Why == "" || s.Flags == nil {
				t.Errorf("%s %q: twice, or a field missing", a.Name, s.Name)
			}
			seen[s.Name] = true
			for _, prefix := range []string{"has_", "use_", "sign_"} {
				if strings.HasPrefix(s.Name, prefix) {
					t.Errorf("%s %q: reads as an ISA flag", a.Name, s.Name)
				}
			}
			reversed := slices.Clone(s.Flags)
			slices.Reverse(reversed)
			if got := a.SetName(reversed); got != s.Name {
				t.Errorf("%s: SetName(%v) = %q, want %q", a.Name, reversed, got, s.Name)
			}
		}
	}
	r, _ := Lookup("riscv64")
	x, _ := Lookup("x86_64")
	tests := []struct {
		a     Arch
		flags []string
		want  bool
	}{
		{r, []string{"has_v"}, true},
		{r, []string{"has_v=true", "has_zba"}, true},
		{r, []string{}, false},
		{r, []string{"has_v", "has_v=false"}, false},
		{r, []string{"has_zbb"}, false},
		{x, []string{}, true}, // SSE2 has vectors
	}
	for _, tt := range tests {
		if got := tt.a.TakesVectors(tt.flags); got != tt.want {
			t.Errorf("%s.TakesVectors(%v) = %v, want %v", tt.a.Name, tt.flags, got, tt.want)
		}
	}
}
