package harness

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A probe is an instruction that needs a CPU feature, as bytes in memory
// order for testdata/probe.c, with the flags it also needs (a vector
// instruction needs has_v). Encodings come from binutils 2.40 where it
// knows the instruction, from the ISA manuals (and Cranelift's emitters)
// where it does not (zicond, zfa, zcb, zvbb, s390x arch15).
type probe struct {
	hex  string
	with []string
}

var probes = map[string]probe{
	"riscv64/has_m":        {hex: "3385c502"},                                       // mul a0, a1, a2
	"riscv64/has_a":        {hex: "2f200500"},                                       // amoadd.w zero, zero, (a0)
	"riscv64/has_f":        {hex: "53700000"},                                       // fadd.s ft0, ft0, ft0
	"riscv64/has_d":        {hex: "53700002"},                                       // fadd.d ft0, ft0, ft0
	"riscv64/has_zicsr":    {hex: "73253000"},                                       // frcsr a0
	"riscv64/has_zifencei": {hex: "0f100000"},                                       // fence.i
	"riscv64/has_zca":      {hex: "0100"},                                           // c.nop
	"riscv64/has_zcd":      {hex: "0220"},                                           // c.fldsp ft0, 0(sp)
	"riscv64/has_zcb":      {hex: "759d"},                                           // c.not a0
	"riscv64/has_zfa":      {hex: "530018f0"},                                       // fli.s ft0, 1.0
	"riscv64/has_zfhmin":   {hex: "53002040"},                                       // fcvt.s.h ft0, ft0
	"riscv64/has_zfh":      {hex: "53700004"},                                       // fadd.h ft0, ft0, ft0
	"riscv64/has_v":        {hex: "57750001" + "57000002"},                          // vsetvli a0, zero, e32; vadd.vv v0, v0, v0
	"riscv64/has_zvfh":     {hex: "57758000" + "57100002", with: []string{"has_v"}}, // vsetvli a0, zero, e16; vfadd.vv v0, v0, v0
	"riscv64/has_zvbb":     {hex: "57750001" + "57000006", with: []string{"has_v"}}, // vsetvli a0, zero, e32; vandn.vv v0, v0, v0
	"riscv64/has_zbkb":     {hex: "33c5c508"},                                       // pack a0, a1, a2
	"riscv64/has_zba":      {hex: "33a5c520"},                                       // sh1add a0, a1, a2
	"riscv64/has_zbb":      {hex: "33f5c540"},                                       // andn a0, a1, a2
	"riscv64/has_zbc":      {hex: "3395c50a"},                                       // clmul a0, a1, a2
	"riscv64/has_zbs":      {hex: "3395c528"},                                       // bset a0, a1, a2
	"riscv64/has_zicond":   {hex: "33d5c50e"},                                       // czero.eqz a0, a1, a2

	"s390x/has_mie3":      {hex: "b9f53012"},     // ncrk %r1, %r2, %r3
	"s390x/has_vxrs_ext2": {hex: "e712000020c3"}, // vcefb %v1, %v2, 0, 0
	"s390x/has_mie4":      {hex: "b9680012"},     // clzg %r1, %r2
	"s390x/has_vxrs_ext3": {hex: "e71200004053"}, // vclzq %v1, %v2

	"aarch64/has_lse":             {hex: "020021b8"}, // ldadd w1, w2, [x0]
	"aarch64/has_fp16":            {hex: "2028e21e"}, // fadd h0, h1, h2
	"aarch64/has_dotprod":         {hex: "2094824e"}, // sdot v0.4s, v1.16b, v2.16b
	"aarch64/has_i8mm":            {hex: "209c824e"}, // usdot v0.4s, v1.16b, v2.16b
	"aarch64/has_pauth":           {hex: "4100c1da"}, // pacia x1, x2
	"aarch64/sign_return_address": {hex: "4100c1da"}, // pacia x1, x2

	"x86_64/has_sse3":       {hex: "f20f7cc0"},   // haddps %xmm0, %xmm0
	"x86_64/has_ssse3":      {hex: "660f3800c0"}, // pshufb %xmm0, %xmm0
	"x86_64/has_cmpxchg16b": {hex: "f0480fc70f"}, // lock cmpxchg16b (%rdi)
	"x86_64/has_sse41":      {hex: "660f3817c0"}, // ptest %xmm0, %xmm0
	"x86_64/has_sse42":      {hex: "660f3837c0"}, // pcmpgtq %xmm0, %xmm0
	"x86_64/has_avx":        {hex: "c5fc58c0"},   // vaddps %ymm0, %ymm0, %ymm0
	"x86_64/has_avx2":       {hex: "c5fdfec0"},   // vpaddd %ymm0, %ymm0, %ymm0
	"x86_64/has_fma":        {hex: "c4e279b8c0"}, // vfmadd231ps %xmm0, %xmm0, %xmm0
	"x86_64/has_popcnt":     {hex: "f3480fb8c0"}, // popcnt %rax, %rax
	"x86_64/has_bmi1":       {hex: "c4e2f8f2c0"}, // andn %rax, %rax, %rax
	"x86_64/has_bmi2":       {hex: "c4e2f9f7c0"}, // shlx %rax, %rax, %rax
	// Without LZCNT the bytes are BSR, which answers 0 for 1 instead of
	// 63: mov $1, %eax; lzcnt %rax, %rax; cmp $63, %rax; je 1f; ud2; 1: nop
	"x86_64/has_lzcnt":        {hex: "b801000000" + "f3480fbdc0" + "4883f83f" + "7402" + "0f0b" + "90"},
	"x86_64/has_avx_vnni":     {hex: "c4e27950c0"},   // {vex} vpdpbusd %xmm0, %xmm0, %xmm0
	"x86_64/has_avx512f":      {hex: "62f17d48fec0"}, // vpaddd %zmm0, %zmm0, %zmm0
	"x86_64/has_avx512vl":     {hex: "62a17d00fec0"}, // vpaddd %xmm16, %xmm16, %xmm16
	"x86_64/has_avx512dq":     {hex: "62f2fd4840c0"}, // vpmullq %zmm0, %zmm0, %zmm0
	"x86_64/has_avx512bitalg": {hex: "62f27d4854c0"}, // vpopcntb %zmm0, %zmm0
	"x86_64/has_avx512vbmi":   {hex: "62f27d488dc0"}, // vpermb %zmm0, %zmm0, %zmm0
	"x86_64/has_avx512vnni":   {hex: "62f27d4850c0"}, // vpdpbusd %zmm0, %zmm0, %zmm0
}

