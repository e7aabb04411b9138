package harness

import (
	"cliff/lib/arch"
	"slices"
	"strings"
	"testing"
)

func TestCpuinfoFlags(t *testing.T) {
	got := cpuinfoFlags("processor\t: 0\nmodel name\t: Test CPU\nflags\t\t: fpu sse4_1 sse4_2 avx abm\nbugs\t\t: spectre\n\nprocessor\t: 1\nflags\t\t: other\n")
	if want := []string{"fpu", "sse4_1", "sse4_2", "avx", "abm"}; !slices.Equal(got, want) {
		t.Errorf("cpuinfoFlags = %q, want %q (the first processor's)", got, want)
	}
}

func TestRestrict(t *testing.T) {
	tests := []struct {
		name, spec string
		host       Host
		want       string // the features left, space-separated
		wantErr    string
	}{
		{"empty spec", "", hostV3, "abm avx avx2 bmi1 bmi2 cx16 f16c fma fpu lahf_lm movbe pni popcnt sse2 sse4_1 sse4_2 ssse3 xsave", ""},
		{"native", "native", hostV3, "abm avx avx2 bmi1 bmi2 cx16 f16c fma fpu lahf_lm movbe pni popcnt sse2 sse4_1 sse4_2 ssse3 xsave", ""},
		{"v3 on a v4 host: no AVX-512", "x86-64-v3", hostV4, "abm avx avx2 bmi1 bmi2 cx16 f16c fma fpu lahf_lm movbe pni popcnt sse2 sse4_1 sse4_2 ssse3 xsave", ""},
		{"v2 on a v4 host: no AVX2, BMI or FMA", "x86-64-v2", hostV4, "cx16 fpu lahf_lm pni popcnt sse2 sse4_1 sse4_2 ssse3", ""},
		{"baseline", "x86-64", hostV3, "fpu sse2", ""},
		{"a level never adds", "x86-64-v4", hostV2, "cx16 fpu lahf_lm pni popcnt sse2 sse4_1 sse4_2 ssse3", ""},
		{"take away one", "-bmi2", hostV3, "abm avx avx2 bmi1 cx16 f16c fma fpu lahf_lm movbe pni popcnt sse2 sse4_1 sse4_2 ssse3 xsave", ""},
		{"take away a family", "-avx512*", hostV4, "abm avx avx2 bmi1 bmi2 cx16 f16c fma fpu lahf_lm movbe pni popcnt sse2 sse4_1 sse4_2 ssse3 xsave", ""},
		{"a level less one", "x86-64-v3,-avx2", hostV4, "abm avx bmi1 bmi2 cx16 f16c fma fpu lahf_lm movbe pni popcnt sse2 sse4_1 sse4_2 ssse3 xsave", ""},
		{"single features", "avx popcnt", hostV3, "avx fpu popcnt sse2", ""},
		{"typo", "x86-64-v5", hostV3, "", `"x86-64-v5": neither an x86-64 level`},
		{"unknown feature", "-avx3", hostV3, "", `"-avx3": unknown feature`},
		{"bare glob", "-*", hostV3, "", `"-*": unknown feature`},
		{"not on aarch64", "x86-64-v3", hostARM, "", "only x86_64 hosts"},
	}
	for _, tt := range tests {
		got, err := tt.host.Restrict(tt.spec)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: got %v, %v; want error containing %q", tt.name, got.Features, err, tt.wantErr)
			}
			continue
		}
		if err != nil || strings.Join(got.Features, " ") != tt.want {
			t.Errorf("%s: got %q, %v; want %q", tt.name, strings.Join(got.Features, " "), err, tt.want)
		}
	}
}

func TestLevel(t *testing.T) {
	for _, tt := range []struct {
		host Host
		want string
	}{{hostV4, "x86-64-v4"}, {hostV3, "x86-64-v3"}, {hostV2, "x86-64-v2"}, {Host{Arch: arch.X86_64}, "x86-64"}, {hostARM, ""}} {
		if got := tt.host.Level(); got != tt.want {
			t.Errorf("Level of %v = %q, want %q", tt.host.Features, got, tt.want)
		}
	}
}

// TestDetectHost reads this machine and checks that the environment
// variable can only take features away.
func TestDetectHost(t *testing.T) {
	t.Setenv(HostFeaturesEnv, "")
	real, err := DetectHost()
	if err != nil {
		t.Fatal(err)
	}
	if real.Arch != HostArch() {
		t.Errorf("Arch = %s, want %s", real.Arch, HostArch())
	}
	if real.Arch != arch.X86_64 {
		t.Skip("features are read on x86_64 hosts only")
	}
	if !real.Has("sse2") || !slices.IsSorted(real.Features) {
		t.Errorf("features %v: want sorted, with sse2 (every x86_64 CPU has it)", real.Features)
	}
	t.Setenv(HostFeaturesEnv, "x86-64-v2")
	v2, err := DetectHost()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"avx", "avx2", "bmi2", "avx512f"} {
		if v2.Has(f) {
			t.Errorf("%s=x86-64-v2: host still has %s", HostFeaturesEnv, f)
		}
	}
	for _, f := range v2.Features {
		if !real.Has(f) {
			t.Errorf("%s=x86-64-v2 added %s, which this host lacks", HostFeaturesEnv, f)
		}
	}
	t.Setenv(HostFeaturesEnv, "x86-64-v9")
	if _, err := DetectHost(); err == nil || !strings.Contains(err.Error(), HostFeaturesEnv) {
		t.Errorf("a bad %s: error %v, want one naming the variable", HostFeaturesEnv, err)
	}
}
