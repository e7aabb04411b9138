package reduce

import (
	"context"
	"fmt"
	"slices"

	"cliff/lib/iredit"
	"cliff/lib/prune"
	"cliff/lib/record"
	"cliff/lib/refinterp"
	"cliff/lib/ub"
	"cliff/lib/verify"
)

// A Tester asks the oracle whether candidates keep the failure signature
// Want, and makes the variants it asks about: each variant is printed,
// parsed again and verified, and one that fails is never sent. It counts
// everything, and remembers answers, so that a candidate met twice costs
// one oracle call.
type Tester struct {
	Oracle Oracle
	Want   string // the signature to keep: never ""
	// Batch is how many candidates go to the oracle in one call (at
	// least 1). Larger batches cost fewer round-trips but may check
	// candidates whose answer is not needed.
	Batch int
	Stats Stats
	// LastInvalid is the verifier's complaint about the last variant that
	// failed verification, for debugging an edit.
	LastInvalid error
	// Passing, when set, gives the configurations on which a candidate
	// must show no failure at all: those that passed on the original case
	// and will be the reduced file's passing targets, but are not among
	// the candidate's Configs (a compile failure is reduced on its failing
	// configuration alone). A candidate that shows Want is run on them
	// too, and holds only when their signature is "": a reduction keeps
	// the failing set as it was, and the settings a passing configuration
	// needs (enable_llvm_abi_extensions for i128 params on x86_64) stay.
	Passing func(c *Candidate) []record.Config

	cache map[string]bool
}

// Stats count a Tester's work.
type Stats struct {
	Calls    int `json:"calls"`    // candidates the oracle checked
	Batches  int `json:"batches"`  // oracle calls
	Cached   int `json:"cached"`   // candidates answered from the cache
	Invalid  int `json:"invalid"`  // variants that failed to verify: never sent
	Accepted int `json:"accepted"` // candidates that kept the signature
	// Broke counts candidates that kept the signature but failed on a
	// configuration of Passing.
	Broke int `json:"broke,omitempty"`
}

// NewTester returns a Tester keeping the signature want.
func NewTester(o Oracle, want string) *Tester {
	return &Tester{Oracle: o, Want: want, Batch: 1, cache: map[string]bool{}}
}

// Holds reports, for each candidate, whether it shows the signature Want.
// A nil candidate (a variant that could not be made) does not.
func (t *Tester) Holds(ctx context.Context, cands []*Candidate) ([]bool, error) {
	if t.Want == "" {
		return nil, fmt.Errorf("reduce: the tester has no signature to keep")
	}
	if t.cache == nil {
		t.cache = map[string]bool{}
	}
	out := make([]bool, len(cands))
	var ask []*Candidate
	var at []int
	for k, c := range cands {
		if c == nil {
			continue
		}
		if ok, seen := t.cache[c.key()]; seen {
			t.Stats.Cached++
			out[k] = ok
			continue
		}
		ask = append(ask, c)
		at = append(at, k)
	}
	batch := max(t.Batch, 1)
	for lo := 0; lo < len(ask); lo += batch {
		hi := min(lo+batch, len(ask))
		sigs, err := t.Oracle.Signatures(ctx, ask[lo:hi])
		if err != nil {
			return nil, fmt.Errorf("reduce: oracle: %w", err)
		}
		if len(sigs) != hi-lo {
			return nil, fmt.Errorf("reduce: oracle answered %d of %d candidates", len(sigs), hi-lo)
		}
		t.Stats.Batches++
		t.Stats.Calls += hi - lo
		oks := make([]bool, len(sigs))
		for j, s := range sigs {
			oks[j] = s == t.Want
		}
		if err := t.checkPassing(ctx, ask[lo:hi], oks); err != nil {
			return nil, err
		}
		for j, ok := range oks {
			t.cache[ask[lo+j].key()] = ok
			out[at[lo+j]] = ok
			if ok {
				t.Stats.Accepted++
			}
		}
	}
	return out, nil
}

