package harness

import (
	"cliff/lib/arch"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// probed is the installed QEMU for arch, as ProbeEmulator measures it.
func probed(t testing.TB, arch string) *Emulator {
	t.Helper()
	requireArch(t, arch)
	e, err := ProbeEmulator(context.Background(), arch)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// testProber runs probes under the installed QEMU for arch (natively
// with cpu "").
func testProber(t *testing.T, arch string) prober {
	t.Helper()
	exe, err := cachedBuild(context.Background(), arch, &cachedPrograms, "probe", probeSource, []string{"-O2", "-static"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	path, err := EmulatorPath(arch)
	if err != nil {
		t.Fatal(err)
	}
	return prober{arch: arch, emulator: path, exe: exe}
}

func (p prober) mustRun(t *testing.T, cpu, hex string) probeResult {
	t.Helper()
	got, why := p.run(context.Background(), cpu, hex)
	if got == probeFaulted {
		t.Errorf("-cpu %s probe %s: %s", cpu, hex, why)
	}
	return got
}

func trueFlags(names ...string) []string {
	var flags []string
	for _, n := range names {
		flags = append(flags, n+"=true")
	}
	return flags
}

// widestModel is QEMU's model with every feature it emulates.
var widestModel = map[string]string{arch.AArch64: "max", arch.RISCV64: "max", arch.S390X: "max", arch.X86_64: "max"}

// TestCPUTableAgainstQemu checks what ProbeEmulator says of the installed
// QEMU by running every probe again: a flag it can run runs with the -cpu
// QemuCPU builds and raises SIGILL with the flag off (unless the probe
// found it ungated); a flag it lacks raises SIGILL even on QEMU's widest
// model. Every row that switches something has a probe.
func TestCPUTableAgainstQemu(t *testing.T) {
	for _, arch := range Arches() {
		t.Run(arch, func(t *testing.T) {
			t.Parallel()
			emu := probed(t, arch)
			p := testProber(t, arch)
			t.Logf("%s: lacks %d flags, ungated %v, no property %v, max VLEN %d", emu, len(emu.Lacks), emu.Ungated, emu.NoProperty, emu.MaxVlen)
			for _, r := range cpuTables[arch].rules {
				key := probeKey(arch, r.flag)
				pr, ok := probes[key]
				if r.vlen != 0 {
					continue // TestQemuVlen
				}
				switches := r.on != "" || r.off != "" || r.needs != ""
				switch {
				case !switches && ok && !r.base:
					t.Errorf("%s: a probe for a flag that needs nothing of the CPU", key)
					continue
				case switches && !ok:
					t.Errorf("%s: no probe backs this row", key)
					continue
				case !ok:
					continue
				}
				with := trueFlags(pr.with...)
				if why, lacks := emu.Lacks[r.flag]; lacks {
					if _, err := QemuCPU(emu, append(with, r.flag+"=true")); err == nil || !strings.Contains(err.Error(), why) {
						t.Errorf("%s: QemuCPU error %v, want one saying %q", key, err, why)
					}
					if got := p.mustRun(t, widestModel[arch], pr.hex); got == probeRan {
						t.Errorf("%s: probed as lacking (%s), but the probe runs under -cpu %s", key, why, widestModel[arch])
					}
					continue
				}
				cpuOn, err := QemuCPU(emu, append(with, r.flag+"=true"))
				if err != nil {
					t.Errorf("%s=true: %v", key, err)
					continue
				}
				if got := p.mustRun(t, cpuOn, pr.hex); got != probeRan {
					t.Errorf("%s=true: -cpu %s: probe %v, want it to run", key, cpuOn, got)
				}
				if r.base {
					continue
				}
				cpuOff, err := QemuCPU(emu, append(with, r.flag+"=false"))
				if err != nil {
					t.Errorf("%s=false: %v", key, err)
					continue
				}
				want := probeIllegal
				if slices.Contains(emu.Ungated, r.flag) {
					want = probeRan
				}
				if got := p.mustRun(t, cpuOff, pr.hex); got != want {
					t.Errorf("%s=false: -cpu %s: probe %v, want %v (ungated: %v)", key, cpuOff, got, want, emu.Ungated)
				}
			}
		})
	}
}

// TestQemu10 checks what QEMU 10 is installed for: every riscv64
// extension Cranelift names, which QEMU 7.2 lacked.
func TestQemu10(t *testing.T) {
	emu := probed(t, arch.RISCV64)
	if major, _, _ := strings.Cut(emu.Version, "."); len(major) < 2 {
		t.Skipf("%s: older than QEMU 10 (scripts/setup.sh installs 10 where bookworm-backports is reachable)", emu)
	}
	for _, flag := range []string{"has_zcb", "has_zfa", "has_zicond", "has_zvbb", "has_zvfh"} {
		if why, lacks := emu.Lacks[flag]; lacks {
			t.Errorf("%s lacks %s: %s", emu, flag, why)
		}
	}
	if emu.MaxVlen < 1024 {
		t.Errorf("%s: max VLEN %d, want at least 1024", emu, emu.MaxVlen)
	}
}

// TestProbeClassifies runs the probing against a fake emulator that
// refuses some properties, raises SIGILL for some instructions and
// accepts VLENs up to 512: each answer must land in the right field.
func TestProbeClassifies(t *testing.T) {
	requireArch(t, arch.RISCV64)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := t.TempDir()
	fake := filepath.Join(dir, "qemu-riscv64-static")
	script := `#!/bin/sh
[ "$1" = --version ] && { echo "qemu-riscv64 version 9.9.9 (fake)"; exit 0; }
cpu=$2 hex=$4
case "$cpu" in *vlen=1024*|*vlen=2048*|*vlen=4096*|*vlen=8192*|*vlen=16384*|*vlen=32768*|*vlen=65536*) echo "qemu: VLEN out of range" >&2; exit 1;; esac
case "$cpu" in *zcb=true*|*zvfh=true*|*,zfh=true*) echo "qemu: can't apply global rv64-riscv-cpu.x: Property not found" >&2; exit 1;; esac
case "$hex" in
` + probes["riscv64/has_zfa"].hex + `|` + probes["riscv64/has_zcb"].hex + `) exit 4;;
` + probes["riscv64/has_zicond"].hex + `) exit 5;;
` + probes["riscv64/has_zba"].hex + `) exit 0;;
esac
case "$cpu" in *=false*) exit 4;; esac
exit 0
`
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(QemuDirEnv, dir)
	emu, err := ProbeEmulator(context.Background(), arch.RISCV64)
	if err != nil {
		t.Fatal(err)
	}
	wantLacks := map[string]string{
		"has_zcb":      "refuses -cpu rv64,zcb=true (qemu: can't apply",
		"has_zfa":      "has no has_zfa: fli.s ft0, 1.0 raises SIGILL under -cpu rv64,zfa=true",
		"has_zicond":   "cannot run czero.eqz a0, a1, a2 under -cpu rv64,zicond=true: the probe faulted",
		"has_zvl1024b": "qemu-riscv64-static 9.9.9 supports VLEN up to 512 bits",
	}
	for flag, want := range wantLacks {
		if got := emu.Lacks[flag]; !strings.Contains(got, want) {
			t.Errorf("Lacks[%s] = %q, want it to contain %q", flag, got, want)
		}
	}
	for _, flag := range []string{"has_v", "has_zbb", "has_zvl512b", "has_zvfh", "has_zba"} {
		if why, lacks := emu.Lacks[flag]; lacks {
			t.Errorf("Lacks[%s] = %q, want it runnable", flag, why)
		}
	}
	if emu.MaxVlen != 512 {
		t.Errorf("MaxVlen = %d, want 512", emu.MaxVlen)
	}
	if !slices.Equal(emu.NoProperty, []string{"has_zvfh"}) {
		t.Errorf("NoProperty = %v, want [has_zvfh]", emu.NoProperty)
	}
	if !slices.Equal(emu.OldSpelling, []string{"has_zfh"}) {
		t.Errorf("OldSpelling = %v, want [has_zfh]", emu.OldSpelling)
	}
	if cpu, err := QemuCPU(emu, []string{"has_zfh=true", "has_zfhmin=true"}); err != nil || cpu != "rv64,zfhmin=true,Zfh=true" {
		t.Errorf("QemuCPU(zfh) = %q, %v; want the old spelling of zfh only", cpu, err)
	}
	if !slices.Contains(emu.Ungated, "has_zba") || slices.Contains(emu.Ungated, "has_zbb") {
		t.Errorf("Ungated = %v, want has_zba and not has_zbb", emu.Ungated)
	}
	cpu, err := QemuCPU(emu, []string{"has_v=true", "has_zvfh=true", "has_zvl512b=true"})
	if want := "rv64,v=true,vext_spec=v1.0,elen=64,vlen=512"; err != nil || cpu != want {
		t.Errorf("QemuCPU = %q, %v; want %q", cpu, err, want)
	}
	// The second probe of the same binary is the cached one, on disk.
	probedEmulators.Clear()
	again, err := ProbeEmulator(context.Background(), arch.RISCV64)
	if err != nil || !reflect.DeepEqual(again, emu) {
		t.Errorf("cached probe = %+v, %v; want %+v", again, err, emu)
	}
}

// TestHostTableAgainstThisCPU checks the x86_64 table's /proc/cpuinfo
// names on this machine: each probe runs natively exactly when the host
// has the feature its flag needs.
func TestHostTableAgainstThisCPU(t *testing.T) {
	if HostArch() != arch.X86_64 {
		t.Skip("the table names host features for x86_64 only")
	}
	t.Setenv(HostFeaturesEnv, "") // this CPU as it is
	host, err := DetectHost()
	if err != nil {
		t.Fatal(err)
	}
	p := testProber(t, arch.X86_64)
	p.emulator = "" // natively
	for _, r := range cpuTables[arch.X86_64].rules {
		pr, ok := probes["x86_64/"+r.flag]
		if !ok || r.needs == "" {
			t.Errorf("x86_64/%s: a row without a probe or a host feature", r.flag)
			continue
		}
		want := probeIllegal
		if host.Has(r.needs) {
			want = probeRan
		}
		if got := p.mustRun(t, "", pr.hex); got != want {
			t.Errorf("%s (needs %s, which this host has: %v): native probe %v, want %v", r.flag, r.needs, host.Has(r.needs), got, want)
		}
	}
}

// TestQemuVlen checks the vector length limit the probe found: vectors
// run up to it, and QEMU refuses twice as much.
func TestQemuVlen(t *testing.T) {
	emu := probed(t, arch.RISCV64)
	p := testProber(t, arch.RISCV64)
	v := probes["riscv64/has_v"].hex
	for _, zvl := range []string{"has_zvl128b", "has_zvl512b", "has_zvl1024b"} {
		cpu, err := QemuCPU(emu, trueFlags("has_v", zvl))
		if err != nil {
			t.Fatal(err)
		}
		if got := p.mustRun(t, cpu, v); got != probeRan {
			t.Errorf("%s: -cpu %s: probe %v", zvl, cpu, got)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, p.emulator, "-cpu", fmt.Sprintf("rv64,v=true,vlen=%d", 2*emu.MaxVlen), p.exe, v).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "VLEN") {
		t.Errorf("qemu with vlen=%d: %v, %s; want it refused", 2*emu.MaxVlen, err, out)
	}
}

func (r probeResult) String() string {
	return [...]string{"ran", "SIGILL", "refused", "faulted"}[r]
}
