package bisect

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"cliff/lib/cranelift"
	"cliff/lib/engine"
)

// A Matrix is every file run on every release: the findings matrix.
type Matrix struct {
	Versions []string
	Files    []string
	// Expect are the ways each file (by base name) fails when it shows its
	// finding (ExpectedKinds); a file failing only otherwise on a release
	// (a lowering that release lacks, say) does not reproduce it there.
	Expect map[string][]string
	// Cells are by file, then version.
	Cells [][]Probe
	// Builds are per version: how long its driver took to build (0 when
	// cached) and why it could not be.
	Builds  []Probe
	Seconds float64
}

// MatrixOptions say what to run.
type MatrixOptions struct {
	Versions []string
	Files    []string
	Arches   []string
	Engine   engine.Options
	Builder  *cranelift.Builder
	Log      io.Writer
	// Expect is Matrix.Expect.
	Expect map[string][]string
}

// RunMatrix runs every file on every version, one driver at a time.
func RunMatrix(ctx context.Context, opts MatrixOptions) (*Matrix, error) {
	start := time.Now()
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	m := &Matrix{Versions: opts.Versions, Files: opts.Files, Cells: make([][]Probe, len(opts.Files)), Expect: opts.Expect}
	for _, v := range opts.Versions {
		t0 := time.Now()
		build, err := opts.Builder.Ensure(ctx, cranelift.Spec{Kind: cranelift.Release, Version: v})
		bp := Probe{Version: v, State: Passes}
		var be *cranelift.BuildError
		switch {
		case errors.As(err, &be):
			bp.State, bp.Why = Unknown, "cannot build: "+be.Reason
		case err != nil:
			return nil, err
		case !build.Cached:
			bp.Seconds = time.Since(t0).Seconds()
		}
		m.Builds = append(m.Builds, bp)
		for i, f := range opts.Files {
			p := Probe{Version: v, State: Unknown, Why: bp.Why}
			if bp.State != Unknown {
				t1 := time.Now()
				p.State, p.Why, p.Kinds = RunFile(ctx, build.Driver, f, opts.Arches, opts.Engine)
				p.Seconds = time.Since(t1).Seconds()
			}
			if ctx.Err() != nil {
				return nil, context.Cause(ctx)
			}
			fmt.Fprintf(opts.Log, "findings %s: %s %s (%s)\n", v, filepath.Base(f), p.State, p.Why)
			m.Cells[i] = append(m.Cells[i], p)
		}
	}
	m.Seconds = time.Since(start).Seconds()
	return m, nil
}

// cell is a probe as the matrix shows it, given how the file fails when
// it shows its finding (nil: any failure).
func cell(p Probe, expect []string) string {
	switch {
	case p.State == Fails && expect != nil && !slices.ContainsFunc(p.Kinds, func(k string) bool { return slices.Contains(expect, k) }):
		return "fails otherwise (" + strings.Join(p.Kinds, ", ") + ")"
	case p.State == Fails:
		return "reproduces"
	case p.State == Passes:
		return "fixed"
	case strings.HasPrefix(p.Why, "cannot build"):
		return "cannot build"
	}
	return "cannot run"
}

// WriteMarkdown writes the matrix: one row per file, one column per
// version, then the first and last version that reproduce it, and the
// reasons behind every "cannot" cell.
func (m *Matrix) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString("# Findings matrix\n\n")
	b.WriteString("Each finding file's run lines on each Cranelift release (`scripts/findings.sh`): ")
	b.WriteString("**reproduces** (a run line fails the way the finding does: a panic, a wrong answer, ...), ")
	b.WriteString("fails otherwise (its run lines fail, but not so: a lowering the release lacks, say), fixed (every run line that ran passes), ")
	b.WriteString("cannot build (the release does not build here), cannot run (nothing could be judged: ")
	b.WriteString("every run line skipped, as for an opcode the release does not know).\n\n")
	b.WriteString("| finding |")
	for _, v := range m.Versions {
		b.WriteString(" " + v + " |")
	}
	b.WriteString(" first | last |\n|---|")
	for range m.Versions {
		b.WriteString("---|")
	}
	b.WriteString("---|---|\n")
	notes := map[string]bool{}
	var noteList []string
	for i, f := range m.Files {
		fmt.Fprintf(&b, "| %s |", strings.TrimSuffix(filepath.Base(f), ".clif"))
		first, last := "-", "-"
		for _, p := range m.Cells[i] {
			c := cell(p, m.Expect[filepath.Base(f)])
			if c == "reproduces" {
				c = "**reproduces**"
				if first == "-" {
					first = p.Version
				}
				last = p.Version
			}
			if strings.HasPrefix(c, "cannot") {
				note := p.Version + ": " + p.Why
				if strings.HasPrefix(c, "cannot run") {
					note = strings.TrimSuffix(filepath.Base(f), ".clif") + " on " + note
				}
				if !notes[note] {
					notes[note] = true
					noteList = append(noteList, note)
				}
			}
			b.WriteString(" " + c + " |")
		}
		fmt.Fprintf(&b, " %s | %s |\n", first, last)
	}
	if len(noteList) > 0 {
		b.WriteString("\nWhy a cell could not be judged:\n\n")
		for _, n := range noteList {
			b.WriteString("- " + n + "\n")
		}
	}
	b.WriteString("\nDriver builds (seconds; 0: in the cache):")
	for _, p := range m.Builds {
		fmt.Fprintf(&b, " %s %.0f;", p.Version, p.Seconds)
	}
	fmt.Fprintf(&b, "\n\nThe matrix took %.0f s.\n", m.Seconds)
	_, err := io.WriteString(w, b.String())
	return err
}

// ExpectedKinds reads a findings expectation file (findings/expected/
// VERSION.txt: "FILE:%FN: VERDICT ...[; run lines fail on ...]") into the
// ways each file fails where it shows its findings: compile_crash and
// compile_error as themselves, a divergence or a wrong answer only the
// run lines see as wrong (and crash), a crash as crash. A file whose
// functions show nothing of Cranelift's (harness_error: QEMU's bugs) is
// left out: any failure counts there.
func ExpectedKinds(path string) (map[string][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string][]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		file, rest, ok := strings.Cut(line, ":%")
		_, rest, ok2 := strings.Cut(rest, ": ")
		if !ok || !ok2 {
			return nil, fmt.Errorf("%s:%d: want FILE:%%FUNCTION: VERDICT", path, n)
		}
		verdict, _, _ := strings.Cut(rest, " ")
		verdict = strings.TrimSuffix(verdict, ";")
		var kinds []string
		switch verdict {
		case "compile_crash", "compile_error":
			kinds = []string{verdict}
		case "divergent", "reference_divergent":
			kinds = []string{"wrong", "crash"}
		case "crash", "timeout":
			kinds = []string{verdict}
		case "consistent":
			if strings.Contains(rest, "run lines fail") {
				kinds = []string{"wrong"}
			}
		}
		for _, k := range kinds {
			if !slices.Contains(out[file], k) {
				out[file] = append(out[file], k)
			}
		}
	}
	return out, sc.Err()
}
