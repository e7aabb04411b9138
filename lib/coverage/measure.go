package coverage

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Target is one generated ISLE file whose coverage is reported.
type Target struct {
	Name string // x86_64, aarch64, riscv64, s390x, pulley, mid-end
	File string // the generated file's name in cranelift-codegen's OUT_DIR
	// MainRules is the prefix of the rule sources that the "lowering
	// rules" column counts: the target's lower.isle, or the mid-end's
	// opts/*.isle (the other rules are instruction helpers and preludes).
	MainRules string
}

// Targets are the five backends cliff runs (Pulley's four targets share
// one lowering) and the mid-end.
var Targets = []Target{
	{"x86_64", "isle_x64.rs", "src/isa/x64/lower.isle"},
	{"aarch64", "isle_aarch64.rs", "src/isa/aarch64/lower.isle"},
	{"riscv64", "isle_riscv64.rs", "src/isa/riscv64/lower.isle"},
	{"s390x", "isle_s390x.rs", "src/isa/s390x/lower.isle"},
	{"pulley", "isle_pulley_shared.rs", "src/isa/pulley_shared/lower.isle"},
	{"mid-end", "isle_opt.rs", "src/opts/"},
}

func targetFile(path string) bool {
	for _, t := range Targets {
		if filepath.Base(path) == t.File {
			return true
		}
	}
	return false
}

// Step is one slice of an input run by the instrumented driver: the
// directory its drivers wrote their PC files to, and the cases and CPU time
// it took.
type Step struct {
	Dir        string
	Cases      int
	CPUSeconds float64
}

// Run is one input (the runtests, a campaign) run in steps, so that
// coverage can be drawn against cases and CPU time.
type Run struct {
	Input string
	Steps []Step
}

// ReadRun reads dir/steps.tsv, which scripts/coverage.sh writes: one line
// per step, "STEPDIR CASES CPU_SECONDS", STEPDIR relative to dir.
func ReadRun(input, dir string) (Run, error) {
	run := Run{Input: input}
	path := filepath.Join(dir, "steps.tsv")
	f, err := os.Open(path)
	if err != nil {
		return run, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 3 {
			return run, fmt.Errorf("%s:%d: want STEPDIR CASES CPU_SECONDS, have %q", path, n, sc.Text())
		}
		cases, err1 := strconv.Atoi(fields[1])
		cpu, err2 := strconv.ParseFloat(fields[2], 64)
		if err1 != nil || err2 != nil || cases < 0 || cpu < 0 {
			return run, fmt.Errorf("%s:%d: bad numbers in %q", path, n, sc.Text())
		}
		run.Steps = append(run.Steps, Step{filepath.Join(dir, fields[0]), cases, cpu})
	}
	if err := sc.Err(); err != nil {
		return run, fmt.Errorf("%s: %w", path, err)
	}
	if len(run.Steps) == 0 {
		return run, fmt.Errorf("%s: no steps", path)
	}
	return run, nil
}

// Measurement is the coverage of one target after some steps of an input
// (cumulative: the cases and CPU time so far). It is also the JSON-lines
// record of cliff-coverage's output.
type Measurement struct {
	Input      string  `json:"input"`
	Step       int     `json:"step"` // 1-based; the last is the input's total
	Cases      int     `json:"cases"`
	CPUSeconds float64 `json:"cpu_s"`
	Target     string  `json:"target"`
	// Lines of the generated file: instrumented, and covered.
	Lines        int `json:"lines"`
	LinesCovered int `json:"lines_covered"`
	// Rules with instrumented code, and covered; Main* only the target's
	// lowering rules (Target.MainRules).
	Rules            int `json:"rules"`
	RulesCovered     int `json:"rules_covered"`
	MainRules        int `json:"main_rules"`
	MainRulesCovered int `json:"main_rules_covered"`
	Unmeasured       int `json:"rules_unmeasured"` // rules without code of their own
}

func pct(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return 100 * float64(n) / float64(d)
}

// LinePct, RulePct and MainRulePct are the percentages.
func (m Measurement) LinePct() float64     { return pct(m.LinesCovered, m.Lines) }
func (m Measurement) RulePct() float64     { return pct(m.RulesCovered, m.Rules) }
func (m Measurement) MainRulePct() float64 { return pct(m.MainRulesCovered, m.MainRules) }

// Report is the coverage of several inputs and of their union.
type Report struct {
	Points []Measurement // every step of every input, then the groups and the union
	// Uncovered are the rules no input covered, per target name; Only
	// the rules that only one input covered, per target and input.
	Uncovered map[string][]Rule
	Only      map[string]map[string][]Rule
	Inputs    []string
	Groups    []string // the groups' names (not the union's)
	// Missed are the rules some input covered and a group did not, per
	// group and target.
	Missed map[string]map[string][]Rule
	// RuleText is the first line of each listed rule in its .isle file,
	// when the source could be read.
	RuleText map[Rule]string
	// sources finds the .isle files, and ruleFiles lists those each
	// target's generated file was made from (for Weights).
	sources   *ruleSources
	ruleFiles map[string][]string
}

