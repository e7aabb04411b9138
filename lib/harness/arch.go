package harness

import (
	"fmt"
	"os/exec"

	"cliff/lib/arch"
)

// An Arch is a target architecture, named as in Cranelift's target triples.
type Arch string

// The architectures cliff runs code on, for the code that is specific to
// one of them; the list is lib/arch's.
const (
	X86_64  Arch = "x86_64"
	AArch64 Arch = "aarch64"
	RISCV64 Arch = "riscv64"
	S390X   Arch = "s390x"
)

// Arches lists every architecture, in lib/arch's order.
func Arches() []Arch {
	var out []Arch
	for _, name := range arch.Names() {
		out = append(out, Arch(name))
	}
	return out
}

// ParseArch checks an architecture name.
func ParseArch(name string) (Arch, error) {
	for _, a := range Arches() {
		if string(a) == name {
			return a, nil
		}
	}
	return "", fmt.Errorf("unknown architecture %q (want one of %v)", name, Arches())
}

// HostArch is the architecture of this machine ("" if cliff does not
// support it).
func HostArch() Arch { return Arch(arch.Host()) }

// Native reports whether code for a runs on this machine without qemu.
func (a Arch) Native() bool { return a == HostArch() }

// Compiler is the gcc that builds and links for a: the host's gcc for the
// host architecture, the Debian cross compiler otherwise.
func (a Arch) Compiler() string {
	if a.Native() {
		return "gcc"
	}
	return string(a) + "-linux-gnu-gcc"
}

// Emulator is the name of the qemu-user binary that runs a's code on
// another host; EmulatorPath finds it.
func (a Arch) Emulator() string { return "qemu-" + string(a) + "-static" }

// Available reports whether the tools to link and run a's code are
// installed, naming the missing one.
func Available(a Arch) error {
	if _, err := exec.LookPath(a.Compiler()); err != nil {
		return fmt.Errorf("%s: %s not installed: %w", a, a.Compiler(), err)
	}
	if !a.Native() {
		if _, err := EmulatorPath(a); err != nil {
			return fmt.Errorf("%s: %s not installed: %w", a, a.Emulator(), err)
		}
	}
	return nil
}
