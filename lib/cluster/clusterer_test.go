package cluster

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"cliff/lib/record"
)

// withCLIF gives a verdict's case a main function of n iconsts and the
// given number of extra blocks (each a jump), to size it.
func withCLIF(v *record.Verdict, insts, blocks int) *record.Verdict {
	var b strings.Builder
	b.WriteString("function %main() {\nblock0:\n")
	for i := range insts {
		fmt.Fprintf(&b, "    v%d = iconst.i32 %d\n", i, i)
	}
	for i := 1; i <= blocks; i++ {
		fmt.Fprintf(&b, "    jump block%d\n\nblock%d:\n", i, i)
	}
	b.WriteString("    return\n}\n")
	v.Case.CLIF = b.String()
	return v
}

func consistent(id string) *record.Verdict {
	v := &record.Verdict{CaseID: id, Verdict: record.OutcomeConsistent,
		Sides: []record.Side{{Configs: every(), Status: record.StatusOK, Hash: "0000000000000001"}}}
	v.Stamp()
	return v
}

// campaign mixes three bugs (one of them seen with other value numbers,
// callers and opt levels) with verdicts that are not clustered.
func campaign() []*record.Verdict {
	all := []string{"x86_64/none", "x86_64/speed", "x86_64/speed_and_size"}
	return []*record.Verdict{
		withCLIF(failure("stv-big", record.StatusCompileCrash, stvPanic, all...), 30, 4),
		consistent("ok-1"),
		withCLIF(failure("and-1", record.StatusCompileCrash, sseAndPanic, all...), 5, 0),
		withCLIF(failure("stv-small-flat", record.StatusCompileCrash, stvPanicCalled, "x86_64/none"), 6, 0),
		withCLIF(failure("stv-small-branchy", record.StatusCompileCrash, stvPanic, "x86_64/none"), 6, 3),
		func() *record.Verdict {
			v := failure("harness", record.StatusHarnessError, "qemu-riscv64-static: not found", "riscv64/none")
			v.Verdict = record.OutcomeHarnessError
			return v
		}(),
		withCLIF(failure("or-1", record.StatusCompileCrash, sseOrPanic, all...), 9, 0),
		withCLIF(failure("stv-zz", record.StatusCompileCrash, stvPanic, all...), 6, 0),
	}
}

type summary struct {
	sig, rep string
	count    int
	members  []string
}

func summarize(c *Clusterer) []summary {
	var out []summary
	for _, g := range c.Groups() {
		m := slices.Clone(g.Members)
		slices.Sort(m)
		out = append(out, summary{g.Signature.String(), g.Representative.CaseID, g.Count, m})
	}
	slices.SortFunc(out, func(a, b summary) int { return strings.Compare(a.sig, b.sig) })
	return out
}

func TestClusterer(t *testing.T) {
	c := NewClusterer()
	for _, v := range campaign() {
		if err := c.Add(v); err != nil {
			t.Fatal(err)
		}
	}
	got := summarize(c)
	if len(got) != 3 {
		t.Fatalf("%d clusters, want 3 (one per root cause): %+v", len(got), got)
	}
	stv := got[0]
	if !strings.Contains(stv.sig, "bitcast_gpr_to_xmm") {
		stv = got[2]
	}
	if stv.count != 4 || !slices.Equal(stv.members, []string{"stv-big", "stv-small-branchy", "stv-small-flat", "stv-zz"}) {
		t.Errorf("scalar_to_vector cluster: %+v", stv)
	}
	// Fewest instructions (6), then the flatter control flow, then the
	// smaller ID.
	if stv.rep != "stv-small-flat" {
		t.Errorf("representative %s, want stv-small-flat", stv.rep)
	}
	if n := c.Stats.Verdicts; n != 8 {
		t.Errorf("%d verdicts counted, want 8", n)
	}
	if c.Stats.Outcomes[record.OutcomeConsistent] != 1 || c.Stats.Outcomes[record.OutcomeHarnessError] != 1 {
		t.Errorf("outcomes %v", c.Stats.Outcomes)
	}
	if n := c.Stats.ArchStatuses["x86_64"][record.StatusCompileCrash]; n != 3+3+1+1+3+3 {
		t.Errorf("x86_64 compile crashes counted %d", n)
	}
}

// The clusters and representatives do not depend on the order of the
// input.
func TestClustererOrder(t *testing.T) {
	forward := NewClusterer()
	backward := NewClusterer()
	vs := campaign()
	for i := range vs {
		forward.Add(vs[i])
		backward.Add(vs[len(vs)-1-i])
	}
	a, b := summarize(forward), summarize(backward)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("order changes the clusters:\n%v\n%v", a, b)
	}
}

