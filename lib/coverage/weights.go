package coverage

import (
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strings"

	"cliff/lib/ir"
	"cliff/lib/weights"
)

// rootTerms are the terms whose rules match CLIF instructions: lowering
// (lower, lower_branch) and the mid-end's rewrites (simplify,
// simplify_skeleton).
var rootTerms = map[string]bool{"lower": true, "lower_branch": true, "simplify": true, "simplify_skeleton": true}

// maxAimOps is the most opcodes a helper rule's callers may match for the
// rule to count towards them: a helper reached from more (put_in_reg,
// a prelude constructor) says nothing about what would reach it.
const maxAimOps = 8

// maxCallerDepth bounds the walk from a helper rule up to the rules that
// match instructions (inst.isle's constructor, the assembler's, a
// lowering rule).
const maxCallerDepth = 4

// typePredicates are the ISLE extractors on a type that name a set of the
// types cliff-gen makes (lib/weights.TypeOK); $I64-style constants and
// (multi_lane B N) are read directly.
var typePredicates = map[string]func(ir.Type) bool{
	"ty_vec128":       ir.Type.IsVector,
	"vr128_ty":        ir.Type.IsVector,
	"ty_vec128_int":   func(t ir.Type) bool { return t.IsVector() && t.IsInt() },
	"ty_scalar_float": func(t ir.Type) bool { return !t.IsVector() && t.IsFloat() },
}

// An aim is what a rule asks of the generator: the opcodes the
// instructions that reach it match, and the types it names.
type aim struct {
	ops   []ir.Opcode
	types []ir.Type
}

// isleIndex holds the rules of one generated file's .isle sources, and
// for each term the rules that use it.
type isleIndex struct {
	rules      map[Rule]*isleRule
	callers    map[string][]*isleRule
	extractors map[string]*isleRule // by term
}

