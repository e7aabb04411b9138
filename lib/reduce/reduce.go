package reduce

import (
	"context"
	"fmt"
	"slices"
)

// Options tune Reduce.
type Options struct {
	// Input is the index of the failing input vector (record.Verdict's
	// Input), tried alone first; nil leaves the inputs to ddmin.
	Input *int
	// MaxRounds bounds the rounds of all passes (0: 30); a round that
	// changes nothing ends reduction earlier, at a fixed point.
	MaxRounds int
}

// Result is what Reduce made and what it cost.
type Result struct {
	Case   *Candidate
	Before int // instructions of the module before
	After  int // and after
	Rounds int // rounds run, the last of which changed nothing
	// Fixed is true when the last round changed nothing (false: MaxRounds
	// stopped it).
	Fixed bool
	// Accepted counts the variants each pass committed.
	Accepted map[string]int
}

// Reduce shrinks c while the tester's oracle keeps giving its signature,
// running the passes in rounds to a fixed point. c itself must show the
// signature; the result is the smallest candidate found (c when nothing
// could go). When a pass fails (the oracle's error, a cancelled or
// expired ctx), the result so far comes with the error.
func Reduce(ctx context.Context, t *Tester, c *Candidate, opts Options) (*Result, error) {
	ok, err := t.Holds1(ctx, c)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("reduce: the case does not show the signature %q", t.Want)
	}
	r := &reducer{t: t, cur: c, accepted: map[string]int{}}
	res := &Result{Before: c.Insts(), Accepted: r.accepted}
	if opts.Input != nil && *opts.Input >= 0 && *opts.Input < len(c.Inputs) && len(c.Inputs) > 1 {
		in := c.Inputs[*opts.Input]
		v := t.Variant(c, func(v *Candidate) bool {
			v.Inputs = v.Inputs[:0]
			v.Inputs = append(v.Inputs, slices.Clone(in))
			return true
		})
		if ok, err := t.Holds1(ctx, v); err != nil {
			return nil, err
		} else if ok && v != c {
			r.cur = v
			r.accepted["inputs"]++
		}
	}
	rounds := opts.MaxRounds
	if rounds <= 0 {
		rounds = 30
	}
	for res.Rounds < rounds {
		res.Rounds++
		changed := false
		for _, p := range passes {
			ch, err := r.run(ctx, p)
			if err != nil {
				// What was reduced so far still shows the signature: the
				// caller may keep it (a time budget that ran out).
				res.Case, res.After = r.cur, r.cur.Insts()
				return res, fmt.Errorf("reduce: pass %s: %w", p.name, err)
			}
			changed = changed || ch
		}
		if !changed {
			res.Fixed = true
			break
		}
	}
	res.Case = r.cur
	res.After = r.cur.Insts()
	return res, nil
}

type reducer struct {
	t        *Tester
	cur      *Candidate
	accepted map[string]int
}

// run applies one pass: its edits in chunks of halving size, all of them
// first, single ones last (ddmin's complement steps, greedy: a chunk that
// holds is committed at once and the edits are planned again on the new
// base); single edits are swept until none holds. It reports whether
// anything was committed.
func (r *reducer) run(ctx context.Context, p pass) (bool, error) {
	edits := p.plan(r.cur)
	changed := false
	chunk := len(edits)
	for chunk >= 1 && len(edits) > 0 {
		progressed := false
		for start := 0; start < len(edits); {
			var vs []*Candidate
			var starts []int
			s := start
			for ; s < len(edits) && len(vs) < max(r.t.Batch, 1); s += chunk {
				vs = append(vs, r.t.Variant(r.cur, edits[s:min(s+chunk, len(edits))]...))
				starts = append(starts, s)
			}
			for j, v := range vs {
				if v != nil && !smaller(v, r.cur) {
					vs[j] = nil // no progress: committing it could cycle
				}
			}
			holds, err := r.t.Holds(ctx, vs)
			if err != nil {
				return changed, err
			}
			k := slices.Index(holds, true)
			if k < 0 {
				start = s
				continue
			}
			r.cur = vs[k]
			r.accepted[p.name]++
			changed, progressed = true, true
			edits = p.plan(r.cur)
			start = starts[k] // the edits before it did not hold at this size
		}
		switch {
		case chunk > 1:
			chunk = (chunk + 1) / 2
		case !progressed:
			chunk = 0 // single edits, none of which holds: done
		}
	}
	return changed, nil
}
