package record

import (
	"fmt"
	"time"
)

// A Run is one run of a nightly campaign as its history keeps it
// (lib/history, scripts/nightly.sh): what ran, on which Cranelift, with
// what budget, and the clusters it found with their counts. The history
// is one Run per file, so that a run is committed by one rename and
// never counted twice.
type Run struct {
	Kind    string `json:"kind"`
	Version int    `json:"v"`
	// ID names the run in its history: its start in UTC and its seed,
	// "20261129T020000Z-4", so that the IDs sort as the runs started.
	ID   string `json:"id"`
	Seed uint64 `json:"seed,string"`
	// Started is when the run was planned; Finished when it was
	// recorded (a resumed run's Finished is the next day's).
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished"`
	// Cranelift is the Cranelift tested: a release's version, or a
	// checkout's label (version, commit, dirty hash), as results name it.
	Cranelift string `json:"cranelift"`
	// Cliff is the version of cliff that recorded the run.
	Cliff string `json:"cliff,omitempty"`
	// Profile, Depth and Mask are the campaign's (scripts/campaign.sh's
	// PROFILE, DEPTH and MASK; an empty Mask is none: every known
	// finding let through).
	Profile string `json:"profile,omitempty"`
	Depth   int    `json:"depth,omitempty"`
	Mask    string `json:"mask,omitempty"`
	// BudgetMinutes is the CPU budget the run was sized for, in CPU
	// minutes; 0 when its size was given as a number of cases.
	BudgetMinutes float64 `json:"budget_minutes,omitempty"`
	// Cases is how many cases the campaign generated and ran.
	Cases int `json:"cases"`
	// CPUSeconds and WallSeconds are what the campaign took; for a
	// resumed run only the attempt that finished it (the killed one's
	// time is lost), so such a run does not size later ones.
	CPUSeconds  float64 `json:"cpu_seconds,omitempty"`
	WallSeconds float64 `json:"wall_seconds,omitempty"`
	Resumed     bool    `json:"resumed,omitempty"`
	// Failures is the number of failing verdicts, clustered or not.
	Failures int `json:"failures"`
	// Clusters are the run's clusters, largest first, as cliff-cluster
	// wrote them; the whole records (with representatives) are kept
	// beside the run's record.
	Clusters []RunCluster `json:"clusters,omitempty"`
}

// A RunCluster is one cluster of a Run: its signature and how many
// cases it had that night.
type RunCluster struct {
	Signature      string  `json:"signature"`
	SignatureHash  string  `json:"signature_hash"`
	Verdict        Outcome `json:"verdict,omitempty"`
	Count          int     `json:"count"`
	Representative string  `json:"representative"`
	// Known is the cluster record's: the known finding it matches.
	Known string `json:"known,omitempty"`
}

// RecordKind implements Record.
func (*Run) RecordKind() string { return KindRun }

// Stamp implements Record.
func (r *Run) Stamp() { r.Kind, r.Version = KindRun, SchemaVersion }

// Validate checks the required fields and each cluster.
func (r *Run) Validate() error {
	p := newProblems(KindRun, r.ID)
	p.header(r.Kind, r.Version, KindRun, false)
	p.require("id", r.ID)
	p.require("cranelift", r.Cranelift)
	if r.Started.IsZero() {
		p.addf("started", "missing")
	}
	if r.Finished.IsZero() {
		p.addf("finished", "missing")
	} else if r.Finished.Before(r.Started) {
		p.addf("finished", "%v, before started %v", r.Finished, r.Started)
	}
	if r.Cases < 1 {
		p.addf("cases", "%d, want at least 1", r.Cases)
	}
	for _, f := range []struct {
		name  string
		value float64
	}{{"budget_minutes", r.BudgetMinutes}, {"cpu_seconds", r.CPUSeconds}, {"wall_seconds", r.WallSeconds}} {
		if f.value < 0 {
			p.addf(f.name, "%g, want 0 or more", f.value)
		}
	}
	total := 0
	seen := map[string]bool{}
	for i, c := range r.Clusters {
		at := fmt.Sprintf("clusters[%d]", i)
		p.require(at+".signature", c.Signature)
		p.require(at+".representative", c.Representative)
		p.hash(at+".signature_hash", c.SignatureHash)
		if c.Signature != "" && isHash(c.SignatureHash) && HashString(c.Signature) != c.SignatureHash {
			p.addf(at+".signature_hash", "%s, but the signature hashes to %s", c.SignatureHash, HashString(c.Signature))
		}
		if seen[c.SignatureHash] {
			p.addf(at+".signature_hash", "%s twice", c.SignatureHash)
		}
		seen[c.SignatureHash] = true
		if c.Verdict != "" {
			oneOf(p, at+".verdict", c.Verdict, Outcomes()...)
		}
		if c.Count < 1 {
			p.addf(at+".count", "%d, want at least 1", c.Count)
		}
		total += c.Count
	}
	if r.Failures > r.Cases && r.Cases > 0 {
		p.addf("failures", "%d, more than the %d cases", r.Failures, r.Cases)
	}
	if total > r.Failures {
		p.addf("failures", "%d, fewer than the clusters' %d members", r.Failures, total)
	}
	return p.err()
}
