// Package genrun is cliff-gen's engine: it loads the profile (with a mask
// and --portable applied) and the corpus, generates a run of cases with
// lib/gen, optionally refines them in the process (lib/refine), checks
// each with cliff's verifier, measures it (lib/metrics) and writes it as
// a case record. cmd/gen is its flags.
//
// It is a package of its own because it joins lib/gen and lib/refine,
// whose tests import each other.
package genrun

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"cliff/lib/driver"
	"cliff/lib/gen"
	"cliff/lib/ir"
	"cliff/lib/jsonl"
	"cliff/lib/metrics"
	"cliff/lib/parents"
	"cliff/lib/profile"
	"cliff/lib/record"
	"cliff/lib/refine"
	"cliff/lib/verify"
	"cliff/lib/weights"
)

// Options is a cliff-gen run, as its flags state it.
type Options struct {
	Seed, Start          uint64
	Count                int // cases to write; 0 has no end
	Profile              string
	Depth, Funcs, Inputs int
	Mutation             float64
	Corpus, Mask         string // paths (Corpus: FILE[,FILE...]); "" for none
	Weights              string // the --weights file (lib/weights); "" for none
	Crossover            string // crossover's function corpus; "" for none
	Portable, CrashOnly  bool
	Features             string // the --features override, unparsed
	Enumerate            bool   // one minimal case per opcode and type instead
	All                  bool   // with Enumerate: the census, the target's whole universe (lib/profile/universe)
	Constants            bool   // with All: each combination's constant form (gen.CensusConstCase)
	Verify               bool   // check every case with cliff's verifier
	Stats                bool   // print a summary to Log at the end
	Refine               bool   // apply every refine pass in the process
	Survival             string // measure survival on this target; "" does not
	Driver               string // cliff-driver's path for Survival; "" finds it
	// Cranelift are the versions the cases are for (lib/cranelift's
	// VersionsOf): only opcodes each knows are generated.
	Cranelift []string
	Output    string // "-" is stdout
	Log       io.Writer
}

// survivalTimeout bounds one optimize request to the driver.
const survivalTimeout = 30 * time.Second

// Run writes the cases of opts. Cancelling ctx (SIGINT, SIGTERM) stops it
// after the case at hand, with the cases before written.
func Run(ctx context.Context, opts Options) error {
	if opts.All && (!opts.Enumerate || opts.Profile == profile.CompatName) {
		return fmt.Errorf("--all: a census of one target's universe: give --enumerate and a target --profile (%v), not %s", profile.Arches, opts.Profile)
	}
	prof, err := loadProfile(opts)
	if err != nil {
		return err
	}
	gopts := gen.Options{
		Seed: opts.Seed, Profile: prof, ProfileName: opts.Profile, Depth: opts.Depth, Funcs: opts.Funcs,
		Mutation: opts.Mutation, Inputs: opts.Inputs, CrashOnly: opts.CrashOnly,
		Record: record.GenOptions{Mask: opts.Mask, Portable: opts.Portable, Cranelift: strings.Join(opts.Cranelift, ",")},
		Reuse:  true, // write finishes each case before the next
	}
	if gopts.Features, err = gen.ParseFeatures(opts.Features); err != nil {
		return fmt.Errorf("--features: %w", err)
	}
	if opts.Corpus != "" {
		if gopts.Corpus, err = gen.LoadCorpus(opts.Corpus); err != nil {
			return fmt.Errorf("--corpus: %w", err)
		}
		gopts.Record.Corpus, gopts.Record.CorpusHash = opts.Corpus, gopts.Corpus.Hash
		if opts.Stats {
			forbidden, byOperand := gopts.Corpus.Forbidden(prof)
			fmt.Fprintf(opts.Log, "cliff-gen: corpus %s: %d snippets, %d with instructions the profile forbids as written (%d by an operand type), changed to allowed ones when used\n",
				opts.Corpus, gopts.Corpus.Len(), forbidden, byOperand)
		}
	}
	if opts.Weights != "" {
		wf, err := weights.Load(opts.Weights)
		if err != nil {
			return fmt.Errorf("--weights: %w", err)
		}
		gopts.Weights = wf.Weights
		gopts.Record.Weights, gopts.Record.WeightsHash = wf.Path, wf.Hash
	}
	if opts.Crossover != "" {
		if gopts.Parents, err = loadParents(opts.Crossover); err != nil {
			return fmt.Errorf("--crossover: %w", err)
		}
		gopts.Record.Crossover, gopts.Record.CrossoverHash = opts.Crossover, gopts.Parents.Hash
		if opts.Stats {
			fmt.Fprintf(opts.Log, "cliff-gen: crossover %s: %d of %d functions can be parents%s\n",
				opts.Crossover, gopts.Parents.Len(), gopts.Parents.Read, gopts.Parents.RefusedSummary())
		}
	}
	g, err := gen.New(gopts)
	if err != nil {
		return err
	}
	var surv *metrics.Survival
	if opts.Survival != "" {
		path, err := driver.Resolve(opts.Driver)
		if err != nil {
			return err
		}
		d := driver.New(path)
		defer d.Close()
		surv = metrics.NewSurvival(d, opts.Survival, survivalTimeout)
	}

	var inputs []string // checked before the output is touched, and never the output
	inputs = append(inputs, gen.SplitCorpusPaths(opts.Corpus)...)
	for _, in := range []string{opts.Mask, opts.Weights, opts.Crossover} {
		if in != "" {
			inputs = append(inputs, in)
		}
	}
	w, err := jsonl.Create(opts.Output, inputs...)
	if err != nil {
		return err
	}
	var summary metrics.Summary
	ropts := refine.Options{Passes: refine.Passes(), Mask: prof.Patterns(), Pointer: prof.Pointer, Profile: prof}
	werr := write(ctx, g, opts, ropts, w, surv, &summary)
	if err := w.CloseAfter(werr); werr == nil {
		werr = err
	}
	if opts.Stats {
		summary.Print(opts.Log, g.Opcodes())
	}
	return werr
}

