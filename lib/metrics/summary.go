package metrics

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"cliff/lib/analysis"
	"cliff/lib/ir"
	"cliff/lib/record"
)

// A Summary accumulates the metrics of a stream of cases for --summary. The
// zero value is empty and ready to use. Its memory is bounded by the
// number of distinct values of each figure and of opcodes, whatever the
// number of cases.
type Summary struct {
	cases   uint64
	figures [len(figures)]hist
	// opcodes counts instructions per opcode name over the stream.
	opcodes map[string]uint64
}

// A figure is one per-case number the summary reports.
type figure struct {
	name string
	// value gives the case's value in the figure's integer unit, and
	// false when the case does not have it.
	value func(*record.Metrics) (int, bool)
	// scale converts the integer unit to the figure's: 1 for counts.
	scale float64
	// buckets are the histogram's fixed buckets; nil means chosen from
	// the values (hist.spread).
	buckets []bucket
	// decimals shown for min and max in the quantile table; the others
	// get two more.
	decimals int
}

// count is a figure that every case has, counted in units.
func count(name string, value func(*record.Metrics) int) figure {
	return figure{name: name, scale: 1, value: func(m *record.Metrics) (int, bool) { return value(m), true }}
}

// survivalUnit is the resolution survival is counted at: per mille, so
// its histogram has at most 1001 values.
const survivalUnit = 1000

var figures = [...]figure{
	count("functions", func(m *record.Metrics) int { return m.Functions }),
	count("blocks", func(m *record.Metrics) int { return m.Blocks }),
	count("insts", func(m *record.Metrics) int { return m.Insts }),
	count("cyclomatic", func(m *record.Metrics) int { return m.Cyclomatic }),
	count("dom_depth", func(m *record.Metrics) int { return m.DomDepth }),
	count("def_use_depth", func(m *record.Metrics) int { return m.DefUseDepth }),
	count("distinct_opcodes", func(m *record.Metrics) int { return len(m.Opcodes) }),
	{
		name: "survival",
		value: func(m *record.Metrics) (int, bool) {
			if m.Survival == nil {
				return 0, false
			}
			return int(math.Round(min(max(*m.Survival, 0), 1) * survivalUnit)), true
		},
		scale:    1.0 / survivalUnit,
		buckets:  deciles(survivalUnit),
		decimals: 3,
	},
}

// deciles are ten buckets covering 0..unit, the last one closed.
func deciles(unit int) []bucket {
	var out []bucket
	for i := range 10 {
		out = append(out, bucket{lo: i * unit / 10, hi: (i+1)*unit/10 - 1})
	}
	out[9].hi = unit
	return out
}

// Add counts one case's metrics.
func (s *Summary) Add(m record.Metrics) {
	s.cases++
	for i := range figures {
		if v, ok := figures[i].value(&m); ok {
			s.figures[i].add(v)
		}
	}
	if s.opcodes == nil {
		s.opcodes = make(map[string]uint64)
	}
	for op, n := range m.Opcodes {
		s.opcodes[op] += uint64(n)
	}
}

// Cases returns the number of cases added.
func (s *Summary) Cases() uint64 { return s.cases }

// Stats are the order statistics of a figure over the cases that have it,
// in the figure's unit (survival as a fraction). Quantiles interpolate
// linearly between the two nearest ranks, so the median of an even count
// is the mean of the two middle values. With N = 0 the others are 0.
type Stats struct {
	N                           uint64
	Min, Median, Mean, P90, Max float64
}

// Figure returns the Stats of the named figure: "functions", "blocks",
// "insts", "cyclomatic", "dom_depth", "def_use_depth", "distinct_opcodes"
// or "survival"; false for another name.
func (s *Summary) Figure(name string) (Stats, bool) {
	for i, f := range figures {
		if f.name == name {
			return s.figures[i].stats().scaled(f.scale), true
		}
	}
	return Stats{}, false
}

func (st Stats) scaled(k float64) Stats {
	st.Min *= k
	st.Median *= k
	st.Mean *= k
	st.P90 *= k
	st.Max *= k
	return st
}

// Opcodes returns the set of opcodes seen over the stream; names that are
// not opcodes are left out.
func (s *Summary) Opcodes() map[ir.Opcode]bool {
	seen := make(map[ir.Opcode]bool, len(s.opcodes))
	for name := range s.opcodes {
		if op, ok := ir.LookupOpcode(name); ok {
			seen[op] = true
		}
	}
	return seen
}

