package refine

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"cliff/lib/driver"
	"cliff/lib/ir"
	"cliff/lib/jsonl"
	"cliff/lib/metrics"
	"cliff/lib/profile"
	"cliff/lib/prune"
	"cliff/lib/record"
)

// RunOptions is a cliff-refine run, as its flags state it.
type RunOptions struct {
	Options
	Inputs []string // files of case records; none or "-" is stdin
	Output string   // "-" is stdout
	Stats  bool     // print a summary of the refined cases to Log at the end
	// Survival measures each refined case's survival on this target
	// through the driver at Driver ("" finds it), each within Timeout;
	// "" does not.
	Survival string
	Driver   string
	Timeout  time.Duration
	Log      io.Writer
}

// Run refines every case record of opts.Inputs and writes it to
// opts.Output, record by record (cliff-refine). Reading stops at the first
// bad record or failing pass, or when ctx is cancelled (a signal); what
// was refined before is written, and the summary (Stats) covers it.
func Run(ctx context.Context, opts RunOptions) (err error) {
	s := &session{RunOptions: opts}
	if s.Survival != "" {
		path, err := driver.Resolve(s.Driver)
		if err != nil {
			return err
		}
		client := driver.New(path)
		defer client.Close()
		if err := checkTarget(ctx, client, s.Survival); err != nil {
			return err
		}
		s.survival = metrics.NewSurvival(client, s.Survival, s.Timeout)
	}
	w, err := jsonl.Create(s.Output, s.Inputs...)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := w.CloseAfter(err); err == nil {
			err = cerr
		}
	}()
	r := jsonl.OpenAll(s.Inputs)
	defer r.Close()
	if s.Stats {
		defer func() {
			if perr := s.summary.Print(s.Log, nil); err == nil {
				err = perr
			}
			if hasPass(s.Passes, PruneStep) {
				if perr := s.pruned.Print(s.Log); err == nil {
					err = perr
				}
			}
		}()
	}
	// A signal stops it between records, with what is written.
	return jsonl.Each(ctx, r, func(line []byte) error {
		rec, err := record.DecodeKind(line, `cliff-refine reads "case" records`, record.KindCase)
		if err != nil {
			return err
		}
		c := rec.(*record.Case)
		where := fmt.Sprintf("%s: record %d (%s)", r.Name(), r.Record(), c.ID)
		if err := s.refine(ctx, c, where); err != nil {
			return jsonl.ForRecord(c.ID, err)
		}
		if err := w.Write(c); err != nil {
			return jsonl.AsIs(err) // the output's error, not the record's
		}
		return nil
	})
}

// A session is a run under way.
type session struct {
	RunOptions
	summary  metrics.Summary
	pruned   prune.Counts // the prune step's, over the cases
	survival *metrics.Survival
	masks    map[maskKey]*profile.Patterns // read so far
}

type maskKey struct{ profile, path string }

// maskOf returns the operand-producer patterns of the mask c was
// generated with (its options.mask, on the architectures of its
// profile), which refinement must honour as generation did; nil when it
// names none. Each mask file is read once.
func (s *session) maskOf(c *record.Case) (*profile.Patterns, error) {
	if c.Options.Mask == "" {
		return nil, nil
	}
	key := maskKey{c.Options.Profile, c.Options.Mask}
	if m, ok := s.masks[key]; ok {
		return m, nil
	}
	p, err := profile.Load(c.Options.Profile)
	if err != nil {
		return nil, fmt.Errorf("options.profile: %w", err)
	}
	mask, err := profile.ReadMask(c.Options.Mask)
	if err != nil {
		return nil, fmt.Errorf("options.mask: %w", err)
	}
	if s.masks == nil {
		s.masks = map[maskKey]*profile.Patterns{}
	}
	s.masks[key] = p.Without(mask).Patterns()
	return s.masks[key], nil
}

// refine refines one case and measures it; where names it in messages.
func (s *session) refine(ctx context.Context, c *record.Case, where string) error {
	opts := s.Options
	if opts.Mask == nil {
		m, err := s.maskOf(c)
		if err != nil {
			return err
		}
		opts.Mask = m
	}
	if p, err := profile.Load(c.Options.Profile); err == nil {
		// A case of a profile refines within it; one of none (an
		// extracted test file) as it always did.
		if opts.Pointer == ir.Invalid {
			opts.Pointer = p.Pointer
		}
		if opts.Profile == nil {
			opts.Profile = p
		}
	}
	counts, err := CaseCounts(c, opts)
	if err != nil {
		return err
	}
	s.pruned.Add(counts)
	c.Stamp()
	if s.survival != nil {
		v, err := s.survival.Measure(ctx, c.CLIF)
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			// Cranelift rejecting or crashing on a refined case is worth
			// knowing, but survival is a measurement: the stream goes on.
			fmt.Fprintf(s.Log, "cliff-refine: %s: %v\n", where, err)
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
