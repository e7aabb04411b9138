package harness

import (
	"cliff/lib/arch"
	"slices"
	"strings"
	"testing"
)

// riscvDefaults are the driver's effective flags for plain "riscv64".
var riscvDefaults = []string{
	"has_m=true", "has_a=true", "has_f=true", "has_d=true", "has_zfa=false", "has_zfhmin=false",
	"has_zfh=false", "has_v=false", "has_zvfh=false", "has_zca=false", "has_zcd=false", "has_zcb=false",
	"has_zbkb=false", "has_zba=false", "has_zbb=false", "has_zbc=false", "has_zbs=false",
	"has_zicond=false", "has_zvbb=false", "has_zicsr=true", "has_zifencei=true",
	"has_zvl32b=false", "has_zvl64b=false", "has_zvl128b=false", "has_zvl256b=false",
}

// with returns base with some flags replaced.
func with(base []string, flags ...string) []string {
	out := append([]string{}, base...)
	for _, f := range flags {
		name, _, _ := strings.Cut(f, "=")
		replaced := false
		for i, b := range out {
			if strings.HasPrefix(b, name+"=") {
				out[i], replaced = f, true
			}
		}
		if !replaced {
			out = append(out, f)
		}
	}
	return out
}

// A qemuCPUTest is a -cpu string QemuCPU should build, or its error.
type qemuCPUTest struct {
	name    string
	arch    string
	flags   []string
	want    string
	wantErr string
}