// Print writes the summary as --summary shows it: the number of cases, a
// table of each figure's min / median / mean / p90 / max, a histogram per
// figure, and the opcode diversity against profileOpcodes (the opcodes the
// run's profile allows; nil leaves the comparison out) with the profile
// opcodes the stream never used.
func (s *Summary) Print(w io.Writer, profileOpcodes []ir.Opcode) error {
	p := &textWriter{w: w}
	p.printf("%d cases\n", s.cases)
	if s.cases == 0 {
		return p.err
	}
	p.printf("\n%-16s %9s %9s %9s %9s %9s\n", "figure", "min", "median", "mean", "p90", "max")
	for i := range figures {
		f := &figures[i]
		st := s.figures[i].stats()
		if st.N == 0 {
			continue
		}
		st = st.scaled(f.scale)
		p.printf("%-16s %9s %9s %9s %9s %9s", f.name,
			number(st.Min, f.decimals), number(st.Median, 2+f.decimals), number(st.Mean, 2+f.decimals),
			number(st.P90, 2+f.decimals), number(st.Max, f.decimals))
		if st.N != s.cases {
			p.printf("  (%d cases)", st.N)
		}
		p.printf("\n")
	}
	for i := range figures {
		s.printHistogram(p, &figures[i], &s.figures[i])
	}
	s.printOpcodes(p, profileOpcodes)
	return p.err
}

// barWidth is the width of the longest histogram bar.
const barWidth = 40

func (s *Summary) printHistogram(p *textWriter, f *figure, h *hist) {
	if h.n == 0 {
		return
	}
	buckets := slices.Clone(f.buckets)
	if buckets == nil {
		buckets = h.spread()
	}
	h.fill(buckets)
	labels := make([]string, len(buckets))
	width, most := 0, uint64(0)
	for i, b := range buckets {
		labels[i] = f.label(b)
		width = max(width, len(labels[i]))
		most = max(most, b.count)
	}
	countWidth := len(strconv.FormatUint(most, 10))
	p.printf("\n%s\n", f.name)
	for i, b := range buckets {
		bar := int(math.Round(float64(b.count) / float64(most) * barWidth))
		if b.count > 0 && bar == 0 {
			bar = 1 // a bucket with cases never looks empty
		}
		p.printf("  %*s |%-*s| %*d %5.1f%%\n", width, labels[i], barWidth, strings.Repeat("#", bar),
			countWidth, b.count, 100*float64(b.count)/float64(h.n))
	}
}

// label names a bucket: "7", "8-15", or for a scaled figure its bounds
// in the figure's unit, "0.1-0.2".
func (f *figure) label(b bucket) string {
	if f.scale != 1 {
		return fmt.Sprintf("%.1f-%.1f", float64(b.lo)*f.scale, float64(b.hi+1)*f.scale)
	}
	if b.lo == b.hi {
		return strconv.Itoa(b.lo)
	}
	return strconv.Itoa(b.lo) + "-" + strconv.Itoa(b.hi)
}

// printOpcodes reports the opcodes over the whole stream against the
// profile's.
func (s *Summary) printOpcodes(p *textWriter, profile []ir.Opcode) {
	seen := s.Opcodes()
	p.printf("\nopcodes: %d distinct in %d instructions", len(s.opcodes), sum(s.opcodes))
	if len(profile) == 0 {
		p.printf("\n")
		return
	}
	inProfile := make(map[string]bool, len(profile))
	var missing []string
	for _, op := range profile {
		name := op.String()
		if !inProfile[name] {
			inProfile[name] = true
			if !seen[op] {
				missing = append(missing, name)
			}
		}
	}
	covered := len(inProfile) - len(missing)
	p.printf("; %d of the profile's %d (%.1f%% diversity)\n", covered, len(inProfile),
		100*analysis.OpcodeDiversity(seen, profile))
	p.list("profile opcodes never seen", missing)
	var outside []string
	for name := range s.opcodes {
		if !inProfile[name] {
			outside = append(outside, name)
		}
	}
	p.list("seen but not in the profile", outside)
}

func sum(m map[string]uint64) uint64 {
	var n uint64
	for _, v := range m {
		n += v
	}
	return n
}

// number formats v with at most decimals decimals, without trailing
// zeros: 3, 2.5, 0.125.
func number(v float64, decimals int) string {
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s
}

// textWriter writes formatted text and keeps the first error.
type textWriter struct {
	w   io.Writer
	err error
}

func (p *textWriter) printf(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

// lineWidth is where lists of names wrap.
const lineWidth = 78

// list prints a heading with the count and the names, sorted and wrapped;
// nothing for an empty list.
func (p *textWriter) list(heading string, names []string) {
	if len(names) == 0 {
		return
	}
	slices.Sort(names)
	p.printf("%s (%d):\n", heading, len(names))
	line := " "
	for _, n := range names {
		if len(line)+1+len(n) > lineWidth {
			p.printf("%s\n", line)
			line = " "
		}
		line += " " + n
	}
	p.printf("%s\n", line)
}