// newISLEIndex parses the .isle files rules of a generated file name.
func newISLEIndex(src *ruleSources, files []string) (*isleIndex, error) {
	ix := &isleIndex{rules: map[Rule]*isleRule{}, callers: map[string][]*isleRule{}, extractors: map[string]*isleRule{}}
	for _, file := range files {
		path := src.path(Rule{Source: file})
		if path == "" {
			return nil, fmt.Errorf("%s: cranelift-codegen's source was not found through the driver's line table", file)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		forms, err := parseISLE(string(data))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		for _, r := range isleRules(file, forms) {
			ix.rules[r.Rule] = &r
			if r.extractor {
				ix.extractors[r.term] = &r
			}
			seen := map[string]bool{r.term: true}
			r.form.atoms(func(a string) {
				if !seen[a] {
					seen[a] = true
					ix.callers[a] = append(ix.callers[a], &r)
				}
			})
		}
	}
	return ix, nil
}

// aimOf says what reaches rule r: the opcodes of its left-hand side when
// it matches instructions, else those of the rules that use its term,
// up to maxCallerDepth and maxAimOps; and the types its left-hand side
// names (with those of its callers' when it has few).
func (ix *isleIndex) aimOf(r Rule) aim {
	rule, ok := ix.rules[r]
	if !ok {
		return aim{}
	}
	roots := []*isleRule{rule}
	if !rootTerms[rule.term] {
		roots = nil
		seen := map[string]bool{rule.term: true}
		frontier := []string{rule.term}
		for depth := 0; depth < maxCallerDepth && len(frontier) > 0; depth++ {
			var next []string
			for _, term := range frontier {
				for _, c := range ix.callers[term] {
					if rootTerms[c.term] {
						roots = append(roots, c)
					} else if !seen[c.term] {
						seen[c.term] = true
						next = append(next, c.term)
					}
				}
			}
			frontier = next
		}
	}
	var a aim
	add := func(ops []ir.Opcode) {
		for _, op := range ops {
			if !slices.Contains(a.ops, op) {
				a.ops = append(a.ops, op)
			}
		}
	}
	for _, root := range roots {
		add(opcodesOf(root.lhs))
	}
	typed := []*isleRule{rule}
	if generic := len(a.ops) > maxAimOps; generic {
		a.ops = nil
	} else if !rootTerms[rule.term] {
		typed = append(typed, roots...)
	}
	if !rootTerms[rule.term] {
		// A helper: what its own left-hand side matches counts too,
		// directly and through the extractors it uses.
		add(opcodesOf(rule.lhs))
		rule.lhs.atoms(func(term string) {
			if x, ok := ix.extractors[term]; ok {
				add(opcodesOf(x.lhs))
			}
		})
	}
	for _, tr := range typed {
		for _, t := range typesOf(tr.lhs) {
			if !slices.Contains(a.types, t) {
				a.types = append(a.types, t)
			}
		}
	}
	return a
}

// opcodesOf lists the CLIF opcodes a left-hand side matches.
func opcodesOf(lhs sexpr) []ir.Opcode {
	var out []ir.Opcode
	for i, x := range lhs.list {
		if i == 0 && rootTerms[x.atom] {
			continue
		}
		x.atoms(func(a string) {
			if op, ok := ir.LookupOpcode(a); ok && !slices.Contains(out, op) {
				out = append(out, op)
			}
		})
	}
	return out
}

// typesOf lists the types cliff-gen makes that a left-hand side names.
func typesOf(lhs sexpr) []ir.Type {
	var out []ir.Type
	add := func(t ir.Type) {
		if weights.TypeOK(t) && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	var walk func(e sexpr)
	walk = func(e sexpr) {
		if !e.isList {
			if name, ok := strings.CutPrefix(e.atom, "$"); ok {
				if t, ok := ir.ParseType(strings.ToLower(name)); ok {
					add(t)
				}
			}
			if pred, ok := typePredicates[e.atom]; ok {
				for _, t := range weightableTypes {
					if pred(t) {
						add(t)
					}
				}
			}
			return
		}
		if bits, lanes, ok := multiLane(e); ok {
			for _, lane := range []ir.Type{ir.IntOfWidth(bits), ir.FloatOfWidth(bits)} {
				if t := ir.Vector(lane, lanes); t != ir.Invalid {
					add(t)
				}
			}
		}
		for _, x := range e.list {
			walk(x)
		}
	}
	walk(lhs)
	return out
}

// weightableTypes are the scalar and 128-bit vector types.
var weightableTypes = func() []ir.Type {
	out := slices.Clone(ir.ScalarTypes)
	for _, lane := range ir.ScalarTypes {
		if lane.Bits() < 128 {
			out = append(out, ir.Vector(lane, 128/lane.Bits()))
		}
	}
	return out
}()

// familyOf is the cliff-gen family an opcode is drawn in (the opcode
// table's family column; "target" for a computation of none), "" for an
// opcode cliff-gen emits only as structure (control flow, calls, memory).
func familyOf(op ir.Opcode) string {
	info := op.Info()
	if info.Family != "" {
		return info.Family
	}
	if info.Flags&(ir.FlagTerminator|ir.FlagBranch|ir.FlagCall|ir.FlagReturn|ir.FlagCanLoad|ir.FlagCanStore) != 0 {
		return ""
	}
	return "target"
}

// Aims are the missed rules' aims summed up: how many missed rules each
// family and each type would reach, and how many rules said nothing
// (a generic helper, or no opcode and no type).
type Aims struct {
	Families map[string]int
	Types    map[string]int
	Rules    int // missed rules considered
	Silent   int // of them, those that name no family and no type
}

// The range of the weights Weights gives: wide enough to be felt, narrow
// enough that the swarm still draws what is weighted down.
const (
	MinWeight = 0.25
	MaxWeight = 4
)

// Weights returns cliff-gen weights (lib/weights) aimed at the rules
// missed lists per target: each family cliff-gen draws and each type it
// makes gets sqrt(n/median), n its missed rules and median the median n
// over them all (those with none included), clamped to MinWeight and
// MaxWeight, in quarters. So the weights move the draws from what the
// campaigns already reach to what they miss, rather than switching every
// family on in every case; the square root keeps a family with many rules
// (the mid-end's bitwise identities) from drowning the others.
func (r *Report) Weights(missed map[string][]Rule) (weights.Weights, Aims, error) {
	aims := Aims{Families: map[string]int{}, Types: map[string]int{}}
	for _, f := range weights.Families() {
		aims.Families[f] = 0
	}
	for _, t := range weightableTypes {
		aims.Types[t.String()] = 0
	}
	targets := make([]string, 0, len(missed))
	for t := range missed {
		targets = append(targets, t)
	}
	sort.Strings(targets)
	for _, target := range targets {
		ix, err := newISLEIndex(r.sources, r.ruleFiles[target])
		if err != nil {
			return weights.Weights{}, Aims{}, fmt.Errorf("%s: %w", target, err)
		}
		for _, rule := range missed[target] {
			a := ix.aimOf(rule)
			aims.Rules++
			fams := map[string]bool{}
			for _, op := range a.ops {
				if f := familyOf(op); f != "" {
					fams[f] = true
				}
			}
			for f := range fams {
				aims.Families[f]++
			}
			for _, t := range a.types {
				aims.Types[t.String()]++
			}
			if len(fams) == 0 && len(a.types) == 0 {
				aims.Silent++
			}
		}
	}
	return weights.Weights{Families: scaleCounts(aims.Families), Types: scaleCounts(aims.Types)}, aims, nil
}

// scaleCounts turns missed-rule counts into weights around their median.
func scaleCounts(counts map[string]int) map[string]float64 {
	ns := make([]int, 0, len(counts))
	for _, n := range counts {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	out := map[string]float64{}
	if len(ns) == 0 {
		return out
	}
	median := max(1, float64(ns[(len(ns)-1)/2]+ns[len(ns)/2])/2)
	for name, n := range counts {
		w := math.Sqrt(float64(n) / median)
		out[name] = min(MaxWeight, max(MinWeight, math.Round(w*4)/4))
	}
	return out
}

// CampaignMisses are the rules the campaigns missed, per target: those
// no input reached and, with group (scripts/coverage.sh's "cliff"), those
// other inputs reached and the group did not. A target the inputs did
// not reach at all (Pulley, under a campaign of the four others) is left
// out: it was not run.
func (r *Report) CampaignMisses(group string) map[string][]Rule {
	out := map[string][]Rule{}
	for _, t := range Targets {
		if m, ok := r.Final(UnionInput, t.Name); !ok || m.RulesCovered == 0 {
			continue
		}
		rules := slices.Clone(r.Uncovered[t.Name])
		if group != "" {
			rules = append(rules, r.Missed[group][t.Name]...)
		}
		out[t.Name] = rules
	}
	return out
}