func TestQemuCPU(t *testing.T) {
	const riscvOff = "Zfhmin=false,Zfh=false,v=false,zbkb=false,zba=false,zbb=false,zbc=false,zbs=false"
	tests := []qemuCPUTest{
		{"riscv64 default", arch.RISCV64, riscvDefaults, "rv64," + riscvOff, ""},
		{"riscv64 nothing given", arch.RISCV64, nil, "rv64", ""},
		{"riscv64 bitmanip", arch.RISCV64, with(riscvDefaults, "has_zba=true", "has_zbb=true"),
			"rv64,Zfhmin=false,Zfh=false,v=false,zbkb=false,zba=true,zbb=true,zbc=false,zbs=false", ""},
		{"riscv64 vector", arch.RISCV64, with(riscvDefaults, "has_v=true", "has_zvl32b=true", "has_zvl64b=true", "has_zvl128b=true"),
			"rv64,Zfhmin=false,Zfh=false,v=true,vext_spec=v1.0,elen=64,zbkb=false,zba=false,zbb=false,zbc=false,zbs=false,vlen=128", ""},
		{"riscv64 vector without zvl", arch.RISCV64, []string{"has_v"}, "rv64,v=true,vext_spec=v1.0,elen=64,vlen=128", ""},
		{"riscv64 vlen 512", arch.RISCV64, []string{"has_v=true", "has_zvl256b=true", "has_zvl512b=true"}, "rv64,v=true,vext_spec=v1.0,elen=64,vlen=512", ""},
		{"riscv64 zvl without v", arch.RISCV64, []string{"has_v=false", "has_zvl256b=true"}, "rv64,v=false", ""},
		{"riscv64 half floats", arch.RISCV64, []string{"has_zfh=true", "has_zfhmin=true", "has_zvfh=true", "has_v=true"},
			"rv64,Zfhmin=true,Zfh=true,v=true,vext_spec=v1.0,elen=64,vlen=128", ""},
		{"riscv64 compressed", arch.RISCV64, []string{"has_zca=true", "has_zcd=true"}, "rv64", ""},
		{"riscv64 zcb", arch.RISCV64, with(riscvDefaults, "has_zcb=true"), "", "has_zcb cannot be emulated"},
		{"riscv64 zfa", arch.RISCV64, with(riscvDefaults, "has_zfa=true"), "", "has_zfa cannot be emulated"},
		{"riscv64 zicond", arch.RISCV64, with(riscvDefaults, "has_zicond=true"), "", "has_zicond cannot be emulated"},
		{"riscv64 zvbb", arch.RISCV64, []string{"has_v=true", "has_zvbb=true"}, "", "has_zvbb cannot be emulated"},
		{"riscv64 vlen 2048", arch.RISCV64, []string{"has_v=true", "has_zvl2048b=true"}, "", "has_zvl2048b cannot be emulated: QEMU 7.2 supports VLEN up to 1024"},
		{"riscv64 first of two unsupported", arch.RISCV64, []string{"has_zicond=true", "has_zcb=true"}, "", "has_zcb"},
		{"unknown flag on", arch.RISCV64, []string{"has_zquux=true"}, "", "has_zquux: unknown"},
		{"unknown flag off", arch.RISCV64, []string{"has_zquux=false"}, "rv64", ""},
		{"bad value", arch.RISCV64, []string{"has_zba=yes"}, "", `"has_zba=yes"`},

		{"s390x nothing given", arch.S390X, nil, "qemu", ""},
		{"s390x z14", arch.S390X, []string{"has_mie3=false", "has_vxrs_ext2=false", "has_mie4=false", "has_vxrs_ext3=false"}, "qemu,minste3=off,vxeh2=off", ""},
		{"s390x arch13", arch.S390X, []string{"has_mie3=true", "has_vxrs_ext2=true", "has_mie4=false", "has_vxrs_ext3=false"}, "qemu,minste3=on,vxeh2=on", ""},
		{"s390x arch15", arch.S390X, []string{"has_mie3=true", "has_vxrs_ext2=true", "has_mie4=true", "has_vxrs_ext3=true"}, "", "has_mie4 cannot be emulated"},
		{"s390x vxrs_ext3", arch.S390X, []string{"has_vxrs_ext3=true"}, "", "has_vxrs_ext3 cannot be emulated"},

		{"aarch64 baseline", arch.AArch64, []string{"has_lse=false", "has_fp16=false", "use_bti=false"}, "cortex-a57", ""},
		{"aarch64 lse", arch.AArch64, []string{"has_lse=true"}, "cortex-a76", ""},
		{"aarch64 v8.2", arch.AArch64, []string{"has_lse=true", "has_fp16=true", "has_dotprod=true"}, "cortex-a76", ""},
		{"aarch64 i8mm", arch.AArch64, []string{"has_i8mm=true"}, "max,pauth=off", ""},
		{"aarch64 pauth", arch.AArch64, []string{"has_pauth=true", "has_lse=false"}, "max", ""},
		{"aarch64 signed returns", arch.AArch64, []string{"sign_return_address=true", "sign_return_address_with_bkey=true"}, "max", ""},
		{"aarch64 bti and csdb", arch.AArch64, []string{"use_bti=true", "use_csdb=true"}, "cortex-a57", ""},

		{"x86_64 baseline", arch.X86_64, x86Defaults, "qemu64,pni=off,ssse3=off,cx16=off,sse4.1=off,sse4.2=off,avx=off,avx2=off,fma=off,popcnt=off,bmi1=off,bmi2=off,abm=off", ""},
		{"x86_64 nothing given", arch.X86_64, nil, "qemu64", ""},
		{"x86_64 skylake", arch.X86_64, x86Skylake, "qemu64,pni=on,ssse3=on,cx16=on,sse4.1=on,sse4.2=on,avx=on,xsave=on,avx2=on,fma=on,popcnt=on,bmi1=on,bmi2=on,abm=on", ""},
		{"x86_64 avx2 alone", arch.X86_64, []string{"has_avx2"}, "qemu64,avx2=on,avx=on,xsave=on", ""},
		{"x86_64 avx512", arch.X86_64, with(x86Skylake, "has_avx512f=true", "has_avx512vl=true"), "", "has_avx512f cannot be emulated: QEMU 7.2 has no AVX-512"},
		{"x86_64 avx-vnni", arch.X86_64, []string{"has_avx_vnni"}, "", "has_avx_vnni cannot be emulated"},
		{"x86_64 unknown flag", arch.X86_64, []string{"has_sse5"}, "", "has_sse5: unknown"},
	}
	// What QEMU 10 adds: the extensions 7.2 lacks, and a zvfh property.
	tests10 := []qemuCPUTest{
		{"riscv64 zcb, the rest off", arch.RISCV64, with(riscvDefaults, "has_zcb=true"),
			"rv64,zcb=true,zfa=false,zfhmin=false,zfh=false,v=false,zvfh=false,zvbb=false,zbkb=false,zba=false,zbb=false,zbc=false,zbs=false,zicond=false", ""},
		{"riscv64 zfa zicond", arch.RISCV64, []string{"has_zfa=true", "has_zicond=true"}, "rv64,zfa=true,zicond=true", ""},
		{"riscv64 zvbb", arch.RISCV64, []string{"has_v=true", "has_zvbb=true"}, "rv64,v=true,vext_spec=v1.0,elen=64,zvbb=true,vlen=128", ""},
		{"riscv64 half floats", arch.RISCV64, []string{"has_zfh=true", "has_zfhmin=true", "has_zvfh=true", "has_v=true"},
			"rv64,zfhmin=true,zfh=true,v=true,vext_spec=v1.0,elen=64,zvfh=true,vlen=128", ""},
		{"riscv64 zvfh needs zfhmin under QEMU 10", arch.RISCV64, []string{"has_v=true", "has_zfhmin=false", "has_zvfh=true"},
			"rv64,zfhmin=false,v=true,vext_spec=v1.0,elen=64,zvfh=true,zfhmin=true,zfh=true,vlen=128", ""},
		{"riscv64 vlen 2048", arch.RISCV64, []string{"has_v=true", "has_zvl2048b=true"}, "", "qemu-riscv64-static 10.0.2 supports VLEN up to 1024"},
		{"s390x arch15", arch.S390X, []string{"has_mie4=true"}, "", "has_mie4 cannot be emulated: qemu-s390x-static 10.0.2 has no has_mie4"},
		{"x86_64 avx512", arch.X86_64, []string{"has_avx512f=true"}, "", "has_avx512f cannot be emulated: qemu-x86_64-static 10.0.2 has no has_avx512f"},
	}
	for _, run := range []struct {
		qemu  string
		emu   map[string]*Emulator
		tests []qemuCPUTest
	}{{"QEMU 7.2", qemu72, tests}, {"QEMU 10", qemu10, tests10}} {
		for _, tt := range run.tests {
			got, err := QemuCPU(run.emu[tt.arch], tt.flags)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("%s %s: got %q, %v; want error containing %q", run.qemu, tt.name, got, err, tt.wantErr)
				}
				continue
			}
			if err != nil || got != tt.want {
				t.Errorf("%s %s: got %q, %v; want %q", run.qemu, tt.name, got, err, tt.want)
			}
		}
	}
}

