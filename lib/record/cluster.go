package record

import (
	"fmt"
	"time"
)

// A Cluster is a group of verdicts that look like the same bug, written by
// cliff-cluster for triage: the representative is the case to look at (and
// the one cliff-locate reduces first).
type Cluster struct {
	Kind    string `json:"kind"`
	Version int    `json:"v"`
	// Signature is what the members share, e.g. the verdict, the disagreeing
	// configurations and the panic message or trap code with numbers erased.
	Signature      string  `json:"signature"`
	Verdict        Outcome `json:"verdict,omitempty"`
	Count          int     `json:"count"`          // number of member cases
	Representative string  `json:"representative"` // case ID
	// Members are member case IDs, at most a few hundred: fewer than Count
	// means the list was cut short.
	Members   []string  `json:"members,omitempty"`
	FirstSeen time.Time `json:"first_seen,omitzero"`
	LastSeen  time.Time `json:"last_seen,omitzero"`
}

// RecordKind implements Record.
func (*Cluster) RecordKind() string { return KindCluster }

// Stamp implements Record.
func (c *Cluster) Stamp() { c.Kind, c.Version = KindCluster, SchemaVersion }

// Validate checks the required fields and the counts.
func (c *Cluster) Validate() error {
	p := newProblems(KindCluster, c.Signature)
	p.header(c.Kind, c.Version, KindCluster, false)
	p.require("signature", c.Signature)
	p.require("representative", c.Representative)
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
	return p.err()
}
