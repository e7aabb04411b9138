package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"

	"cliff/lib/arch"
	"cliff/lib/ir"
)

// The flag and setting swarm. A campaign compiles each chunk of cases
// with configurations drawn from the architectures' flag sets (lib/arch)
// and from settings that change the code Cranelift emits but not what it
// computes, so that code paths behind other flags and settings are
// compiled and run too, and their results must agree with the others'.
// The draw depends only on the campaign's seed, the chunk and the
// architectures, so a chunk run again compiles the same way; each result
// states its configuration, so a failure reproduces without the draw.

// A SettingChoice is one dimension of the settings swarm: alternative
// groups of Cranelift settings, the first Cranelift's default (no
// setting, so that a configuration carries only what it changes), drawn
// two times in three.
type SettingChoice struct {
	Name         string
	Alternatives [][]string
}

// SwarmSettings are the settings the swarm draws from: each changes the
// machine code (register allocation, redundant-load elimination, stack
// probes, block and function layout) and none changes the meaning of a
// case. Left out: settings a case may need (preserve_frame_pointers,
// enable_llvm_abi_extensions, enable_multi_ret_implicit_sret: a case's
// own value must win), enable_nan_canonicalization (changes NaN bits),
// outline stack probes (need a probestack function the harness lacks).
var SwarmSettings = []SettingChoice{
	{"regalloc", [][]string{nil, {"regalloc_algorithm=single_pass"}}},
	{"alias analysis", [][]string{nil, {"enable_alias_analysis=false"}}},
	{"spectre", [][]string{nil, {"enable_heap_access_spectre_mitigation=false", "enable_table_access_spectre_mitigation=false"}}},
	{"probestack", [][]string{nil, {"enable_probestack=true", "probestack_strategy=inline", "probestack_size_log2=8"}}},
	{"layout", [][]string{nil, {"bb_padding_log2_minus_one=5"}, {"log2_min_function_alignment=6"}}},
}

// A SwarmKey says which draw: the campaign's seed and the chunk.
type SwarmKey struct {
	Seed  uint64
	Chunk uint64
}

// ParseSwarmKey reads --swarm SEED:CHUNK.
func ParseSwarmKey(s string) (SwarmKey, error) {
	seed, chunk, ok := strings.Cut(s, ":")
	k := SwarmKey{}
	var err1, err2 error
	k.Seed, err1 = strconv.ParseUint(seed, 10, 64)
	k.Chunk, err2 = strconv.ParseUint(chunk, 10, 64)
	if !ok || err1 != nil || err2 != nil {
		return SwarmKey{}, fmt.Errorf("--swarm %q: want SEED:CHUNK, two numbers", s)
	}
	return k, nil
}

// DrawSwarm draws, for each compiled architecture of arches, perArch
// distinct flag sets (all of them when it has fewer), at least one of
// them with a vector unit, each with a settings variant drawn from
// SwarmSettings: the variants of a chunk's ConfigSpec. Every architecture draws from its own stream, so adding
// one to arches does not change another's draw.
func DrawSwarm(k SwarmKey, arches []string, perArch int) map[string][]Variant {
	out := map[string][]Variant{}
	for _, name := range arches {
		a, ok := arch.Lookup(name)
		if !ok {
			continue // the interpreter: nothing to draw
		}
		rng := rand.New(rand.NewPCG(k.Seed, xxhash.Sum64String(fmt.Sprintf("swarm %d %s", k.Chunk, name))))
		sets := slices.Clone(a.FlagSets)
		rng.Shuffle(len(sets), func(i, j int) { sets[i], sets[j] = sets[j], sets[i] })
		n := min(max(perArch, 1), len(sets))
		// At least one set with a vector unit: a set without one (riscv64
		// base) takes no case with vectors, and alone it would leave the
		// architecture out of most cases.
		if !slices.ContainsFunc(sets[:n], func(s arch.FlagSet) bool { return a.TakesVectors(s.Flags) }) {
			if i := slices.IndexFunc(sets[n:], func(s arch.FlagSet) bool { return a.TakesVectors(s.Flags) }); i >= 0 {
				sets[n-1], sets[n+i] = sets[n+i], sets[n-1]
			}
		}
		sets = sets[:n]
		// In table order, so that the configurations read as the table.
		slices.SortStableFunc(sets, func(x, y arch.FlagSet) int {
			return slices.Index(a.SetNames(), x.Name) - slices.Index(a.SetNames(), y.Name)
		})
		for _, s := range sets {
			v := Variant{Flags: slices.Clone(s.Flags)}
			for _, c := range SwarmSettings {
				// Cranelift's default two times in three, so that a
				// variant changes a setting or two and a failure
				// points at them.
				if rng.IntN(3) == 0 {
					v.Settings = append(v.Settings, c.Alternatives[1+rng.IntN(len(c.Alternatives)-1)]...)
				}
			}
			out[name] = append(out[name], v)
		}
	}
	return out
}

// ForReleases drops from drawn variants the ISA flags, settings and
// setting values that some of the Cranelift versions does not know
// (lib/ir's release table),
// so that a swarm drawn for the newest release runs on an old one too:
// an unknown flag would stop the run before any case. What the user
// chose with --isa-flags is not filtered: refusing it is the answer.
func ForReleases(variants map[string][]Variant, versions []string) map[string][]Variant {
	if len(versions) == 0 {
		return variants
	}
	t := ir.Releases()
	knownBy := func(kind, name string) bool {
		for _, v := range versions {
			if !t.Knows(kind, name, v) {
				return false
			}
		}
		return true
	}
	out := map[string][]Variant{}
	for a, vs := range variants {
		for _, v := range vs {
			w := Variant{Flags: []string{}}
			for _, f := range v.Flags {
				name, _, _ := strings.Cut(f, "=")
				if knownBy(ir.KindISAFlag, a+" "+name) {
					w.Flags = append(w.Flags, f)
				}
			}
			for _, s := range v.Settings {
				name, _, _ := strings.Cut(s, "=")
				if knownBy(ir.KindSetting, name) && knownBy(ir.KindSettingValue, s) {
					w.Settings = append(w.Settings, s)
				}
			}
			if !slices.ContainsFunc(out[a], func(x Variant) bool { return x.String() == w.String() }) {
				out[a] = append(out[a], w)
			}
		}
	}
	return out
}

// CraneliftVersions are the crate versions of the engine's drivers.
func (e *Engine) CraneliftVersions() []string {
	var out []string
	for _, c := range e.drivers {
		out = append(out, e.versions.cranelift[c.Label])
	}
	return out
}
