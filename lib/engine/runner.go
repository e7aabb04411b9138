package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"cliff/lib/extract"
	"cliff/lib/ir"
	"cliff/lib/jsonl"
	"cliff/lib/parser"
	"cliff/lib/record"
)

// A runner streams units through the workers: the input is read in
// chunks, each chunk's units are grouped by configuration into tasks (one
// compile and one executable each), and a chunk's records are written, in
// input order, as soon as all its tasks are done, then flushed, so that
// they reach the output (and, with --resume, survive a kill) at once. One
// dispatcher hands the tasks to the workers in chunk order, so the oldest
// chunk is always the nearest to done; at most a few chunks are in
// flight, so memory stays bounded whatever the input size.
//
// The run stops early on a signal or when the output fails: the context
// is cancelled, which kills the drivers and harnesses at work, the
// remaining tasks are not run, and no chunk touched by the cancellation is
// written (its results would be harness errors of cliff's making): the
// output holds the chunks finished before, in input order.
type runner struct {
	e   *Engine // its workers run the tasks
	rep *reporter
	// configs are the configurations of .clif files (see forFile); nil
	// when only case records run.
	configs *ConfigSpec
	// caseConfigs are the configurations of a case record that needs
	// some settings (record.Case.Settings).
	caseConfigs func(needs []string) []record.Config
	batch       int
	progress    bool
	resume      bool         // --resume: the output is a journal to go on with
	resumed     *resumeState // with resume: what the output held

	units, tasksDone atomic.Int64
}

// A chunk is a run of consecutive units and the configurations they use.
type chunk struct {
	units   []*unit
	configs []record.Config // union over the units, first seen first
	pending sync.WaitGroup  // tasks not yet done
	// spoiled says a task of the chunk ended after the run was cancelled:
	// its results may be the cancellation's, the chunk is not written.
	spoiled atomic.Bool
}

// errOutputFailed cancels a run whose output cannot be written.
var errOutputFailed = errors.New("the output failed")

// startWorkers sets each of the engine's workers running the tasks it
// receives from tasks until tasks is closed; once ctx is done, a task is
// only marked done. The function it returns waits for the workers.
func (r *runner) startWorkers(ctx context.Context, tasks <-chan *task) (wait func()) {
	var done sync.WaitGroup
	for _, w := range r.e.workers {
		done.Go(func() {
			for t := range tasks {
				if ctx.Err() == nil {
					w.run(ctx, t)
				}
				t.done(ctx, r)
			}
		})
	}
	return done.Wait
}

func (r *runner) run(ctx context.Context, sources []extract.Source, output string) error {
	w, err := r.openOutput(output, sources)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	// Once cancelled, failures are the cancellation's: not reported.
	context.AfterFunc(ctx, r.rep.stop)

	tasks := make(chan *task)
	queued := make(chan *chunk)                      // read → dispatcher
	ordered := make(chan *chunk, len(r.e.workers)+1) // dispatcher → writer, in input order
	waitWorkers := r.startWorkers(ctx, tasks)
	go func() {
		defer close(ordered)
		defer close(tasks)
		r.dispatchAll(ctx, queued, ordered, tasks)
	}()
	writeErr := make(chan error, 1)
	go func() { writeErr <- r.write(w, ordered, cancel) }()
	stopProgress := r.startProgress()

	// The reader may block on an idle stdin: a cancelled run does not
	// wait for it (it sends nothing more once the context is done).
	readErr := make(chan error, 1)
	go func() {
		defer close(queued)
		readErr <- r.read(ctx, sources, func(ch *chunk) bool {
			select {
			case queued <- ch:
				return true
			case <-ctx.Done():
				return false
			}
		})
	}()
	var rerr error
	select {
	case rerr = <-readErr:
	case <-ctx.Done():
		select {
		case rerr = <-readErr: // a bad input found before the cancellation
		default:
		}
	}
	werr := <-writeErr
	waitWorkers()
	stopProgress()
	// An interruption (a signal: the cause of a cancellation that was
	// neither the output's failure nor the end of run) is an error of
	// the run like the others: before the first record, the output is
	// left as it was.
	var interrupted error
	if cause := context.Cause(ctx); ctx.Err() != nil && cause != context.Canceled && cause != errOutputFailed {
		interrupted = cause
	}
	var cerr error
	if werr == nil { // else Close returns the same write error
		cerr = w.CloseAfter(errors.Join(rerr, interrupted))
	} else {
		w.CloseAfter(werr)
	}
	err = errors.Join(rerr, werr, cerr, r.finishResume(output))
	if err == nil {
		err = interrupted
	}
	return err
}

