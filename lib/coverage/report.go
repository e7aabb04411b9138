package coverage

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// WriteJSONL writes every measurement as a JSON line.
func (r *Report) WriteJSONL(w io.Writer) error {
	enc := json.NewEncoder(w)
	for _, m := range r.Points {
		if err := enc.Encode(m); err != nil {
			return err
		}
	}
	return nil
}

// Markdown is the report's tables: per input (then per group, and for
// the union of all inputs), each
// target's line coverage, rule coverage and lowering-rule coverage, with
// the cases and CPU time the input took.
func (r *Report) Markdown() string {
	var b strings.Builder
	inputs := append(append(slices.Clone(r.Inputs), r.Groups...), UnionInput)
	table := func(title, what string, value func(Measurement) string) {
		fmt.Fprintf(&b, "### %s\n\n%s\n\n| input | cases | CPU s |", title, what)
		for _, t := range Targets {
			fmt.Fprintf(&b, " %s |", t.Name)
		}
		b.WriteString("\n|---|---:|---:|")
		for range Targets {
			b.WriteString("---:|")
		}
		b.WriteString("\n")
		for _, in := range inputs {
			first, ok := r.Final(in, Targets[0].Name)
			if !ok {
				continue
			}
			fmt.Fprintf(&b, "| %s | %d | %.0f |", in, first.Cases, first.CPUSeconds)
			for _, t := range Targets {
				m, _ := r.Final(in, t.Name)
				fmt.Fprintf(&b, " %s |", value(m))
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	table("Line coverage of the generated isle_<arch>.rs (isle_opt.rs for the mid-end)",
		"Covered lines / instrumented lines of the file (CLIR's metric).",
		func(m Measurement) string { return fmt.Sprintf("%.1f%% (%d/%d)", m.LinePct(), m.LinesCovered, m.Lines) })
	table("Rule coverage: lowering rules (lower.isle; opts/*.isle for the mid-end)",
		"Rules with code of their own that ran at least once / rules with code of their own.",
		func(m Measurement) string {
			return fmt.Sprintf("%.1f%% (%d/%d)", m.MainRulePct(), m.MainRulesCovered, m.MainRules)
		})
	table("Rule coverage: every rule of the generated file (with inst.isle, preludes, the assembler's)",
		"As above, over all rules the generated file holds; unmeasured rules (no code of their own) are left out.",
		func(m Measurement) string {
			return fmt.Sprintf("%.1f%% (%d/%d, %d unmeasured)", m.RulePct(), m.RulesCovered, m.Rules, m.Unmeasured)
		})
	if len(r.Groups) > 0 {
		b.WriteString("### Rules the inputs reach together and a group misses (lowering rules / all rules)\n\n| group |")
		for _, t := range Targets {
			fmt.Fprintf(&b, " %s |", t.Name)
		}
		b.WriteString("\n|---|")
		for range Targets {
			b.WriteString("---:|")
		}
		b.WriteString("\n")
		for _, grp := range r.Groups {
			fmt.Fprintf(&b, "| %s |", grp)
			for _, t := range Targets {
				main := 0
				for _, rule := range r.Missed[grp][t.Name] {
					if strings.HasPrefix(rule.Source, t.MainRules) {
						main++
					}
				}
				fmt.Fprintf(&b, " %d / %d |", main, len(r.Missed[grp][t.Name]))
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	if len(r.Inputs) > 1 {
		b.WriteString("### Rules only one input covered\n\n| target |")
		for _, in := range r.Inputs {
			fmt.Fprintf(&b, " only %s |", in)
		}
		b.WriteString("\n|---|")
		for range r.Inputs {
			b.WriteString("---:|")
		}
		b.WriteString("\n")
		for _, t := range Targets {
			fmt.Fprintf(&b, "| %s |", t.Name)
			for _, in := range r.Inputs {
				fmt.Fprintf(&b, " %d |", len(r.Only[t.Name][in]))
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// WriteRuleList writes rules one per line, file:line and the rule's first
// line from text (when known), grouped by file in line order: the list the
// profiles can aim at.
func WriteRuleList(w io.Writer, rules []Rule, text map[Rule]string) error {
	sorted := slices.Clone(rules)
	slices.SortFunc(sorted, func(a, b Rule) int {
		if c := strings.Compare(a.Source, b.Source); c != 0 {
			return c
		}
		return a.Line - b.Line
	})
	for _, r := range sorted {
		line := r.String()
		if t := text[r]; t != "" {
			line += "\t" + t
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
	}
	return nil
}
