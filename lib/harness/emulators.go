package harness

import (
	"bytes"
	"cliff/lib/arch"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

// What an emulator can run is measured, not assumed: QEMU 7.2 has no
// Zcb, Zfa, Zicond or Zvbb and QEMU 10 has all four, and a property that
// one version needs (zvfh=false) the other refuses. ProbeEmulator runs,
// under the emulator, a tiny program per ISA flag that executes one
// instruction needing the flag (probes.go) with the -cpu the CPU table
// builds for it, and keeps the result per emulator binary and version, on
// disk, so that a campaign pays for it once per machine and QEMU.

// QemuDirEnv names the environment variable that points cliff at another
// QEMU: a directory holding qemu-<arch>-static (or qemu-<arch>)
// binaries, such as the QEMU 7.2 that scripts/qemu72.sh unpacks. Unset,
// the emulators are found on $PATH.
const QemuDirEnv = "CLIFF_QEMU"

//go:embed csrc/probe.c
var probeSource []byte

// An Emulator is one qemu-user binary and what it can run, as probed.
type Emulator struct {
	Arch    string `json:"arch"`
	Path    string `json:"path"`
	Version string `json:"version"` // "10.0.2"
	// Lacks maps each ISA flag whose code this emulator cannot run to
	// why, naming the instruction that failed: such code is skipped with
	// that reason, or compiled without the flag (QemuBlockers).
	Lacks map[string]string `json:"lacks,omitempty"`
	// NoProperty lists flags whose instructions run although the
	// emulator has no -cpu property for them (QEMU 7.2 runs Zvfh whenever
	// V is on): the property is left out of the -cpu string.
	NoProperty []string `json:"no_property,omitempty"`
	// OldSpelling lists flags whose properties this emulator knows only
	// by their older names (QEMU 7.2's "Zfhmin" for 10's "zfhmin").
	OldSpelling []string `json:"old_spelling,omitempty"`
	// Ungated lists flags whose instructions run even with the feature
	// switched off, so that code using it without the flag is not caught
	// here (QEMU's s390x MIE3).
	Ungated []string `json:"ungated,omitempty"`
	// MaxVlen is the largest riscv64 vector length the emulator accepts
	// (0 for other architectures).
	MaxVlen int `json:"max_vlen,omitempty"`
}

// String names the emulator as reasons and reports do: "qemu-riscv64-static 10.0.2".
func (e *Emulator) String() string { return filepath.Base(e.Path) + " " + e.Version }

// EmulatorPath is the emulator binary that runs arch's code: from
// $CLIFF_QEMU when set, else qemu-<arch>-static on $PATH (QEMU 10's
// qemu-user and 7.2's qemu-user-static both install that name), else
// qemu-<arch>.
func EmulatorPath(arch string) (string, error) {
	names := []string{EmulatorName(arch), "qemu-" + arch}
	if dir := os.Getenv(QemuDirEnv); dir != "" {
		for _, n := range names {
			p := filepath.Join(dir, n)
			if info, err := os.Stat(p); err == nil && !info.IsDir() {
				return filepath.Abs(p)
			}
		}
		return "", fmt.Errorf("$%s=%s: no %s in it", QemuDirEnv, dir, strings.Join(names, " or "))
	}
	var first error
	for _, n := range names {
		p, err := exec.LookPath(n)
		if err == nil {
			return filepath.Abs(p)
		}
		if first == nil {
			first = err
		}
	}
	return "", first
}

// probedEmulators memoises ProbeEmulator per binary for this process.
var probedEmulators sync.Map // path -> *emulatorProbe

type emulatorProbe struct {
	once sync.Once
	emu  *Emulator
	err  error
}

// probeTimeout bounds one probe run under the emulator.
const probeTimeout = 30 * time.Second

// ProbeEmulator finds the emulator for arch and what it can run: from
// this process's memo, the disk cache (keyed by the binary's path, size,
// modification time and version, and by the probes), or by probing.
func ProbeEmulator(ctx context.Context, arch string) (*Emulator, error) {
	path, err := EmulatorPath(arch)
	if err != nil {
		return nil, fmt.Errorf("%s: emulator: %w", arch, err)
	}
	v, _ := probedEmulators.LoadOrStore(arch+"\x00"+path, &emulatorProbe{})
	p := v.(*emulatorProbe)
	p.once.Do(func() { p.emu, p.err = probeCached(ctx, arch, path) })
	return p.emu, p.err
}

func probeCached(ctx context.Context, arch, path string) (*Emulator, error) {
	version, err := emulatorVersionOf(ctx, path)
	if err != nil {
		return nil, err
	}
	key, err := probeKeyFor(arch, path, version)
	if err != nil {
		return nil, err
	}
	dir, err := cacheDir()
	if err != nil {
		return nil, err
	}
	file := filepath.Join(dir, "emulator-"+arch+"-"+key+".json")
	if data, err := os.ReadFile(file); err == nil {
		var e Emulator
		if json.Unmarshal(data, &e) == nil && e.Path == path {
			return &e, nil
		}
	}
	e, err := probeEmulator(ctx, arch, path, version)
	if err != nil {
		return nil, err
	}
	data, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return nil, err
	}
	tmp := file + fmt.Sprintf(".%d", os.Getpid())
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return nil, fmt.Errorf("emulator cache: %w", err)
	}
	if err := os.Rename(tmp, file); err != nil {
		return nil, fmt.Errorf("emulator cache: %w", err)
	}
	return e, nil
}

