package engine

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"cliff/lib/arch"
	"cliff/lib/harness"
)

// TestDrawSwarm: the draw is a function of the key and the
// architectures, gives each compiled architecture the asked number of
// distinct flag sets from its table (all of them at most), only settings
// of SwarmSettings, and differs between chunks.
func TestDrawSwarm(t *testing.T) {
	all := append(arch.Names(), arch.Interp)
	tests := []struct {
		name    string
		arches  []string
		perArch int
	}{
		{"compat: one set per target", all, 1},
		{"two sets per target", all, 2},
		{"target-specific: three sets", []string{"riscv64", arch.Interp}, 3},
		{"more sets than the table has", []string{"s390x"}, 5},
		{"zero means one", []string{"aarch64"}, 0},
	}
	allowed := map[string]bool{}
	for _, c := range SwarmSettings {
		for _, alt := range c.Alternatives {
			for _, s := range alt {
				allowed[s] = true
			}
		}
	}
	for _, tt := range tests {
		for chunk := uint64(0); chunk < 50; chunk++ {
			k := SwarmKey{Seed: 7, Chunk: chunk}
			got := DrawSwarm(k, tt.arches, tt.perArch)
			if again := DrawSwarm(k, tt.arches, tt.perArch); !reflect.DeepEqual(got, again) {
				t.Fatalf("%s: chunk %d drawn twice: %v, then %v", tt.name, chunk, got, again)
			}
			if _, ok := got[arch.Interp]; ok {
				t.Fatalf("%s: drew variants for the interpreter", tt.name)
			}
			for _, name := range tt.arches {
				a, ok := arch.Lookup(name)
				if !ok {
					continue
				}
				vs := got[name]
				if want := min(max(tt.perArch, 1), len(a.FlagSets)); len(vs) != want {
					t.Fatalf("%s: chunk %d: %s drew %d variants, want %d", tt.name, chunk, name, len(vs), want)
				}
				if !slices.ContainsFunc(vs, func(v Variant) bool { return a.TakesVectors(v.Flags) }) {
					t.Fatalf("%s: chunk %d: %s drew no set with a vector unit: %v", tt.name, chunk, name, vs)
				}
				var names []string
				for _, v := range vs {
					set := a.SetName(v.Flags)
					if set == "" || slices.Contains(names, set) {
						t.Fatalf("%s: chunk %d: %s flags %v: not a flag set of the table, or twice", tt.name, chunk, name, v.Flags)
					}
					names = append(names, set)
					for _, s := range v.Settings {
						if !allowed[s] {
							t.Fatalf("%s: setting %q is not the swarm's", tt.name, s)
						}
					}
				}
			}
		}
	}
	// Another chunk, another draw; the same chunk of one architecture
	// draws the same whatever else is drawn with it.
	one := DrawSwarm(SwarmKey{Seed: 7, Chunk: 1}, all, 2)
	differ := false
	for c := uint64(2); c < 10; c++ {
		differ = differ || !reflect.DeepEqual(one, DrawSwarm(SwarmKey{Seed: 7, Chunk: c}, all, 2))
	}
	if !differ {
		t.Errorf("chunks 1 to 9 drew the same configurations")
	}
	if alone := DrawSwarm(SwarmKey{Seed: 7, Chunk: 1}, []string{"riscv64"}, 2); !reflect.DeepEqual(alone["riscv64"], one["riscv64"]) {
		t.Errorf("riscv64 alone drew %v, with the others %v", alone["riscv64"], one["riscv64"])
	}
}

// TestDrawSwarmCoversTheTable: over a campaign's chunks every flag set of
// every architecture and every settings alternative is drawn (with two
// sets per chunk: alone, a set without a vector unit is never drawn).
func TestDrawSwarmCoversTheTable(t *testing.T) {
	seen := map[string]bool{}
	for chunk := uint64(0); chunk < 200; chunk++ {
		for name, vs := range DrawSwarm(SwarmKey{Seed: 42, Chunk: chunk}, arch.Names(), 2) {
			a, _ := arch.Lookup(name)
			for _, v := range vs {
				seen[name+" "+a.SetName(v.Flags)] = true
				for _, s := range v.Settings {
					seen[s] = true
				}
			}
		}
	}
	for _, a := range arch.All() {
		for _, s := range a.FlagSets {
			if !seen[a.Name+" "+s.Name] {
				t.Errorf("%s %s never drawn in 200 chunks", a.Name, s.Name)
			}
		}
	}
	for _, c := range SwarmSettings {
		for _, alt := range c.Alternatives {
			for _, s := range alt {
				if !seen[s] {
					t.Errorf("setting %s never drawn in 200 chunks", s)
				}
			}
		}
	}
}

