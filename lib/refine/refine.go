package refine

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"cliff/lib/ir"
	"cliff/lib/metrics"
	"cliff/lib/printer"
	"cliff/lib/profile"
	"cliff/lib/prune"
	"cliff/lib/record"
	"cliff/lib/verify"
)

// A Pass is one refinement: a rewrite of a function that keeps it valid
// and free of undefined behaviour (the rules of lib/ub).
type Pass struct {
	Name string // as --passes, --no-NAME and Case.Refined spell it
	Doc  string // one line, for --help
	// KeepsResults says whether the refined case computes what the input
	// did on every input (decoy, merge); operands and sink change results.
	KeepsResults bool
	// keepsCFG says whether the pass leaves the CFG and the dominator tree
	// it was handed valid: no branch target changed, no instruction moved
	// or added, or the pass brought them up to date (decoy splits blocks
	// with CFG.SplitBlock, or marks them stale); keepsUses whether it keeps
	// the use counts it was handed up to date (see analyses).
	keepsCFG  bool
	keepsUses bool
	run       func(f *ir.Function, r *rng, a *analyses) // nil: a case-level step (prune)
}

// table is every pass, in the order they run: decoy first, so that merge
// joins the values of its copies with the real ones; merge before
// operands, whose block-param pool holds merge's new params; sink after
// them, so that it anchors whatever the others left dead; prune last, as
// it holds only for the code as it finally is. prune is a step of the
// case, not of a function (its run is nil): Case and Prune run it.
var table = []Pass{
	{Name: "decoy", Doc: "branch on an opaque always-true condition around copies of existing blocks (never run)", KeepsResults: true, keepsCFG: true, run: decoy},
	{Name: "merge", Doc: "give join blocks params that carry the values of each incoming arm past the join", KeepsResults: true, keepsCFG: true, keepsUses: true, run: merge},
	{Name: "operands", Doc: "rebind free operands to the most recent dominating value of their type from a weighted pool", keepsCFG: true, keepsUses: true, run: operands},
	{Name: "sink", Doc: "fold every dead value into an accumulator threaded to the function's results", run: sink},
	{Name: PruneStep, Doc: "drop the guards that never fire on the case's inputs on the reference (cases whose swarm has prune on)", KeepsResults: true},
}

// Passes returns every pass in table (run) order.
func Passes() []Pass { return append([]Pass(nil), table...) }

// Select returns the passes named, in table order whatever the order of
// names: passes have one order by design (see table), so an ablation that
// switches some off compares like with like. An unknown or repeated name is
// an error.
func Select(names []string) ([]Pass, error) {
	want := make(map[string]bool, len(names))
	for _, n := range names {
		if want[n] {
			return nil, fmt.Errorf("pass %q named twice", n)
		}
		want[n] = true
	}
	var out []Pass
	for _, p := range table {
		if want[p.Name] {
			out = append(out, p)
			delete(want, p.Name)
		}
	}
	for _, n := range names {
		if want[n] {
			return nil, fmt.Errorf("unknown pass %q (passes: %s)", n, strings.Join(Names(table), ", "))
		}
	}
	return out, nil
}

// Names returns the names of passes.
func Names(passes []Pass) []string {
	out := make([]string, len(passes))
	for i, p := range passes {
		out[i] = p.Name
	}
	return out
}

// A PassError is a pass that left a function the verifier rejects (found
// by VerifyEach), or an instruction Options.Mask matches: a bug in the
// pass.
type PassError struct {
	Pass   string
	Errs   verify.Errors
	Masked error // the masked instruction, when that is the problem
}

func (e *PassError) Error() string {
	if e.Masked != nil {
		return fmt.Sprintf("pass %s made a masked instruction: %v", e.Pass, e.Masked)
	}
	return fmt.Sprintf("pass %s produced invalid CLIF:\n%s", e.Pass, e.Errs.Error())
}

// An InputError is a case whose CLIF does not parse, or (with VerifyEach)
// does not verify before any pass ran.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// Options say how to refine.
type Options struct {
	Passes []Pass
	// VerifyEach verifies the input and the module after every pass and
	// stops at the first problem.
	VerifyEach bool
	// Mask holds the operand-producer mask entries that apply to the
	// case (its profile's Patterns): a rebinding or a copy that would
	// make an instruction one of them matches is not made, and a pass
	// that leaves one anyway is a PassError. nil masks nothing.
	Mask *profile.Patterns
	// Pointer is the case's address type, for the verifier: i32 on
	// pulley32; the zero Type means i64.
	Pointer ir.Type
	// Profile is the case's profile: a pass makes no instruction it does
	// not allow where it has a choice (sink folds an i128 with iadd where
	// the target has no bxor.i128, as Pulley). nil allows everything.
	Profile *profile.Profile
}

// verifyOptions are the verifier's options for the case's target.
func (o Options) verifyOptions() verify.Options {
	opts := verify.DefaultOptions()
	if o.Pointer != ir.Invalid {
		opts.PointerType = o.Pointer
	}
	return opts
}

// Module applies the passes to every function of mod, drawing random
// choices from streams derived from seed and index (a case's Seed and
// Options.Index), and returns the names of the passes applied. The
// case-level step prune is Prune's.
func Module(mod *ir.Module, seed, index uint64, opts Options) ([]string, error) {
	s := scratchPool.Get().(*scratch)
	defer scratchPool.Put(s)
	return refineModule(mod, seed, index, opts, maskEachPass, s)
}

