package harness

import (
	"fmt"
	"os/exec"
	"slices"

	"cliff/lib/arch"
)

// An architecture is its name, as in Cranelift's target triples and in
// records ("x86_64"); lib/arch's table says what else cliff knows of it.

// Arches lists every architecture, in lib/arch's order.
func Arches() []string { return arch.Names() }

// ParseArch checks an architecture name.
func ParseArch(name string) (string, error) {
	if slices.Contains(arch.Names(), name) {
		return name, nil
	}
	return "", fmt.Errorf("unknown architecture %q (want one of %v)", name, Arches())
}

// HostArch is the architecture of this machine ("" if cliff does not
// support it).
func HostArch() string { return arch.Host() }

// Native reports whether code for a runs on this machine without qemu.
func Native(a string) bool { return a == HostArch() }

// Compiler is the gcc that builds and links for a: the host's gcc for the
// host architecture, the Debian cross compiler otherwise.
func Compiler(a string) string {
	if Native(a) {
		return "gcc"
	}
	return a + "-linux-gnu-gcc"
}

// EmulatorName is the name of the qemu-user binary that runs a's code on
// another host; EmulatorPath finds it.
func EmulatorName(a string) string { return "qemu-" + a + "-static" }

// Available reports whether the tools to link and run a's code are
// installed, naming the missing one.
func Available(a string) error {
	if _, err := exec.LookPath(Compiler(a)); err != nil {
		return fmt.Errorf("%s: %s not installed: %w", a, Compiler(a), err)
	}
	if !Native(a) {
		if _, err := EmulatorPath(a); err != nil {
			return fmt.Errorf("%s: %s not installed: %w", a, EmulatorName(a), err)
		}
	}
	return nil
}
