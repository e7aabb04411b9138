package analysis

import (
	"slices"
	"sync"

	"cliff/lib/internal/reuse"
	"cliff/lib/ir"
)

// Metrics are the complexity figures of a function or module, as the
// package documentation defines them. Everything counts reachable blocks
// only.
type Metrics struct {
	Blocks      int      // reachable blocks (N)
	Insts       int      // instructions in them
	Edges       int      // distinct CFG edges between them (E)
	Cyclomatic  int      // E - N + P with P = 1 per function; summed for a module
	DomDepth    int      // dominator tree depth (entry = 0); max for a module
	DefUseDepth int      // def-use chain depth in edges; max for a module
	Opcodes     int      // distinct opcodes
	OpcodeSet   []string // their names, sorted
}

// OpcodeCount is how many of the instructions Metrics counts have one
// opcode.
type OpcodeCount struct {
	Op ir.Opcode // opcodes outside the table count as OpInvalid, "<bad opcode>"
	N  int
}

// Compute returns the metrics of f.
func Compute(f *ir.Function) Metrics {
	return ComputeModule(&ir.Module{Funcs: []*ir.Function{f}})
}

// ComputeModule returns the metrics of a module: Blocks, Insts, Edges and
// Cyclomatic are sums over its functions, DomDepth and DefUseDepth maxima,
// and the opcodes the union.
func ComputeModule(mod *ir.Module) Metrics {
	var buf [128]OpcodeCount // on the stack for most modules
	m, counts := ComputeModuleCounts(mod, buf[:0])
	m.OpcodeSet = make([]string, len(counts)) // never nil: JSON shows []
	for i, c := range counts {
		m.OpcodeSet[i] = c.Op.String()
	}
	slices.Sort(m.OpcodeSet)
	return m
}

// ComputeModuleCounts is ComputeModule for callers that want how many
// instructions have each opcode (lib/metrics records them) rather than
// the sorted names, which would cost them more than the rest of the opcode
// work: it leaves OpcodeSet nil, appends one OpcodeCount per distinct
// opcode to counts, in opcode number order, and returns the extended
// slice. Appending lets a caller count into memory it has, such as an
// array on its stack.
func ComputeModuleCounts(mod *ir.Module, counts []OpcodeCount) (Metrics, []OpcodeCount) {
	s := metricsScratchPool.Get().(*metricsScratch)
	defer metricsScratchPool.Put(s)
	s.startModule()
	var m Metrics
	for _, f := range mod.Funcs {
		fm := s.compute(f)
		m.Blocks += fm.Blocks
		m.Insts += fm.Insts
		m.Edges += fm.Edges
		m.Cyclomatic += fm.Cyclomatic
		m.DomDepth = max(m.DomDepth, fm.DomDepth)
		m.DefUseDepth = max(m.DefUseDepth, fm.DefUseDepth)
	}
	n := len(counts)
	counts = s.appendOpcodeCounts(counts)
	m.Opcodes = len(counts) - n
	return m, counts
}

// AddOpcodes marks in seen the opcode of every instruction in f's reachable
// blocks, the instructions Compute counts.
func AddOpcodes(seen map[ir.Opcode]bool, f *ir.Function) {
	c := NewCFG(f)
	for _, b := range c.rpo {
		for idx, inst := range f.Blocks[b].Insts {
			if c.PlacedAt(inst, b, idx) {
				seen[f.Insts[inst].Op] = true
			}
		}
	}
}

// OpcodeDiversity returns the fraction of the distinct opcodes of profile
// that are in seen: 1 when every profile opcode occurs. An empty profile
// gives 0.
func OpcodeDiversity(seen map[ir.Opcode]bool, profile []ir.Opcode) float64 {
	distinct, covered := 0, 0
	counted := make(map[ir.Opcode]bool, len(profile))
	for _, op := range profile {
		if counted[op] {
			continue
		}
		counted[op] = true
		distinct++
		if seen[op] {
			covered++
		}
	}
	if distinct == 0 {
		return 0
	}
	return float64(covered) / float64(distinct)
}

