package coverage

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// sampleReport has two inputs in two steps each, a group and the union,
// over all five targets.
func sampleReport() *Report {
	r := &Report{Inputs: []string{"runtests", "compat"}, Uncovered: map[string][]Rule{}, Only: map[string]map[string][]Rule{}}
	r.Groups = []string{"cliff"}
	for i, in := range []string{"runtests", "compat", "cliff", UnionInput} {
		steps := 2
		if i >= 2 { // a group and the union have one step, the totals
			steps = 1
		}
		for step := 1; step <= steps; step++ {
			cases := 100 * step
			if i >= 2 {
				cases = 400 // the sum of the inputs', beyond any drawn point
			}
			for ti, t := range Targets {
				r.Points = append(r.Points, Measurement{
					Input: in, Step: step, Cases: cases, CPUSeconds: 30 * float64(step*(i+1)), Target: t.Name,
					Lines: 1000, LinesCovered: 100*step + 10*ti + 50*i,
					Rules: 200, RulesCovered: 20*step + ti + 5*i, MainRules: 80, MainRulesCovered: 10*step + ti + 2*i,
					Unmeasured: 7,
				})
			}
		}
	}
	r.Missed = map[string]map[string][]Rule{"cliff": {}}
	for _, t := range Targets {
		r.Only[t.Name] = map[string][]Rule{"runtests": {{"src/isa/x64/lower.isle", 12}}, "compat": nil}
		r.Missed["cliff"][t.Name] = []Rule{{t.MainRules, 3}, {"src/prelude_lower.isle", 9}}
	}
	return r
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := "testdata/" + name
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the output (run with -update to accept):\n%s", path, got)
	}
}

// The tables give each input's last step (the totals), then the union.
func TestMarkdown(t *testing.T) {
	golden(t, "report.md", sampleReport().Markdown())
}

func TestSVG(t *testing.T) {
	svg := sampleReport().SVG(AxisCases)
	golden(t, "report-cases.svg", svg)
	// One solid and one dashed curve per target and input, the group
	// and the union not drawn.
	if n := strings.Count(svg, "<path "); n != 2*len(Targets)*2 {
		t.Errorf("%d curves, want %d", n, 2*len(Targets)*2)
	}
	// An input that never ran a target (a target's profile) has no curve
	// in that target's panel.
	r := sampleReport()
	for i, m := range r.Points {
		if m.Input == "compat" && m.Target == "s390x" {
			r.Points[i].LinesCovered = 0
		}
	}
	if n := strings.Count(r.SVG(AxisCases), "<path "); n != 2*len(Targets)*2-2 {
		t.Errorf("%d curves with compat not on s390x, want %d", n, 2*len(Targets)*2-2)
	}
}

func TestWriteRuleList(t *testing.T) {
	var b bytes.Buffer
	rules := []Rule{{"src/isa/x64/lower.isle", 30}, {"src/isa/x64/inst.isle", 9}, {"src/isa/x64/lower.isle", 4}}
	text := map[Rule]string{{"src/isa/x64/lower.isle", 4}: "(rule (lower (iadd x y))"}
	if err := WriteRuleList(&b, rules, text); err != nil {
		t.Fatal(err)
	}
	want := "src/isa/x64/inst.isle:9\nsrc/isa/x64/lower.isle:4\t(rule (lower (iadd x y))\nsrc/isa/x64/lower.isle:30\n"
	if b.String() != want {
		t.Errorf("rule list:\n%s\nwant:\n%s", b.String(), want)
	}
}