// TestFlagSetsRunUnderQemu: a set without Beyond runs under QEMU 7.2,
// the baseline (lib/harness's CPU table, whose every row is probed); a set
// with Beyond does not, but runs under QEMU 10 when it names a QEMU, or
// natively on a host with every x86_64 feature when it names a host, so
// that Beyond says the truth both ways.
func TestFlagSetsRunUnderQemu(t *testing.T) {
	v4 := harness.Host{Arch: arch.X86_64, Features: []string{
		"abm", "avx", "avx2", "avx512_bitalg", "avx512_vnni", "avx512dq", "avx512f", "avx512vbmi", "avx512vl",
		"bmi1", "bmi2", "cx16", "fma", "pni", "popcnt", "sse4_1", "sse4_2", "ssse3"}}
	for _, a := range arch.All() {
		if len(a.FlagSets) < 2 || a.FlagSets[0].Name != arch.DefaultSet {
			t.Errorf("%s: want the default set first and another", a.Name)
		}
		target := a.Name
		baseline := harness.Host{Arch: "none", Emulators: map[string]*harness.Emulator{target: harness.BaselineEmulator(target)}}
		for _, s := range a.FlagSets {
			off := harness.QemuBlockers(baseline, target, s.Flags)
			switch {
			case s.Beyond == "" && len(off) > 0:
				t.Errorf("%s %s: QEMU 7.2 cannot run %v; say so in Beyond", a.Name, s.Name, off)
			case s.Beyond == "":
				if _, err := harness.Place(baseline, target, s.Flags); err != nil {
					t.Errorf("%s %s: %v", a.Name, s.Name, err)
				}
			case len(off) == 0:
				t.Errorf("%s %s: QEMU 7.2 runs it all, yet Beyond says %q", a.Name, s.Name, s.Beyond)
			case strings.Contains(s.Beyond, "QEMU"):
				emu := harness.BaselineEmulator(target)
				emu.Version, emu.Lacks, emu.NoProperty = "10.0.2", map[string]string{}, nil // what the probe of QEMU 10 found (lib/harness TestQemu10)
				if off := harness.QemuBlockers(harness.Host{Arch: "none", Emulators: map[string]*harness.Emulator{target: emu}}, target, s.Flags); len(off) > 0 {
					t.Errorf("%s %s: QEMU 10 cannot run %v", a.Name, s.Name, off)
				}
			case strings.Contains(s.Beyond, "host"):
				if target != arch.X86_64 {
					t.Errorf("%s %s: host features are x86_64's only", a.Name, s.Name)
				} else if where, err := harness.Place(v4, target, s.Flags); err != nil || where.Emulated {
					t.Errorf("%s %s: on a host with AVX-512: %v, %v; want native", a.Name, s.Name, where, err)
				}
			default:
				t.Errorf("%s %s: Beyond %q names neither a QEMU nor a host", a.Name, s.Name, s.Beyond)
			}
		}
	}
}

func TestParseSwarmKey(t *testing.T) {
	if k, err := ParseSwarmKey("123:4"); err != nil || k != (SwarmKey{123, 4}) {
		t.Errorf("ParseSwarmKey(123:4) = %v, %v", k, err)
	}
	for _, bad := range []string{"", "123", "a:1", "1:-1", "1:2:3"} {
		if _, err := ParseSwarmKey(bad); err == nil || !strings.Contains(err.Error(), "want SEED:CHUNK") {
			t.Errorf("ParseSwarmKey(%q): error %v", bad, err)
		}
	}
}

// TestForReleases: a swarm's flags and settings that an older release
// does not know are dropped for a run on it (has_apx is 0.137's), the
// rest kept, and variants that become equal are kept once.
func TestForReleases(t *testing.T) {
	drawn := map[string][]Variant{"x86_64": {
		{Flags: []string{"has_avx", "has_apx"}, Settings: []string{"regalloc_algorithm=single_pass", "no_such_setting_anywhere=1"}},
		{Flags: []string{"has_avx"}, Settings: []string{"regalloc_algorithm=single_pass", "no_such_setting_anywhere=1"}},
	}}
	tests := []struct {
		versions []string
		want     []string
	}{
		{nil, []string{"has_avx,has_apx+regalloc_algorithm=single_pass,no_such_setting_anywhere=1", "has_avx+regalloc_algorithm=single_pass,no_such_setting_anywhere=1"}},
		{[]string{"0.137.1"}, []string{"has_avx,has_apx+regalloc_algorithm=single_pass,no_such_setting_anywhere=1", "has_avx+regalloc_algorithm=single_pass,no_such_setting_anywhere=1"}},
		{[]string{"0.135.8"}, []string{"has_avx+regalloc_algorithm=single_pass,no_such_setting_anywhere=1"}},
		{[]string{"0.137.1", "0.135.8"}, []string{"has_avx+regalloc_algorithm=single_pass,no_such_setting_anywhere=1"}},
	}
	for _, tt := range tests {
		var got []string
		for _, v := range ForReleases(drawn, tt.versions)["x86_64"] {
			got = append(got, v.String())
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("ForReleases(%v) = %q, want %q", tt.versions, got, tt.want)
		}
	}
}
