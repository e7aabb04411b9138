package report

import (
	"fmt"
	"html"
	"strings"

	"cliff/lib/history"
	"cliff/lib/record"
)

// HistoryPage is history.md: the nightly history the report's campaign
// is the latest run of (lib/history's comparison). It shows the clusters
// over time (history.svg), the latest run's clusters against every
// earlier run (first and last seen, runs seen, Cranelift versions), the
// signatures that stopped showing, each judged as fixed upstream or rare,
// and the runs, newest first.
func HistoryPage(c *history.Comparison) string {
	var b strings.Builder
	b.WriteString("# Nightly history\n\n")
	latest := c.Latest()
	if latest == nil {
		b.WriteString("No run is recorded yet.\n")
		return b.String()
	}
	var versions []string
	for _, r := range c.Runs {
		if len(versions) == 0 || versions[len(versions)-1] != r.Cranelift {
			versions = append(versions, r.Cranelift)
		}
	}
	fmt.Fprintf(&b, "%s from %s to %s (Cranelift %s), %s seen. The latest run, %s, is [the report](index.md) beside this page.\n\n",
		count(len(c.Runs), "run"), day(c.Runs[0]), day(latest), strings.Join(versions, " → "),
		count(len(c.Signatures), "signature"), latest.ID)
	b.WriteString("![Clusters per run: seen before, new that run, and no longer seen](history.svg)\n\n")

	b.WriteString("## The latest run against every earlier one\n\n")
	b.WriteString("| # | status | signature | cases in the latest run | first seen | last seen | runs seen | Cranelift | known |\n|---|---|---|---|---|---|---|---|---|\n")
	n := 0
	for _, s := range c.Signatures {
		if s.Status == history.Gone {
			continue
		}
		n++
		cases, _ := s.In(len(c.Runs) - 1)
		status := string(s.Status)
		switch s.Status {
		case history.New:
			status = "**new**"
		case history.Back:
			status = fmt.Sprintf("**back** after %s without it", count(len(c.Runs)-2-previous(s), "run"))
		}
		fmt.Fprintf(&b, "| %d | %s | [%s](cluster-%s.md) | %d | %s | %s | %d of %d | %s | %s |\n",
			n, status, cell(s.Signature), s.Hash, cases, seenAt(c, s.First()), seenAt(c, s.Last()),
			len(s.Seen), len(c.Runs)-s.First(), strings.Join(c.Versions(s), ", "), cell(knownText(s.Known)))
	}
	if n == 0 {
		b.WriteString("| – | | the latest run found no cluster | | | | | | |\n")
	}
	b.WriteString("\nRuns seen counts the runs since its first sighting. New: no earlier run had its signature; back: an earlier run had it, the run before the latest did not.\n\n")

	gone := c.WithStatus(history.Gone)
	b.WriteString("## Stopped showing\n\n")
	if len(gone) == 0 {
		b.WriteString("Every signature an earlier run found, the latest run found too.\n\n")
	} else {
		b.WriteString("| signature | last seen | runs since | judgement | representative |\n|---|---|---|---|---|\n")
		for _, s := range gone {
			a := c.Absence(s)
			last := c.Runs[s.Last()]
			fmt.Fprintf(&b, "| %s | %s | %d | %s | `%s` in [%s](../runs/%s.clusters.jsonl.zst) |\n",
				cell(s.Signature), seenAt(c, s.Last()), a.Runs, judge(a), s.Representative, last.ID, last.ID)
		}
		b.WriteString("\nFixed upstream? means every run since tested another Cranelift than the one it was last seen on, ")
		b.WriteString("as when the nightly follows the newest release (CRANELIFT=latest). The chance is that of missing it by luck alone ")
		b.WriteString("in every run since, were it as frequent per run as it was on the version it was last seen on ")
		b.WriteString("(estimated as (runs that saw it + 1) / (runs + 2), so that one sighting is not taken for certainty): below 5%, it is gone.\n\n")
	}

	b.WriteString("## Runs\n\n")
	b.WriteString("| run | started (UTC) | Cranelift | seed | cases | CPU minutes | failing cases | clusters | new | no longer seen |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for i := len(c.Runs) - 1; i >= 0; i-- {
		r := c.Runs[i]
		cpu := "–"
		if r.CPUSeconds > 0 {
			cpu = fmt.Sprintf("%.1f", r.CPUSeconds/60)
			if r.Resumed {
				cpu += " (resumed: the last attempt's)"
			}
		}
		if r.BudgetMinutes > 0 {
			cpu += fmt.Sprintf(" of %g", r.BudgetMinutes)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %d | %s | %d | %d | %d | %d |\n",
			r.ID, r.Started.UTC().Format("2006-01-02 15:04"), cell(r.Cranelift), r.Seed, r.Cases, cpu,
			r.Failures, len(r.Clusters), len(c.NewIn(i)), len(c.GoneIn(i)))
	}
	return b.String()
}

