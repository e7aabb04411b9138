package history

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"cliff/lib/record"
)

// A Comparison is a history seen by signature: the runs, oldest first
// (the last is the run compared with the others), and every signature
// any of them found.
type Comparison struct {
	Runs       []*record.Run
	Signatures []*Signature // new first, then showing, back and gone (see Compare)
}

// A Signature is one cluster signature across the runs.
type Signature struct {
	Signature string
	Hash      string
	Verdict   record.Outcome
	// Known is the known finding it matched in the last run that saw it.
	Known string
	// Seen are the indexes (into Comparison.Runs) of the runs that saw
	// it, in order, and Counts its members in each.
	Seen   []int
	Counts []int
	// Representative is its representative in the last run that saw it.
	Representative string
	Status         Status
}

// Status is a signature's state in the latest run.
type Status string

const (
	New     Status = "new"     // first seen by the latest run
	Showing Status = "showing" // seen by the latest run and the one before
	Back    Status = "back"    // seen by the latest run and an earlier one, not the one before
	Gone    Status = "gone"    // seen before, not by the latest run
)

// First and Last are the indexes of the first and last runs that saw it.
func (s *Signature) First() int { return s.Seen[0] }
func (s *Signature) Last() int  { return s.Seen[len(s.Seen)-1] }

// Members is its members over every run.
func (s *Signature) Members() int {
	n := 0
	for _, c := range s.Counts {
		n += c
	}
	return n
}

// In reports whether run i saw it, and with how many members.
func (s *Signature) In(i int) (int, bool) {
	if k, ok := slices.BinarySearch(s.Seen, i); ok {
		return s.Counts[k], true
	}
	return 0, false
}

// Compare compares the runs, oldest first, by signature, and gives each
// signature its status in the last run. Signatures are ordered new
// first, then showing and back (more members in the latest run first),
// then gone (most recently seen first), then by signature.
func Compare(runs []*record.Run) *Comparison {
	c := &Comparison{Runs: runs}
	by := map[string]*Signature{}
	for i, r := range runs {
		for _, rc := range r.Clusters {
			s := by[rc.SignatureHash]
			if s == nil {
				s = &Signature{Signature: rc.Signature, Hash: rc.SignatureHash, Verdict: rc.Verdict}
				by[rc.SignatureHash] = s
				c.Signatures = append(c.Signatures, s)
			}
			s.Seen = append(s.Seen, i)
			s.Counts = append(s.Counts, rc.Count)
			s.Known, s.Representative = rc.Known, rc.Representative
		}
	}
	latest := len(runs) - 1
	for _, s := range c.Signatures {
		switch _, before := s.In(latest - 1); {
		case s.Last() != latest:
			s.Status = Gone
		case s.First() == latest:
			s.Status = New
		case before:
			s.Status = Showing
		default:
			s.Status = Back
		}
	}
	rank := map[Status]int{New: 0, Showing: 1, Back: 1, Gone: 2}
	slices.SortStableFunc(c.Signatures, func(a, b *Signature) int {
		if x := cmp.Compare(rank[a.Status], rank[b.Status]); x != 0 {
			return x
		}
		if a.Status == Gone {
			if x := cmp.Compare(b.Last(), a.Last()); x != 0 {
				return x
			}
		} else {
			na, _ := a.In(latest)
			nb, _ := b.In(latest)
			if x := cmp.Compare(nb, na); x != 0 {
				return x
			}
		}
		return cmp.Compare(a.Signature, b.Signature)
	})
	return c
}

// Latest is the run compared, nil for no runs.
func (c *Comparison) Latest() *record.Run {
	if len(c.Runs) == 0 {
		return nil
	}
	return c.Runs[len(c.Runs)-1]
}

// WithStatus are the signatures of a status, in the comparison's order.
func (c *Comparison) WithStatus(st Status) []*Signature {
	var out []*Signature
	for _, s := range c.Signatures {
		if s.Status == st {
			out = append(out, s)
		}
	}
	return out
}

// NewIn are the signatures first seen by run i; GoneIn those the run
// before it saw and it did not.
func (c *Comparison) NewIn(i int) []*Signature {
	var out []*Signature
	for _, s := range c.Signatures {
		if s.First() == i {
			out = append(out, s)
		}
	}
	return out
}

func (c *Comparison) GoneIn(i int) []*Signature {
	var out []*Signature
	for _, s := range c.Signatures {
		_, now := s.In(i)
		_, before := s.In(i - 1)
		if i > 0 && before && !now {
			out = append(out, s)
		}
	}
	return out
}

// Versions are the Cranelift versions of the runs that saw s, each once,
// in the order first seen.
func (c *Comparison) Versions(s *Signature) []string {
	var out []string
	for _, i := range s.Seen {
		if v := c.Runs[i].Cranelift; !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// An Absence describes a signature the latest run did not see.
type Absence struct {
	// Runs is how many runs since its last sighting, and Versions their
	// Cranelift versions, each once.
	Runs     int
	Versions []string
	// LastVersion is the Cranelift of its last sighting; SeenOn of the
	// RunsOn runs on that version since its first sighting saw it.
	LastVersion string
	SeenOn      int
	RunsOn      int
	// Upstream: every run since tested another Cranelift than the one it
	// was last seen on, as when the nightly follows the newest release
	// and a release fixed it.
	Upstream bool
	// Chance is the probability that the runs since missed it by luck,
	// were it as frequent per run as on LastVersion: (1 - p)^Runs, with
	// p = (SeenOn + 1) / (RunsOn + 2), Laplace's rule of succession, so
	// that a signature seen once in one run is not taken for one every
	// run finds.
	Chance float64
	// Settings are the changes of the campaign's settings between its
	// last sighting and the latest run (Changes less the Cranelift): a
	// mask put back, say, holds it back rather than a fix.
	Settings []string
}

// Absence describes s's absence since its last sighting; the zero
// Absence when the latest run saw it.
func (c *Comparison) Absence(s *Signature) Absence {
	latest := len(c.Runs) - 1
	last := s.Last()
	if last == latest {
		return Absence{}
	}
	a := Absence{Runs: latest - last, LastVersion: c.Runs[last].Cranelift, Upstream: true}
	for _, r := range c.Runs[last+1:] {
		if !slices.Contains(a.Versions, r.Cranelift) {
			a.Versions = append(a.Versions, r.Cranelift)
		}
		if r.Cranelift == a.LastVersion {
			a.Upstream = false
		}
	}
	for i := s.First(); i <= last; i++ {
		if c.Runs[i].Cranelift == a.LastVersion {
			a.RunsOn++
			if _, ok := s.In(i); ok {
				a.SeenOn++
			}
		}
	}
	p := float64(a.SeenOn+1) / float64(a.RunsOn+2)
	a.Chance = math.Pow(1-p, float64(a.Runs))
	for _, ch := range Changes(c.Runs[last], c.Runs[latest]) {
		if !strings.HasPrefix(ch, "Cranelift ") {
			a.Settings = append(a.Settings, ch)
		}
	}
	return a
}
