package gen

import (
	"fmt"
	"sort"
	"strings"

	"cliff/lib/internal/splitmix"
	"cliff/lib/ir"
)

// A feature is one switch of swarm testing: per case, each feature is on
// or off (and an opcode family gets a weight), drawn from the feature's own
// stream so that the choice for one never shifts another.
type feature struct {
	name string
	doc  string
	on   float64 // probability the feature is on in a case
	// crossover features are drawn only when the generator has
	// crossover parents (Options.Parents): without them a case's
	// features are what they were before crossover existed.
	crossover bool
}

// features are cliff-gen's swarm switches: value types, control
// structures, calls and memory, then opcode families (families).
var features = []feature{
	{"floats", "f32 and f64 values", 0.7, false},
	{"f16", "f16 values", 0.3, false},
	{"f128", "f128 values", 0.3, false},
	{"i128", "i128 values", 0.5, false},
	{"vectors", "128-bit vector values", 0.6, false},
	{"ifelse", "if-else diamonds (brif)", 0.85, false},
	{"loops", "while loops with hidden trip counts", 0.8, false},
	{"switch", "switches (br_table)", 0.7, false},
	{"calls", "direct calls", 0.8, false},
	{"indirect_calls", "call_indirect through func_addr", 0.5, false},
	{"tail_calls", "return_call and return_call_indirect between tail functions", 0.5, false},
	{"stack", "stack slots, loads and stores", 0.6, false},
	{"atomics", "atomic loads, stores, rmw and cas on stack slots", 0.3, false},
	{"snippets", "instructions from the corpus (when one is given)", 0.8, false},
	{"constants", "constants in the code", 0.5, false},
	{"snippet_memory", "corpus loads and stores re-targeted at the stack slots (with stack)", 0.7, false},
	// Not the generator's: cliff-refine's prune step reads it (lib/prune).
	{"prune", "guards that never fire on the case's inputs dropped by cliff-refine", 0.5, false},
	{"edge_constants", "float and vector operands as constants of edge values, and instructions with every operand constant (mid-end folding)", 0.5, false},
	{"crossover", "leaves that cross two filetest functions (--crossover)", 0.8, true},
	{"crossover_chain", "crossover: one parent's returns feed the other's params", 0.6, true},
	{"crossover_graft", "crossover: one parent placed inside a block of the other", 0.6, true},
	{"crossover_call", "crossover: one parent a function of the case that the other calls", 0.6, true},
}

// isCrossoverFeature reports whether name is a crossover switch.
func isCrossoverFeature(name string) bool {
	for _, f := range features {
		if f.name == name {
			return f.crossover
		}
	}
	return false
}

// A family is a group of opcodes switched on and weighted together. Which
// opcodes belong to it is the opcode table's word (lib/ir/opcodes.txt's
// family column); this list gives the families' order, which the swarm's
// streams and weights follow, and what each is for.
type family struct {
	name string
	doc  string
}

// families are the opcode families cliff-gen draws. An opcode of no family
// in the table (x86_* and other target-specific ones) joins "target".
var families = []family{
	{"arith", "integer add, subtract, negate, multiply, min and max"},
	{"saturating", "saturating and rounding arithmetic"},
	{"overflow", "arithmetic with an overflow flag or a carry"},
	{"division", "division and remainder (guarded)"},
	{"bitwise", "bitwise logic and bit counts"},
	{"shifts", "shifts and rotates"},
	{"compare", "compares and selects"},
	{"float", "float arithmetic and rounding"},
	{"convert", "conversions between types"},
	{"narrow", "vector narrowing and widening"},
	{"lanes", "lane access, shuffles and reductions"},
	{"consts", "constants"},
	{"misc", "nop, fence, sequence_point"},
	{"target", "target-specific opcodes"},
	{"traps", "traps (crash-only mode)"},
}

// familyOf maps each opcode to its family index, from the opcode table.
var familyOf = func() map[ir.Opcode]int {
	index := map[string]int{}
	for i, fam := range families {
		index[fam.name] = i
	}
	m := map[ir.Opcode]int{}
	for _, op := range ir.Opcodes() {
		name := op.Info().Family
		if name == "" {
			continue
		}
		i, ok := index[name]
		if !ok || name == "target" {
			panic("gen: the opcode table puts " + op.String() + " in family " + name + ", which cliff-gen does not have")
		}
		m[op] = i
	}
	return m
}()