// checkPassing runs the candidates that hold on their Passing
// configurations, in one oracle call, and clears oks[j] for each that
// fails on one of them.
func (t *Tester) checkPassing(ctx context.Context, cands []*Candidate, oks []bool) error {
	if t.Passing == nil {
		return nil
	}
	var ask []*Candidate
	var at []int
	for j, c := range cands {
		if !oks[j] {
			continue
		}
		cfgs := t.Passing(c)
		if len(cfgs) == 0 {
			continue
		}
		p := c.clone()
		p.Configs = cloneConfigs(cfgs)
		ask = append(ask, p)
		at = append(at, j)
	}
	if len(ask) == 0 {
		return nil
	}
	sigs, err := t.Oracle.Signatures(ctx, ask)
	if err != nil {
		return fmt.Errorf("reduce: oracle on the passing configurations: %w", err)
	}
	if len(sigs) != len(ask) {
		return fmt.Errorf("reduce: oracle answered %d of %d candidates", len(sigs), len(ask))
	}
	t.Stats.Batches++
	t.Stats.Calls += len(ask)
	for k, s := range sigs {
		if s != "" {
			oks[at[k]] = false
			t.Stats.Broke++
		}
	}
	return nil
}

// Holds1 is Holds of one candidate.
func (t *Tester) Holds1(ctx context.Context, c *Candidate) (bool, error) {
	ok, err := t.Holds(ctx, []*Candidate{c})
	if err != nil {
		return false, err
	}
	return ok[0], nil
}

// An Edit changes a variant in place: its Module (a fresh copy of the
// base's) and its inputs, settings and configurations. It returns false
// when it cannot be made on this base.
type Edit func(v *Candidate) bool

// Variant applies edits to a copy of base, cleans the module up
// (iredit.Cleanup), and returns the result printed, parsed and verified;
// base itself when the edits change nothing; nil when an edit cannot be
// made, a loop lost its exit (the case would run forever), or the variant
// does not verify (counted in Stats.Invalid).
func (t *Tester) Variant(base *Candidate, edits ...Edit) *Candidate {
	m, err := iredit.Parse(base.CLIF)
	if err != nil {
		t.invalid(err)
		return nil
	}
	v := base.clone()
	v.Module = m
	for _, e := range edits {
		if !e(v) {
			return nil
		}
	}
	iredit.Cleanup(v.Module)
	for _, f := range v.Module.Funcs {
		if !iredit.Terminates(f) {
			return nil // a loop left without exit would run until the timeout
		}
	}
	v.CLIF = iredit.Text(v.Module)
	if v.key() == base.key() {
		return base // the edits change nothing: base's answer is the variant's
	}
	if v.Module, err = iredit.Parse(v.CLIF); err != nil {
		t.invalid(err)
		return nil
	}
	if v.Module.Func(v.Entry) == nil {
		return nil
	}
	settings := slices.Clone(v.Settings)
	for _, c := range v.Configs {
		settings = append(settings, c.Settings...)
	}
	if errs := verify.ModuleWith(v.Module, verify.OptionsForSettings(settings)); len(errs) > 0 {
		t.invalid(errs)
		return nil
	}
	for _, f := range v.Module.Funcs {
		if _, ok := ub.ReturnedAddress(f); ok {
			// Its value differs between targets by nature: a reduction
			// that "keeps" a divergence this way has slid to a non-bug
			// (seen: a divergence reduced to `return func_addr`).
			return nil
		}
	}
	if prune.Pruned(v.Module) && !prunedStillHolds(v) {
		// A pruned case's operations are safe only for its inputs, and
		// an edit upstream of one (a constant, an input value) can make
		// it trap, which the oracle sees, or feed a NaN to a float whose
		// bits show, which it may not: the reference re-checks it.
		return nil
	}
	return v
}

// prunedStillHolds runs a pruned candidate on the reference (lib/prune's
// Holds): every input answers, and no NaN reaches a pruned float operand.
func prunedStillHolds(v *Candidate) bool {
	entry := iredit.EntryFunc(v.Module, v.Entry)
	if entry == nil {
		return false
	}
	inputs, err := prune.Inputs(entry, v.Inputs)
	return err == nil && prune.Holds(v.Module, entry.Name, inputs, refinterp.DefaultLimits)
}

func (t *Tester) invalid(err error) {
	t.Stats.Invalid++
	t.LastInvalid = err
}
