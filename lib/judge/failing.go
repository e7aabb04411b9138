package judge

import (
	"slices"

	"cliff/lib/record"
)

// Failing splits a verdict's sides into those that show its failure and
// the side they are measured against (the expected side), for the tools
// that describe, group or re-run a failure:
//
//   - The expected side is ExpectedSide's: nil when no configuration
//     answered.
//   - For a divergent or reference_divergent verdict, the failing sides
//     are the other answering sides: each one disagreeing answer (for
//     reference_divergent, the one side of all of Cranelift).
//   - For any other verdict, they are the sides whose status is the
//     verdict (a crash on two signals is two sides); for consistent, none.
//
// The failing sides keep the verdict's order; expected points into
// v.Sides.
func Failing(v *record.Verdict) (failing []record.Side, expected *record.Side) {
	if r := ExpectedSide(v.Sides); r >= 0 {
		expected = &v.Sides[r]
	}
	for i := range v.Sides {
		s := &v.Sides[i]
		switch {
		case v.Failure() == record.OutcomeConsistent:
		case v.Failure() == record.OutcomeDivergent || v.Failure() == record.OutcomeReferenceDivergent:
			if Answered(s.Status) && s != expected {
				failing = append(failing, *s)
			}
		case string(s.Status) == string(v.Failure()):
			failing = append(failing, *s)
		}
	}
	return failing, expected
}

// ExpectedSide returns the index of the side whose answer is taken as
// right, among the sides that answered (ok or trap), or -1 when none did:
// the side of cliff's reference (record.ExecRef) when it answered, which
// shares no code with Cranelift and so is right by definition (its own
// bugs are found by reading the divergences it shows); without it, the
// interpreter's side when a compiled configuration shares its answer
// (the documented semantics, confirmed), else the side with the most
// architectures (the interpreter one of them), the interpreter's on a
// tie, then the side with the most configurations. Architectures vote,
// not configurations: one backend's opt levels (and its versions, when a
// run tests several) share its lowering rules and fail together, so three of them against the interpreter are one
// voice against one, not three (a riscv64-only campaign blamed the
// interpreter for riscv64's wrong vector conversions that way).
// Every tool that blames a side uses this one rule: cliff-diff's
// failing sides, cliff-cluster's signatures, cliff-locate's passing
// configurations.
func ExpectedSide(sides []record.Side) int {
	for i, s := range sides {
		if Answered(s.Status) && slices.ContainsFunc(s.Configs, func(c record.Config) bool { return c.Executor == record.ExecRef }) {
			return i
		}
	}
	best, bestArches, bestInterp := -1, 0, false
	for i, s := range sides {
		if !Answered(s.Status) {
			continue
		}
		interp := slices.ContainsFunc(s.Configs, func(c record.Config) bool { return c.Executor == record.ExecInterp })
		if interp && slices.ContainsFunc(s.Configs, func(c record.Config) bool { return c.Executor != record.ExecInterp }) {
			return i // confirmed by compiled code, not by another version's interpreter
		}
		arches := archCount(s.Configs)
		better := best < 0 || arches > bestArches
		if !better && arches == bestArches {
			better = interp && !bestInterp || interp == bestInterp && len(s.Configs) > len(sides[best].Configs)
		}
		if better {
			best, bestArches, bestInterp = i, arches, interp
		}
	}
	return best
}

// archCount is the number of distinct architectures among configs, the
// interpreter counted as one.
func archCount(configs []record.Config) int {
	var seen []string
	for _, c := range configs {
		a := c.Arch
		if c.Executor == record.ExecInterp {
			a = record.ExecInterp
		}
		if !slices.Contains(seen, a) {
			seen = append(seen, a)
		}
	}
	return len(seen)
}
