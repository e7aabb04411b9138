package cluster

import (
	"strings"

	"cliff/lib/ir"
	"cliff/lib/profile"
	"cliff/lib/record"
)

// A culprit is what cliff-locate found behind a cluster: the mask entries
// of its location. Two root causes can share one signature (findings 10
// and 11: the same unwrap in riscv64's put_in_reg, reached from two
// different lowerings), and a campaign loop locates the second one when
// the cluster persists after the first one's mask. Given the locations,
// the clusterer tells them apart: a member goes with the first located
// culprit whose shape its case contains, and a member that contains none
// stays in the signature's plain cluster, to be looked at again.
type culprit struct {
	label    string // the mask entries, "; "-joined: the signature's Culprit
	entries  []profile.MaskEntry
	location *record.Location
}

// Culprits registers the locations that split clusters by culprit: each
// location made for a cluster (Location.Cluster) whose mask entries parse.
// Call it before adding verdicts; locations are tried in the order given.
// It returns the locations whose mask cannot be read, which split nothing.
func (c *Clusterer) Culprits(locs []*record.Location) (unreadable []*record.Location) {
	if c.culprits == nil {
		c.culprits = map[string][]culprit{}
	}
	for _, l := range locs {
		if l.Cluster == "" || len(l.Mask) == 0 {
			continue
		}
		entries, err := profile.ParseMask(l.CaseID, []byte(strings.Join(l.Mask, "\n")))
		if err != nil || len(entries) == 0 {
			unreadable = append(unreadable, l)
			continue
		}
		label := strings.Join(l.Mask, "; ")
		known := false
		for _, k := range c.culprits[l.Cluster] {
			known = known || k.label == label
		}
		if !known {
			c.culprits[l.Cluster] = append(c.culprits[l.Cluster], culprit{label: label, entries: entries, location: l})
		}
	}
	return unreadable
}

// culpritOf is the culprit of signature hash key whose shape the case
// (parsed as mod) contains on one of the failing architectures, or nil. A
// case located itself belongs to its own culprit whatever its shape: the
// reduction may have changed the operands the mask names.
func (c *Clusterer) culpritOf(key string, sig Signature, caseID string, mod *ir.Module) *culprit {
	cands := c.culprits[key]
	for i := range cands {
		if cands[i].location.CaseID == caseID {
			return &cands[i]
		}
	}
	if mod == nil {
		return nil
	}
	arches := sig.Arches()
	for i := range cands {
		for _, e := range cands[i].entries {
			if archMatches(e.Arch, arches) && e.FoundIn(mod) {
				return &cands[i]
			}
		}
	}
	return nil
}

// PlainHash is the hash of a cluster record's signature without its
// culprit: what a location made for the cluster names in Cluster, so
// that the next cliff-cluster finds its culprit among the verdicts of the
// whole signature, however the cluster was split before.
func PlainHash(c *record.Cluster) string {
	if c.Culprit == "" && c.SignatureHash != "" {
		return c.SignatureHash
	}
	return Signature{Verdict: c.Verdict, Failing: c.FailingConfigs, Diagnostic: c.Diagnostic}.Hash()
}
