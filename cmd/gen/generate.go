package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"cliff/lib/driver"
	"cliff/lib/gen"
	"cliff/lib/ir"
	"cliff/lib/jsonl"
	"cliff/lib/metrics"
	"cliff/lib/profile"
	"cliff/lib/record"
	"cliff/lib/refine"
	"cliff/lib/verify"
)

// config is the command line, checked by generate.
type config struct {
	seed, start              uint64
	count                    int
	profile                  string
	depth, funcs, inputs     int
	mutation                 float64
	corpus, mask             string
	portable, crashOnly      bool
	features                 string
	enumerate, verify, stats bool
	refine                   bool
	survival, driver         string
	output                   string
	log                      io.Writer
	ctx                      context.Context // cancelled by SIGINT or SIGTERM: stop after the case at hand
}

// survivalTimeout bounds one optimize request to the driver.
const survivalTimeout = 30 * time.Second

func generate(cfg config) error {
	prof, err := loadProfile(cfg)
	if err != nil {
		return err
	}
	opts := gen.Options{
		Seed: cfg.seed, Profile: prof, ProfileName: cfg.profile, Depth: cfg.depth, Funcs: cfg.funcs,
		Mutation: cfg.mutation, Inputs: cfg.inputs, CrashOnly: cfg.crashOnly,
		Record: record.GenOptions{Mask: cfg.mask, Portable: cfg.portable},
		Reuse:  true, // write finishes each case before the next
	}
	if opts.Features, err = gen.ParseFeatures(cfg.features); err != nil {
		return fmt.Errorf("--features: %w", err)
	}
	if cfg.corpus != "" {
		if opts.Corpus, err = gen.LoadCorpus(cfg.corpus); err != nil {
			return fmt.Errorf("--corpus: %w", err)
		}
		opts.Record.Corpus, opts.Record.CorpusHash = cfg.corpus, opts.Corpus.Hash
		if cfg.stats {
			forbidden, byOperand := opts.Corpus.Forbidden(prof)
			fmt.Fprintf(cfg.log, "cliff-gen: corpus %s: %d snippets, %d with instructions the profile forbids as written (%d by an operand type), changed to allowed ones when used\n",
				cfg.corpus, opts.Corpus.Len(), forbidden, byOperand)
		}
	}
	g, err := gen.New(opts)
	if err != nil {
		return err
	}
	var surv *metrics.Survival
	if cfg.survival != "" {
		path := cfg.driver
		if path == "" {
			if path, err = driver.Find(); err != nil {
				return err
			}
		}
		d := driver.New(path)
		defer d.Close()
		surv = metrics.NewSurvival(d, cfg.survival, survivalTimeout)
	}

	var inputs []string // checked before the output is touched, and never the output
	for _, in := range []string{cfg.corpus, cfg.mask} {
		if in != "" {
			inputs = append(inputs, in)
		}
	}
	w, err := jsonl.Create(cfg.output, inputs...)
	if err != nil {
		return err
	}
	var summary metrics.Summary
	werr := write(g, cfg, w, surv, &summary)
	if err := w.CloseAfter(werr); werr == nil {
		werr = err
	}
	if cfg.stats {
		summary.Print(cfg.log, g.Opcodes())
	}
	return werr
}

func loadProfile(cfg config) (*profile.Profile, error) {
	prof, err := profile.Load(cfg.profile)
	if err != nil {
		return nil, fmt.Errorf("--profile: %w", err)
	}
	if cfg.mask != "" {
		mask, err := profile.ReadMask(cfg.mask)
		if err != nil {
			return nil, fmt.Errorf("--mask: %w", err)
		}
		prof = prof.Without(mask)
	}
	if cfg.portable {
		prof = prof.Portable()
	}
	return prof, nil
}

// write generates and writes the cases one by one; a case that fails the
// verifier stops the run (with the cases before it written).
func write(g *gen.Generator, cfg config, w *jsonl.Writer, surv *metrics.Survival, summary *metrics.Summary) error {
	finish := func(c *record.Case, mod *ir.Module, index uint64) error {
		if cfg.ctx.Err() != nil {
			return context.Cause(cfg.ctx)
		}
		if cfg.refine && !cfg.enumerate {
			names, err := refine.Module(mod, c.Seed, c.Options.Index, refine.Options{Passes: refine.Passes()})
			if err != nil {
				return fmt.Errorf("case %s: %w", c.ID, err)
			}
			if err := gen.SetCLIF(c, mod); err != nil {
				return err
			}
			c.Refined = names
		}
		if cfg.verify {
			if errs := verify.Module(mod); len(errs) > 0 {
				return fmt.Errorf("case %d (seed %d) fails cliff's verifier, a cliff-gen bug: %v\n%s", index, cfg.seed, errs, c.CLIF)
			}
		}
		c.Metrics = metrics.Of(mod)
		if surv != nil {
			s, err := surv.Measure(cfg.ctx, c.CLIF)
			if err != nil {
				return fmt.Errorf("case %s: %w", c.ID, err)
			}
			c.Metrics.Survival = &s
		}
		summary.Add(c.Metrics)
		return w.Write(c)
	}
	if cfg.enumerate {
		n := uint64(0)
		skipped, err := g.Enumerate(func(c *record.Case, mod *ir.Module) error {
			n++
			return finish(c, mod, n-1)
		})
		fmt.Fprintf(cfg.log, "cliff-gen: enumerated %d opcode-type combinations; %d skipped (operand or result types that cannot be params or returns)\n", n, skipped)
		return err
	}
	for i := 0; cfg.count == 0 || i < cfg.count; i++ {
		index := cfg.start + uint64(i)
		caseOf := g.Case
		if cfg.refine {
			caseOf = g.Unprinted // printed once refined
		}
		c, mod, err := caseOf(index)
		if err != nil {
			return err
		}
		if err := finish(c, mod, index); err != nil {
			return err
		}
	}
	return nil
}

func listFeatures(w io.Writer) {
	names := gen.FeatureNames()
	sort.Strings(names)
	fmt.Fprintln(w, strings.Join(names, "\n"))
}
