package harness

import (
	"context"
	"fmt"
	"strings"
)

// EmulatorVersion is the version of the qemu-user binary that runs arch's
// code ("7.2.22"), for records and reports: a finding under QEMU names
// the QEMU it was found with.
func EmulatorVersion(ctx context.Context, arch string) (string, error) {
	path, err := EmulatorPath(arch)
	if err != nil {
		return "", err
	}
	return emulatorVersionOf(ctx, path)
}

// parseEmulatorVersion reads "qemu-x86_64 version 7.2.22 (Debian ...)".
func parseEmulatorVersion(out string) (string, error) {
	first, _, _ := strings.Cut(out, "\n")
	_, rest, ok := strings.Cut(first, " version ")
	if !ok {
		return "", fmt.Errorf("qemu --version said %q, want \"... version X.Y.Z ...\"", first)
	}
	v, _, _ := strings.Cut(strings.TrimSpace(rest), " ")
	return v, nil
}