// When the mask is checked: after each pass, which names the pass that
// broke it, or once after the last, which costs a tenth as much (the
// check reads every instruction) and is enough when the case can be
// refined again from its text to find the pass.
type maskCheck bool

const (
	maskEachPass maskCheck = true
	maskAtEnd    maskCheck = false
)

// errMaskedAtEnd is runPasses's answer when the check at the end found a
// masked instruction: some pass made it.
var errMaskedAtEnd = errors.New("a pass made a masked instruction")

// refineModule is Module in the scratch memory s.
func refineModule(mod *ir.Module, seed, index uint64, opts Options, check maskCheck, s *scratch) ([]string, error) {
	if opts.VerifyEach {
		if errs := verify.ModuleWith(mod, opts.verifyOptions()); len(errs) > 0 {
			return nil, &InputError{fmt.Errorf("input does not verify:\n%s", errs.Error())}
		}
	}
	if err := runPasses(mod, seed, index, opts, check, s); err != nil {
		return nil, err
	}
	var names []string
	for _, p := range opts.Passes {
		if p.run != nil {
			names = append(names, p.Name)
		}
	}
	return names, nil
}

// runPasses applies opts.Passes to every function of mod, one pass after
// the other, in the scratch memory s; with VerifyEach, it verifies the
// module after each pass and stops at the first problem. With a Mask,
// every instruction is checked against it after each pass, or after the
// last (check).
func runPasses(mod *ir.Module, seed, index uint64, opts Options, check maskCheck, s *scratch) error {
	cache := s.analysesOf(mod.Funcs)
	for i := range cache {
		cache[i].mask = opts.Mask
		cache[i].prof = opts.Profile
	}
	for k := range opts.Passes {
		p := &opts.Passes[k]
		if p.run == nil {
			continue
		}
		for i, f := range mod.Funcs {
			s.rng.seed(seed, index, p.Name, i)
			p.run(f, &s.rng, &cache[i])
			cache[i].forget(p)
			if check == maskEachPass {
				if err := opts.Mask.CheckFunc(f); err != nil {
					return &PassError{Pass: p.Name, Masked: err}
				}
			}
		}
		if opts.VerifyEach {
			if errs := verify.ModuleWith(mod, opts.verifyOptions()); len(errs) > 0 {
				return &PassError{Pass: p.Name, Errs: errs}
			}
		}
	}
	if check == maskAtEnd {
		for _, f := range mod.Funcs {
			if opts.Mask.CheckFunc(f) != nil {
				return errMaskedAtEnd
			}
		}
	}
	return nil
}

// Case refines a case record in place: its CLIF, Refined (the passes are
// appended: a case refined twice lists both runs) and Metrics (recomputed;
// Survival is cleared, as it measured the old CLIF). Results are dropped
// when the CLIF changes: they are the outcomes of the old code, and kept
// they would be judged against the new code's (cliff-diff would call the
// case divergent). The case's IR is built in the memory of the cases
// before (see caseMemory).
func Case(c *record.Case, opts Options) error {
	_, err := CaseCounts(c, opts)
	return err
}

// CaseCounts is Case, and says what its prune step did (nothing when it
// did not run: see Prune).
func CaseCounts(c *record.Case, opts Options) (prune.Counts, error) {
	m := casePool.Get().(*caseMemory)
	defer casePool.Put(m)
	return m.refineCase(c, opts)
}

// refineCase is Case in m.
func (m *caseMemory) refineCase(c *record.Case, opts Options) (prune.Counts, error) {
	mod, err := m.parser.ParseModuleString("clif", c.CLIF)
	if err != nil {
		return prune.Counts{}, &InputError{err}
	}
	if err := checkNotPruned(mod); err != nil {
		return prune.Counts{}, err
	}
	m.scratch.recycle()
	names, err := refineModule(mod, c.Seed, c.Options.Index, opts, maskAtEnd, &m.scratch)
	// again refines the case afresh from its CLIF, checking the mask
	// after each pass.
	again := func() error {
		if mod, err = m.parser.ParseModuleString("clif", c.CLIF); err != nil {
			return &InputError{err}
		}
		m.scratch.recycle()
		names, err = refineModule(mod, c.Seed, c.Options.Index, opts, maskEachPass, &m.scratch)
		return nil
	}
	if err == errMaskedAtEnd { // again, to learn which pass
		if ierr := again(); ierr != nil {
			return prune.Counts{}, ierr
		}
	}
	// A pass that makes an instruction of a masked shape (sink folding a
	// dead value through a bitcast that a pattern names, say) is left
	// out and the case refined again from its CLIF without it: the mask
	// holds, and one pass's bad luck does not cost the case.
	for pe := (*PassError)(nil); errors.As(err, &pe) && pe.Masked != nil; {
		opts.Passes = slices.DeleteFunc(slices.Clone(opts.Passes), func(p Pass) bool { return p.Name == pe.Pass })
		if ierr := again(); ierr != nil {
			return prune.Counts{}, ierr
		}
	}
	if err != nil {
		return prune.Counts{}, err
	}
	pruned, counts, err := Prune(mod, c, opts)
	if err != nil {
		return counts, err
	}
	if pruned {
		names = append(names, PruneStep)
	}
	refined := printer.Options{Compact: true}.ModuleString(mod) // as cliff-gen prints cases
	if refined != c.CLIF {
		c.Results = nil
	}
	c.CLIF = refined
	c.Refined = append(c.Refined, names...)
	c.Metrics = metrics.Of(mod)
	return counts, nil
}