// Final is the last measurement of an input for a target.
func (r *Report) Final(input, target string) (Measurement, bool) {
	var last Measurement
	found := false
	for _, m := range r.Points {
		if m.Input == input && m.Target == target {
			last, found = m, true
		}
	}
	return last, found
}

// UnionInput is the input name of the union of all inputs in a Report.
const UnionInput = "union"

// generated is a target's generated file: its rule sites and its
// instrumented lines.
type generated struct {
	Target
	path         string
	sites        []RuleSite
	instrumented LineSet
}

// Measure maps the PC files of runs through the instrumented driver at
// driverPath and measures each target after each step, then each group
// and the union of all inputs.
func Measure(driverPath string, runs []Run, groups []Group) (*Report, error) {
	exe, err := ExeIdentity(driverPath)
	if err != nil {
		return nil, err
	}
	all, err := allPCs(runs, exe)
	if err != nil {
		return nil, err
	}
	sources := &ruleSources{files: map[string][]string{}}
	bin, err := OpenBinary(driverPath, func(file string) bool {
		if dir, ok := strings.CutSuffix(file, crateMarker); ok {
			sources.crateDir = dir
		}
		return targetFile(file)
	})
	if err != nil {
		return nil, err
	}
	if bin.Anchor == 0 {
		return nil, fmt.Errorf("%s: no symbol %s: not a coverage build of cliff-driver", driverPath, AnchorSymbol)
	}
	gens, err := generatedFiles(bin)
	if err != nil {
		return nil, err
	}
	lm := bin.Map(allLinkTime(all, bin.Anchor))
	instrumented := map[string]LineSet{}
	lm.Lines(allLinkTime(all, bin.Anchor), instrumented)
	for i := range gens {
		gens[i].instrumented = instrumented[gens[i].path]
	}
	rep := &Report{Uncovered: map[string][]Rule{}, Only: map[string]map[string][]Rule{}, RuleText: map[Rule]string{}, Missed: map[string]map[string][]Rule{},
		sources: sources, ruleFiles: map[string][]string{}}
	for _, g := range gens {
		sources.outDir = filepath.Dir(g.path)
		for _, s := range g.sites {
			if !slices.Contains(rep.ruleFiles[g.Name], s.Source) {
				rep.ruleFiles[g.Name] = append(rep.ruleFiles[g.Name], s.Source)
			}
		}
	}
	finals := map[string]total{}                       // input → its covered lines, cases, CPU time
	coveredBy := map[string]map[string]map[Rule]bool{} // target → input → rules
	for _, run := range runs {
		if _, dup := finals[run.Input]; dup || run.Input == UnionInput {
			return nil, fmt.Errorf("input name %q given twice or reserved", run.Input)
		}
		rep.Inputs = append(rep.Inputs, run.Input)
		t := total{covered: map[string]LineSet{}}
		for i, step := range run.Steps {
			pcs, err := coveredPCs(step.Dir, bin.Anchor, exe)
			if err != nil {
				return nil, err
			}
			if len(pcs) == 0 && step.Cases > 0 {
				return nil, fmt.Errorf("%s: %d cases ran but no driver wrote coverage (.cov files)", step.Dir, step.Cases)
			}
			lm.Lines(pcs, t.covered)
			t.cases += step.Cases
			t.cpu += step.CPUSeconds
			for _, g := range gens {
				m, _ := measure(g, t.covered[g.path])
				m.Input, m.Step, m.Cases, m.CPUSeconds = run.Input, i+1, t.cases, t.cpu
				rep.Points = append(rep.Points, m)
			}
		}
		finals[run.Input] = t
		for _, g := range gens {
			_, rc := measure(g, t.covered[g.path])
			if coveredBy[g.Name] == nil {
				coveredBy[g.Name] = map[string]map[Rule]bool{}
			}
			coveredBy[g.Name][run.Input] = setOf(rc.Covered)
		}
	}
	groups = append(slices.Clone(groups), Group{UnionInput, rep.Inputs})
	groupCovered := map[string]map[string]map[Rule]bool{} // group → target → rules
	unionCovered := map[string][]Rule{}                   // target → rules
	for _, grp := range groups {
		u := total{covered: map[string]LineSet{}}
		for _, in := range grp.Inputs {
			t, ok := finals[in]
			if !ok {
				return nil, fmt.Errorf("group %s: no input %q", grp.Name, in)
			}
			u.add(t)
		}
		for _, g := range gens {
			m, rc := measure(g, u.covered[g.path])
			m.Input, m.Step, m.Cases, m.CPUSeconds = grp.Name, 1, u.cases, u.cpu
			rep.Points = append(rep.Points, m)
			if groupCovered[grp.Name] == nil {
				groupCovered[grp.Name] = map[string]map[Rule]bool{}
			}
			groupCovered[grp.Name][g.Name] = setOf(rc.Covered)
			if grp.Name == UnionInput {
				unionCovered[g.Name] = rc.Covered
				rep.Uncovered[g.Name] = rc.Uncovered
				rep.Only[g.Name] = onlyBy(coveredBy[g.Name], rc.Covered)
				sources.outDir = filepath.Dir(g.path)
				for _, r := range rc.Uncovered {
					rep.RuleText[r] = sources.text(r)
				}
				for _, rules := range rep.Only[g.Name] {
					for _, r := range rules {
						rep.RuleText[r] = sources.text(r)
					}
				}
			}
		}
		if grp.Name != UnionInput {
			rep.Groups = append(rep.Groups, grp.Name)
		}
	}
	// What each group misses of what the inputs reach together: where its
	// profiles should grow.
	for _, grp := range rep.Groups {
		rep.Missed[grp] = map[string][]Rule{}
		for _, g := range gens {
			missed := []Rule{}
			for _, r := range unionCovered[g.Name] {
				if !groupCovered[grp][g.Name][r] {
					missed = append(missed, r)
					rep.RuleText[r] = sources.text(r)
				}
			}
			rep.Missed[grp][g.Name] = missed
		}
	}
	return rep, nil
}