var targetFamily = func() int {
	for i, f := range families {
		if f.name == "target" {
			return i
		}
	}
	panic("no target family")
}()

func familyIndex(op ir.Opcode) int {
	if i, ok := familyOf[op]; ok {
		return i
	}
	return targetFamily
}

// FeatureNames lists every swarm switch: the features, then one
// "ops:FAMILY" per opcode family.
func FeatureNames() []string {
	var out []string
	for _, f := range features {
		out = append(out, f.name)
	}
	for _, f := range families {
		out = append(out, "ops:"+f.name)
	}
	return out
}

// swarm is one case's feature choice.
type swarm struct {
	on      map[string]bool
	weights []int // per family; 0 when off
	// total is the sum of weights: each computation draws a family, and
	// summing them each time cost more than the draw.
	total int
	// The features asked about per instruction, operand or leaf, copied
	// from on rather than hashing their names into it each time. on must
	// not change them after newSwarm (TestSwarmHotFeatures).
	constants, edgeConstants, crossover, snippets bool
}

// newSwarm returns a swarm with the given features and family weights.
func newSwarm(on map[string]bool, weights []int) swarm {
	return swarm{on: on, weights: weights, total: splitmix.Sum(weights),
		constants: on["constants"], edgeConstants: on[edgeConstantsFeature],
		crossover: on["crossover"], snippets: on["snippets"]}
}

// Stream keys of the features and families, and the names families have
// as switches ("ops:arith"), which every case draws.
var (
	featureTags = tagsOf(features, func(f feature) string { return "feature:" + f.name })
	familyTags  = tagsOf(families, func(f family) string { return "family:" + f.name })
	familyNames = func() []string {
		out := make([]string, len(families))
		for i, f := range families {
			out[i] = "ops:" + f.name
		}
		return out
	}()
)

func tagsOf[T any](items []T, key func(T) string) []uint64 {
	out := make([]uint64, len(items))
	for i, it := range items {
		out[i] = tag(key(it))
	}
	return out
}

// drawSwarm chooses the features of the case with seed caseSeed, their
// chances and weights moved by w (nil: none), then applies the overrides;
// the crossover features only when crossover is possible.
func drawSwarm(caseSeed uint64, overrides map[string]bool, w *swarmWeights, crossover bool) swarm {
	s := swarm{on: make(map[string]bool, len(features)+len(families)), weights: make([]int, len(families))}
	for i, f := range features {
		if f.crossover && !crossover {
			continue
		}
		r := newRng(derive(caseSeed, featureTags[i]))
		s.on[f.name] = r.chance(w.feature(f.name, f.on))
	}
	for i, f := range families {
		r := newRng(derive(caseSeed, familyTags[i]))
		on, drawn := r.chance(w.family(i, 0.75)), r.between(1, 8)
		if f.name == "arith" || f.name == "traps" {
			on = true // always something to compute; traps only in crash-only mode
		}
		s.on[familyNames[i]] = on
		if on {
			s.weights[i] = w.weight(i, drawn)
		}
	}
	for name, on := range overrides {
		if !crossover && isCrossoverFeature(name) {
			continue
		}
		s.on[name] = on
		if fam, ok := strings.CutPrefix(name, "ops:"); ok {
			for i, f := range families {
				if f.name == fam {
					r := newRng(derive(caseSeed, tag("family:"+f.name)))
					r.next()
					s.weights[i] = 0
					if on {
						s.weights[i] = w.weight(i, r.between(1, 8))
					}
				}
			}
		}
	}
	return newSwarm(s.on, s.weights)
}

// ParseFeatures reads "name=on,name2=off" (also 1/0, true/false) into
// overrides, checking the names.
func ParseFeatures(text string) (map[string]bool, error) {
	known := map[string]bool{}
	for _, n := range FeatureNames() {
		known[n] = true
	}
	out := map[string]bool{}
	for _, item := range strings.Split(text, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, val, ok := strings.Cut(item, "=")
		if !ok {
			return nil, fmt.Errorf("feature %q: want name=on or name=off", item)
		}
		if !known[name] {
			names := FeatureNames()
			sort.Strings(names)
			return nil, fmt.Errorf("unknown feature %q (known: %s)", name, strings.Join(names, " "))
		}
		switch val {
		case "on", "1", "true":
			out[name] = true
		case "off", "0", "false":
			out[name] = false
		default:
			return nil, fmt.Errorf("feature %s: value %q is not on or off", name, val)
		}
	}
	return out, nil
}