// x86Defaults and x86Skylake are the driver's effective flags for plain
// "x86_64" and for "x86_64 skylake".
var (
	x86Defaults = []string{
		"has_sse3=false", "has_ssse3=false", "has_cmpxchg16b=false", "has_sse41=false", "has_sse42=false",
		"has_avx=false", "has_avx2=false", "has_fma=false", "has_avx_vnni=false", "has_avx512bitalg=false",
		"has_avx512dq=false", "has_avx512vl=false", "has_avx512vbmi=false", "has_avx512f=false",
		"has_avx512vnni=false", "has_popcnt=false", "has_bmi1=false", "has_bmi2=false", "has_lzcnt=false",
	}
	x86Skylake = with(x86Defaults, "has_sse3=true", "has_ssse3=true", "has_cmpxchg16b=true", "has_sse41=true",
		"has_sse42=true", "has_avx=true", "has_avx2=true", "has_fma=true", "has_popcnt=true", "has_bmi1=true",
		"has_bmi2=true", "has_lzcnt=true")
)

// Emulators as probed, whatever QEMU this machine has: 7.2 (the
// baseline) and 10.0.2 (Debian's bookworm-backports), whose probe found
// every riscv64 extension of Cranelift but VLENs over 1024, and neither
// s390x arch15 nor AVX-512 nor AVX-VNNI.
var (
	qemu72 = map[string]*Emulator{}
	qemu10 = map[string]*Emulator{}
)