// Probe exit statuses (testdata/probe.c).
const (
	probeRan    = 0
	probeSIGILL = 4
)

// buildProbe compiles testdata/probe.c statically for arch.
func buildProbe(t *testing.T, arch Arch) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "probe")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, arch.Compiler(), "-O2", "-static", "-o", exe, filepath.Join("testdata", "probe.c")).CombinedOutput()
	if err != nil {
		t.Fatalf("build probe: %v\n%s", err, out)
	}
	return exe
}

// runProbe runs instruction bytes under qemu -cpu cpu and returns the
// probe's exit status; qemu refusing the cpu string fails the test.
func runProbe(t *testing.T, arch Arch, exe, cpu, hex string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, arch.Emulator(), "-cpu", cpu, exe, hex)
	if cpu == "" {
		cmd = exec.CommandContext(ctx, exe, hex) // natively
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return probeRan
	case errors.As(err, &exit) && (exit.ExitCode() == probeSIGILL):
		return exit.ExitCode()
	}
	t.Errorf("qemu -cpu %s probe %s: %v: %s", cpu, hex, err, stderr.String())
	return -1
}

func trueFlags(names ...string) []string {
	var flags []string
	for _, n := range names {
		flags = append(flags, n+"=true")
	}
	return flags
}

// mostCapableCPUs are the -cpu strings with the most features QEMU 7.2
// has for arch: a feature they lack is one QEMU cannot emulate.
func mostCapableCPUs(t *testing.T, arch Arch) []string {
	var all []string
	for _, r := range cpuTables[arch].rules {
		if r.unsupported == "" {
			all = append(all, r.flag+"=true")
		}
	}
	cpu, err := QemuCPU(arch, all)
	if err != nil {
		t.Fatalf("every supported flag of %s: %v", arch, err)
	}
	return []string{cpu, widestModel[arch]}
}

// widestModel is QEMU 7.2's model with every feature it emulates.
var widestModel = map[Arch]string{AArch64: "max", RISCV64: "any", S390X: "max", X86_64: "max"}