// loadParents reads a crossover corpus (lib/parents) into the parents
// lib/gen keeps.
func loadParents(path string) (*gen.Parents, error) {
	c, err := parents.Load(path)
	if err != nil {
		return nil, err
	}
	funcs := make([]gen.Parent, len(c.Funcs))
	for i, f := range c.Funcs {
		funcs[i] = gen.Parent(f)
	}
	return gen.NewParents(c.Path, c.Hash, c.Read, c.Refused, funcs)
}

func loadProfile(opts Options) (*profile.Profile, error) {
	prof, err := profile.Load(opts.Profile)
	if err != nil {
		return nil, fmt.Errorf("--profile: %w", err)
	}
	if opts.Mask != "" {
		mask, err := profile.ReadMask(opts.Mask)
		if err != nil {
			return nil, fmt.Errorf("--mask: %w", err)
		}
		prof = prof.Without(mask)
	}
	if opts.Portable {
		prof = prof.Portable()
	}
	return prof.ForCranelift(opts.Cranelift), nil
}

// write generates and writes the cases one by one; a case that fails the
// verifier stops the run (with the cases before it written).
func write(ctx context.Context, g *gen.Generator, opts Options, ropts refine.Options, w *jsonl.Writer, surv *metrics.Survival, summary *metrics.Summary) error {
	finish := func(c *record.Case, mod *ir.Module, index uint64) error {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		if opts.Refine && !opts.Enumerate {
			names, err := refine.Module(mod, c.Seed, c.Options.Index, ropts)
			if err != nil {
				return fmt.Errorf("case %s: %w", c.ID, err)
			}
			ran, _, err := refine.Prune(mod, c, ropts)
			if err != nil {
				return fmt.Errorf("case %s: %w", c.ID, err)
			}
			if ran {
				names = append(names, refine.PruneStep)
			}
			if err := gen.SetCLIF(c, mod); err != nil {
				return err
			}
			c.Refined = names
		}
		if opts.Verify {
			if errs := verify.ModuleWith(mod, verify.Options{PointerType: ropts.Pointer}); len(errs) > 0 {
				return fmt.Errorf("case %d (seed %d) fails cliff's verifier, a cliff-gen bug: %v\n%s", index, opts.Seed, errs, c.CLIF)
			}
			for _, f := range mod.Funcs {
				if err := ropts.Mask.CheckFunc(f); err != nil {
					return fmt.Errorf("case %d (seed %d) holds a masked instruction, a cliff-gen bug: %v\n%s", index, opts.Seed, err, c.CLIF)
				}
			}
		}
		c.Metrics = metrics.Of(mod)
		if surv != nil {
			s, err := surv.Measure(ctx, c.CLIF)
			if err != nil {
				return fmt.Errorf("case %s: %w", c.ID, err)
			}
			c.Metrics.Survival = &s
		}
		summary.Add(c.Metrics)
		return w.Write(c)
	}
	if opts.Enumerate && opts.All {
		return census(ctx, opts, w, summary)
	}
	if opts.Enumerate {
		n := uint64(0)
		skipped, err := g.Enumerate(func(c *record.Case, mod *ir.Module) error {
			n++
			return finish(c, mod, n-1)
		})
		fmt.Fprintf(opts.Log, "cliff-gen: enumerated %d opcode-type combinations; %d skipped (operand or result types that cannot be params or returns)\n", n, skipped)
		return err
	}
	for i := 0; opts.Count == 0 || i < opts.Count; i++ {
		index := opts.Start + uint64(i)
		caseOf := g.Case
		if opts.Refine {
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
