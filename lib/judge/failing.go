package judge

import "cliff/lib/record"

// Failing splits a verdict's sides into those that show its failure and
// the side they are measured against, for the tools that describe, group
// or re-run a failure:
//
//   - The reference is the answering side (ok or trap) with the most
//     configurations: the agreeing majority. On a tie it is the earlier
//     side in the verdict's order, which puts the interpreter's side (the
//     reference semantics) first. It is nil when no configuration
//     answered.
//   - For a divergent verdict, the failing sides are the other answering
//     sides: the minority, each side one disagreeing answer.
//   - For any other verdict, they are the sides whose status is the
//     verdict (a crash on two signals is two sides); for consistent, none.
//
// The failing sides keep the verdict's order; reference points into
// v.Sides.
func Failing(v *record.Verdict) (failing []record.Side, reference *record.Side) {
	for i := range v.Sides {
		s := &v.Sides[i]
		if Answered(s.Status) && (reference == nil || len(s.Configs) > len(reference.Configs)) {
			reference = s
		}
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
