package cluster

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"cliff/lib/analysis"
	"cliff/lib/ir"
	"cliff/lib/parser"
	"cliff/lib/record"
)

// DefaultMaxMembers bounds the member IDs a cluster lists.
const DefaultMaxMembers = 200

// A Clusterer groups failing verdicts by signature as they stream in.
// Verdicts that are not Clustered are only counted. Its memory grows with
// the number of clusters: per cluster the representative's verdict, at
// most MaxMembers IDs, and a few numbers.
type Clusterer struct {
	// MaxMembers bounds each cluster's member list (DefaultMaxMembers if 0).
	MaxMembers int
	// Now gives the time a verdict is seen when its results do not say
	// (time.Now if nil).
	Now func() time.Time

	byHash   map[string]*Group
	culprits map[string][]culprit // by plain signature hash (see Culprits)
	groups   []*Group             // in order of first sighting
	Stats    Stats
	timeline Timeline
}

// A Group is one cluster as it grows.
type Group struct {
	Signature Signature
	Count     int
	Members   []string
	FirstSeen time.Time
	LastSeen  time.Time
	// FirstCase is the campaign position (see casePosition) of the first
	// member seen.
	FirstCase int
	// Representative is the simplest member's verdict, with its case.
	Representative *record.Verdict
	Size           Size
	// Location is the location whose culprit the members share, when the
	// cluster was split by culprit (Clusterer.Culprits).
	Location *record.Location
}

// Size is how simple a case is, for choosing a cluster's representative:
// fewer instructions first, then simpler control flow.
type Size struct {
	Insts      int
	Cyclomatic int
	Blocks     int
}

func (s Size) compare(t Size) int {
	if c := cmp.Compare(s.Insts, t.Insts); c != 0 {
		return c
	}
	if c := cmp.Compare(s.Cyclomatic, t.Cyclomatic); c != 0 {
		return c
	}
	return cmp.Compare(s.Blocks, t.Blocks)
}

// Stats are the campaign's numbers, from every verdict added.
type Stats struct {
	Verdicts int
	Outcomes map[record.Outcome]int
	// Configs counts the verdicts each configuration took part in (by
	// Config.String).
	Configs map[string]int
	// ArchStatuses counts, per architecture ("interp" for the
	// interpreter), the runs of each status: the verdict mix per target.
	ArchStatuses map[string]map[record.Status]int
	// CaseIndexes is the range of cliff-gen case indexes seen (Min > Max
	// when none).
	MinCase, MaxCase int
	// RunMS sums the compile, link and exec timings of every result of
	// every case carried: the machine time the runs took.
	RunMS      float64
	TimedCases int
	FirstSeen  time.Time
	LastSeen   time.Time
	// Harness counts the cases with harness errors, per executor and
	// version, in order of first sighting.
	Harness []HarnessErrors
}

// NewClusterer returns an empty Clusterer.
func NewClusterer() *Clusterer {
	return &Clusterer{
		byHash: map[string]*Group{},
		Stats: Stats{Outcomes: map[record.Outcome]int{}, Configs: map[string]int{},
			ArchStatuses: map[string]map[record.Status]int{}, MinCase: 1, MaxCase: 0},
		timeline: Timeline{Max: 2048},
	}
}

// Add takes one verdict. It keeps v (not a copy) when v becomes a
// representative, so the caller must not modify v afterwards. The error
// is about v (a case whose CLIF does not parse); nothing is added then.
func (c *Clusterer) Add(v *record.Verdict) error {
	t := c.seen(v)
	var size Size
	var mod *ir.Module
	clustered := Clustered(v.Verdict)
	if clustered {
		var err error
		if mod, size, err = measure(v.Case); err != nil {
			return fmt.Errorf("case %s: %w", v.CaseID, err)
		}
	}
	c.count(v, t)
	if !clustered {
		return nil
	}
	sig := SignatureOf(v)
	var loc *record.Location
	if k := c.culpritOf(sig.Hash(), sig, v.CaseID, mod); k != nil {
		sig.Culprit, loc = k.label, k.location
	}
	key := sig.Hash()
	g := c.byHash[key]
	pos := c.casePosition(v)
	if g == nil {
		g = &Group{Signature: sig, FirstSeen: t, FirstCase: pos, Representative: v, Size: size, Location: loc}
		c.byHash[key] = g
		c.groups = append(c.groups, g)
	} else if t.Before(g.FirstSeen) {
		g.FirstSeen = t
	}
	if g.Count > 0 && (size.compare(g.Size) < 0 || size.compare(g.Size) == 0 && v.CaseID < g.Representative.CaseID) {
		g.Representative, g.Size = v, size
	}
	g.Count++
	if t.After(g.LastSeen) {
		g.LastSeen = t
	}
	max := c.MaxMembers
	if max == 0 {
		max = DefaultMaxMembers
	}
	if len(g.Members) < max {
		g.Members = append(g.Members, v.CaseID)
	}
	failures := 0
	for o, n := range c.Stats.Outcomes {
		if Clustered(o) {
			failures += n
		}
	}
	c.timeline.add(Point{Case: pos, Verdicts: c.Stats.Verdicts, Failures: failures, Clusters: len(c.groups)}, g.Count == 1)
	return nil
}

