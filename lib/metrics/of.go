package metrics

import (
	"cliff/lib/analysis"
	"cliff/lib/ir"
	"cliff/lib/record"
)

// Of returns the figures of mod. Survival is left nil: measuring it takes
// a driver round trip (see Survival). Opcodes counts the instructions of
// each opcode among those analysis counts (reachable blocks only).
func Of(mod *ir.Module) record.Metrics {
	// Room on the stack for the distinct opcodes of a case (x86_64 cases
	// at depth 10 have up to about 120; more would go to the heap): the
	// map is then the one allocation Of makes.
	var buf [128]analysis.OpcodeCount
	a, counts := analysis.ComputeModuleCounts(mod, buf[:0])
	opcodes := make(map[string]int, len(counts))
	for _, c := range counts {
		opcodes[c.Op.String()] = c.N
	}
	return record.Metrics{
		Functions:   len(mod.Funcs),
		Blocks:      a.Blocks,
		Insts:       a.Insts,
		Cyclomatic:  a.Cyclomatic,
		DomDepth:    a.DomDepth,
		DefUseDepth: a.DefUseDepth,
		Opcodes:     opcodes,
	}
}
