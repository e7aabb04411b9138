package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"cliff/lib/driver"
	"cliff/lib/jsonl"
	"cliff/lib/metrics"
	"cliff/lib/record"
	"cliff/lib/refine"
)

// A session refines a stream of cases.
type session struct {
	opts       refine.Options
	stats      bool
	target     string // --survival: measure on this target; "" does not
	driverPath string
	timeout    time.Duration
	log        io.Writer

	summary  metrics.Summary
	survival *metrics.Survival
}

// refineAll reads every case of the inputs, refines it and writes it.
// Reading stops at the first bad record or failing pass; what was refined
// before is written, and the summary (--stats) covers it.
func (s *session) refineAll(ctx context.Context, inputs []string, output string) (err error) {
	if s.target != "" {
		path := s.driverPath
		if path == "" {
			if path, err = driver.Find(); err != nil {
				return err
			}
		}
		client := driver.New(path)
		defer client.Close()
		if err := checkTarget(ctx, client, s.target); err != nil {
			return err
		}
		s.survival = metrics.NewSurvival(client, s.target, s.timeout)
	}
	w, err := jsonl.Create(output, inputs...)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := w.CloseAfter(err); err == nil {
			err = cerr
		}
	}()
	r := jsonl.OpenAll(inputs)
	defer r.Close()
	if s.stats {
		defer func() {
			if perr := s.summary.Print(s.log, nil); err == nil {
				err = perr
			}
		}()
	}
	for {
		if ctx.Err() != nil {
			return context.Cause(ctx) // a signal: stop with what is written
		}
		line, err := r.NextRaw()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		c, err := decode(line)
		if err != nil {
			return fmt.Errorf("%s: record %d: %w", r.Name(), r.Record(), err)
		}
		where := fmt.Sprintf("%s: record %d (%s)", r.Name(), r.Record(), c.ID)
		if err := s.refine(ctx, c, where); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		if err := w.Write(c); err != nil {
			return err
		}
	}
}

// decode reads one case record.
func decode(line []byte) (*record.Case, error) {
	kind, _, err := record.Peek(line)
	if err != nil {
		return nil, err
	}
	if kind != record.KindCase {
		return nil, fmt.Errorf("a %q record: cliff-refine reads %q records", kind, record.KindCase)
	}
	r, err := record.Decode(line)
	if err != nil {
		return nil, err
	}
	return r.(*record.Case), nil
}

// refine refines one case and measures it; where names it in messages.
func (s *session) refine(ctx context.Context, c *record.Case, where string) error {
	if err := refine.Case(c, s.opts); err != nil {
		return err
	}
	c.Stamp()
	if s.survival != nil {
		v, err := s.survival.Measure(ctx, c.CLIF)
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			// Cranelift rejecting or crashing on a refined case is worth
			// knowing, but survival is a measurement: the stream goes on.
			fmt.Fprintf(s.log, "cliff-refine: %s: %v\n", where, err)
		default:
			c.Metrics.Survival = &v
		}
	}
	s.summary.Add(c.Metrics)
	return nil
}

// checkTarget fails unless the driver knows target's architecture, so
// that a misspelt --survival stops the run instead of failing every case.
func checkTarget(ctx context.Context, client *driver.Client, target string) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	v, err := client.Version(ctx)
	if err != nil {
		return fmt.Errorf("--survival: %w", err)
	}
	arch, _, _ := strings.Cut(target, " ")
	if !slices.Contains(v.Targets, arch) {
		return fmt.Errorf("--survival: unknown target %q (the driver knows %s)", arch, strings.Join(v.Targets, ", "))
	}
	return nil
}
