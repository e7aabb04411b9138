package harness

import (
	"strings"
	"testing"
)

// TestCheckExternalName checks which names a module may leave to the
// harness, as CLIF writes them: Cranelift's libcalls under either
// spelling, nothing else.
func TestCheckExternalName(t *testing.T) {
	tests := []struct {
		name string
		tls  bool
		want string // a substring of the error; "" for none
	}{
		{"%CeilF32", false, ""},
		{"%NearestF64", false, ""},
		{"%FmaF32", false, ""},
		{"%Memcpy", false, ""},
		{"%memcpy", false, ""},
		{"%memcmp", false, ""},
		{"%X86Pshufb", false, ""}, // provided on x86_64; Link refuses it elsewhere
		{"%ElfGlobalOffsetTable", false, ""},
		{"%exit", false, "external name %exit: not one of Cranelift's libcalls"},
		{"%system", false, "external name %system: "},
		{"%mem.cpy", false, "external name %mem.cpy: "}, // the symbol would be mem_cpy
		{"u0:1", false, "external name u0:1: "},
		{"%Probestack", false, "external name %Probestack: the outline stack probe; set probestack_strategy=inline"},
		{"%ElfTlsGetAddr", false, "thread-local storage"},
		{"%CoffTlsIndex", false, "external name %CoffTlsIndex: "},
		{"%memcpy", true, "external name %memcpy (thread-local): "},
	}
	for _, tt := range tests {
		err := CheckExternalName(tt.name, tt.tls)
		if (err == nil) != (tt.want == "") || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s (tls %v): error %v, want %q", tt.name, tt.tls, err, tt.want)
		}
	}
}

// TestProvides checks the per-architecture symbols Link accepts.
func TestProvides(t *testing.T) {
	for _, arch := range Arches() {
		for _, s := range []string{"memcpy", "ceilf", "fma", "_GLOBAL_OFFSET_TABLE_"} {
			if !provides(arch, s) {
				t.Errorf("%s: %s refused", arch, s)
			}
		}
		for _, s := range []string{"exit", "system", "syscall", "__cranelift_probestack", "__tls_get_addr", "cliff_gate"} {
			if provides(arch, s) {
				t.Errorf("%s: %s provided", arch, s)
			}
		}
		if got := provides(arch, "__cranelift_x86_pshufb"); got != (arch == X86_64) {
			t.Errorf("%s: __cranelift_x86_pshufb provided %v", arch, got)
		}
	}
}
