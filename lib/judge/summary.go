package judge

import (
	"fmt"
	"slices"
	"strings"

	"cliff/lib/arch"
	"cliff/lib/canon"
	"cliff/lib/record"
)

// Limits that keep a summary on one readable line.
const (
	shownConfigs = 3   // configurations named per side before "(+N)"
	shownSides   = 4   // sides named in a divergence before "(+N sides)"
	outputWidth  = 60  // characters of an output value
	messageWidth = 120 // characters of a compiler or harness message
)

// summary is the verdict's line for humans: the verdict and where it
// happened, then the other failures the case shows, e.g.
//
//	divergent on input 2: x86_64/none/interp, x86_64/speed/native = i32 0x1 vs riscv64/none/qemu = i32 0x2
//	compile_crash in s390x/speed/qemu: assertion failed: ...; also divergent on input 0
//	3 configurations agree: ok; not compared: unsupported in x86_64/none/interp: not implemented: ...
func (j judgement) summary() string {
	var parts []string
	switch j.outcome {
	case record.OutcomeConsistent:
		parts = append(parts, j.agreement())
	case record.OutcomeDivergent, record.OutcomeReferenceDivergent:
		parts = append(parts, j.divergence())
	default:
		parts = append(parts, j.failure(j.outcome))
		if j.outcome == record.OutcomeHarnessError && j.ran > 0 {
			parts = append(parts, "otherwise "+j.agreement())
		}
	}
	var also, left []string
	for _, o := range precedence {
		if o == j.outcome || !j.present[o] {
			continue
		}
		if NotCompared(o) {
			left = append(left, j.failure(o))
			continue
		}
		if (o == record.OutcomeDivergent || o == record.OutcomeReferenceDivergent) && j.input >= 0 {
			also = append(also, fmt.Sprintf("%s on input %d", o, j.input))
		} else {
			also = append(also, string(o))
		}
	}
	if len(also) > 0 {
		parts = append(parts, "also "+strings.Join(also, ", "))
	}
	if len(left) > 0 {
		parts = append(parts, "not compared: "+strings.Join(left, "; "))
	}
	for _, c := range j.selfContradicting() {
		parts = append(parts, c+" disagrees with itself")
	}
	return strings.Join(parts, "; ")
}

// agreement describes the answers of a case where they do not diverge: one
// group at most.
func (j judgement) agreement() string {
	var answers []*group
	for _, g := range j.groups {
		if Answered(g.status) {
			answers = append(answers, g)
		}
	}
	switch {
	case j.ran == 0:
		return "no configuration ran"
	case j.ran == 1:
		return fmt.Sprintf("only one configuration ran: %s (%s)", j.configName(answers[0].results[0].Config), answerText(answers[0]))
	}
	return fmt.Sprintf("%d configurations agree: %s", j.ran, answerText(answers[0]))
}

// answerText says what a group of answers computed: "ok" or the trap and
// where.
func answerText(g *group) string {
	if g.status == record.StatusTrap {
		return fmt.Sprintf("%s on input %d", canon.TrapText(g.results[0].Trap), len(g.trace)-1)
	}
	return string(g.status)
}

// divergence names the disagreeing sides and what each computed on the
// first differing input (or, when that cannot be told, their hashes). The
// reference's side, first, is marked "(expected)"; in a
// reference_divergent verdict the other side is all of Cranelift that
// answered.
func (j judgement) divergence() string {
	var sides []string
	for _, g := range j.groups {
		if !Answered(g.status) {
			continue
		}
		configs := j.configList(g.configs())
		if j.outcome == record.OutcomeReferenceDivergent && !g.hasReference() {
			configs = fmt.Sprintf("all of Cranelift (%d: %s)", len(g.results), configs)
		}
		var what string
		switch {
		case j.input >= 0:
			what = shorten(outputAt(g.trace, j.input), outputWidth)
			if what == "" {
				what = "(no output)"
			}
		case g.status == record.StatusTrap:
			what = answerText(g)
		default:
			what = "hash " + commonHash(g)
		}
		if g.hasReference() {
			what += " (expected)"
		}
		sides = append(sides, configs+" = "+what)
	}
	if n := len(sides) - shownSides; n > 0 {
		sides = append(sides[:shownSides], fmt.Sprintf("(+%d sides)", n))
	}
	head := string(j.outcome)
	if j.input >= 0 {
		head = fmt.Sprintf("%s on input %d", j.outcome, j.input)
	}
	return head + ": " + strings.Join(sides, " vs ")
}

