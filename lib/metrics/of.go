package metrics

import (
	"cliff/lib/analysis"
	"cliff/lib/ir"
	"cliff/lib/record"
)

// numOpcodes bounds the opcode numbers, so that Of counts into a slice.
var numOpcodes = len(ir.Opcodes()) + 1

// Of returns the figures of mod. Survival is left nil: measuring it takes
// a driver round trip (see Survival).
func Of(mod *ir.Module) record.Metrics {
	a := analysis.ComputeModule(mod)
	return record.Metrics{
		Functions:   len(mod.Funcs),
		Blocks:      a.Blocks,
		Insts:       a.Insts,
		Cyclomatic:  a.Cyclomatic,
		DomDepth:    a.DomDepth,
		DefUseDepth: a.DefUseDepth,
		Opcodes:     opcodeCounts(mod, a.Insts),
	}
}

// opcodeCounts counts the opcodes of the instructions analysis counts:
// those its CFG places (each instruction once, at its first listing) in
// reachable blocks; reachable is their number.
//
// Generated modules have no unreachable blocks and no instruction listed
// twice, so the count over the whole layout is the same and needs no second
// CFG. The layout holds every instruction analysis counts, so when the two
// totals agree the multisets agree; otherwise the count is redone with a
// CFG per function.
func opcodeCounts(mod *ir.Module, reachable int) map[string]int {
	counts := make([]int32, numOpcodes)
	total := 0
	for _, f := range mod.Funcs {
		for _, b := range f.Layout {
			if int(b) >= len(f.Blocks) {
				continue
			}
			for _, inst := range f.Blocks[b].Insts {
				if int(inst) < len(f.Insts) {
					countOp(counts, f.Insts[inst].Op)
					total++
				}
			}
		}
	}
	if total != reachable {
		clear(counts)
		for _, f := range mod.Funcs {
			countReachable(counts, f)
		}
	}
	distinct := 0
	for _, n := range counts {
		if n > 0 {
			distinct++
		}
	}
	out := make(map[string]int, distinct)
	for op, n := range counts {
		if n > 0 {
			out[ir.Opcode(op).String()] = int(n)
		}
	}
	return out
}

// countReachable counts the opcodes of f's instructions that analysis
// counts, with f's CFG.
func countReachable(counts []int32, f *ir.Function) {
	c := analysis.NewCFG(f)
	for _, b := range c.RPO() {
		for idx, inst := range f.Blocks[b].Insts {
			if c.InstBlock(inst) == b && c.InstIndex(inst) == idx {
				countOp(counts, f.Insts[inst].Op)
			}
		}
	}
}

// countOp counts op; opcodes outside the table count as OpInvalid, which
// prints as "<bad opcode>".
func countOp(counts []int32, op ir.Opcode) {
	if int(op) >= len(counts) {
		op = ir.OpInvalid
	}
	counts[op]++
}
