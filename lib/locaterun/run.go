package locaterun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"cliff/lib/engine"
	"cliff/lib/jsonl"
	"cliff/lib/record"
)

// Options are a cliff-locate run.
type Options struct {
	// Inputs are files of cluster or verdict records (JSON lines, plain or
	// zstd; - for stdin) and .clif files.
	Inputs []string
	// Output receives one location record per failure (- is stdout).
	Output string
	// Dir, when set, receives one reduced filetest per failure,
	// SIGNATUREHASH.clif, ready to attach to a bug report.
	Dir string
	// MaskOut, when set, is a mask file the located combinations are
	// appended to (lib/profile's format), each with a comment naming the
	// signature and the repro file.
	MaskOut string
	// Budget bounds the time spent on one failure; what was found when it
	// runs out is written, with a note.
	Budget time.Duration
	// Engine are the engine's options (driver, limits, log).
	Engine engine.Options
	// Bisect, when set ("0.130.2..0.137.1"), bisects each reduced file
	// between those releases (lib/bisect) into the location's Bisect.
	Bisect string
	// Log receives one progress line per failure.
	Log io.Writer
}

// Summary is what a run located.
type Summary struct {
	Located  int                    // failures with a location record
	Levels   map[string]int         // how many reached each level
	Skipped  map[record.Outcome]int // verdicts that are not Cranelift failures
	NoRepro  int                    // failures that did not show again when re-run
	Reduced  []Reduction            // per failure, for the summary table
	MaskAdds int                    // mask entries appended
}

// A Reduction is one failure's reduction in numbers.
type Reduction struct {
	Signature     string
	Before, After int // instructions in the module
	FailingAfter  int // instructions in the failing function after reduction
	OracleRuns    int
	Elapsed       time.Duration
	Level         string
}

// Run locates and reduces every failure of the inputs.
func Run(ctx context.Context, opts Options) (*Summary, error) {
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	if opts.Dir != "" {
		if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
			return nil, err
		}
	}
	w, err := jsonl.Create(opts.Output, opts.Inputs...)
	if err != nil {
		return nil, err
	}
	eng, err := engine.New(ctx, opts.Engine)
	if err != nil {
		w.Close()
		return nil, err
	}
	defer eng.Close()
	s := &Summary{Levels: map[string]int{}}
	l := &locator{opts: opts, eng: eng, sum: s}
	s.Skipped, err = readTargets(ctx, eng, opts.Inputs, func(t target) error {
		loc, err := l.locate(ctx, t)
		if err != nil {
			return fmt.Errorf("%s: %w", t.from, err)
		}
		if err := loc.Validate(); err != nil {
			return fmt.Errorf("%s: the location record (a cliff-locate bug): %w", t.from, err)
		}
		return w.Write(loc)
	})
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return s, err
}

// reproPath is where the reduced file text of a signature goes:
// DIR/HASH.clif, or HASH-2.clif, HASH-3.clif, ... when another reduced
// file of the same signature is there already (a second bug behind the
// same symptom, found in a later round of a campaign loop, must not
// overwrite the first). The same text goes to the same file.
func (o *Options) reproPath(sigHash, text string) string {
	if o.Dir == "" {
		return ""
	}
	for n := 1; ; n++ {
		name := sigHash + ".clif"
		if n > 1 {
			name = fmt.Sprintf("%s-%d.clif", sigHash, n)
		}
		path := filepath.Join(o.Dir, name)
		old, err := os.ReadFile(path)
		if err != nil || string(old) == text {
			return path
		}
	}
}

var errNoRepro = errors.New("does not fail again when re-run")

// Write prints the summary: one line per failure, then the totals.
func (s *Summary) Write(w io.Writer) {
	for _, r := range s.Reduced {
		fmt.Fprintf(w, "located %s: %s level, %d -> %d instructions (%d in the failing function), %d runs, %.1fs\n",
			r.Signature, orNone(r.Level), r.Before, r.After, r.FailingAfter, r.OracleRuns, r.Elapsed.Seconds())
	}
	fmt.Fprintf(w, "located: %d (instruction %d, block %d, function %d), not reproduced %d, mask entries added %d\n",
		s.Located, s.Levels[record.LocInstruction], s.Levels[record.LocBlock], s.Levels[record.LocFunction], s.NoRepro, s.MaskAdds)
	for o, n := range s.Skipped {
		fmt.Fprintf(w, "skipped %d: %s verdicts\n", n, o)
	}
}
