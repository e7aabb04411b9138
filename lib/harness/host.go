package harness

import (
	"cliff/lib/arch"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
)

// HostFeaturesEnv names the environment variable that restricts the CPU
// features cliff believes this machine has (see Host.Restrict), so that
// the paths for a CPU without AVX-512, AVX2 or BMI2 can be run, and
// tested, on any machine. cliff-run's --host-features reads it too.
const HostFeaturesEnv = "CLIFF_HOST_FEATURES"

// A Host is the machine cliff runs code on: its architecture and, on
// x86_64, the CPU features natively run code may use, in /proc/cpuinfo's
// names ("avx2", "abm" for LZCNT, "pni" for SSE3). Code compiled for ISA
// flags whose features the host lacks never runs natively (see Place).
type Host struct {
	Arch string
	// Features is sorted. It is only read on x86_64: the CPU tables of
	// the other architectures have no /proc/cpuinfo names.
	Features []string
	// Emulators, when it has an architecture, says what its QEMU runs
	// instead of probing it (ProbeEmulator): for tests, and for reports
	// that name the emulator.
	Emulators map[string]*Emulator
}

// ReadHost reads this machine's architecture and CPU features as they are.
func ReadHost() (Host, error) {
	h := Host{Arch: HostArch()}
	if h.Arch == arch.X86_64 {
		data, err := os.ReadFile("/proc/cpuinfo")
		if err != nil {
			return Host{}, fmt.Errorf("reading this host's CPU features: %w", err)
		}
		h.Features = cpuinfoFlags(string(data))
		slices.Sort(h.Features)
	}
	return h, nil
}

// DetectHost is ReadHost restricted by $CLIFF_HOST_FEATURES, when set.
func DetectHost() (Host, error) {
	h, err := ReadHost()
	if err != nil {
		return h, err
	}
	if spec := os.Getenv(HostFeaturesEnv); spec != "" {
		if h, err = h.Restrict(spec); err != nil {
			return Host{}, fmt.Errorf("$%s: %w", HostFeaturesEnv, err)
		}
	}
	return h, nil
}

// cpuinfoFlags are the "flags" of /proc/cpuinfo's first processor.
func cpuinfoFlags(cpuinfo string) []string {
	for l := range strings.Lines(cpuinfo) {
		key, value, ok := strings.Cut(l, ":")
		if ok && strings.TrimSpace(key) == "flags" {
			return strings.Fields(value)
		}
	}
	return nil
}

// Has reports whether the host has a CPU feature.
func (h Host) Has(feature string) bool {
	_, found := slices.BinarySearch(h.Features, feature)
	return found
}

// x86Levels are the x86-64 microarchitecture levels of the psABI, as
// /proc/cpuinfo names their features (those cliff's CPU table uses and
// the rest of each level's list, so a level reads as documented). Each
// level includes the ones before it.
var x86Levels = []struct {
	name     string
	features []string
}{
	{"x86-64", nil}, // SSE2 and below: every x86_64 CPU
	{"x86-64-v2", []string{"cx16", "lahf_lm", "pni", "popcnt", "sse4_1", "sse4_2", "ssse3"}},
	{"x86-64-v3", []string{"abm", "avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "movbe", "xsave"}},
	{"x86-64-v4", []string{"avx512bw", "avx512cd", "avx512dq", "avx512f", "avx512vl"}},
}

// knownFeatures are the feature names a --host-features spec may use.
func knownFeatures() map[string]bool {
	known := map[string]bool{}
	for _, l := range x86Levels {
		for _, f := range l.features {
			known[f] = true
		}
	}
	for _, r := range cpuTables[arch.X86_64].rules {
		if r.needs != "" {
			known[r.needs] = true
		}
	}
	return known
}

// levelFeatures is every feature of a level, with the levels below it.
func levelFeatures(name string) ([]string, bool) {
	var all []string
	for _, l := range x86Levels {
		all = append(all, l.features...)
		if l.name == name {
			return all, true
		}
	}
	return nil, false
}

// Restrict narrows the host's features by a spec, a list separated by
// commas or spaces of:
//
//	x86-64-v2, x86-64-v3, ...  a microarchitecture level (x86-64 is the baseline)
//	avx2, bmi2, ...            one feature, in /proc/cpuinfo's names
//	native                     every feature this host has
//	-avx512f, -avx512*         take a feature, or every feature with a prefix, away
//
// The host keeps the features the positive items name (all of them when
// there are none), less the ones taken away. A spec never adds a feature
// the host lacks: code using it would die of SIGILL, and that would be
// blamed on Cranelift. "x86-64-v3" on any machine is thus a CPU without
// AVX-512, "x86-64-v2" one without AVX2 or BMI2.
func (h Host) Restrict(spec string) (Host, error) {
	items := strings.FieldsFunc(spec, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	if h.Arch != arch.X86_64 {
		if len(items) > 0 {
			return h, fmt.Errorf("host features %q: only x86_64 hosts have features cliff checks, this host is %s", spec, h.Arch)
		}
		return h, nil
	}
	known := knownFeatures()
	keep := map[string]bool{}
	positive := false
	var drop []string
	for _, item := range items {
		switch {
		case strings.HasPrefix(item, "-"):
			name := strings.TrimPrefix(item, "-")
			prefix, glob := strings.CutSuffix(name, "*")
			if glob && prefix == "" || !glob && !known[name] {
				return h, fmt.Errorf("host features %q: %q: unknown feature (known: %s)", spec, item, strings.Join(slices.Sorted(maps.Keys(known)), " "))
			}
			drop = append(drop, name)
		case item == "native":
			positive = true
			for _, f := range h.Features {
				keep[f] = true
			}
		default:
			positive = true
			if level, ok := levelFeatures(item); ok {
				for _, f := range level {
					keep[f] = true
				}
				continue
			}
			if !known[item] {
				return h, fmt.Errorf("host features %q: %q: neither an x86-64 level (x86-64, x86-64-v2, x86-64-v3, x86-64-v4) nor a known feature (%s)", spec, item, strings.Join(slices.Sorted(maps.Keys(known)), " "))
			}
			keep[item] = true
		}
	}
	out := Host{Arch: h.Arch}
	for _, f := range h.Features {
		if positive && known[f] && !keep[f] {
			continue // features cliff does not check (fpu, sse2) stay
		}
		if slices.ContainsFunc(drop, func(d string) bool {
			prefix, glob := strings.CutSuffix(d, "*")
			return f == d || glob && strings.HasPrefix(f, prefix)
		}) {
			continue
		}
		out.Features = append(out.Features, f)
	}
	return out, nil
}

// lacks lists the features of needs the host does not have.
func (h Host) lacks(needs []string) []string {
	var out []string
	for _, n := range needs {
		if !h.Has(n) {
			out = append(out, n)
		}
	}
	return out
}

// Level names the highest x86-64 microarchitecture level whose every
// feature the host has ("x86-64-v3"), or "" on other architectures.
func (h Host) Level() string {
	if h.Arch != arch.X86_64 {
		return ""
	}
	best := ""
	for _, l := range x86Levels {
		if len(h.lacks(l.features)) > 0 {
			break
		}
		best = l.name
	}
	return best
}
