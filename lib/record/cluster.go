package record

import (
	"fmt"
	"strings"
	"time"
)

// A Cluster is a group of verdicts that look like the same bug, written by
// cliff-cluster for triage: the representative is the case to look at (and
// the one cliff-locate reduces first). A cluster record carries its
// representative's whole verdict, case included, so that cliff-locate can
// read cluster records straight from cliff-cluster's output.
type Cluster struct {
	Kind    string `json:"kind"`
	Version int    `json:"v"`
	// Signature is what the members share, e.g. the verdict, the disagreeing
	// configurations and the panic message or trap code with numbers erased:
	// the one-line form of FailingConfigs and Diagnostic (lib/cluster).
	Signature string `json:"signature"`
	// SignatureHash is the xxhash64 of Signature (16 hex digits), short and
	// stable: for file names and joins.
	SignatureHash string `json:"signature_hash,omitempty"`
	// FailingConfigs is the signature's R: the configurations on the failing
	// side, abstracted where the failure does not depend on them
	// ("x86_64/*": every opt level).
	FailingConfigs string `json:"failing_configs,omitempty"`
	// Diagnostic is the signature's K: the panic, error, trap or kind of
	// wrong output, normalised (value numbers, paths and hashes erased).
	Diagnostic string `json:"diagnostic,omitempty"`
	// Culprit, when set, is the located shape (cliff-locate's mask
	// entries) that tells this cluster from others with the same R and K:
	// two root causes behind one panic. Signature ends with " @ " and it.
	Culprit        string  `json:"culprit,omitempty"`
	Verdict        Outcome `json:"verdict,omitempty"`
	Count          int     `json:"count"`          // number of member cases
	Representative string  `json:"representative"` // case ID
	// Members are member case IDs, at most a few hundred: fewer than Count
	// means the list was cut short.
	Members []string `json:"members,omitempty"`
	// FirstSeen and LastSeen are when cliff-cluster read the first and last
	// member: the campaign's time when it runs in the campaign's pipe.
	FirstSeen time.Time `json:"first_seen,omitzero"`
	LastSeen  time.Time `json:"last_seen,omitzero"`
	// Known says why the cluster is a finding already known: "known: " and
	// the known.mask entries or findings/ files it matches, or "possibly: "
	// and the masked combinations its representative contains; empty for a
	// new one.
	Known string `json:"known,omitempty"`
	// RepresentativeVerdict is the representative's verdict with its case,
	// for cliff-locate and the report.
	RepresentativeVerdict *Verdict `json:"representative_verdict,omitempty"`
}

// RecordKind implements Record.
func (*Cluster) RecordKind() string { return KindCluster }

// Stamp implements Record.
func (c *Cluster) Stamp() { c.Kind, c.Version = KindCluster, SchemaVersion }

// Validate checks the required fields, the counts and the representative's
// verdict.
func (c *Cluster) Validate() error {
	p := newProblems(KindCluster, c.Signature)
	p.header(c.Kind, c.Version, KindCluster, false)
	p.require("signature", c.Signature)
	p.require("representative", c.Representative)
	if c.SignatureHash != "" {
		p.hash("signature_hash", c.SignatureHash)
		if c.Signature != "" && HashString(c.Signature) != c.SignatureHash {
			p.addf("signature_hash", "%s, but the signature hashes to %s", c.SignatureHash, HashString(c.Signature))
		}
	}
	if c.Verdict != "" {
		oneOf(p, "verdict", c.Verdict, Outcomes()...)
	}
	if c.Count < 1 {
		p.addf("count", "%d, want at least 1", c.Count)
	}
	if len(c.Members) > c.Count {
		p.addf("members", "%d listed, more than count %d", len(c.Members), c.Count)
	}
	for i, m := range c.Members {
		p.require(fmt.Sprintf("members[%d]", i), m)
	}
	if !c.FirstSeen.IsZero() && !c.LastSeen.IsZero() && c.LastSeen.Before(c.FirstSeen) {
		p.addf("last_seen", "%v, before first_seen %v", c.LastSeen, c.FirstSeen)
	}
	if c.Known != "" && !strings.HasPrefix(c.Known, "known: ") && !strings.HasPrefix(c.Known, "possibly: ") {
		p.addf("known", "%q, want \"known: …\" or \"possibly: …\"", c.Known)
	}
	if v := c.RepresentativeVerdict; v != nil {
		if err := v.Validate(); err != nil {
			p.addf("representative_verdict", "%v", err)
		}
		if v.CaseID != c.Representative {
			p.addf("representative_verdict.case_id", "%q, but representative is %q", v.CaseID, c.Representative)
		}
		if c.Verdict != "" && v.Verdict != c.Verdict {
			p.addf("representative_verdict.verdict", "%q, but the cluster's verdict is %q", v.Verdict, c.Verdict)
		}
	}
	return p.err()
}
