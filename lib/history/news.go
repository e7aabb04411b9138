package history

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"cliff/lib/record"
)

// WriteNews writes what the latest run found that no earlier run had: a
// line on the run, then each new signature with its count, the known
// finding it matches and its report page in reportDir (none: no path).
// This is the nightly's mail: a line per new cluster and little else.
func WriteNews(w io.Writer, c *Comparison, reportDir string) error {
	run := c.Latest()
	if run == nil {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "run %s: %s: %s", run.ID, describe(run), plural(len(run.Clusters), "cluster"))
	news := c.WithStatus(New)
	switch {
	case len(c.Runs) == 1:
		fmt.Fprintf(&b, ", %d new (the history's first run)", len(news))
	case len(news) == 0:
		fmt.Fprintf(&b, ", nothing new since the last run (%s)", c.Runs[len(c.Runs)-2].ID)
	default:
		fmt.Fprintf(&b, ", %d new since the last run (%s)", len(news), c.Runs[len(c.Runs)-2].ID)
	}
	if n := len(c.WithStatus(Back)); n > 0 {
		fmt.Fprintf(&b, ", %d back after runs without it", n)
	}
	if n := len(c.GoneIn(len(c.Runs) - 1)); n > 0 {
		fmt.Fprintf(&b, ", %d no longer seen", n)
	}
	b.WriteString("\n")
	if len(c.Runs) > 1 {
		if changed := Changes(c.Runs[len(c.Runs)-2], run); len(changed) > 0 {
			fmt.Fprintf(&b, "changed since the last run: %s\n", strings.Join(changed, "; "))
		}
	}
	for _, s := range news {
		n, _ := s.In(len(c.Runs) - 1)
		fmt.Fprintf(&b, "new: %s  %s\n", plural(n, "case"), s.Signature)
		if s.Known != "" {
			fmt.Fprintf(&b, "     known finding: %s\n", strings.TrimPrefix(s.Known, "known: "))
		}
		fmt.Fprintf(&b, "     representative: %s\n", s.Representative)
		if reportDir != "" {
			fmt.Fprintf(&b, "     report: %s\n", filepath.Join(reportDir, "cluster-"+s.Hash+".md"))
		}
	}
	if reportDir != "" {
		fmt.Fprintf(&b, "history: %s (%s since %s, %s)\n", filepath.Join(reportDir, "history.md"),
			plural(len(c.Runs), "run"), c.Runs[0].Started.Format("2006-01-02"), plural(len(c.Signatures), "signature"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Changes are the differences between two runs' settings that change
// what a campaign can find, in words: the Cranelift, the profile, the
// depth and the mask (MASK= lets the known findings through, which
// then show as new).
func Changes(prev, run *record.Run) []string {
	var out []string
	diff := func(what, a, b string) {
		if a != b {
			out = append(out, fmt.Sprintf("%s %s → %s", what, orNone(a), orNone(b)))
		}
	}
	diff("Cranelift", prev.Cranelift, run.Cranelift)
	diff("profile", prev.Profile, run.Profile)
	if prev.Depth != run.Depth {
		out = append(out, fmt.Sprintf("depth %d → %d", prev.Depth, run.Depth))
	}
	diff("mask", prev.Mask, run.Mask)
	return out
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// describe is a run in a few words: seed, Cranelift, size and time.
func describe(r *record.Run) string {
	s := fmt.Sprintf("seed %d, Cranelift %s, %s", r.Seed, r.Cranelift, plural(r.Cases, "case"))
	if r.CPUSeconds > 0 {
		s += fmt.Sprintf(", %.1f CPU minutes", r.CPUSeconds/60)
		if r.BudgetMinutes > 0 {
			s += fmt.Sprintf(" of %g", r.BudgetMinutes)
		}
	}
	if r.Resumed {
		s += ", resumed after a kill"
	}
	return s
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
