package harness

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// EmulatorVersion is the version of the qemu-user binary that runs arch's
// code ("7.2.22"), for records and reports: a finding under QEMU names
// the QEMU it was found with.
func EmulatorVersion(ctx context.Context, arch Arch) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, arch.Emulator(), "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%s --version: %w", arch.Emulator(), err)
	}
	return parseEmulatorVersion(string(out))
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