// openOutput opens the output: from scratch, or with --resume as a
// journal whose complete records are kept.
func (r *runner) openOutput(output string, sources []extract.Source) (*jsonl.Writer, error) {
	var inputs []string
	for _, s := range sources {
		inputs = append(inputs, s.Path)
		if r.resume && strings.HasSuffix(s.Path, ".clif") {
			return nil, fmt.Errorf("--resume: %s: only runs of case records can be resumed, not of .clif files", s.Path)
		}
	}
	if !r.resume {
		return jsonl.Create(output, inputs...)
	}
	r.resumed = newResumeState(r.caseConfigs)
	w, err := jsonl.Resume(output, r.resumed.scan, r.resumed.drop, inputs...)
	if err != nil {
		return nil, fmt.Errorf("--resume: %w", err)
	}
	return w, nil
}

// finishResume drops from a resumed output the old records of the cases
// that were run again, now that their new records follow them, and says
// how many cases were skipped.
func (r *runner) finishResume(output string) error {
	s := r.resumed
	if s == nil {
		return nil
	}
	if s.skipped > 0 {
		fmt.Fprintf(r.rep.log, "cliff-run: --resume: %d cases already in %s, not run again\n", s.skipped, output)
	}
	if s.rerun == 0 {
		return nil
	}
	again := newResumeState(r.caseConfigs)
	if err := jsonl.Rewrite(output, again.scan, again.drop); err != nil {
		return fmt.Errorf("--resume: %w", err)
	}
	return nil
}

// done marks a task finished in its chunk; a task that ends in a
// cancelled run spoils its chunk.
func (t *task) done(ctx context.Context, r *runner) {
	if ctx.Err() != nil {
		t.chunk.spoiled.Store(true)
	}
	r.tasksDone.Add(1)
	t.chunk.pending.Done()
}

// dispatchAll splits the queued chunks into tasks and hands these to the
// workers in chunk order; each chunk goes to the writer first. Once the
// run is cancelled, tasks are marked done without running.
func (r *runner) dispatchAll(ctx context.Context, queued <-chan *chunk, ordered chan<- *chunk, tasks chan<- *task) {
	for {
		var ch *chunk
		select {
		case ch = <-queued:
		case <-ctx.Done():
			return
		}
		if ch == nil {
			return
		}
		all := r.dispatch(ch)
		ordered <- ch // waits while the writer is behind: bounds the chunks in flight
		for _, t := range all {
			select {
			case tasks <- t:
			case <-ctx.Done():
				t.done(ctx, r)
			}
		}
	}
}

// write writes each chunk of ordered once its tasks are done, in order,
// until a chunk is spoiled or a write fails; a failed write cancels the
// run (nothing more could be written). It drains ordered to the end.
func (r *runner) write(w *jsonl.Writer, ordered <-chan *chunk, cancel context.CancelCauseFunc) error {
	var err error
	stopped := false
	for ch := range ordered {
		ch.pending.Wait()
		switch {
		case stopped:
		case ch.spoiled.Load():
			// Later chunks are not written either: the output stays a
			// prefix of the input, which --resume relies on.
			stopped = true
		default:
			if err = writeChunk(w, ch, r.e.versions); err != nil {
				stopped = true
				cancel(errOutputFailed)
			}
		}
	}
	return err
}

// dispatch splits a chunk into tasks: per configuration, batches of at
// most r.batch units.
func (r *runner) dispatch(ch *chunk) []*task {
	index := map[string]int{}
	var members [][]*unit
	for _, u := range ch.units {
		cfgs := u.configs
		if cfgs == nil {
			cfgs = r.caseConfigs(u.caseSettings)
		}
		for _, cfg := range cfgs {
			key := cfg.String()
			if u.compileOnly {
				// Compile checks and runs never share a task.
				key += "\x00compile"
			}
			i, ok := index[key]
			if !ok {
				i = len(ch.configs)
				index[key] = i
				ch.configs = append(ch.configs, cfg)
				members = append(members, nil)
			}
			members[i] = append(members[i], u)
		}
	}
	for _, u := range ch.units {
		u.prepare(len(ch.configs))
		r.rep.skippedTargets(u, r.optLevels())
	}
	var all []*task
	for i, us := range members {
		for start := 0; start < len(us); start += r.batch {
			end := min(start+r.batch, len(us))
			all = append(all, &task{cfgIndex: i, cfg: ch.configs[i], units: us[start:end], chunk: ch})
		}
	}
	ch.pending.Add(len(all))
	return all
}

// optLevels counts the opt levels a .clif file's target runs at.
func (r *runner) optLevels() int {
	if r.configs == nil {
		return 0
	}
	return len(r.configs.Opts)
}

// appendResults appends each entry's results to its record, in
// configuration order, stamped with v and the time the chunk was done.
func appendResults(ch *chunk, v *versions) {
	done := time.Now().UTC().Truncate(time.Millisecond)
	for _, u := range ch.units {
		for _, e := range u.entries {
			for _, res := range e.results {
				if res != nil {
					v.stamp(res)
					res.Timings.Done = done
					e.rec.Results = append(e.rec.Results, *res)
				}
			}
		}
	}
}

