package analysis

import (
	"sort"
	"sync"

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

// Compute returns the metrics of f.
func Compute(f *ir.Function) Metrics {
	seen := newOpcodeSeen()
	m := compute(f, seen)
	m.setOpcodes(seen)
	return m
}

// metricsScratch is what compute builds besides its result, rebuilt in
// place for each function: cliff-gen and cliff-refine compute the metrics
// of every case, and allocating these afresh was a third of the time.
type metricsScratch struct {
	cfg   CFG
	dt    DomTree
	depth depthScratch
}

var metricsScratchPool = sync.Pool{New: func() any { return new(metricsScratch) }}

// opcodeSeen marks opcodes by number (a map would hash every
// instruction); numbers outside the table count as OpInvalid, which
// prints as "<bad opcode>".
type opcodeSeen []bool

var numOpcodes = len(ir.Opcodes()) + 1

func newOpcodeSeen() opcodeSeen { return make(opcodeSeen, numOpcodes) }

func (s opcodeSeen) add(op ir.Opcode) {
	if int(op) >= len(s) {
		op = ir.OpInvalid
	}
	s[op] = true
}

// compute returns f's metrics but the opcodes, which it adds to seen.
func compute(f *ir.Function, seen opcodeSeen) Metrics {
	s := metricsScratchPool.Get().(*metricsScratch)
	defer metricsScratchPool.Put(s)
	c := &s.cfg
	c.Recompute(f)
	s.dt.Recompute(c)
	m := Metrics{
		Blocks:      len(c.rpo),
		Edges:       c.reachableEdges,
		DomDepth:    s.dt.MaxDepth(),
		DefUseDepth: s.depth.chainDepth(f, c),
	}
	if m.Blocks > 0 {
		m.Cyclomatic = m.Edges - m.Blocks + 1
	}
	for _, b := range c.rpo {
		for idx, inst := range f.Blocks[b].Insts {
			if c.placedAt(inst, b, idx) {
				m.Insts++
				seen.add(f.Insts[inst].Op)
			}
		}
	}
	return m
}

// ComputeModule returns the metrics of a module: Blocks, Insts, Edges and
// Cyclomatic are sums over its functions, DomDepth and DefUseDepth maxima,
// and the opcodes the union.
func ComputeModule(mod *ir.Module) Metrics {
	var m Metrics
	seen := newOpcodeSeen()
	for _, f := range mod.Funcs {
		fm := compute(f, seen)
		m.Blocks += fm.Blocks
		m.Insts += fm.Insts
		m.Edges += fm.Edges
		m.Cyclomatic += fm.Cyclomatic
		m.DomDepth = max(m.DomDepth, fm.DomDepth)
		m.DefUseDepth = max(m.DefUseDepth, fm.DefUseDepth)
	}
	m.setOpcodes(seen)
	return m
}

func (m *Metrics) setOpcodes(seen opcodeSeen) {
	m.OpcodeSet = []string{} // never nil: JSON shows []
	for op, ok := range seen {
		if ok {
			m.OpcodeSet = append(m.OpcodeSet, ir.Opcode(op).String())
		}
	}
	sort.Strings(m.OpcodeSet)
	m.Opcodes = len(m.OpcodeSet)
}

// AddOpcodes marks in seen the opcode of every instruction in f's reachable
// blocks, the instructions Compute counts.
func AddOpcodes(seen map[ir.Opcode]bool, f *ir.Function) {
	c := NewCFG(f)
	for _, b := range c.rpo {
		for idx, inst := range f.Blocks[b].Insts {
			if c.placedAt(inst, b, idx) {
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
