package reducetest

import (
	"fmt"

	"cliff/lib/gen"
	"cliff/lib/profile"
	"cliff/lib/record"
	"cliff/lib/reduce"
	"cliff/lib/refine"
)

// guarded are cliff-refine's passes but prune: the models (Checked) want
// every division guarded, as the cases were before pruning existed.
var guarded = func() []refine.Pass {
	passes, err := refine.Select([]string{"decoy", "merge", "operands", "sink"})
	if err != nil {
		panic(err)
	}
	return passes
}()

// Generated returns the first case of cliff-gen's stream for seed (compat
// profile, no mask, the given depth), refined as cliff-refine does but
// without pruning its guards, on
// which the shape shows a failure with the given configurations, looking
// at up to limit cases.
func Generated(seed uint64, depth, limit int, configs []record.Config, shape Shape) (*reduce.Candidate, error) {
	p, err := profile.Load("compat")
	if err != nil {
		return nil, err
	}
	g, err := gen.New(gen.DefaultOptions(p, seed, depth))
	if err != nil {
		return nil, err
	}
	for i := range limit {
		c, _, err := g.Case(uint64(i))
		if err != nil {
			return nil, err
		}
		if err := refine.Case(c, refine.Options{Passes: guarded}); err != nil {
			return nil, err
		}
		cand, err := reduce.NewCandidate(c, configs)
		if err != nil {
			return nil, err
		}
		if shape(cand) != "" {
			return cand, nil
		}
	}
	return nil, fmt.Errorf("no case of seed %d among the first %d has what the test wants", seed, limit)
}
