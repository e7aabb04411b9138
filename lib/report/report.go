package report

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"cliff/lib/cluster"
	"cliff/lib/history"
	"cliff/lib/record"
)

// A Campaign is what the report is made of.
type Campaign struct {
	Stats    cluster.Stats
	Timeline []cluster.Point
	Clusters []Entry
	// History, when the campaign is a run of a nightly history, is the
	// history compared with it: the report gets history.md and
	// history.svg, and the index a link to them.
	History *history.Comparison
}

// An Entry is one cluster of the report.
type Entry struct {
	// Cluster is the cluster record, with its representative's verdict.
	Cluster *record.Cluster
	// FirstCase is the campaign position of its first member (cliff-gen's
	// case index), -1 if unknown.
	FirstCase int
	// Location is cliff-locate's answer for the representative, nil when
	// not located; its Repro replaces the representative's CLIF.
	Location *record.Location
}

// isNew reports whether the cluster is not a known finding.
func (e Entry) isNew() bool { return !cluster.IsKnown(e.Cluster) }

// Write writes the report into dir (created if missing): index.md,
// cluster-HASH.md and cluster-HASH.clif per cluster, failures.svg and
// targets.svg; with a History, history.md and history.svg.
func Write(dir string, c Campaign) error {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	entries := ordered(c.Clusters)
	files := map[string]string{
		"index.md":     index(c.Stats, entries, c.History),
		"failures.svg": FailuresSVG(c.Timeline),
		"targets.svg":  TargetsSVG(c.Stats.ArchStatuses),
	}
	if c.History != nil {
		files["history.md"] = HistoryPage(c.History)
		files["history.svg"] = HistorySVG(c.History)
	}
	for _, e := range entries {
		base := "cluster-" + hashOf(e.Cluster)
		files[base+".md"] = ClusterPage(e, base+".clif")
		files[base+".clif"] = TestFile(e)
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(files[name]), 0o666); err != nil {
			return err
		}
	}
	return nil
}

// Replace writes the report into dir as Write does, replacing what dir
// held: it is written beside dir first and swapped in by renames, so
// that the pages of an earlier campaign's clusters do not linger (a
// nightly report is rewritten every night) and a reader never sees half
// of one report and half of another.
func Replace(dir string, c Campaign) error {
	dir = filepath.Clean(dir)
	fresh, old := dir+".new", dir+".old"
	for _, d := range []string{fresh, old} {
		if err := os.RemoveAll(d); err != nil {
			return err
		}
	}
	if err := Write(fresh, c); err != nil {
		return err
	}
	if err := os.Rename(dir, old); err != nil && !os.IsNotExist(err) {
		return err
	}
	if err := os.Rename(fresh, dir); err != nil {
		return err
	}
	return os.RemoveAll(old)
}