func TestClustererBounds(t *testing.T) {
	c := NewClusterer()
	c.MaxMembers = 2
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	c.Now = func() time.Time { clock = clock.Add(time.Second); return clock }
	for i := range 5 {
		c.Add(withCLIF(failure(fmt.Sprint("c", i), record.StatusCompileCrash, stvPanic, "x86_64/none"), 10-i, 0))
	}
	g := c.Groups()[0]
	r := g.Record()
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	if r.Count != 5 || len(r.Members) != 2 || r.Representative != "c4" || r.RepresentativeVerdict.CaseID != "c4" {
		t.Errorf("record: count %d, members %v, representative %s", r.Count, r.Members, r.Representative)
	}
	if r.LastSeen.Sub(r.FirstSeen) != 4*time.Second {
		t.Errorf("first seen %v, last seen %v", r.FirstSeen, r.LastSeen)
	}
	if r.SignatureHash != record.HashString(r.Signature) || r.FailingConfigs != "x86_64/*" || !strings.HasPrefix(r.Diagnostic, "panic: ") {
		t.Errorf("signature parts: %q %q %q", r.SignatureHash, r.FailingConfigs, r.Diagnostic)
	}
}

func TestClustererBadCLIF(t *testing.T) {
	c := NewClusterer()
	v := failure("bad", record.StatusCompileCrash, stvPanic, "x86_64/none")
	v.Case.CLIF = "function %main( {"
	err := c.Add(v)
	if err == nil || !strings.HasPrefix(err.Error(), "case bad: its CLIF does not parse: ") {
		t.Errorf("error %v", err)
	}
	if c.Stats.Verdicts != 0 || len(c.Groups()) != 0 {
		t.Error("a verdict that failed was counted")
	}
}

func TestTimeline(t *testing.T) {
	tl := Timeline{Max: 8}
	for i := range 100 {
		tl.add(Point{Case: i, Failures: i + 1, Clusters: 1 + i/40}, i%40 == 0)
	}
	pts := tl.Points()
	if len(pts) > 9 {
		t.Errorf("%d points kept, want at most about 8", len(pts))
	}
	news := 0
	for _, p := range pts {
		if p.Case%40 == 0 {
			news++
		}
	}
	if news != 3 {
		t.Errorf("%d of the 3 discoveries kept: %v", news, pts)
	}
	if last := pts[len(pts)-1]; last.Case != 99 || last.Failures != 100 {
		t.Errorf("last point %v, want the campaign's end", last)
	}
}

// A cluster is first seen when cliff-run had the results of its first
// member (Timings.Done), not when cliff-cluster read it: verdicts from
// chunks run side by side arrive out of time order, and a report is
// often written long after the campaign.
func TestFirstSeenFromTheResults(t *testing.T) {
	at := func(id string, hour int) *record.Verdict {
		v := withCLIF(failure(id, record.StatusCompileCrash, stvPanic, "x86_64/none"), 3, 0)
		for i := range v.Case.Results {
			v.Case.Results[i].Timings.Done = time.Date(2026, 11, 26, hour, 0, 0, 0, time.UTC)
		}
		return v
	}
	c := NewClusterer()
	c.Now = func() time.Time { return time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC) }
	for _, v := range []*record.Verdict{at("b", 5), at("a", 3), at("c", 7)} {
		if err := c.Add(v); err != nil {
			t.Fatal(err)
		}
	}
	g := c.Groups()[0]
	if g.FirstSeen.Hour() != 3 || g.LastSeen.Hour() != 7 || c.Stats.FirstSeen.Hour() != 3 || c.Stats.LastSeen.Hour() != 7 {
		t.Errorf("first/last seen %v %v, stats %v %v: want 03:00 and 07:00 from the results", g.FirstSeen, g.LastSeen, c.Stats.FirstSeen, c.Stats.LastSeen)
	}
	// Results without the time: read time.
	c2 := NewClusterer()
	c2.Now = c.Now
	if err := c2.Add(withCLIF(failure("d", record.StatusCompileCrash, stvPanic, "x86_64/none"), 3, 0)); err != nil {
		t.Fatal(err)
	}
	if got := c2.Groups()[0].FirstSeen; got.Year() != 2030 {
		t.Errorf("first seen %v without result times, want the read time", got)
	}
}
