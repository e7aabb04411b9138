package arch

import (
	"slices"
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
	if _, ok := Lookup("pulley64"); ok {
		t.Errorf("Lookup(pulley64) found an architecture cliff does not compile for")
	}
	// All returns a copy: a caller cannot change the table.
	All()[0].Name = "changed"
	if Names()[0] != "x86_64" {
		t.Errorf("All() shares the table")
	}
}
