package engine

import (
	"context"
	"io"

	"cliff/lib/extract"
)

// StreamOptions are a run of files to an output: cliff-run's.
type StreamOptions struct {
	// Configs are the configurations: for case records as Configs makes
	// them, for .clif files as their target lines and Configs.Arches say.
	Configs ConfigSpec
	// Sources are the inputs: files of case records (JSON lines, plain or
	// zstd), .clif files, "-" for stdin (extract.Expand).
	Sources []extract.Source
	// Output is the file records are written to (zstd if it ends in
	// .zst; - is stdout): a temporary file renamed over it at the end,
	// or with Resume a journal (see jsonl.Resume).
	Output string
	// Resume goes on with an interrupted run whose output is Output:
	// its complete records are kept, the cases it holds skipped.
	Resume bool
	// Progress prints a status line to the log twice a second.
	Progress bool
}

// Stream runs the sources under opts' configurations and writes every
// record with its results appended, in input order, a chunk of
// Options.Batch cases at a time as soon as all its configurations are
// done. The configurations are checked first: an error then (a setting
// Cranelift refuses) comes with a nil Report and nothing written.
// Otherwise the Report counts the run lines and compile checks of .clif
// files, whatever the run's error (a bad input, a failed output, a
// cancellation: the chunks finished before it are written).
func (e *Engine) Stream(ctx context.Context, opts StreamOptions) (*Report, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	spec := opts.Configs.normal()
	if err := e.checkSpec(ctx, spec); err != nil {
		return nil, err
	}
	r := e.newRunner(newReporter(e.log), spec.forCases)
	r.configs, r.resume, r.progress = spec, opts.Resume, opts.Progress
	err := r.run(ctx, opts.Sources, opts.Output)
	return &Report{r.rep}, err
}

// A Report is what a Stream found in .clif files, for a command's
// summary and exit status; case records' failures are in their results.
type Report struct{ rep *reporter }

// WriteSummary writes the run-line counts (per architecture, then the
// total) and the compile checks' counts.
func (r *Report) WriteSummary(w io.Writer) { r.rep.summary(w) }

// Err says whether the machine or cliff itself kept something from
// running: an architecture whose code cannot be built or run here, or
// run lines cliff failed to run. Both were reported to the log when
// found; they say nothing about Cranelift.
func (r *Report) Err() error {
	if err := r.rep.brokenArches(); err != nil {
		return err
	}
	return r.rep.harnessFailed()
}

// Failed reports whether a run line, a function or a compile check
// failed.
func (r *Report) Failed() bool { return r.rep.anyFailed() }

// Totals counts the run lines and compile checks that passed, failed
// (a failing function counted once) and were skipped or not run.
func (r *Report) Totals() (passed, failed, skipped int) { return r.rep.totals() }
