package gen

import (
	"fmt"
	"math/bits"
	"slices"

	"cliff/lib/ir"
	"cliff/lib/profile"
	"cliff/lib/record"
)

// Limits that keep cases small enough to compile and run quickly.
const (
	// maxBlocks bounds the blocks of one function whatever the depth.
	maxBlocks = 400
	// maxDynamic bounds the instructions a call of %main executes
	// (estimated from loop trip bounds and callee costs), so that no case
	// runs long under qemu.
	maxDynamic = 200_000
	// maxParams is the largest number of params of a generated function:
	// enough to pass some on the stack on every target.
	maxParams = 16
)

// caseGen generates one case.
type caseGen struct {
	g    *Generator
	tab  *tables
	seed uint64
	sw   swarm
	// kindOn says whether each region kind's feature is on: asked for
	// every region, cheaper than the feature map.
	kindOn [numKinds]bool
	// types are the value types this case uses, and abiTypes those of
	// them that may be params and returns.
	types, abiTypes []ir.Type
	typeSet         candidateSet // types
	funcs           []*funcGen
	mem             []memAccess // memAccesses, once computed
	// crossCallee is the index of the function the crossover way "call"
	// calls (its parent calleeParent), -1 when the case has none;
	// parents are the case's crossover parents, hints the inputs their
	// run lines give %main's params, by param index (crossover.go).
	crossCallee  int
	calleeParent *parent
	crossSites   int // crossovers made
	parents      []record.Source
	hints        map[int][]record.Value
}

func newCaseGen(g *Generator, seed uint64) *caseGen {
	c := &caseGen{g: g, tab: g.tab, seed: seed, crossCallee: -1}
	c.setSwarm(drawSwarm(seed, g.opts.Features, g.weights, g.opts.Parents != nil))
	c.chooseTypes()
	return c
}

// setSwarm makes sw the case's feature choice.
func (c *caseGen) setSwarm(sw swarm) {
	c.sw = sw
	for kind, f := range kindFeature {
		c.kindOn[kind] = f == "" || sw.on[f]
	}
}

// typeFeatures says which features a type needs (beyond the integers up
// to 64 bits, always on).
func typeFeatures(t ir.Type) []string {
	var need []string
	switch t.LaneType() {
	case ir.F32, ir.F64:
		need = append(need, "floats")
	case ir.F16:
		need = append(need, "f16")
	case ir.F128:
		need = append(need, "f128")
	case ir.I128:
		need = append(need, "i128")
	}
	if t.IsVector() {
		need = append(need, "vectors")
	}
	return need
}

// candidateTypes are the types cliff-gen may use: scalars and the 128-bit
// vectors (the width every backend has); the profile decides the rest.
var candidateTypes = func() []ir.Type {
	out := append([]ir.Type{}, ir.ScalarTypes...)
	for _, lane := range []ir.Type{ir.I8, ir.I16, ir.I32, ir.I64, ir.F16, ir.F32, ir.F64} {
		out = append(out, ir.Vector(lane, 128/lane.Bits()))
	}
	return out
}()

// candidateSet is a set of candidate types: bit i for candidateTypes[i].
type candidateSet uint32

func (s candidateSet) len() int { return bits.OnesCount32(uint32(s)) }

// nth returns the i-th type of s, in candidateTypes order.
func (s candidateSet) nth(i int) ir.Type {
	for range i {
		s &= s - 1 // drop the lowest
	}
	return candidateTypes[bits.TrailingZeros32(uint32(s))]
}

// candidateBits holds the bit of each candidate type by its low byte
// (every candidate is a fixed type, below 0x100): what candidateOf reads
// for every operand a snippet gives.
var candidateBits = func() (out [256]candidateSet) {
	for i, t := range candidateTypes {
		out[t] = 1 << i
	}
	return out
}()

// candidateOf returns the set of t alone, empty when t is no candidate.
func candidateOf(t ir.Type) candidateSet {
	if t >= ir.Type(len(candidateBits)) {
		return 0
	}
	return candidateBits[t]
}

