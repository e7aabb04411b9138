package harness

import (
	"testing"

	"cliff/lib/arch"
)

// TestArchData checks that every architecture of lib/arch's list has the
// data the harness needs to build and run its code: an ELF machine to
// check executables against, a CPU table to place code by its ISA flags,
// and a Debian package for its C library. A row added to the list without
// them would fail every run of that architecture at run time.
func TestArchData(t *testing.T) {
	if len(Arches()) != len(arch.Names()) {
		t.Fatalf("Arches() = %v, lib/arch lists %v", Arches(), arch.Names())
	}
	for _, a := range Arches() {
		if _, ok := elfMachines[a]; !ok {
			t.Errorf("%s: no ELF machine", a)
		}
		if _, ok := cpuTables[a]; !ok {
			t.Errorf("%s: no CPU table", a)
		}
		if _, err := ParseArch(a); err != nil {
			t.Errorf("ParseArch(%s): %v", a, err)
		}
		if !Native(a) && libcPackage(a) == "libc6-dev--cross" {
			t.Errorf("%s: no Debian name", a)
		}
	}
	if want := string(arch.Host()); HostArch() != want {
		t.Errorf("HostArch() = %q, lib/arch says %q", HostArch(), want)
	}
	if got := libcPackage(arch.AArch64); !Native(arch.AArch64) && got != "libc6-dev-arm64-cross" {
		t.Errorf("aarch64's C library package = %q", got)
	}
}