// TestCPUTableAgainstQemu checks every claim of cpu_table.go by running an
// instruction that needs the feature under qemu: it runs with the flag on,
// raises SIGILL with the flag off (unless the row says QEMU does not gate
// it), and raises SIGILL even on the most capable CPU when the row says
// QEMU 7.2 lacks the feature.
func TestCPUTableAgainstQemu(t *testing.T) {
	for _, arch := range Arches() {
		t.Run(string(arch), func(t *testing.T) {
			t.Parallel()
			requireArch(t, arch)
			exe := buildProbe(t, arch)
			for _, r := range cpuTables[arch].rules {
				key := string(arch) + "/" + r.flag
				p, ok := probes[key]
				claims := r.on != "" || r.off != "" || r.needs != "" || r.unsupported != "" || r.ungated
				if r.vlen != 0 {
					continue // TestQemuVlen
				}
				if !claims {
					if ok {
						t.Errorf("%s: a probe for a flag that needs nothing of the CPU", key)
					}
					continue
				}
				if !ok {
					t.Errorf("%s: no probe backs this row", key)
					continue
				}
				with := trueFlags(p.with...)
				if r.unsupported != "" {
					if _, err := QemuCPU(arch, append(with, r.flag+"=true")); err == nil || !strings.Contains(err.Error(), r.flag) {
						t.Errorf("%s: QemuCPU error %v, want one naming the flag", key, err)
					}
					for _, cpu := range mostCapableCPUs(t, arch) {
						if got := runProbe(t, arch, exe, cpu, p.hex); got != probeSIGILL {
							t.Errorf("%s: marked unsupported, but the probe ran under -cpu %s", key, cpu)
						}
					}
					continue
				}
				cpuOn, err := QemuCPU(arch, append(with, r.flag+"=true"))
				if err != nil {
					t.Errorf("%s=true: %v", key, err)
					continue
				}
				if got := runProbe(t, arch, exe, cpuOn, p.hex); got != probeRan {
					t.Errorf("%s=true: -cpu %s: probe exit %d, want it to run", key, cpuOn, got)
				}
				cpuOff, err := QemuCPU(arch, append(with, r.flag+"=false"))
				if err != nil {
					t.Errorf("%s=false: %v", key, err)
					continue
				}
				want := probeSIGILL
				if r.ungated {
					want = probeRan
				}
				if got := runProbe(t, arch, exe, cpuOff, p.hex); got != want {
					t.Errorf("%s=false: -cpu %s: probe exit %d, want %d (ungated: %v)", key, cpuOff, got, want, r.ungated)
				}
			}
		})
	}
}

// TestHostTableAgainstThisCPU checks the x86_64 table's /proc/cpuinfo
// names on this machine: each probe runs natively exactly when the host
// has the feature its flag needs.
func TestHostTableAgainstThisCPU(t *testing.T) {
	if HostArch() != X86_64 {
		t.Skip("the table names host features for x86_64 only")
	}
	t.Setenv(HostFeaturesEnv, "") // this CPU as it is
	host, err := DetectHost()
	if err != nil {
		t.Fatal(err)
	}
	exe := buildProbe(t, X86_64)
	for _, r := range cpuTables[X86_64].rules {
		p, ok := probes["x86_64/"+r.flag]
		if !ok || r.needs == "" {
			t.Errorf("x86_64/%s: a row without a probe or a host feature", r.flag)
			continue
		}
		want := probeSIGILL
		if host.Has(r.needs) {
			want = probeRan
		}
		if got := runProbe(t, X86_64, exe, "", p.hex); got != want {
			t.Errorf("%s (needs %s, which this host has: %v): native probe exit %d, want %d", r.flag, r.needs, host.Has(r.needs), got, want)
		}
	}
}

// TestQemuVlen checks the vector length limits the riscv64 table assumes.
func TestQemuVlen(t *testing.T) {
	requireArch(t, RISCV64)
	exe := buildProbe(t, RISCV64)
	v := probes["riscv64/has_v"].hex
	for _, zvl := range []string{"has_zvl128b", "has_zvl512b", "has_zvl1024b"} {
		cpu, err := QemuCPU(RISCV64, trueFlags("has_v", zvl))
		if err != nil {
			t.Fatal(err)
		}
		if got := runProbe(t, RISCV64, exe, cpu, v); got != probeRan {
			t.Errorf("%s: -cpu %s: probe exit %d", zvl, cpu, got)
		}
	}
	// The table's limit is QEMU's: it refuses a larger VLEN.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, RISCV64.Emulator(), "-cpu", "rv64,v=true,vlen=2048", exe, v).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "VLEN") {
		t.Errorf("qemu with vlen=2048: %v, %s; want it refused", err, out)
	}
}