// previous is the index of the run before the latest that last saw s.
func previous(s *history.Signature) int {
	if len(s.Seen) < 2 {
		return -1
	}
	return s.Seen[len(s.Seen)-2]
}

func day(r *record.Run) string { return r.Started.UTC().Format("2006-01-02") }

func seenAt(c *history.Comparison, i int) string {
	r := c.Runs[i]
	return fmt.Sprintf("%s (%s)", r.Started.UTC().Format("2006-01-02 15:04"), r.Cranelift)
}

func knownText(k string) string {
	if k == "" {
		return "–"
	}
	return k
}

// judge says what an absence looks like.
func judge(a history.Absence) string {
	seen := fmt.Sprintf("seen in %d of %d runs on %s", a.SeenOn, a.RunsOn, a.LastVersion)
	chance := fmt.Sprintf("chance of missing it by luck %.1f%%", 100*a.Chance)
	var j string
	switch {
	case a.Upstream:
		j = fmt.Sprintf("**fixed upstream?** not seen on %s; %s (%s)", strings.Join(a.Versions, ", "), seen, chance)
	case a.Chance >= 0.05:
		j = fmt.Sprintf("rare rather than gone: %s (%s)", seen, chance)
	default:
		j = fmt.Sprintf("gone, on %s too: %s (%s)", a.LastVersion, seen, chance)
	}
	if len(a.Settings) > 0 {
		j += fmt.Sprintf("; the campaign's settings changed since (%s)", strings.Join(a.Settings, "; "))
	}
	return j
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// HistorySVG plots the clusters of each run, oldest first: a bar per
// run, split into the signatures an earlier run had already seen and
// those new that run; below the axis the signatures the run before had
// and it did not; a line for the distinct signatures so far; and a
// dashed line where the Cranelift tested changes, so that findings that
// stop at a new release show as such.
func HistorySVG(c *history.Comparison) string {
	const top, panelH, below = 60, 180, 60
	s := newSVG(plotWidth, top+panelH+below+50)
	s.text(plotWidth/2, 18, "middle", "Clusters per run")
	if len(c.Runs) == 0 {
		s.text(plotWidth/2, top+panelH/2, "middle", "no run recorded")
		return s.String()
	}
	type bar struct{ before, fresh, gone, distinct int }
	bars := make([]bar, len(c.Runs))
	distinct := 0
	maxV := 1
	for i, r := range c.Runs {
		fresh := len(c.NewIn(i))
		distinct += fresh
		bars[i] = bar{before: len(r.Clusters) - fresh, fresh: fresh, gone: len(c.GoneIn(i)), distinct: distinct}
		maxV = max(maxV, len(r.Clusters), distinct)
	}
	maxGone := 1
	for _, b := range bars {
		maxGone = max(maxGone, b.gone)
	}
	width := float64(plotWidth - marginLeft - marginRest)
	slot := width / float64(len(c.Runs))
	barW := max(1, slot*0.7)
	x := func(i int) float64 { return marginLeft + slot*float64(i) + (slot-barW)/2 }
	y := func(v int) float64 { return top + panelH - float64(v)/float64(maxV)*panelH }
	axis := float64(top + panelH)
	s.line(marginLeft, top, marginLeft, axis+below, "black")
	s.line(marginLeft, axis, plotWidth-marginRest, axis, "black")
	s.text(marginLeft-6, axis+4, "end", "0")
	s.text(marginLeft-6, top+4, "end", fmt.Sprint(maxV))
	s.text(marginLeft-6, axis+below+4, "end", fmt.Sprint(maxGone))
	for i, r := range c.Runs {
		b := bars[i]
		when := r.Started.UTC().Format("2006-01-02")
		if b.before > 0 {
			s.rect(x(i), y(b.before), barW, axis-y(b.before), "#2471a3", fmt.Sprintf("%s: %s seen before", when, count(b.before, "cluster")))
		}
		if b.fresh > 0 {
			s.rect(x(i), y(b.before+b.fresh), barW, y(b.before)-y(b.before+b.fresh), "#c0392b", fmt.Sprintf("%s: %d new", when, b.fresh))
		}
		if b.gone > 0 {
			h := float64(b.gone) / float64(maxGone) * (below - 10)
			s.rect(x(i), axis, barW, h, "#95a5a6", fmt.Sprintf("%s: %d no longer seen", when, b.gone))
		}
		// A dashed line where what the runs test changes: a new
		// Cranelift (its version written), or campaign settings that
		// change what can be found (a mask let go).
		if i > 0 {
			if changed := history.Changes(c.Runs[i-1], r); len(changed) > 0 {
				label := strings.Fields(changed[0])[0]
				if r.Cranelift != c.Runs[i-1].Cranelift {
					label = r.Cranelift
				}
				lx := marginLeft + slot*float64(i)
				fmt.Fprintf(&s.b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%.1f" stroke="#7d3c98" stroke-dasharray="4 3"><title>%s</title></line>`+"\n",
					lx, top-14, lx, axis+below, html.EscapeString(strings.Join(changed, "; ")))
				s.text(lx+3, top-4, "start", label)
			}
		}
	}
	var path strings.Builder
	for i, b := range bars {
		cmd := "L"
		if i == 0 {
			cmd = "M"
		}
		fmt.Fprintf(&path, "%s%.1f,%.1f ", cmd, x(i)+barW/2, y(b.distinct))
	}
	fmt.Fprintf(&s.b, `<path d="%s" fill="none" stroke="#f39c12" stroke-width="2"><title>%s</title></path>`+"\n",
		strings.TrimSpace(path.String()), html.EscapeString("distinct signatures so far"))
	s.b.WriteString(fmt.Sprintf(`<text x="%d" y="%d" font-size="10" fill="#555">clusters</text>`+"\n", marginLeft+4, top-20))
	s.b.WriteString(fmt.Sprintf(`<text x="%d" y="%.1f" font-size="10" fill="#555">no longer seen</text>`+"\n", marginLeft+4, axis+below-2))
	ly := axis + below + 22
	s.text(marginLeft, ly, "start", c.Runs[0].Started.UTC().Format("2006-01-02"))
	s.text(plotWidth-marginRest, ly, "end", c.Latest().Started.UTC().Format("2006-01-02"))
	lx := float64(marginLeft)
	for _, l := range []struct{ color, label string }{{"#2471a3", "seen before"}, {"#c0392b", "new that run"}, {"#95a5a6", "no longer seen"}, {"#f39c12", "distinct so far"}} {
		s.rect(lx, ly+8, 12, 12, l.color, l.label)
		s.text(lx+16, ly+18, "start", l.label)
		lx += 16 + 7*float64(len(l.label)) + 20 // about 7 pixels a character at 12 points
	}
	return s.String()
}