// metricsScratch is what the metrics are computed with besides their
// result, rebuilt in place for each function: cliff-gen and cliff-refine
// compute the metrics of every case, and allocating these afresh was a
// third of the time.
type metricsScratch struct {
	cfg CFG
	// opcodes[op] counts the module's instructions of opcode op so far.
	opcodes []int32
	dom     DomTree
	// level and pending are walk's tables, by value.
	level, pending []int32
	// depth computes the chain depth of the functions walk cannot.
	depth depthScratch
}

var metricsScratchPool = sync.Pool{New: func() any { return new(metricsScratch) }}

// numOpcodes bounds the opcode numbers: opcodes are counted by number, as
// a map would hash every instruction.
var numOpcodes = len(ir.Opcodes()) + 1

func (s *metricsScratch) startModule() {
	s.opcodes = reuse.Zeroed(s.opcodes, numOpcodes)
}

// appendOpcodeCounts appends the nonzero opcode counts to counts, in
// opcode order.
func (s *metricsScratch) appendOpcodeCounts(counts []OpcodeCount) []OpcodeCount {
	for op, n := range s.opcodes {
		if n > 0 {
			counts = append(counts, OpcodeCount{ir.Opcode(op), int(n)})
		}
	}
	return counts
}

// compute returns f's metrics but the opcodes, which it counts in
// s.opcodes.
func (s *metricsScratch) compute(f *ir.Function) Metrics {
	c := &s.cfg
	c.Recompute(f)
	m := Metrics{
		Blocks: len(c.rpo),
		Edges:  c.reachableEdges,
	}
	if m.Blocks > 0 {
		m.Cyclomatic = m.Edges - m.Blocks + 1
	}
	m.DomDepth = s.domDepth(c)
	insts, depth, tidy := s.walk(f)
	m.Insts, m.DefUseDepth = insts, depth
	if !tidy {
		m.DefUseDepth = s.depth.chainDepth(f, c)
	}
	return m
}

// domDepth returns the depth of c's dominator tree (DomTree.MaxDepth),
// computing in s.dom only the immediate dominators and the depths: the
// metrics ask nothing else, and Recompute derives the children and the
// pre-order intervals too. s.dom is left half done, for the next function.
func (s *metricsScratch) domDepth(c *CFG) int {
	d := &s.dom
	n := len(c.rpo)
	d.cfg, d.idom = c, resized(d.idom, n)
	if n == 0 {
		return 0
	}
	d.computeIdoms(c)
	idom, depth := d.idom, resized(d.depth, n)
	d.depth = depth
	depth[0] = 0
	best := int32(0)
	for k := 1; k < n; k++ {
		depth[k] = depth[idom[k]] + 1
		best = max(best, depth[k])
	}
	return int(best)
}

