package harness

import (
	"context"
	"regexp"
	"testing"
)

func TestParseEmulatorVersion(t *testing.T) {
	tests := []struct{ out, want string }{
		{"qemu-x86_64 version 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)\nCopyright (c) 2003-2022\n", "7.2.22"},
		{"qemu-riscv64 version 9.0.0\n", "9.0.0"},
		{"qemu-s390x version 8.1.2 (v8.1.2)", "8.1.2"},
	}
	for _, tc := range tests {
		got, err := parseEmulatorVersion(tc.out)
		if err != nil || got != tc.want {
			t.Errorf("parseEmulatorVersion(%q) = %q, %v; want %q", tc.out, got, err, tc.want)
		}
	}
	if _, err := parseEmulatorVersion("Usage: qemu-x86_64 [options]\n"); err == nil {
		t.Error("no version: no error")
	}
}

// TestEmulatorVersion asks the installed qemu-user, which every target
// but the host's needs.
func TestEmulatorVersion(t *testing.T) {
	v, err := EmulatorVersion(context.Background(), "riscv64")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^\d+\.\d+`).MatchString(v) {
		t.Errorf("version %q", v)
	}
}
