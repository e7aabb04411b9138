package judge

import (
	"fmt"
	"slices"
	"strings"

	"cliff/lib/cranelift"
	"cliff/lib/record"
)

// versionVerdict turns a failing verdict of a run over several versions
// of Cranelift (Config.Cranelift) into regression or fixed when the
// versions part ways: the newest version fails where an older one is
// right (regression), or is right where an older one fails (fixed). A
// version fails when one of its configurations is on a failing side
// (Failing); it is right when its configurations answered on the side
// taken as right and none failed. Failures all versions share, and runs
// of one version, keep their verdict. The versions' configurations of
// one backend are one voice in ExpectedSide, as its opt levels are, so
// old versions cannot outvote the expected side.
func versionVerdict(v *record.Verdict) {
	if !IsCraneliftFailure(v.Verdict) {
		return
	}
	failing, expected := Failing(v)
	var labels []string
	bad, right := map[string]bool{}, map[string]bool{}
	for _, s := range v.Sides {
		for _, c := range s.Configs {
			if c.Cranelift != "" && !slices.Contains(labels, c.Cranelift) {
				labels = append(labels, c.Cranelift)
			}
		}
	}
	if len(labels) < 2 {
		return
	}
	for _, s := range failing {
		for _, c := range s.Configs {
			bad[c.Cranelift] = true
		}
	}
	if expected != nil {
		for _, c := range expected.Configs {
			right[c.Cranelift] = true
		}
	}
	slices.SortFunc(labels, compareLabels)
	newest := labels[len(labels)-1]
	var older []string // the other side: right older versions for a regression, failing ones for a fix
	newestRight := right[newest] && !bad[newest]
	for _, l := range labels[:len(labels)-1] {
		switch {
		case bad[newest] && right[l] && !bad[l]:
			older = append(older, l)
		case newestRight && bad[l]:
			older = append(older, l)
		}
	}
	if len(older) == 0 {
		return
	}
	v.Symptom = v.Verdict
	if bad[newest] {
		v.Verdict = record.OutcomeRegression
		v.Summary = fmt.Sprintf("regression: Cranelift %s fails where %s is right: %s", newest, strings.Join(older, ", "), v.Summary)
	} else {
		v.Verdict = record.OutcomeFixed
		v.Summary = fmt.Sprintf("fixed: Cranelift %s fails where %s is right: %s", strings.Join(older, ", "), newest, v.Summary)
	}
}

// compareLabels orders Cranelift labels by version (a checkout's,
// 0.139.0@0123abcd, by the version before its @), then by text.
func compareLabels(a, b string) int {
	va, _, _ := strings.Cut(a, "@")
	vb, _, _ := strings.Cut(b, "@")
	if c := cranelift.CompareVersions(va, vb); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}