// walk visits the instructions the metrics count, those of reachable
// blocks at their first listing, in the order that cuts the def-use
// graph's cycles (see the package documentation): blocks in reverse
// post-order, each block's params before its instructions. It returns
// their number and, when f is tidy (below), the def-use chain depth, and
// counts their opcodes.
//
// chainDepth in defuse.go computes the depth of any function, but numbers
// every node first and looks up the definition of every value used, to
// cut the uses of values defined later in the order. Metrics take the
// chain depth of every function of every case, and that was their largest
// cost. A tidy function needs neither: a value's level reads -1 until the
// walk passes its definition, and -1 is what a cut use contributes.
// TestWalkMatchesChainDepth holds walk to chainDepth.
//
// In a tidy function no value is an alias, every result that an
// instruction the walk visits lists says it is that instruction's, and
// every param that a reachable block lists says it is that block's. Then
// a result's level is written only when the walk visits its instruction,
// and a param's only when the walk enters its block; what flows into a
// param from branches earlier in the order waits in pending until then.
// The IR cliff builds is tidy; parsed IR can have aliases, and hand-made
// IR anything.
func (s *metricsScratch) walk(f *ir.Function) (insts, depth int, tidy bool) {
	c := &s.cfg
	// level[v] is the length of the longest def-use path ending at the
	// instruction defining v (for a param, at an instruction whose value
	// flows into it); -1 when no instruction stands behind v (function
	// params, params fed only along retreating edges, values outside
	// reachable blocks) or the walk has not passed v's definition.
	values := f.Values
	level := reuse.Extended(s.level[:0], len(values))
	pending := reuse.Filled(s.pending, len(values), -1)
	s.level, s.pending = level, pending
	tidy = true
	for v := range level {
		level[v] = -1
		if values[v].Kind == ir.DefAlias {
			tidy = false
		}
	}
	// Local copies: the compiler keeps them in registers, not fields it
	// must reload after every store.
	instData, places, opcodes := f.Insts, c.places, s.opcodes
	best := int32(0)
	for k, b := range c.rpo {
		for _, p := range f.Blocks[b].Params {
			if int(p) < len(values) {
				if vd := &values[p]; vd.Kind != ir.DefParam || vd.Block != b {
					tidy = false
				}
				level[p] = pending[p]
			}
		}
		for idx, inst := range f.Blocks[b].Insts {
			// c.PlacedAt(inst, b, idx)
			if int(inst) >= len(places) || places[inst] != (instPlace{b + 1, int32(idx) + 1}) {
				continue
			}
			insts++
			data := &instData[inst]
			op := data.Op
			if int(op) >= len(opcodes) {
				op = ir.OpInvalid // "<bad opcode>"
			}
			opcodes[op]++

			// The longest path ending here: one more than at any
			// definition passed that inst uses (the uses
			// InstData.ForEachUse lists).
			var d int32
			for _, v := range data.Args {
				if int(v) < len(level) {
					d = max(d, level[v]+1)
				}
			}
			if len(data.Dests) > 0 || len(data.Handlers) > 0 {
				d = s.branch(f, data, int32(k), d)
			}
			for _, r := range data.Results {
				if int(r) < len(values) {
					if vd := &values[r]; vd.Kind != ir.DefResult || vd.Inst != inst {
						tidy = false
					}
					level[r] = d
				}
			}
			best = max(best, d)
		}
	}
	return insts, int(best), tidy
}

// branch is walk for the block calls and exception table of an instruction
// in the block of RPO number k whose operands give it chain depth d. It
// returns the depth with the values they use too, then passes the levels
// of the values they give to block params on, into pending, when the
// params come later in the order. The instruction's own results are not
// written yet: passing one on would use a later definition.
func (s *metricsScratch) branch(f *ir.Function, data *ir.InstData, k, d int32) int32 {
	level := s.level
	use := func(args []ir.BlockArg) {
		for _, a := range args {
			if a.Kind == ir.ArgValue && int(a.Value) < len(level) {
				d = max(d, level[a.Value]+1)
			}
		}
	}
	for i := range data.Dests {
		use(data.Dests[i].Args)
	}
	for i := range data.Handlers {
		if h := &data.Handlers[i]; h.Kind != ir.HandlerContext {
			use(h.Dest.Args)
		} else if int(h.Context) < len(level) {
			d = max(d, level[h.Context]+1)
		}
	}

	for i := range data.Dests {
		s.flow(f, &data.Dests[i], k, d)
	}
	for i := range data.Handlers {
		if h := &data.Handlers[i]; h.Kind != ir.HandlerContext {
			s.flow(f, &h.Dest, k, d)
		}
	}
	return d
}

// flow is branch's passing on for one block call; retN and exnN come from
// the branch itself, at depth d.
func (s *metricsScratch) flow(f *ir.Function, call *ir.BlockCall, k, d int32) {
	if n := s.cfg.RPONumber(call.Block); n <= int(k) {
		// Unreachable (-1), or a retreating edge to a block the walk
		// has entered: the order cuts it.
		return
	}
	params := f.Blocks[call.Block].Params
	level, pending := s.level, s.pending
	for i, a := range call.Args {
		if i >= len(params) || int(params[i]) >= len(pending) {
			break
		}
		from := d // retN, exnN
		if a.Kind == ir.ArgValue {
			if int(a.Value) >= len(level) {
				continue
			}
			from = level[a.Value]
		}
		pending[params[i]] = max(pending[params[i]], from)
	}
}