func init() {
	for _, a := range Arches() {
		qemu72[a] = BaselineEmulator(a)
		e := &Emulator{Arch: a, Path: "/usr/bin/" + EmulatorName(a), Version: "10.0.2", Lacks: map[string]string{}, MaxVlen: 1024}
		for _, r := range cpuTables[a].rules {
			lacks := r.vlen > 1024 || strings.HasPrefix(r.flag, "has_avx512") || r.flag == "has_avx_vnni" || r.flag == "has_mie4" || r.flag == "has_vxrs_ext3"
			if lacks {
				e.Lacks[r.flag] = e.String() + " has no " + r.flag
			}
			if r.vlen > 1024 {
				e.Lacks[r.flag] = e.String() + " supports VLEN up to 1024 bits"
			}
		}
		qemu10[a] = e
	}
}

// Hosts of the kinds the project runs on, whatever this machine is.
var (
	hostV4  = Host{Arch: arch.X86_64, Features: sortedFeatures("fpu sse2 cx16 lahf_lm pni ssse3 sse4_1 sse4_2 popcnt avx avx2 fma bmi1 bmi2 abm f16c movbe xsave avx512f avx512dq avx512vl avx512bw avx512cd avx512vbmi avx512_bitalg avx512_vnni"), Emulators: qemu72}
	hostV3  = Host{Arch: arch.X86_64, Features: sortedFeatures("fpu sse2 cx16 lahf_lm pni ssse3 sse4_1 sse4_2 popcnt avx avx2 fma bmi1 bmi2 abm f16c movbe xsave"), Emulators: qemu72}
	hostV2  = Host{Arch: arch.X86_64, Features: sortedFeatures("fpu sse2 cx16 lahf_lm pni ssse3 sse4_1 sse4_2 popcnt"), Emulators: qemu72}
	hostARM = Host{Arch: arch.AArch64, Emulators: qemu72}
)

func sortedFeatures(list string) []string { return slices.Sorted(slices.Values(strings.Fields(list))) }