// failure names the configurations that failed with the verdict's status
// and how.
func (j judgement) failure(o record.Outcome) string {
	var where []string
	for _, g := range j.groups {
		if j.outcomeOf(g) != o {
			continue
		}
		configs := j.configList(g.configs())
		if len(g.results) == j.results && j.results > 1 {
			configs = "every configuration"
		}
		if d := failureDetail(g.results[0]); d != "" {
			configs += ": " + d
		}
		where = append(where, configs)
	}
	return string(o) + " in " + strings.Join(where, "; ")
}

// outcomeOf is the verdict a group that did not answer gives: its status,
// or for the reference's gaps and limits what referenceGap says.
func (j judgement) outcomeOf(g *group) record.Outcome {
	if gap := referenceGap(g.results[0]); gap != "" {
		return gap
	}
	return record.Outcome(g.status)
}

// failureDetail is the signal of a crash, or the first line of a message.
func failureDetail(r *record.RunResult) string {
	if r.Status == record.StatusCrash && r.Signal != "" {
		return r.Signal
	}
	first, _, _ := strings.Cut(strings.TrimSpace(r.Message), "\n")
	return shorten(first, messageWidth)
}

// selfContradicting lists the configurations that appear on two sides: the
// same configuration run twice (say, on two machines) ended differently, a
// sign of nondeterminism worth its own look.
func (j judgement) selfContradicting() []string {
	sides := map[string]int{}
	var order []string
	for _, g := range j.groups {
		seen := map[string]bool{}
		for _, r := range g.results {
			name := r.Config.String()
			if seen[name] {
				continue
			}
			seen[name] = true
			if sides[name]++; sides[name] == 2 {
				order = append(order, name)
			}
		}
	}
	return order
}

// configList names configurations, the first few of them.
func (j judgement) configList(cs []record.Config) string {
	var names []string
	for _, c := range cs[:min(len(cs), shownConfigs)] {
		names = append(names, j.configName(c))
	}
	s := strings.Join(names, ", ")
	if n := len(cs) - shownConfigs; n > 0 {
		s += fmt.Sprintf(" (+%d)", n)
	}
	return s
}

// configName names a configuration of the case the way ConfigName does.
func (j judgement) configName(c record.Config) string { return ConfigName(c, j.configs) }

// ConfigName names a configuration compactly, as the summaries do:
// arch/opt/executor ("x86_64/speed/native"), and only when another
// configuration among those given, the case's, has the same compact name
// (the campaign's swarm runs a target with several flag sets and
// settings), what tells it apart: its flags, by the name of their set in
// lib/arch's table where they are one ("riscv64/speed/qemu:base"), and
// the settings of its own that not all those others share
// ("riscv64/speed/qemu:v+regalloc_algorithm=single_pass"). A campaign
// gives every x86_64 configuration the same eleven flags and three
// settings, which would make each summary hundreds of characters long and
// say nothing the record does not.
func ConfigName(c record.Config, among []record.Config) string {
	short := compactName(c)
	var twins []record.Config
	for _, o := range among {
		if compactName(o) == short && o.String() != c.String() {
			twins = append(twins, o)
		}
	}
	if len(twins) == 0 {
		return short
	}
	flags := strings.Join(c.Flags, ",")
	if a, ok := arch.Lookup(c.Arch); ok {
		if name := a.SetName(c.Flags); name != "" {
			flags = name
		}
	}
	var own []string
	for _, s := range c.Settings {
		if slices.ContainsFunc(twins, func(o record.Config) bool { return !slices.Contains(o.Settings, s) }) {
			own = append(own, s)
		}
	}
	name := short + ":" + flags
	if len(own) > 0 {
		name += "+" + strings.Join(own, ",")
	}
	return name
}

func compactName(c record.Config) string {
	s := c.Arch + "/" + c.OptLevel + "/" + c.Executor
	if c.Cranelift != "" {
		s += "@" + c.Cranelift
	}
	return s
}

// shorten cuts s to at most n characters, marking the cut.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
