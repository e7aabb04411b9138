package harness

import (
	"cliff/lib/arch"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// A Placement says where compiled code runs: natively, or under
// qemu-user with CPU as its -cpu ("" for QEMU's default model).
type Placement struct {
	Emulated bool
	CPU      string
}

func (p Placement) String() string {
	if !p.Emulated {
		return "native"
	}
	return "qemu -cpu " + p.CPU
}

// Place decides where code compiled for arch with the driver's effective
// ISA flags ("has_v=true", "has_zba=false"; a bare name means true) runs
// on host h. Code for the host's architecture runs natively when the host
// has every CPU feature the flags need; otherwise, and for every other
// architecture, it runs under qemu-user with a -cpu that emulates the
// flags (QemuCPU). The error names the first flag that can run neither
// way, so the caller can try the code without it (Blocking) or skip the
// configuration with the reason.
func Place(h Host, arch string, isaFlags []string) (Placement, error) {
	on, err := parseISAFlags(isaFlags)
	if err != nil {
		return Placement{}, fmt.Errorf("%s: %w", arch, err)
	}
	if arch != h.Arch {
		cpu, err := qemuCPU(arch, on, h.emulator(arch))
		return Placement{Emulated: true, CPU: cpu}, err
	}
	if err := checkKnown(arch, on); err != nil {
		return Placement{}, err
	}
	lacking := hostLacks(h, arch, on)
	if len(lacking) == 0 {
		return Placement{}, nil
	}
	emu := h.emulator(arch)
	cpu, err := qemuCPU(arch, on, emu)
	if err == nil {
		return Placement{Emulated: true, CPU: cpu}, nil
	}
	// Name a flag that stops both, if there is one: the host lacks its
	// feature and QEMU cannot emulate it.
	for _, r := range lacking {
		if why, lacks := emu.Lacks[r.flag]; lacks {
			return Placement{}, fmt.Errorf("%s: ISA flag %s needs %s, which this host's CPU lacks, and %s", arch, r.flag, r.needs, why)
		}
	}
	return Placement{}, fmt.Errorf("%s: ISA flag %s needs %s, which this host's CPU lacks, and QEMU cannot stand in: %s", arch, lacking[0].flag, lacking[0].needs, strings.TrimPrefix(err.Error(), arch+": "))
}

// NativeBlockers lists the ISA flags that are on and keep code for the
// host's architecture from running natively: those whose CPU feature
// the host lacks, and those cliff's CPU table does not know. Code compiled
// with them off that comes out identical runs natively after all: for it,
// the flags made no difference.
func NativeBlockers(h Host, arch string, isaFlags []string) []string {
	on, err := parseISAFlags(isaFlags)
	if err != nil {
		return nil
	}
	out := unknownFlags(arch, on)
	for _, r := range hostLacks(h, arch, on) {
		out = append(out, r.flag)
	}
	slices.Sort(out)
	return out
}

// QemuBlockers lists the ISA flags that are on and that the host's QEMU
// for arch cannot emulate, or that cliff's CPU table does not know; as
// for NativeBlockers, identical code compiled without them runs under
// QEMU.
func QemuBlockers(h Host, arch string, isaFlags []string) []string {
	on, err := parseISAFlags(isaFlags)
	if err != nil {
		return nil
	}
	out := unknownFlags(arch, on)
	emu := h.emulator(arch)
	for _, r := range cpuTables[arch].rules {
		if _, lacks := emu.Lacks[r.flag]; on[r.flag] && lacks {
			out = append(out, r.flag)
		}
	}
	slices.Sort(out)
	return out
}

func unknownFlags(arch string, on map[string]bool) []string {
	var out []string
	for name, value := range on {
		if _, known := ruleFor(arch, name); value && !known {
			out = append(out, name)
		}
	}
	return out
}

// QemuCPU builds the qemu -cpu string with which emu emulates the ISA
// flags the driver reports as effective for a compile, from the tables in
// cpu_table.go:
//
//	riscv64  rv64 with each extension switched on or off, and vlen from has_zvl<N>b
//	s390x    qemu with minste3 and vxeh2 on or off
//	aarch64  the smallest model with every needed feature (cortex-a57 ... max)
//	x86_64   qemu64 with +feature for each flag that is on
//
// A flag the emulator cannot run, or one the table does not know, is an
// error naming it, so the caller can skip that configuration with the
// reason.
func QemuCPU(emu *Emulator, isaFlags []string) (string, error) {
	on, err := parseISAFlags(isaFlags)
	if err != nil {
		return "", fmt.Errorf("%s: %w", emu.Arch, err)
	}
	return qemuCPU(emu.Arch, on, emu)
}

func qemuCPU(arch string, on map[string]bool, emu *Emulator) (string, error) {
	table, ok := cpuTables[arch]
	if !ok {
		return "", fmt.Errorf("no CPU table for architecture %q", arch)
	}
	if err := checkKnown(arch, on); err != nil {
		return "", err
	}
	for _, name := range slices.Sorted(maps.Keys(on)) {
		if why, lacks := emu.Lacks[name]; on[name] && lacks {
			return "", fmt.Errorf("%s: ISA flag %s cannot be emulated: %s", arch, name, why)
		}
	}
	var needs []string
	for _, r := range table.rules {
		if on[r.flag] && r.needs != "" && !slices.Contains(needs, r.needs) {
			needs = append(needs, r.needs)
		}
	}
	model := table.base
	if len(table.models) > 0 {
		var err error
		if model, err = pickModel(arch, table.models, needs); err != nil {
			return "", err
		}
	}
	parts := []string{model}
	add := func(props string) {
		for _, p := range strings.Split(props, ",") {
			if p != "" && !slices.Contains(parts, p) {
				parts = append(parts, p)
			}
		}
	}
	vlen := 0
	for _, r := range table.rules {
		value, given := on[r.flag]
		_, lacks := emu.Lacks[r.flag]
		on, off := r.on, r.off
		if slices.Contains(emu.OldSpelling, r.flag) {
			on, off = r.oldOn, r.oldOff
		}
		switch {
		case slices.Contains(emu.NoProperty, r.flag), lacks:
			// No property to set, or perhaps none to clear: QEMU 10 has
			// no mie4, and refuses mie4=off.
		case value:
			add(on)
		case given:
			add(off)
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

// checkKnown rejects a flag that is on and that the table does not know:
// cliff cannot tell what running its code needs.
func checkKnown(arch string, on map[string]bool) error {
	for _, name := range slices.Sorted(maps.Keys(on)) {
		if _, known := ruleFor(arch, name); on[name] && !known {
			return fmt.Errorf("%s: ISA flag %s: unknown to cliff's CPU table, cannot tell how to run its code", arch, name)
		}
	}
	return nil
}

func ruleFor(arch, flag string) (flagRule, bool) {
	for _, r := range cpuTables[arch].rules {
		if r.flag == flag {
			return r, true
		}
	}
	return flagRule{}, false
}

// hostLacks lists the rules of flags that are on and whose feature the
// host lacks. Only x86_64 hosts are checked: the other tables' needs are
// QEMU's model features, not /proc/cpuinfo names.
func hostLacks(h Host, target string, on map[string]bool) []flagRule {
	if target != arch.X86_64 || h.Arch != arch.X86_64 {
		return nil
	}
	var out []flagRule
	for _, r := range cpuTables[target].rules {
		if on[r.flag] && r.needs != "" && !h.Has(r.needs) {
			out = append(out, r)
		}
	}
	return out
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

func pickModel(arch string, models []cpuModel, needs []string) (string, error) {
	for _, m := range models {
		if hasAll(m.features, needs) {
			return m.name, nil
		}
	}
	return "", fmt.Errorf("%s: no QEMU CPU model in cliff's table has all of %v", arch, needs)
}

func hasAll(have, needs []string) bool {
	for _, n := range needs {
		if !slices.Contains(have, n) {
			return false
		}
	}
	return true
}

// emulator is what the host's QEMU for arch runs: as given in
// h.Emulators, else as probed (once per process, and cached on disk),
// else, when it cannot be probed, what QEMU 7.2 is known to run (the
// rules' baseline), so that a missing QEMU is reported by the toolchain
// check rather than here.
func (h Host) emulator(arch string) *Emulator {
	if e, ok := h.Emulators[arch]; ok {
		return e
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if e, err := ProbeEmulator(ctx, arch); err == nil {
		return e
	}
	return BaselineEmulator(arch)
}

// BaselineEmulator is QEMU 7.2 as cpu_table.go's baseline describes it,
// without probing: Debian 12's qemu-user-static.
func BaselineEmulator(target string) *Emulator {
	e := &Emulator{Arch: target, Path: EmulatorName(target), Version: "7.2 (assumed)", Lacks: map[string]string{}, MaxVlen: qemuMaxVlen}
	for _, r := range cpuTables[target].rules {
		if r.baseline != "" {
			e.Lacks[r.flag] = r.baseline
		}
	}
	if target == arch.RISCV64 {
		e.NoProperty = []string{"has_zvfh"}
		e.OldSpelling = []string{"has_zfh", "has_zfhmin"}
	}
	return e
}
