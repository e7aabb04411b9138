package judge

import (
	"context"
	"fmt"
	"io"
	"strings"

	"cliff/lib/jsonl"
	"cliff/lib/record"
)

// Options say what Diff reads and writes.
type Options struct {
	Inputs   []string  // paths, "-" for stdin; none means stdin
	Output   string    // path, "-" for stdout; ".zst" compresses
	Failures bool      // write only verdicts other than consistent
	Hold     bool      // judge nothing before every input has ended (for inputs whose records of a case are not adjacent)
	Log      io.Writer // results without their case are reported here; nil discards
}

// maxOrphanReports bounds the lines about results without a case: a wrong
// file list would otherwise print one per case.
const maxOrphanReports = 10

// A Tally counts what Diff judged.
type Tally struct {
	Verdicts map[record.Outcome]int
	Cases    int
	Lone     int // cases with fewer than two configurations that answered
	Orphans  int // cases with results but no case record in any input
	// Unreached are cases with results whose case record may have been
	// in the part of the input left unread after an error.
	Unreached int
	// NotRunnableHere counts the results skipped because the machine
	// that ran them could not (record.NotRunnableHere): its CPU or its
	// QEMU lacks what their ISA flags need.
	NotRunnableHere int
}

// Failures counts the verdicts that are Cranelift failures.
func (t *Tally) Failures() int {
	n := 0
	for o, count := range t.Verdicts {
		if IsCraneliftFailure(o) {
			n += count
		}
	}
	return n
}

// Write prints the counts as one line, verdicts in precedence order:
// cliff-diff's --summary.
func (t *Tally) Write(w io.Writer) {
	parts := []string{fmt.Sprintf("consistent %d", t.Verdicts[record.OutcomeConsistent])}
	for _, o := range precedence {
		parts = append(parts, fmt.Sprintf("%s %d", o, t.Verdicts[o]))
	}
	for _, o := range []record.Outcome{record.OutcomeRegression, record.OutcomeFixed} {
		if n := t.Verdicts[o]; n > 0 { // only runs over several versions have them
			parts = append(parts, fmt.Sprintf("%s %d", o, n))
		}
	}
	fmt.Fprintf(w, "cases %d: %s", t.Cases, strings.Join(parts, ", "))
	if t.Lone > 0 {
		fmt.Fprintf(w, "; %d with fewer than two configurations", t.Lone)
	}
	if t.Orphans+t.Unreached > 0 {
		fmt.Fprintf(w, "; %d not judged (results without their case)", t.Orphans+t.Unreached)
	}
	if t.NotRunnableHere > 0 {
		fmt.Fprintf(w, "; %d results skipped, not runnable on the machine that ran them (its CPU or QEMU lacks their ISA flags)", t.NotRunnableHere)
	}
	fmt.Fprintln(w)
}

// A differ reads the inputs, joins and judges the cases and writes the
// verdicts.
type differ struct {
	ctx     context.Context
	opts    Options
	w       *jsonl.Writer
	tally   Tally
	stopped bool // reading stopped at an error: pending cases may lack records
}

// Diff judges every case of the inputs and writes the verdicts to the
// output, as cliff-diff does (its --help says how inputs are joined). The
// inputs are opened, and the output checked not to be one of them, before
// anything is written. Reading stops at the first record that cannot be
// read or is not a valid case or result record, or when ctx is cancelled;
// the cases read until then are still judged and written, and the error
// (or the cancellation's cause) is returned. Results of cases that no input
// holds are reported to the log and make an error once everything else is
// written. The tally counts what was judged, also on error.
func Diff(ctx context.Context, opts Options) (t Tally, err error) {
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	readers, closer, err := jsonl.OpenEach(opts.Inputs)
	if err != nil {
		return t, err
	}
	defer closer.Close()
	w, err := jsonl.Create(opts.Output, opts.Inputs...)
	if err != nil {
		return t, err
	}
	defer func() {
		if cerr := w.CloseAfter(err); err == nil {
			err = cerr
		}
	}()
	d := &differ{ctx: ctx, opts: opts, w: w, tally: Tally{Verdicts: map[record.Outcome]int{}}}
	j := newJoiner(len(readers), opts.Hold, d.verdict)
	readErr := d.read(readers, j)
	d.stopped = readErr != nil
	flushErr := j.flush()
	if readErr == nil {
		readErr = flushErr
	}
	if readErr != nil {
		if d.tally.Unreached > 0 {
			fmt.Fprintf(opts.Log, "cliff-diff: %d cases with results read before the error have no case record yet: not judged\n", d.tally.Unreached)
		}
		return d.tally, readErr
	}
	if n := d.tally.Orphans; n > 0 {
		return d.tally, fmt.Errorf("results of %d cases that no input holds: not judged", n)
	}
	return d.tally, nil
}

// read feeds the joiner one record from each input in turn, so that the
// inputs advance together and the joiner holds few cases.
func (d *differ) read(readers []*jsonl.Reader, j *joiner) error {
	ended := make([]bool, len(readers))
	for live := len(readers); live > 0; {
		if d.ctx != nil && d.ctx.Err() != nil {
			return context.Cause(d.ctx)
		}
		for i, r := range readers {
			if ended[i] {
				continue
			}
			line, err := r.NextRaw()
			if err == io.EOF {
				ended[i] = true
				live--
				if err := j.end(i); err != nil {
					return err
				}
				continue
			}
			if err != nil {
				return err // jsonl names the input and the record
			}
			at := position{r.Name(), r.Record()}
			rec, err := record.Decode(line)
			if err != nil {
				return fmt.Errorf("%s: %w", at, err)
			}
			if err := j.add(i, at, rec); err != nil {
				return err
			}
		}
	}
	return nil
}

// verdict judges a joined case and writes its verdict.
func (d *differ) verdict(e *entry) error {
	if e.c == nil {
		if d.stopped {
			d.tally.Unreached++
			return nil
		}
		d.tally.Orphans++
		if d.tally.Orphans <= maxOrphanReports {
			fmt.Fprintf(d.opts.Log, "cliff-diff: %s: result for case %s, which no input holds: not judged\n", e.firstAt, e.id)
		}
		return nil
	}
	e.c.Results = e.results
	v := verdict(e.c) // Case without merging again: the joiner merged repeats as they came
	d.tally.Cases++
	d.tally.Verdicts[v.Verdict]++
	for _, r := range e.results {
		if r.Status == record.StatusUnsupported && strings.HasPrefix(r.Message, record.NotRunnableHere) {
			d.tally.NotRunnableHere++
		}
	}
	if answeredConfigs(v.Sides) < 2 {
		d.tally.Lone++
	}
	if d.opts.Failures && v.Verdict == record.OutcomeConsistent {
		return nil
	}
	if err := d.w.Write(&v); err != nil {
		return fmt.Errorf("writing the verdict on case %s: %w", e.id, err)
	}
	return nil
}

func answeredConfigs(sides []record.Side) int {
	n := 0
	for _, s := range sides {
		if Answered(s.Status) {
			n += len(s.Configs)
		}
	}
	return n
}
