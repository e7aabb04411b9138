package reducetest

import (
	"fmt"

	"cliff/lib/gen"
	"cliff/lib/profile"
	"cliff/lib/record"
	"cliff/lib/reduce"
	"cliff/lib/refine"
)

// Generated returns the first case of cliff-gen's stream for seed (compat
// profile, no mask, the given depth), refined as cliff-refine does, on
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
		if err := refine.Case(c, refine.Options{Passes: refine.Passes()}); err != nil {
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