// ordered puts new clusters first, then larger ones, then in signature
// order: a stable page.
func ordered(es []Entry) []Entry {
	out := slices.Clone(es)
	slices.SortStableFunc(out, func(a, b Entry) int {
		if a.isNew() != b.isNew() {
			if a.isNew() {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(b.Cluster.Count, a.Cluster.Count); c != 0 {
			return c
		}
		return cmp.Compare(a.Cluster.Signature, b.Cluster.Signature)
	})
	return out
}

func hashOf(c *record.Cluster) string {
	if c.SignatureHash != "" {
		return c.SignatureHash
	}
	return record.HashString(c.Signature)
}

// cell makes text safe in a Markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}

// Index is index.md.
func Index(s cluster.Stats, entries []Entry) string { return index(s, entries, nil) }

// index is index.md, with a row on the nightly history h when the
// campaign is one of its runs.
func index(s cluster.Stats, entries []Entry, h *history.Comparison) string {
	var b strings.Builder
	b.WriteString("# Campaign report\n\n## The campaign in numbers\n\n| | |\n|---|---|\n")
	if h != nil && h.Latest() != nil {
		run := h.Latest()
		fmt.Fprintf(&b, "| nightly run | %s: seed %d, Cranelift %s, %d cases; %d new since the last run; [the history of %s](history.md) |\n",
			run.ID, run.Seed, cell(run.Cranelift), run.Cases, len(h.WithStatus(history.New)), count(len(h.Runs), "run"))
	}
	fmt.Fprintf(&b, "| verdicts read | %d |\n", s.Verdicts)
	if s.MinCase <= s.MaxCase {
		fmt.Fprintf(&b, "| failing cases, by cliff-gen index | %d–%d |\n", s.MinCase, s.MaxCase)
	}
	fmt.Fprintf(&b, "| configurations | %d |\n", len(s.Configs))
	if s.TimedCases > 0 {
		perCase := s.RunMS / float64(s.TimedCases)
		fmt.Fprintf(&b, "| run time of the failing cases (compile, link, exec) | %.1f s for %d cases: %.0f ms per case, %.2f cases/s on one core |\n",
			s.RunMS/1000, s.TimedCases, perCase, 1000/perCase)
	}
	if wall := s.LastSeen.Sub(s.FirstSeen).Seconds(); wall >= 1 {
		fmt.Fprintf(&b, "| found over | %.0f s, from the first case's results to the last's: %.2f verdicts/s |\n", wall, float64(s.Verdicts)/wall)
	}
	var counts []string
	for _, o := range record.Outcomes() {
		if n := s.Outcomes[o]; n > 0 {
			counts = append(counts, fmt.Sprintf("%s %d", o, n))
		}
	}
	fmt.Fprintf(&b, "| verdicts | %s |\n", strings.Join(counts, ", "))
	failures, known := 0, 0
	for _, e := range entries {
		failures += e.Cluster.Count
		if !e.isNew() {
			known++
		}
	}
	fmt.Fprintf(&b, "| clusters | %d (%d new, %d known) for %d failing cases |\n\n", len(entries), len(entries)-known, known, failures)
	if s.Outcomes[record.OutcomeConsistent] == 0 && s.Verdicts == failures && h == nil {
		b.WriteString("Only failing verdicts were read (cliff-diff --failures): the campaign's size is the range of case indexes.\n\n")
	}
	b.WriteString("![Failures and distinct clusters over the campaign](failures.svg)\n\n")
	b.WriteString("![Outcome of the runs per target](targets.svg)\n\n")
	b.WriteString("## Clusters\n\n| # | status | signature | count | first seen | location | report |\n|---|---|---|---|---|---|---|\n")
	for i, e := range entries {
		status := "**new**"
		if !e.isNew() {
			status = "known"
		} else if e.Cluster.Known != "" {
			status = "**new?** (" + cell(e.Cluster.Known) + ")"
		}
		base := "cluster-" + hashOf(e.Cluster)
		fmt.Fprintf(&b, "| %d | %s | %s | %d | %s | %s | [%s](%s.md) |\n",
			i+1, status, cell(e.Cluster.Signature), e.Cluster.Count, firstSeen(e), cell(locationText(e.Location)), base, base)
	}
	if known > 0 {
		b.WriteString("\nKnown clusters match a finding already in the repository (lib/profile's known.mask or findings/): ")
		b.WriteString("the panic's ISLE rule line, panic site or missing opcode.type quoted there for the same architecture, the located instruction's {opcode, type, arch} in known.mask, or the shape a finding's header says it is recognised by, on the reduced file. ")
		b.WriteString("**new?** means the representative contains a masked combination for a failing architecture, which may or may not be the cause.\n")
	}
	harnessErrors(&b, s)
	return b.String()
}

// harnessErrors is the index's section on the cases lost to cliff's own
// machinery (QEMU's aborts, say): in no cluster, as they say nothing
// about Cranelift, but not left out of the report either.
func harnessErrors(b *strings.Builder, s cluster.Stats) {
	hs := s.HarnessErrorsByCount()
	if len(hs) == 0 {
		return
	}
	b.WriteString("\n## Harness errors\n\n")
	b.WriteString("Cases whose runs failed in cliff's machinery or the emulator, not in Cranelift (status harness_error): they are in no cluster, and say nothing about Cranelift.\n\n")
	b.WriteString("| executor | version | cases | example |\n|---|---|---|---|\n")
	for _, h := range hs {
		version := h.Version
		if version == "" {
			version = "–"
		}
		example := h.Example + " on " + h.Config
		if msg := strings.TrimSpace(h.Message); msg != "" {
			if r := []rune(msg); len(r) > 300 {
				msg = string(r[:300]) + "…"
			}
			example += ": `" + strings.ReplaceAll(msg, "`", "'") + "`"
		}
		fmt.Fprintf(b, "| %s | %s | %d | %s |\n", cell(h.Executor), cell(version), h.Cases, cell(example))
	}
}

func firstSeen(e Entry) string {
	var parts []string
	if e.FirstCase >= 0 {
		parts = append(parts, fmt.Sprintf("case %d", e.FirstCase))
	}
	if !e.Cluster.FirstSeen.IsZero() {
		parts = append(parts, e.Cluster.FirstSeen.UTC().Format("2006-01-02 15:04:05"))
	}
	if len(parts) == 0 {
		return "–"
	}
	return strings.Join(parts, ", ")
}

func locationText(l *record.Location) string {
	if l == nil {
		return "–"
	}
	s := l.Function
	if l.Block != "" {
		s += " " + l.Block
	}
	if l.Inst.Text != "" {
		s += ": `" + l.Inst.Text + "`"
	}
	// The culprit of the reduced case, as the mask entry names it: what
	// the bug is about, where the location is only where it showed.
	for _, m := range l.Mask {
		s += "; culprit `" + m + "`"
	}
	return s
}
