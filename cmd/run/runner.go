package main

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
	"cliff/lib/harness"
	"cliff/lib/ir"
	"cliff/lib/jsonl"
	"cliff/lib/parser"
	"cliff/lib/record"
)

// A runner streams units through the workers: the input is read in
// chunks, each chunk's units are grouped by configuration into tasks (one
// compile and one executable each), and a chunk's records are written, in
// input order, as soon as all its tasks are done. At most a few chunks are
// in flight, so memory stays bounded whatever the input size.
type runner struct {
	configs  *configSet
	jobs     int
	batch    int
	driver   string
	lim      limits
	rep      *reporter
	progress bool
	host     harness.Host
	tools    toolchains
	versions *versions // stamps every result written; nil stamps none

	units, tasksDone atomic.Int64
}

// A chunk is a run of consecutive units and the configurations they use.
type chunk struct {
	units   []*unit
	configs []record.Config // union over the units, first seen first
	pending sync.WaitGroup  // tasks not yet done
}

func (r *runner) run(ctx context.Context, sources []extract.Source, output string) error {
	w, err := jsonl.Create(output)
	if err != nil {
		return err
	}
	tasks := make(chan *task)
	ordered := make(chan *chunk, r.jobs+1)
	var workersDone sync.WaitGroup
	for range r.jobs {
		wk, err := newWorker(r.driver, r.lim, r.rep, r.host, &r.tools)
		if err != nil {
			return err
		}
		workersDone.Add(1)
		go func() {
			defer workersDone.Done()
			defer wk.close()
			for t := range tasks {
				wk.run(ctx, t)
				t.done(r)
			}
		}()
	}
	// The writer waits for each chunk in order.
	writeErr := make(chan error, 1)
	go func() {
		var err error
		for ch := range ordered {
			ch.pending.Wait()
			if err == nil {
				err = writeChunk(w, ch, r.versions)
			}
		}
		writeErr <- err
	}()
	stopProgress := r.startProgress()
	var senders sync.WaitGroup
	readErr := r.read(sources, func(ch *chunk) {
		r.dispatch(ch, tasks, &senders)
		ordered <- ch
	})
	senders.Wait()
	close(tasks)
	close(ordered)
	werr := <-writeErr
	workersDone.Wait()
	stopProgress()
	cerr := w.Close()
	return errors.Join(readErr, werr, cerr)
}

// done marks a task finished in its chunk.
func (t *task) done(r *runner) {
	r.tasksDone.Add(1)
	t.chunk.pending.Done()
}

// dispatch splits a chunk into tasks: per configuration, batches of at
// most r.batch units.
func (r *runner) dispatch(ch *chunk, tasks chan<- *task, senders *sync.WaitGroup) {
	index := map[string]int{}
	var members [][]*unit
	for _, u := range ch.units {
		cfgs := u.configs
		if cfgs == nil {
			cfgs = r.configs.forCases(u.caseSettings)
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
		r.rep.skippedTargets(u, len(r.configs.opts))
	}
	var all []*task
	for i, us := range members {
		for start := 0; start < len(us); start += r.batch {
			end := min(start+r.batch, len(us))
			all = append(all, &task{cfgIndex: i, cfg: ch.configs[i], units: us[start:end], chunk: ch})
		}
	}
	ch.pending.Add(len(all))
	senders.Add(1)
	go func() {
		defer senders.Done()
		for _, t := range all {
			tasks <- t
		}
	}()
}

// writeChunk appends each entry's results in configuration order and
// writes its record.
func writeChunk(w *jsonl.Writer, ch *chunk, v *versions) error {
	for _, u := range ch.units {
		for _, e := range u.entries {
			for _, res := range e.results {
				if res != nil {
					v.stamp(res)
					e.rec.Results = append(e.rec.Results, *res)
				}
			}
			if err := w.Write(e.rec); err != nil {
				return err
			}
		}
	}
	return w.Flush()
}

// read turns the sources into chunks of units. It stops at the first bad
// input and returns that error; the chunks before it are processed.
func (r *runner) read(sources []extract.Source, emit func(*chunk)) error {
	ch := &chunk{}
	flush := func() {
		if len(ch.units) > 0 {
			emit(ch)
			ch = &chunk{}
		}
	}
	add := func(u *unit) {
		r.units.Add(1)
		ch.units = append(ch.units, u)
		if len(ch.units) >= r.batch {
			flush()
		}
	}
	defer flush()
	for _, s := range sources {
		if strings.HasSuffix(s.Path, ".clif") {
			us, err := r.readFile(s)
			if err != nil {
				return err
			}
			for _, u := range us {
				add(u)
			}
			continue
		}
		if err := r.readCases(s, add); err != nil {
			return err
		}
	}
	return nil
}

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

func (r *runner) readCases(s extract.Source, add func(*unit)) error {
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
		u, err := caseUnit(fmt.Sprintf("%s: record %d (%s)", in.Name(), in.Record(), c.ID), &c)
		if err != nil {
			return fmt.Errorf("%s: record %d: case %q: %w", in.Name(), in.Record(), c.ID, err)
		}
		add(u)
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
				fmt.Fprint(os.Stderr, "\r\033[K")
				return
			case <-t.C:
				fmt.Fprintf(os.Stderr, "\r\033[Kcliff-run: %d units read, %d batches done, %s", r.units.Load(), r.tasksDone.Load(), time.Since(start).Truncate(time.Second))
			}
		}
	}()
	return func() { close(stop); <-done }
}
