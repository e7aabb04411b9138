package harness

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
)

// QemuCPU builds the qemu -cpu string that emulates the ISA flags the
// driver reports as effective for a compile ("has_v=true", "has_zba=false",
// ...; a bare name means true), from the tables in cpu_table.go:
//
//	riscv64  rv64 with each extension switched on or off, and vlen from has_zvl<N>b
//	s390x    qemu with minste3 and vxeh2 on or off
//	aarch64  the smallest model with every needed feature (cortex-a57 ... max)
//
// For the host's architecture (code runs natively) it returns "" after
// checking that this CPU has every flag that is on (x86_64 hosts only).
// A flag QEMU 7.2 cannot emulate, or the host lacks, is an error naming
// it, so the caller can skip that configuration with the reason.
func QemuCPU(arch Arch, isaFlags []string) (string, error) {
	table, ok := cpuTables[arch]
	if !ok {
		return "", fmt.Errorf("no CPU table for architecture %q", arch)
	}
	on, err := parseISAFlags(isaFlags)
	if err != nil {
		return "", fmt.Errorf("%s: %w", arch, err)
	}
	rules := make(map[string]flagRule, len(table.rules))
	for _, r := range table.rules {
		rules[r.flag] = r
	}
	for _, name := range slices.Sorted(maps.Keys(on)) {
		value := on[name]
		r, known := rules[name]
		if value && !known {
			return "", fmt.Errorf("%s: ISA flag %s: unknown to cliff's CPU table, cannot tell how to emulate it", arch, name)
		}
		if value && r.unsupported != "" {
			return "", fmt.Errorf("%s: ISA flag %s cannot be emulated: %s", arch, name, r.unsupported)
		}
	}
	var needs []string
	for _, r := range table.rules {
		if on[r.flag] && r.needs != "" && !slices.Contains(needs, r.needs) {
			needs = append(needs, r.needs)
		}
	}
	if arch.Native() {
		return "", checkHost(arch, needs)
	}
	if arch == X86_64 {
		return "", fmt.Errorf("x86_64 code runs natively only, and this host is %s", HostArch())
	}

	model := table.base
	if len(table.models) > 0 {
		model, err = pickModel(arch, table.models, needs)
		if err != nil {
			return "", err
		}
	}
	parts := []string{model}
	vlen := 0
	for _, r := range table.rules {
		value, given := on[r.flag]
		switch {
		case value && r.on != "":
			parts = append(parts, r.on)
		case given && !value && r.off != "":
			parts = append(parts, r.off)
		}
		if value && r.vlen > vlen {
			vlen = r.vlen
		}
	}
	if table.vectorFlag != "" && on[table.vectorFlag] {
		parts = append(parts, fmt.Sprintf("vlen=%d", max(vlen, qemuMinVlen)))
	}
	return strings.Join(parts, ","), nil
}

// parseISAFlags reads "name=true", "name=false" and "name".
func parseISAFlags(flags []string) (map[string]bool, error) {
	on := make(map[string]bool, len(flags))
	for _, f := range flags {
		name, value, hasValue := strings.Cut(f, "=")
		switch {
		case !hasValue || value == "true":
			on[name] = true
		case value == "false":
			on[name] = false
		default:
			return nil, fmt.Errorf("ISA flag %q: want name=true or name=false", f)
		}
	}
	return on, nil
}

func pickModel(arch Arch, models []cpuModel, needs []string) (string, error) {
	for _, m := range models {
		if hasAll(m.features, needs) {
			return m.name, nil
		}
	}
	return "", fmt.Errorf("%s: no QEMU 7.2 CPU model has all of %v", arch, needs)
}

func hasAll(have, needs []string) bool {
	for _, n := range needs {
		if !slices.Contains(have, n) {
			return false
		}
	}
	return true
}

// hostCPUFlags are the "flags" of /proc/cpuinfo's first processor.
var hostCPUFlags = sync.OnceValues(func() ([]string, error) {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return nil, err
	}
	return cpuinfoFlags(string(data)), nil
})

func cpuinfoFlags(cpuinfo string) []string {
	for l := range strings.Lines(cpuinfo) {
		key, value, ok := strings.Cut(l, ":")
		if ok && strings.TrimSpace(key) == "flags" {
			return strings.Fields(value)
		}
	}
	return nil
}

// checkHost reports a needed feature this machine lacks. Only x86_64
// hosts are checked: the table has no /proc/cpuinfo names for the others.
func checkHost(arch Arch, needs []string) error {
	if arch != X86_64 || len(needs) == 0 {
		return nil
	}
	have, err := hostCPUFlags()
	if err != nil {
		return fmt.Errorf("%s: reading host CPU features: %w", arch, err)
	}
	return missingFeature(arch, have, needs)
}

func missingFeature(arch Arch, have, needs []string) error {
	for _, n := range needs {
		if !slices.Contains(have, n) {
			var flags []string
			for _, r := range cpuTables[arch].rules {
				if r.needs == n {
					flags = append(flags, r.flag)
				}
			}
			return fmt.Errorf("%s: ISA flag %s: this host's CPU lacks %s", arch, strings.Join(flags, "/"), n)
		}
	}
	return nil
}

// Unemulated lists the ISA flags that are on and that QEMU 7.2 cannot
// emulate. Code compiled with them can still run when compiling without
// them gives the same machine code (cliff-run checks that).
func Unemulated(arch Arch, isaFlags []string) []string {
	on, err := parseISAFlags(isaFlags)
	if err != nil {
		return nil
	}
	var out []string
	for _, r := range cpuTables[arch].rules {
		if on[r.flag] && r.unsupported != "" {
			out = append(out, r.flag)
		}
	}
	return out
}