// probeKeyFor identifies a probe's inputs: the binary and what is asked
// of it.
func probeKeyFor(arch, path, version string) (string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00%d\x00%s\x00", path, info.Size(), info.ModTime().UnixNano(), version)
	h.Write(probeSource)
	for _, r := range cpuTables[arch].rules {
		fmt.Fprintf(h, "%+v\x00%+v\x00", r, probes[probeKey(arch, r.flag)])
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

func emulatorVersionOf(ctx context.Context, path string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%s --version: %w", path, err)
	}
	return parseEmulatorVersion(string(out))
}

// A probeResult is what one probe run did.
type probeResult int

const (
	probeRan     probeResult = iota // the instruction ran
	probeIllegal                    // SIGILL
	probeRefused                    // the emulator refused the -cpu string
	probeFaulted                    // another signal, or the probe failed
)

// Probe exit statuses (csrc/probe.c).
const (
	probeExitRan     = 0
	probeExitSIGILL  = 4
	probeExitFaulted = 5
)

// A prober runs probes under one emulator.
type prober struct {
	arch     string
	emulator string // "" runs natively
	exe      string
}

// run runs hex under -cpu cpu and says what happened, with the
// emulator's complaint when it refused.
func (p prober) run(ctx context.Context, cpu, hexCode string) (probeResult, string) {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	var cmd *exec.Cmd
	if p.emulator == "" {
		cmd = exec.CommandContext(ctx, p.exe, hexCode)
	} else {
		cmd = exec.CommandContext(ctx, p.emulator, "-cpu", cpu, p.exe, hexCode)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return probeRan, ""
	case errors.As(err, &exit) && exit.ExitCode() == probeExitSIGILL:
		return probeIllegal, ""
	case errors.As(err, &exit) && exit.Sys().(syscall.WaitStatus).Signal() == syscall.SIGILL:
		// QEMU 10's x86_64 sometimes delivers the guest's SIGILL to
		// itself instead of the probe's handler ("uncaught target
		// signal 4").
		return probeIllegal, ""
	case errors.As(err, &exit) && exit.ExitCode() == probeExitFaulted:
		return probeFaulted, "the probe faulted"
	case errors.As(err, &exit) && exit.ExitCode() == 1 && stderr.Len() > 0:
		// QEMU's own refusal of the command line: a property or value it
		// does not have.
		line, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		return probeRefused, line
	}
	return probeFaulted, fmt.Sprintf("%v %s", err, strings.TrimSpace(stderr.String()))
}

// probeEmulator measures what the emulator at path runs: each flag of
// arch's CPU table that needs something of the CPU, and riscv64's vector
// length limit.
func probeEmulator(ctx context.Context, target, path, version string) (*Emulator, error) {
	exe, err := cachedBuild(ctx, target, &cachedPrograms, "probe", probeSource, []string{"-O2", "-static"}, nil)
	if err != nil {
		return nil, err
	}
	e := &Emulator{Arch: target, Path: path, Version: version, Lacks: map[string]string{}}
	p := prober{arch: target, emulator: path, exe: exe}
	base := &Emulator{Arch: target, Path: path, Version: version, Lacks: map[string]string{}, MaxVlen: 1 << 16}
	// The base -cpu itself must work: if not, nothing can be said.
	if cpu, err := qemuCPU(target, map[string]bool{}, base); err != nil {
		return nil, err
	} else if got, why := p.run(ctx, cpu, ""); got != probeRan {
		return nil, fmt.Errorf("%s: %s cannot run a program under -cpu %s: %s", target, e, cpu, why)
	}
	if target == arch.RISCV64 {
		if e.MaxVlen, err = probeMaxVlen(ctx, p); err != nil {
			return nil, err
		}
		base.MaxVlen = e.MaxVlen
	}
	for _, r := range cpuTables[target].rules {
		pr, ok := probes[probeKey(target, r.flag)]
		if r.vlen != 0 {
			if r.vlen > e.MaxVlen {
				e.Lacks[r.flag] = fmt.Sprintf("%s supports VLEN up to %d bits", e, e.MaxVlen)
			}
			continue
		}
		if !ok || (r.on == "" && r.off == "" && r.needs == "") {
			continue // nothing to switch: the base CPU has it
		}
		on := map[string]bool{r.flag: true}
		for _, w := range pr.with {
			on[w] = true
		}
		cpu, err := qemuCPU(target, on, base)
		if err != nil {
			e.Lacks[r.flag] = err.Error()
			continue
		}
		got, why := p.run(ctx, cpu, pr.hex)
		if got == probeRefused && r.oldOn != "" {
			old := &Emulator{Arch: target, Lacks: map[string]string{}, OldSpelling: []string{r.flag}, MaxVlen: base.MaxVlen}
			cpuOld, _ := qemuCPU(target, on, old)
			if gotOld, whyOld := p.run(ctx, cpuOld, pr.hex); gotOld != probeRefused {
				e.OldSpelling = append(e.OldSpelling, r.flag)
				base.OldSpelling = append(base.OldSpelling, r.flag)
				cpu, got, why = cpuOld, gotOld, whyOld
			}
		}
		if got == probeRefused && r.on != "" {
			// No such property: maybe the instructions run anyway.
			noProp := &Emulator{Arch: target, Lacks: map[string]string{}, NoProperty: []string{r.flag}, MaxVlen: base.MaxVlen}
			cpu2, _ := qemuCPU(target, on, noProp)
			if got2, _ := p.run(ctx, cpu2, pr.hex); got2 == probeRan {
				e.NoProperty = append(e.NoProperty, r.flag)
				e.Ungated = append(e.Ungated, r.flag)
				continue
			}
			e.Lacks[r.flag] = fmt.Sprintf("%s refuses -cpu %s (%s), and %s raises SIGILL without it", e, cpu, why, pr.insn)
			continue
		}
		switch got {
		case probeIllegal:
			e.Lacks[r.flag] = fmt.Sprintf("%s has no %s: %s raises SIGILL under -cpu %s", e, r.flag, pr.insn, cpu)
			continue
		case probeRefused, probeFaulted:
			e.Lacks[r.flag] = fmt.Sprintf("%s cannot run %s under -cpu %s: %s", e, pr.insn, cpu, why)
			continue
		}
		if r.off == "" {
			continue
		}
		off := maps.Clone(on)
		off[r.flag] = false
		if cpuOff, err := qemuCPU(target, off, base); err == nil {
			if got, _ := p.run(ctx, cpuOff, pr.hex); got == probeRan {
				e.Ungated = append(e.Ungated, r.flag)
			}
		}
	}
	slices.Sort(e.NoProperty)
	slices.Sort(e.OldSpelling)
	slices.Sort(e.Ungated)
	return e, nil
}

// probeMaxVlen finds the largest power-of-two VLEN the emulator accepts
// for the vector unit.
func probeMaxVlen(ctx context.Context, p prober) (int, error) {
	v := probes[probeKey(arch.RISCV64, "has_v")]
	table := cpuTables[arch.RISCV64]
	on := ruleOn(arch.RISCV64, table.vectorFlag)
	for n := 1 << 16; n >= qemuMinVlen; n /= 2 {
		if got, _ := p.run(ctx, fmt.Sprintf("%s,%s,vlen=%d", table.base, on, n), v.hex); got == probeRan {
			return n, nil
		}
	}
	return 0, fmt.Errorf("riscv64: %s runs no vector code at any VLEN from %d to %d", p.emulator, qemuMinVlen, 1<<16)
}

func ruleOn(arch, flag string) string {
	r, _ := ruleFor(arch, flag)
	return r.on
}