// typeFeatureSets are the features candidate types need (typeFeatures),
// each with the set of candidates that need it: chooseTypes asks the
// swarm about each feature once, not about each feature of each type.
var typeFeatureSets = func() (out []typeFeatureSet) {
	for i, t := range candidateTypes {
		for _, f := range typeFeatures(t) {
			k := slices.IndexFunc(out, func(s typeFeatureSet) bool { return s.name == f })
			if k < 0 {
				k = len(out)
				out = append(out, typeFeatureSet{name: f})
			}
			out[k].set |= 1 << i
		}
	}
	return out
}()

// typeFeatureSet is a feature and the candidate types that need it.
type typeFeatureSet struct {
	name string
	set  candidateSet
}

// chooseTypes sets the case's types: the candidates the profile makes
// usable whose features the swarm has on, in candidateTypes order, and
// those of them the ABI passes.
func (c *caseGen) chooseTypes() {
	set := c.tab.usable
	for _, f := range typeFeatureSets {
		if !c.sw.on[f.name] {
			set &^= f.set
		}
	}
	c.typeSet = set
	c.types = make([]ir.Type, 0, set.len())
	c.abiTypes = make([]ir.Type, 0, (set & c.tab.abiSet).len())
	for ; set != 0; set &= set - 1 {
		i := bits.TrailingZeros32(uint32(set))
		c.types = append(c.types, candidateTypes[i])
		if c.tab.abiSet&(1<<i) != 0 {
			c.abiTypes = append(c.abiTypes, candidateTypes[i])
		}
	}
}

// usable reports whether profile p lets cliff-gen make values of t at
// all: a constant or a conversion from an integer.
func usable(p *profile.Profile, t ir.Type) bool {
	switch {
	case t.IsVector():
		return p.Allows(ir.OpSplat, t) || p.Allows(ir.OpVconst, t)
	case t.IsInt():
		return p.Allows(ir.OpIconst, t) || p.Allows(ir.OpUextend, t)
	}
	return p.Allows(ir.OpBitcast, t) || p.Allows(ir.OpFcvtFromSint, t) || p.Allows(constOp(t), ir.Invalid)
}

func constOp(t ir.Type) ir.Opcode {
	switch t {
	case ir.F16:
		return ir.OpF16const
	case ir.F32:
		return ir.OpF32const
	case ir.F64:
		return ir.OpF64const
	case ir.F128:
		return ir.OpF128const
	}
	return ir.OpInvalid
}

// module generates the functions: signatures first (a call needs its
// callee's), then bodies from the last function to %main, so that a
// caller knows what its callees cost.
func (c *caseGen) module() (*ir.Module, error) {
	n := 1
	if c.g.opts.Funcs > 1 {
		r := newRng(derive(c.seed, tag("funcs")))
		n = r.between(1, c.g.opts.Funcs)
		if !c.sw.on["calls"] && !c.sw.on["indirect_calls"] && !c.sw.on["tail_calls"] {
			n = 1
		}
	}
	if c.sw.on["crossover"] && c.sw.on["crossover_call"] {
		// One more function: a parent, for the way "call" to call.
		r := newRng(derive(c.seed, crossCalleeKey))
		if c.calleeParent = c.pickParent(&r, min(maxBlocks, 16+12*c.g.opts.Depth)); c.calleeParent != nil {
			c.crossCallee = n
			n++
			c.noteParent(c.calleeParent) // its code is in the case, called or not
		}
	}
	c.funcs = make([]*funcGen, n)
	for i := n - 1; i >= 0; i-- {
		c.funcs[i] = c.newFunc(i)
	}
	for i := n - 1; i >= 0; i-- {
		if err := c.funcs[i].body(); err != nil {
			return nil, fmt.Errorf("%s: %w", c.funcs[i].f.Name, err)
		}
	}
	mod := &ir.Module{}
	for _, fg := range c.funcs {
		mod.Funcs = append(mod.Funcs, fg.f)
	}
	return mod, nil
}

func funcName(i int) string {
	if i == 0 {
		return "%main"
	}
	return fmt.Sprintf("%%f%d", i)
}