// Group names the union of some inputs, reported as one more row.
type Group struct {
	Name   string
	Inputs []string
}

// total is an input's coverage when it is done (or a group's).
type total struct {
	covered map[string]LineSet // per generated file
	cases   int
	cpu     float64
}

func (t *total) add(o total) {
	for file, lines := range o.covered {
		if t.covered[file] == nil {
			t.covered[file] = LineSet{}
		}
		for l := range lines {
			t.covered[file][l] = true
		}
	}
	t.cases += o.cases
	t.cpu += o.cpu
}

func setOf(rules []Rule) map[Rule]bool {
	s := map[Rule]bool{}
	for _, r := range rules {
		s[r] = true
	}
	return s
}

// onlyBy lists, per input, the rules (of order) that no other input covered.
func onlyBy(by map[string]map[Rule]bool, order []Rule) map[string][]Rule {
	if len(by) < 2 {
		return nil
	}
	out := map[string][]Rule{}
	for input := range by {
		out[input] = nil // an input that covered nothing alone has an empty list
	}
	for _, r := range order {
		var who []string
		for input, rules := range by {
			if rules[r] {
				who = append(who, input)
			}
		}
		if len(who) == 1 {
			out[who[0]] = append(out[who[0]], r)
		}
	}
	return out
}

// measure is one target's coverage given its covered lines.
func measure(g generated, covered LineSet) (Measurement, RuleCoverage) {
	m := Measurement{Target: g.Name, Lines: len(g.instrumented)}
	for l := range covered {
		if g.instrumented[l] {
			m.LinesCovered++
		}
	}
	rc := CoverRules(g.sites, g.instrumented, covered)
	main := func(r Rule) bool { return strings.HasPrefix(r.Source, g.MainRules) }
	for _, r := range rc.Covered {
		m.Rules++
		m.RulesCovered++
		if main(r) {
			m.MainRules++
			m.MainRulesCovered++
		}
	}
	for _, r := range rc.Uncovered {
		m.Rules++
		if main(r) {
			m.MainRules++
		}
	}
	m.Unmeasured = len(rc.Unmeasured)
	return m, rc
}

// generatedFiles finds each target's generated file among the binary's
// line-table files and reads its rules.
func generatedFiles(bin *Binary) ([]generated, error) {
	var gens []generated
	for _, t := range Targets {
		path := ""
		for _, f := range bin.Files {
			if filepath.Base(f) == t.File {
				path = f
			}
		}
		if path == "" {
			return nil, fmt.Errorf("the driver's line table has no %s: is cranelift-codegen instrumented and built with line tables?", t.File)
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("%s's generated source: %w", t.Name, err)
		}
		sites, err := ParseRules(src)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		gens = append(gens, generated{Target: t, path: path, sites: sites})
	}
	return gens, nil
}

// allPCs reads the first all.pcs of the runs' step directories (every
// driver of one build writes the same table).
func allPCs(runs []Run, exe string) (*PCFile, error) {
	for _, run := range runs {
		for _, step := range run.Steps {
			path := filepath.Join(step.Dir, "all.pcs")
			if _, err := os.Stat(path); err == nil {
				f, err := ReadPCFile(path)
				if err != nil {
					return nil, err
				}
				return f, f.checkExe(path, exe)
			}
		}
	}
	return nil, fmt.Errorf("no all.pcs in any step directory: did the instrumented driver run with CLIFF_COVERAGE_DIR set?")
}

func allLinkTime(f *PCFile, anchor uint64) map[uint64]bool {
	set := map[uint64]bool{}
	f.AddTo(set, anchor)
	return set
}

// coveredPCs merges the .cov files of one step directory (one per driver
// process, each written by the build exe) into link-time addresses.
func coveredPCs(dir string, anchor uint64, exe string) (map[uint64]bool, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.cov"))
	if err != nil {
		return nil, err
	}
	set := map[uint64]bool{}
	for _, path := range files {
		f, err := ReadPCFile(path)
		if err != nil {
			return nil, err
		}
		if err := f.checkExe(path, exe); err != nil {
			return nil, err
		}
		f.AddTo(set, anchor)
	}
	return set, nil
}
