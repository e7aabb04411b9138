package harness

import (
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

func TestQemuCPU(t *testing.T) {
	const riscvOff = "Zfhmin=false,Zfh=false,v=false,zbkb=false,zba=false,zbb=false,zbc=false,zbs=false"
	tests := []struct {
		name    string
		arch    Arch
		flags   []string
		want    string
		wantErr string
	}{
		{"riscv64 default", RISCV64, riscvDefaults, "rv64," + riscvOff, ""},
		{"riscv64 nothing given", RISCV64, nil, "rv64", ""},
		{"riscv64 bitmanip", RISCV64, with(riscvDefaults, "has_zba=true", "has_zbb=true"),
			"rv64,Zfhmin=false,Zfh=false,v=false,zbkb=false,zba=true,zbb=true,zbc=false,zbs=false", ""},
		{"riscv64 vector", RISCV64, with(riscvDefaults, "has_v=true", "has_zvl32b=true", "has_zvl64b=true", "has_zvl128b=true"),
			"rv64,Zfhmin=false,Zfh=false,v=true,vext_spec=v1.0,elen=64,zbkb=false,zba=false,zbb=false,zbc=false,zbs=false,vlen=128", ""},
		{"riscv64 vector without zvl", RISCV64, []string{"has_v"}, "rv64,v=true,vext_spec=v1.0,elen=64,vlen=128", ""},
		{"riscv64 vlen 512", RISCV64, []string{"has_v=true", "has_zvl256b=true", "has_zvl512b=true"}, "rv64,v=true,vext_spec=v1.0,elen=64,vlen=512", ""},
		{"riscv64 zvl without v", RISCV64, []string{"has_v=false", "has_zvl256b=true"}, "rv64,v=false", ""},
		{"riscv64 half floats", RISCV64, []string{"has_zfh=true", "has_zfhmin=true", "has_zvfh=true", "has_v=true"},
			"rv64,Zfhmin=true,Zfh=true,v=true,vext_spec=v1.0,elen=64,vlen=128", ""},
		{"riscv64 compressed", RISCV64, []string{"has_zca=true", "has_zcd=true"}, "rv64", ""},
		{"riscv64 zcb", RISCV64, with(riscvDefaults, "has_zcb=true"), "", "has_zcb cannot be emulated"},
		{"riscv64 zfa", RISCV64, with(riscvDefaults, "has_zfa=true"), "", "has_zfa cannot be emulated"},
		{"riscv64 zicond", RISCV64, with(riscvDefaults, "has_zicond=true"), "", "has_zicond cannot be emulated"},
		{"riscv64 zvbb", RISCV64, []string{"has_v=true", "has_zvbb=true"}, "", "has_zvbb cannot be emulated"},
		{"riscv64 vlen 2048", RISCV64, []string{"has_v=true", "has_zvl2048b=true"}, "", "has_zvl2048b cannot be emulated: QEMU 7.2 supports VLEN up to 1024"},
		{"riscv64 first of two unsupported", RISCV64, []string{"has_zicond=true", "has_zcb=true"}, "", "has_zcb"},
		{"unknown flag on", RISCV64, []string{"has_zquux=true"}, "", "has_zquux: unknown"},
		{"unknown flag off", RISCV64, []string{"has_zquux=false"}, "rv64", ""},
		{"bad value", RISCV64, []string{"has_zba=yes"}, "", `"has_zba=yes"`},

		{"s390x nothing given", S390X, nil, "qemu", ""},
		{"s390x z14", S390X, []string{"has_mie3=false", "has_vxrs_ext2=false", "has_mie4=false", "has_vxrs_ext3=false"}, "qemu,minste3=off,vxeh2=off", ""},
		{"s390x arch13", S390X, []string{"has_mie3=true", "has_vxrs_ext2=true", "has_mie4=false", "has_vxrs_ext3=false"}, "qemu,minste3=on,vxeh2=on", ""},
		{"s390x arch15", S390X, []string{"has_mie3=true", "has_vxrs_ext2=true", "has_mie4=true", "has_vxrs_ext3=true"}, "", "has_mie4 cannot be emulated"},
		{"s390x vxrs_ext3", S390X, []string{"has_vxrs_ext3=true"}, "", "has_vxrs_ext3 cannot be emulated"},

		{"aarch64 baseline", AArch64, []string{"has_lse=false", "has_fp16=false", "use_bti=false"}, "cortex-a57", ""},
		{"aarch64 lse", AArch64, []string{"has_lse=true"}, "cortex-a76", ""},
		{"aarch64 v8.2", AArch64, []string{"has_lse=true", "has_fp16=true", "has_dotprod=true"}, "cortex-a76", ""},
		{"aarch64 i8mm", AArch64, []string{"has_i8mm=true"}, "max,pauth=off", ""},
		{"aarch64 pauth", AArch64, []string{"has_pauth=true", "has_lse=false"}, "max", ""},
		{"aarch64 signed returns", AArch64, []string{"sign_return_address=true", "sign_return_address_with_bkey=true"}, "max", ""},
		{"aarch64 bti and csdb", AArch64, []string{"use_bti=true", "use_csdb=true"}, "cortex-a57", ""},
	}
	for _, tt := range tests {
		if tt.arch.Native() {
			continue // checked against the host instead
		}
		got, err := QemuCPU(tt.arch, tt.flags)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: got %q, %v; want error containing %q", tt.name, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s: got %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
}

func TestQemuCPUNative(t *testing.T) {
	host := HostArch()
	if host != X86_64 {
		t.Skip("the host check knows only x86_64")
	}
	// Every x86_64 CPU of the last twenty years has SSE3.
	if cpu, err := QemuCPU(X86_64, []string{"has_sse3=true", "has_avx512f=false"}); cpu != "" || err != nil {
		t.Errorf("native x86_64: got %q, %v; want \"\" and no error", cpu, err)
	}
	if _, err := QemuCPU(X86_64, []string{"has_sse5=true"}); err == nil || !strings.Contains(err.Error(), "has_sse5") {
		t.Errorf("unknown x86_64 flag: error %v, want one naming it", err)
	}
}

func TestMissingFeature(t *testing.T) {
	have := cpuinfoFlags("processor\t: 0\nmodel name\t: Test CPU\nflags\t\t: fpu sse4_1 sse4_2 avx abm\nbugs\t\t: spectre\n")
	if len(have) != 5 || have[4] != "abm" {
		t.Fatalf("cpuinfoFlags: %q", have)
	}
	if err := missingFeature(X86_64, have, []string{"sse4_1", "abm"}); err != nil {
		t.Errorf("present features: %v", err)
	}
	err := missingFeature(X86_64, have, []string{"avx", "avx2"})
	if err == nil || !strings.Contains(err.Error(), "has_avx2") || !strings.Contains(err.Error(), "lacks avx2") {
		t.Errorf("missing avx2: error %v, want one naming has_avx2", err)
	}
}

func TestUnemulatedListsOnlyFlagsThatAreOnAndMissing(t *testing.T) {
	got := Unemulated(RISCV64, []string{"has_zcb=true", "has_v=true", "has_zfa=false", "has_zicond=true", "has_zba=true"})
	if want := []string{"has_zcb", "has_zicond"}; !slices.Equal(slices.Sorted(slices.Values(got)), want) {
		t.Errorf("Unemulated = %v, want %v", got, want)
	}
	if got := Unemulated(AArch64, []string{"has_lse=true"}); len(got) != 0 {
		t.Errorf("Unemulated(aarch64 has_lse) = %v, want none", got)
	}
}