// seen is when a verdict's failure was found: when cliff-run had the last
// of its case's results (Timings.Done), else now (Now), for results
// written before cliff-run stamped that.
func (c *Clusterer) seen(v *record.Verdict) time.Time {
	var t time.Time
	if v.Case != nil {
		for _, r := range v.Case.Results {
			if r.Timings.Done.After(t) {
				t = r.Timings.Done
			}
		}
	}
	if !t.IsZero() {
		return t
	}
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// casePosition is where a case stands in its campaign: cliff-gen's index
// for a generated case, else its position among the verdicts read.
func (c *Clusterer) casePosition(v *record.Verdict) int {
	if generated(v.Case) {
		return int(v.Case.Options.Index)
	}
	return c.Stats.Verdicts - 1
}

// generated reports whether a case comes from cliff-gen's seeded stream,
// whose index orders the campaign (not --enumerate's, nor a .clif file).
func generated(c *record.Case) bool {
	return c != nil && c.Options.Profile != "" && c.Options.Mode == ""
}

func (c *Clusterer) count(v *record.Verdict, t time.Time) {
	s := &c.Stats
	s.Verdicts++
	s.Outcomes[v.Verdict]++
	if s.FirstSeen.IsZero() || t.Before(s.FirstSeen) {
		s.FirstSeen = t
	}
	if t.After(s.LastSeen) {
		s.LastSeen = t
	}
	s.harnessErrors(v)
	for _, side := range v.Sides {
		for _, cfg := range side.Configs {
			s.Configs[cfg.String()]++
			a := archOf(cfg)
			if s.ArchStatuses[a] == nil {
				s.ArchStatuses[a] = map[record.Status]int{}
			}
			s.ArchStatuses[a][side.Status]++
		}
	}
	if v.Case != nil {
		if generated(v.Case) {
			i := int(v.Case.Options.Index)
			if s.MinCase > s.MaxCase {
				s.MinCase, s.MaxCase = i, i
			}
			s.MinCase, s.MaxCase = min(s.MinCase, i), max(s.MaxCase, i)
		}
		timed := false
		for _, r := range v.Case.Results {
			ms := r.Timings.CompileMS + r.Timings.LinkMS + r.Timings.ExecMS
			s.RunMS += ms
			timed = timed || ms > 0
		}
		if timed {
			s.TimedCases++
		}
	}
}

// measure parses a case's CLIF and sizes it with lib/analysis (reachable
// blocks and their instructions). A verdict without its case cannot be
// measured and ranks last (its module is nil).
func measure(c *record.Case) (*ir.Module, Size, error) {
	if c == nil {
		return nil, Size{Insts: int(^uint(0) >> 1)}, nil
	}
	mod, err := parser.ParseModuleString(c.ID, c.CLIF)
	if err != nil {
		return nil, Size{}, fmt.Errorf("its CLIF does not parse: %w", err)
	}
	m := analysis.ComputeModule(mod)
	return mod, Size{Insts: m.Insts, Cyclomatic: m.Cyclomatic, Blocks: m.Blocks}, nil
}

// Groups returns the clusters, largest first (then by first sighting).
func (c *Clusterer) Groups() []*Group {
	out := slices.Clone(c.groups)
	slices.SortStableFunc(out, func(a, b *Group) int { return cmp.Compare(b.Count, a.Count) })
	return out
}

// Timeline returns the failures and distinct clusters over the campaign,
// thinned to a bounded number of points.
func (c *Clusterer) Timeline() []Point { return c.timeline.Points() }

// Record is the cluster record of a group (stamped).
func (g *Group) Record() *record.Cluster {
	r := &record.Cluster{
		Signature:             g.Signature.String(),
		SignatureHash:         g.Signature.Hash(),
		FailingConfigs:        g.Signature.Failing,
		Diagnostic:            g.Signature.Diagnostic,
		Culprit:               g.Signature.Culprit,
		Verdict:               g.Signature.Verdict,
		Count:                 g.Count,
		Representative:        g.Representative.CaseID,
		Members:               slices.Clone(g.Members),
		FirstSeen:             g.FirstSeen.UTC(),
		LastSeen:              g.LastSeen.UTC(),
		RepresentativeVerdict: g.Representative,
	}
	r.Stamp()
	return r
}
