package coverage

import (
	"fmt"
	"html"
	"math"
	"slices"
	"strings"
)

// The plot is plain SVG written by hand, as lib/report's: a few step
// curves do not need a plotting library, and the file stays diffable.

// Axis chooses the plot's x axis.
type Axis int

const (
	AxisCPU   Axis = iota // CPU seconds of the instrumented run
	AxisCases             // cases (runtests: files) run
)

var inputColors = []string{"#2471a3", "#c0392b", "#27ae60", "#8e44ad", "#d68910", "#17a589", "#7f8c8d"}

// SVG draws each target's line coverage (solid) and lowering-rule coverage
// (dashed) against the axis, one panel per target, one colour per input.
func (r *Report) SVG(axis Axis) string {
	const panelW, panelH, left, top, gapX, gapY, cols = 280, 170, 50, 60, 45, 70, 3
	width := left + cols*panelW + (cols-1)*gapX + 30
	rows := (len(Targets) + cols - 1) / cols
	height := top + rows*(panelH+gapY) + 20
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="11">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	text := func(x, y float64, anchor, s string) {
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="%s">%s</text>`+"\n", x, y, anchor, html.EscapeString(s))
	}
	xName, xOf := "CPU seconds", func(m Measurement) float64 { return m.CPUSeconds }
	if axis == AxisCases {
		xName, xOf = "cases run", func(m Measurement) float64 { return float64(m.Cases) }
	}
	text(float64(width)/2, 18, "middle", "ISLE coverage against "+xName+": lines of isle_<arch>.rs (solid), lowering rules (dashed)")
	for i, in := range r.Inputs {
		x := float64(left + i*150)
		fmt.Fprintf(&b, `<line x1="%.1f" y1="34" x2="%.1f" y2="34" stroke="%s" stroke-width="3"/>`+"\n", x, x+20, inputColors[i%len(inputColors)])
		text(x+24, 38, "start", in)
	}
	// One scale for all panels, so that targets compare: the x axis to
	// the longest input, the y axis to the next 10% above the highest.
	maxX, maxY := 1e-9, 10.0
	for _, m := range r.Points {
		if slices.Contains(r.Inputs, m.Input) { // the groups and the union are not drawn
			maxX = max(maxX, xOf(m))
			maxY = max(maxY, m.LinePct(), m.MainRulePct())
		}
	}
	maxY = min(100, math.Ceil(maxY/10)*10)
	for ti, t := range Targets {
		x0 := float64(left + (ti%cols)*(panelW+gapX))
		y0 := float64(top + (ti/cols)*(panelH+gapY))
		px := func(v float64) float64 { return x0 + v/maxX*panelW }
		py := func(p float64) float64 { return y0 + panelH - p/maxY*panelH }
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%d" height="%d" fill="none" stroke="black"/>`+"\n", x0, y0, panelW, panelH)
		for _, p := range []float64{maxY / 4, maxY / 2, 3 * maxY / 4} {
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", x0, py(p), x0+panelW, py(p))
		}
		text(x0+panelW/2, y0-6, "middle", t.Name)
		for _, p := range []float64{0, maxY / 2, maxY} {
			text(x0-4, py(p)+4, "end", fmt.Sprintf("%.0f%%", p))
		}
		text(x0, y0+panelH+14, "middle", "0")
		text(x0+panelW, y0+panelH+14, "middle", fmt.Sprintf("%.0f", maxX))
		text(x0+panelW/2, y0+panelH+28, "middle", xName)
		for i, in := range r.Inputs {
			if m, _ := r.Final(in, t.Name); m.LinesCovered == 0 {
				continue // an input that never ran this target (a target's profile)
			}
			color := inputColors[i%len(inputColors)]
			for _, line := range []struct {
				value func(Measurement) float64
				dash  string
			}{{Measurement.LinePct, ""}, {Measurement.MainRulePct, ` stroke-dasharray="4 3"`}} {
				var path strings.Builder
				fmt.Fprintf(&path, "M%.1f,%.1f", px(0), py(0))
				for _, m := range r.Points {
					if m.Input == in && m.Target == t.Name {
						fmt.Fprintf(&path, " L%.1f,%.1f", px(xOf(m)), py(line.value(m)))
					}
				}
				fmt.Fprintf(&b, `<path d="%s" fill="none" stroke="%s" stroke-width="2"%s/>`+"\n", path.String(), color, line.dash)
			}
		}
	}
	b.WriteString("</svg>\n")
	return b.String()
}
