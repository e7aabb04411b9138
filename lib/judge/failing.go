package judge

import (
	"slices"

	"cliff/lib/record"
)

// Failing splits a verdict's sides into those that show its failure and
// the side they are measured against, for the tools that describe, group
// or re-run a failure:
//
//   - The reference is ReferenceSide's: nil when no configuration
//     answered.
//   - For a divergent verdict, the failing sides are the other answering
//     sides: the minority, each side one disagreeing answer.
//   - For any other verdict, they are the sides whose status is the
//     verdict (a crash on two signals is two sides); for consistent, none.
//
// The failing sides keep the verdict's order; reference points into
// v.Sides.
func Failing(v *record.Verdict) (failing []record.Side, reference *record.Side) {
	if r := ReferenceSide(v.Sides); r >= 0 {
		reference = &v.Sides[r]
	}
	for i := range v.Sides {
		s := &v.Sides[i]
		switch {
		case v.Verdict == record.OutcomeConsistent:
		case v.Verdict == record.OutcomeDivergent:
			if Answered(s.Status) && s != reference {
				failing = append(failing, *s)
			}
		case string(s.Status) == string(v.Verdict):
			failing = append(failing, *s)
		}
	}
	return failing, reference
}

// ReferenceSide returns the index of the side whose answer is taken as
// right, among the sides that answered (ok or trap), or -1 when none did:
// the interpreter's side when a compiled configuration shares its answer
// (the reference semantics, confirmed), else the side with the most
// configurations (the agreeing majority), the interpreter's on a tie.
// Every tool that blames a side uses this one rule: cliff-diff's
// failing sides, cliff-cluster's signatures, cliff-locate's references.
func ReferenceSide(sides []record.Side) int {
	best := -1
	for i, s := range sides {
		if !Answered(s.Status) {
			continue
		}
		interp := slices.ContainsFunc(s.Configs, func(c record.Config) bool { return c.Executor == record.ExecInterp })
		if interp && len(s.Configs) > 1 {
			return i
		}
		if best < 0 || len(s.Configs) > len(sides[best].Configs) || len(s.Configs) == len(sides[best].Configs) && interp {
			best = i
		}
	}
	return best
}