// writeChunk appends each entry's results and writes its record.
func writeChunk(w *jsonl.Writer, ch *chunk, v *versions) error {
	appendResults(ch, v)
	for _, u := range ch.units {
		for _, e := range u.entries {
			if err := w.Write(e.rec); err != nil {
				return err
			}
		}
	}
	return w.Flush()
}

// read turns the sources into chunks of units and emits them; emit says
// false once the run is cancelled, and reading stops. It stops at the
// first bad input and returns that error; the chunks before it are
// processed.
func (r *runner) read(ctx context.Context, sources []extract.Source, emit func(*chunk) bool) error {
	ch := &chunk{}
	stopped := false
	flush := func() {
		if len(ch.units) > 0 && !stopped {
			stopped = !emit(ch)
			ch = &chunk{}
		}
	}
	add := func(u *unit) error {
		r.units.Add(1)
		ch.units = append(ch.units, u)
		if len(ch.units) >= r.batch {
			flush()
		}
		if stopped || ctx.Err() != nil {
			stopped = true
			return errStopped
		}
		return nil
	}
	defer flush()
	for _, s := range sources {
		var err error
		if strings.HasSuffix(s.Path, ".clif") {
			var us []*unit
			if us, err = r.readFile(s); err == nil {
				for _, u := range us {
					if err = add(u); err != nil {
						break
					}
				}
			}
		} else {
			err = r.readCases(s, add)
		}
		if err == errStopped {
			return nil
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// errStopped ends reading in a cancelled run.
var errStopped = errors.New("stopped")

// readFile makes the units of a .clif file: its run and print lines, and
// for `test compile` its functions' compile checks. A named file with
// nothing to check is an error (it would pass without checking anything);
// one found in a directory is counted as skipped.
func (r *runner) readFile(s extract.Source) ([]*unit, error) {
	path := s.Path
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := parser.ParseFile(path, src)
	if err != nil {
		return nil, err
	}
	configs, skips := r.configs.forFile(f)
	configs = r.configs.perCranelift(configs)
	if configs == nil {
		configs = []record.Config{} // non-nil: a file never takes the case configurations
	}
	var units []*unit
	if len(f.Commands) > 0 {
		u, err := fileUnit(path, src, f, configs, skips)
		if err != nil {
			return nil, err
		}
		units = append(units, u)
	}
	if test, ok := compileTest(f); ok && len(f.Funcs) > 0 {
		units = append(units, compileUnit(path, src, f, test, configs, skips))
	}
	if len(units) > 0 {
		return units, nil
	}
	kind, why := nothingToCheck(f)
	if s.Found {
		r.rep.skippedFile(path, kind)
		return nil, nil
	}
	return nil, fmt.Errorf("%s: nothing to check: %s", path, why)
}

// checkedTests are the tests cliff-run checks, for messages.
const checkedTests = "cliff-run checks test run, test interpret and test compile files"

// nothingToCheck says why a file has nothing cliff-run checks: the kind
// of file, and the same with details for an error message.
func nothingToCheck(f *ir.File) (kind, why string) {
	var tests []string
	for _, t := range f.Tests {
		if len(t.Words) == 0 {
			continue
		}
		tests = append(tests, t.Words[0])
		if t.Words[0] == "run" || t.Words[0] == "interpret" {
			kind = "test " + t.Words[0] + " without a `; run:` line"
			return kind, fmt.Sprintf("line %d: test %s, but no `; run:` line", t.Line, t.Words[0])
		}
	}
	if len(tests) == 0 {
		return "no test line", "no test line (" + checkedTests + ")"
	}
	kind = "test " + strings.Join(tests, ", test ")
	return kind, kind + " (" + checkedTests + ")"
}

func (r *runner) readCases(s extract.Source, add func(*unit) error) error {
	in, closer, err := jsonl.Open(s.Path)
	if err != nil {
		return err
	}
	defer closer.Close()
	for {
		var c record.Case
		err := in.Next(&c)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := c.Validate(); err != nil {
			return fmt.Errorf("%s: record %d: %w", in.Name(), in.Record(), err)
		}
		if r.resumed != nil && r.resumed.claim(&c) {
			continue
		}
		u, err := caseUnit(fmt.Sprintf("%s: record %d (%s)", in.Name(), in.Record(), c.ID), &c)
		if err != nil {
			return fmt.Errorf("%s: record %d: case %q: %w", in.Name(), in.Record(), c.ID, err)
		}
		if err := add(u); err != nil {
			return err
		}
	}
}

// startProgress prints a status line to stderr twice a second when it is
// a terminal; the returned function clears it.
func (r *runner) startProgress() func() {
	if !r.progress {
		return func() {}
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(done)
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				fmt.Fprint(r.rep.log, "\r\033[K")
				return
			case <-t.C:
				fmt.Fprintf(r.rep.log, "\r\033[Kcliff-run: %d units read, %d batches done, %s", r.units.Load(), r.tasksDone.Load(), time.Since(start).Truncate(time.Second))
			}
		}
	}()
	return func() { close(stop); <-done }
}
