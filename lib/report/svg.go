package report

import (
	"fmt"
	"html"
	"slices"
	"strings"

	"cliff/lib/cluster"
	"cliff/lib/record"
)

// The plots are plain SVG written by hand: two small charts do not need a
// plotting library, and the files stay readable and diffable.

const (
	plotWidth  = 640
	marginLeft = 70
	marginRest = 20
)

type svg struct{ b strings.Builder }

func newSVG(w, h int) *svg {
	s := &svg{}
	fmt.Fprintf(&s.b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", w, h, w, h)
	fmt.Fprintf(&s.b, `<rect width="%d" height="%d" fill="white"/>`+"\n", w, h)
	return s
}

func (s *svg) text(x, y float64, anchor, text string) {
	fmt.Fprintf(&s.b, `<text x="%.1f" y="%.1f" text-anchor="%s">%s</text>`+"\n", x, y, anchor, html.EscapeString(text))
}

func (s *svg) line(x1, y1, x2, y2 float64, color string) {
	fmt.Fprintf(&s.b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/>`+"\n", x1, y1, x2, y2, color)
}

func (s *svg) rect(x, y, w, h float64, color, title string) {
	fmt.Fprintf(&s.b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s</title></rect>`+"\n", x, y, w, h, color, html.EscapeString(title))
}

func (s *svg) String() string { return s.b.String() + "</svg>\n" }

// FailuresSVG plots the failing cases and the distinct clusters found so
// far against the campaign's case order: a curve of clusters that
// flattens says the campaign has stopped finding new bugs.
func FailuresSVG(points []cluster.Point) string {
	const panelH, gap, top = 130, 50, 44
	s := newSVG(plotWidth, top+2*panelH+gap+40)
	s.text(plotWidth/2, 18, "middle", "Failing cases and distinct clusters over the campaign")
	if len(points) == 0 {
		s.text(plotWidth/2, top+panelH, "middle", "no failing case")
		return s.String()
	}
	// The x axis is cliff-gen's case index when the failures came in that
	// order (a campaign's stream); otherwise (the rounds of a campaign
	// loop, cases without an index) the verdicts read so far, failing or
	// not: the campaign's progress in the order its results were read.
	xLabel := "case (cliff-gen index)"
	for i := 1; i < len(points); i++ {
		if points[i].Case < points[i-1].Case {
			xLabel = "verdicts read (campaign order)"
			points = slices.Clone(points)
			for j := range points {
				points[j].Case = points[j].Verdicts
			}
			break
		}
	}
	maxCase := 1
	for _, p := range points {
		maxCase = max(maxCase, p.Case)
	}
	panel := func(y0 float64, label, color string, value func(cluster.Point) int) {
		maxV := 1
		for _, p := range points {
			maxV = max(maxV, value(p))
		}
		x := func(c int) float64 {
			return marginLeft + float64(c)/float64(maxCase)*float64(plotWidth-marginLeft-marginRest)
		}
		y := func(v int) float64 { return y0 + panelH - float64(v)/float64(maxV)*panelH }
		s.line(marginLeft, y0, marginLeft, y0+panelH, "black")
		s.line(marginLeft, y0+panelH, plotWidth-marginRest, y0+panelH, "black")
		s.text(marginLeft-6, y0+panelH+4, "end", "0")
		s.text(marginLeft-6, y0+4, "end", fmt.Sprint(maxV))
		s.text(marginLeft+4, y0-6, "start", label)
		// A step curve: the count holds until the next failure.
		var path strings.Builder
		fmt.Fprintf(&path, "M%.1f,%.1f", x(0), y(0))
		prev := 0
		for _, p := range points {
			fmt.Fprintf(&path, " L%.1f,%.1f L%.1f,%.1f", x(p.Case), y(prev), x(p.Case), y(value(p)))
			prev = value(p)
		}
		fmt.Fprintf(&path, " L%.1f,%.1f", x(maxCase), y(prev))
		fmt.Fprintf(&s.b, `<path d="%s" fill="none" stroke="%s" stroke-width="2"/>`+"\n", path.String(), color)
	}
	panel(top, "failing cases", "#c0392b", func(p cluster.Point) int { return p.Failures })
	panel(top+panelH+gap, "distinct clusters", "#2471a3", func(p cluster.Point) int { return p.Clusters })
	axisY := float64(top + 2*panelH + gap)
	s.text(marginLeft, axisY+16, "middle", "0")
	s.text(plotWidth-marginRest, axisY+16, "middle", fmt.Sprint(maxCase))
	s.text(plotWidth/2, axisY+32, "middle", xLabel)
	return s.String()
}

// statusColors give each run status its colour in the target plot.
var statusColors = map[record.Status]string{
	record.StatusOK:            "#58d68d",
	record.StatusTrap:          "#f4d03f",
	record.StatusTimeout:       "#af7ac5",
	record.StatusCrash:         "#922b21",
	record.StatusCompileError:  "#e67e22",
	record.StatusCompileCrash:  "#e74c3c",
	record.StatusHarnessError:  "#7f8c8d",
	record.StatusUnsupported:   "#bdc3c7",
	record.StatusStackOverflow: "#5d6d7e",
}

// TargetsSVG draws, per target, how its runs ended: one bar per
// architecture (the interpreter last), split by status.
func TargetsSVG(mix map[string]map[record.Status]int) string {
	const barH, gap, top = 24, 12, 34
	arches := make([]string, 0, len(mix))
	for a := range mix {
		arches = append(arches, a)
	}
	slices.SortFunc(arches, func(a, b string) int {
		if (a == record.ExecInterp) != (b == record.ExecInterp) {
			if a == record.ExecInterp {
				return 1
			}
			return -1
		}
		return strings.Compare(a, b)
	})
	used := []record.Status{}
	for _, st := range record.Statuses() {
		for _, a := range arches {
			if mix[a][st] > 0 && !slices.Contains(used, st) {
				used = append(used, st)
			}
		}
	}
	height := top + len(arches)*(barH+gap) + 30 + 18*((len(used)+3)/4)
	s := newSVG(plotWidth, height)
	s.text(plotWidth/2, 18, "middle", "How the runs ended, per target")
	if len(arches) == 0 {
		s.text(plotWidth/2, top+20, "middle", "no runs")
		return s.String()
	}
	barW := float64(plotWidth - marginLeft - 60)
	for i, a := range arches {
		y := float64(top + i*(barH+gap))
		total := 0
		for _, n := range mix[a] {
			total += n
		}
		s.text(marginLeft-6, y+barH/2+4, "end", a)
		x := float64(marginLeft)
		for _, st := range used {
			n := mix[a][st]
			if n == 0 {
				continue
			}
			w := float64(n) / float64(total) * barW
			s.rect(x, y, w, barH, statusColors[st], fmt.Sprintf("%s %s: %d of %d runs", a, st, n, total))
			x += w
		}
		s.text(marginLeft+barW+6, y+barH/2+4, "start", fmt.Sprint(total))
	}
	ly := float64(top + len(arches)*(barH+gap) + 14)
	for i, st := range used {
		x := float64(marginLeft + (i%4)*140)
		y := ly + float64(i/4)*18
		s.rect(x, y-10, 12, 12, statusColors[st], string(st))
		s.text(x+16, y, "start", string(st))
	}
	return s.String()
}
