package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"cliff/lib/jsonl"
	"cliff/lib/record"
)

// options are what the command line asks for.
type options struct {
	ctx      context.Context // cancelled by SIGINT or SIGTERM: stop reading, judge and write what was read
	inputs   []string        // paths, "-" for stdin; none means stdin
	output   string          // path, "-" for stdout; ".zst" compresses
	failures bool            // write only verdicts other than consistent
	hold     bool            // judge nothing before every input has ended
	log      io.Writer
}

// maxOrphanReports bounds the lines about results without a case: a wrong
// file list would otherwise print one per case.
const maxOrphanReports = 10

// A tally counts what a run judged.
type tally struct {
	verdicts map[record.Outcome]int
	cases    int
	lone     int // cases with fewer than two configurations that answered
	orphans  int // cases with results but no case record in any input
	// unreached are cases with results whose case record may have been
	// in the part of the input left unread after an error.
	unreached int
}

// failures counts the verdicts that are Cranelift failures.
func (t *tally) failures() int {
	n := 0
	for o, count := range t.verdicts {
		if isCraneliftFailure(o) {
			n += count
		}
	}
	return n
}

// write prints the counts as one line, verdicts in precedence order.
func (t *tally) write(w io.Writer) {
	parts := []string{fmt.Sprintf("consistent %d", t.verdicts[record.OutcomeConsistent])}
	for _, o := range precedence {
		parts = append(parts, fmt.Sprintf("%s %d", o, t.verdicts[o]))
	}
	fmt.Fprintf(w, "cases %d: %s", t.cases, strings.Join(parts, ", "))
	if t.lone > 0 {
		fmt.Fprintf(w, "; %d with fewer than two configurations", t.lone)
	}
	if t.orphans+t.unreached > 0 {
		fmt.Fprintf(w, "; %d not judged (results without their case)", t.orphans+t.unreached)
	}
	fmt.Fprintln(w)
}

// A differ reads the inputs, joins and judges the cases and writes the
// verdicts.
type differ struct {
	opts    options
	w       *jsonl.Writer
	tally   tally
	stopped bool // reading stopped at an error: pending cases may lack records
}

// diff judges every case of the inputs. Reading stops at the first record
// that cannot be read or is not a valid case or result record; the cases
// read until then are still judged and written, and the error is returned.
func diff(opts options) (t tally, err error) {
	if opts.log == nil {
		opts.log = io.Discard
	}
	if len(opts.inputs) == 0 {
		opts.inputs = []string{"-"}
	}
	// Open every input first: a wrong path is reported before anything is
	// written.
	var readers []*jsonl.Reader
	for _, path := range opts.inputs {
		r, closer, err := jsonl.Open(path)
		if err != nil {
			return t, err
		}
		defer closer.Close()
		readers = append(readers, r)
	}
	w, err := jsonl.Create(opts.output, opts.inputs...)
	if err != nil {
		return t, err
	}
	defer func() {
		if cerr := w.CloseAfter(err); err == nil {
			err = cerr
		}
	}()
	d := &differ{opts: opts, w: w, tally: tally{verdicts: map[record.Outcome]int{}}}
	j := newJoiner(len(readers), opts.hold, d.verdict)
	readErr := d.read(readers, j)
	d.stopped = readErr != nil
	flushErr := j.flush()
	if readErr == nil {
		readErr = flushErr
	}
	if readErr != nil {
		if d.tally.unreached > 0 {
			fmt.Fprintf(opts.log, "cliff-diff: %d cases with results read before the error have no case record yet: not judged\n", d.tally.unreached)
		}
		return d.tally, readErr
	}
	if n := d.tally.orphans; n > 0 {
		return d.tally, fmt.Errorf("results of %d cases that no input holds: not judged", n)
	}
	return d.tally, nil
}

// read feeds the joiner one record from each input in turn, so that the
// inputs advance together and the joiner holds few cases.
func (d *differ) read(readers []*jsonl.Reader, j *joiner) error {
	ended := make([]bool, len(readers))
	for live := len(readers); live > 0; {
		if d.opts.ctx != nil && d.opts.ctx.Err() != nil {
			return context.Cause(d.opts.ctx)
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
			d.tally.unreached++
			return nil
		}
		d.tally.orphans++
		if d.tally.orphans <= maxOrphanReports {
			fmt.Fprintf(d.opts.log, "cliff-diff: %s: result for case %s, which no input holds: not judged\n", e.firstAt, e.id)
		}
		return nil
	}
	e.c.Results = e.results
	v := judge(e.c)
	d.tally.cases++
	d.tally.verdicts[v.Verdict]++
	if answeredConfigs(v.Sides) < 2 {
		d.tally.lone++
	}
	if d.opts.failures && v.Verdict == record.OutcomeConsistent {
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
		if answered(s.Status) {
			n += len(s.Configs)
		}
	}
	return n
}