func TestPlace(t *testing.T) {
	avx512 := with(x86Skylake, "has_avx512f=true", "has_avx512vl=true")
	tests := []struct {
		name    string
		host    Host
		arch    string
		flags   []string
		want    Placement
		wantErr string
	}{
		{"skylake code on a v3 host", hostV3, arch.X86_64, x86Skylake, Placement{}, ""},
		{"baseline code on a v2 host", hostV2, arch.X86_64, x86Defaults, Placement{}, ""},
		{"avx2 code on a v2 host runs under qemu", hostV2, arch.X86_64, x86Skylake,
			Placement{Emulated: true, CPU: "qemu64,pni=on,ssse3=on,cx16=on,sse4.1=on,sse4.2=on,avx=on,xsave=on,avx2=on,fma=on,popcnt=on,bmi1=on,bmi2=on,abm=on"}, ""},
		{"avx512 code on a v4 host", hostV4, arch.X86_64, avx512, Placement{}, ""},
		{"avx512 code on a v3 host runs nowhere", hostV3, arch.X86_64, avx512, Placement{}, "x86_64: ISA flag has_avx512vl needs avx512vl, which this host's CPU lacks, and QEMU 7.2 has no AVX-512"},
		{"avx512 code on a v2 host names the AVX-512 flag", hostV2, arch.X86_64, avx512, Placement{}, "x86_64: ISA flag has_avx512vl needs avx512vl, which this host's CPU lacks, and QEMU 7.2 has no AVX-512"},
		{"host lacks what QEMU has, has what QEMU lacks", Host{Arch: arch.X86_64, Features: []string{"avx512f"}}, arch.X86_64, []string{"has_avx512f", "has_popcnt"}, Placement{}, "x86_64: ISA flag has_popcnt needs popcnt, which this host's CPU lacks, and QEMU cannot stand in: ISA flag has_avx512f cannot be emulated"},
		{"unknown flag on the host's arch", hostV4, arch.X86_64, []string{"has_sse5=true"}, Placement{}, "has_sse5: unknown"},
		{"riscv64 on x86_64", hostV3, arch.RISCV64, []string{"has_zba=true"}, Placement{Emulated: true, CPU: "rv64,zba=true"}, ""},
		{"riscv64 unemulated", hostV3, arch.RISCV64, []string{"has_zcb=true"}, Placement{}, "has_zcb cannot be emulated"},
		{"riscv64 under QEMU 10", Host{Arch: arch.X86_64, Emulators: qemu10}, arch.RISCV64, []string{"has_zcb=true"}, Placement{Emulated: true, CPU: "rv64,zcb=true"}, ""},
		{"x86_64 code on an aarch64 host", hostARM, arch.X86_64, []string{"has_avx=true"}, Placement{Emulated: true, CPU: "qemu64,avx=on,xsave=on"}, ""},
		{"aarch64 code on an aarch64 host", hostARM, arch.AArch64, []string{"has_lse=true", "has_i8mm=true"}, Placement{}, ""},
	}
	for _, tt := range tests {
		got, err := Place(tt.host, tt.arch, tt.flags)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: got %v, %v; want error containing %q", tt.name, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s: got %+v, %v; want %+v", tt.name, got, err, tt.want)
		}
	}
}

func TestBlockers(t *testing.T) {
	tests := []struct {
		name   string
		host   Host
		arch   string
		flags  []string
		native []string // NativeBlockers (the host's arch only)
		qemu   []string // QemuBlockers
	}{
		{"riscv64: what QEMU cannot emulate", hostV3, arch.RISCV64, []string{"has_zcb=true", "has_v=true", "has_zfa=false", "has_zicond=true", "has_zba=true"}, nil, []string{"has_zcb", "has_zicond"}},
		{"aarch64: QEMU emulates it all", hostV3, arch.AArch64, []string{"has_lse=true"}, nil, nil},
		{"riscv64: QEMU 10 emulates it all", Host{Arch: arch.X86_64, Emulators: qemu10}, arch.RISCV64, []string{"has_zcb=true", "has_v=true", "has_zicond=true"}, nil, nil},
		{"x86_64: what a v2 host lacks", hostV2, arch.X86_64, with(x86Skylake, "has_avx512f=true"),
			[]string{"has_avx", "has_avx2", "has_avx512f", "has_bmi1", "has_bmi2", "has_fma", "has_lzcnt"}, []string{"has_avx512f"}},
		{"x86_64: a v4 host has it all", hostV4, arch.X86_64, with(x86Skylake, "has_avx512f=true"), nil, []string{"has_avx512f"}},
		{"unknown flags", hostV4, arch.X86_64, []string{"has_sse5=true", "has_sse6=false", "has_avx=true"}, []string{"has_sse5"}, []string{"has_sse5"}},
	}
	for _, tt := range tests {
		if tt.arch == tt.host.Arch {
			if got := NativeBlockers(tt.host, tt.arch, tt.flags); !slices.Equal(got, tt.native) {
				t.Errorf("%s: NativeBlockers = %v, want %v", tt.name, got, tt.native)
			}
		}
		if got := QemuBlockers(tt.host, tt.arch, tt.flags); !slices.Equal(got, tt.qemu) {
			t.Errorf("%s: QemuBlockers = %v, want %v", tt.name, got, tt.qemu)
		}
	}
}
