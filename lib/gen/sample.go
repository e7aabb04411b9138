package gen

import (
	"cliff/lib/ir"
	"cliff/lib/profile"
	"cliff/lib/record"
)

// Sample returns cases 0 to n-1 of seed 1 with the compat profile and
// cliff-gen's defaults, each with its module (valid for good: Reuse is
// off): the cases the parser, printer and refine benchmarks measure, so
// that their figures compare.
func Sample(n int) ([]*record.Case, []*ir.Module, error) {
	p, err := profile.Load("compat")
	if err != nil {
		return nil, nil, err
	}
	g, err := New(DefaultOptions(p, 1, DefaultDepth))
	if err != nil {
		return nil, nil, err
	}
	cases := make([]*record.Case, n)
	mods := make([]*ir.Module, n)
	for i := range cases {
		if cases[i], mods[i], err = g.Case(uint64(i)); err != nil {
			return nil, nil, err
		}
	}
	return cases, mods, nil
}
