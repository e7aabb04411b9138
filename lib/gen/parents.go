package gen

import (
	"fmt"
	"maps"
	"sort"
	"strings"

	"cliff/lib/ir"
	"cliff/lib/record"
)

// A Parent is a function crossover may breed from, as lib/parents reads
// it (parents.Func converts to it): parsed, verified, its reachable
// blocks in reverse post-order (the entry first) and the blocks each
// immediately dominates.
type Parent struct {
	Source      record.Source
	Func        *ir.Function
	Runs        []record.InputVector
	RPO         []ir.Block
	DomChildren [][]ir.Block
}

// Parents are the functions crossover breeds cases from (cliff-gen
// --crossover): those of a corpus whose shape crossover can
// re-instantiate (shape).
type Parents struct {
	Path string
	Hash string // xxhash of the corpus file's bytes, for the record
	// Read counts the function records read; Refused those left out, by
	// reason.
	Read    int
	Refused map[string]int
	funcs   []parent
}

// A parent is one function of the crossover corpus, with what
// instantiation needs precomputed.
type parent struct {
	Parent
	rpoNum []int // by block; -1 when unreachable
	// types are the candidate types of its values: a case that lacks one
	// does not take the parent.
	types candidateSet
}

// Limits on a parent's size, so that a crossed case stays as small as the
// generator's own (maxBlocks) and quick to make.
const (
	maxParentBlocks = 24
	maxParentInsts  = 96
)

// NewParents keeps the functions of a corpus that crossover can use, and
// counts the others by reason, with the refusals the corpus's reader
// made (refused).
func NewParents(path, hash string, read int, refused map[string]int, funcs []Parent) (*Parents, error) {
	ps := &Parents{Path: path, Hash: hash, Read: read, Refused: maps.Clone(refused)}
	if ps.Refused == nil {
		ps.Refused = map[string]int{}
	}
	for _, f := range funcs {
		p := parent{Parent: f}
		if why := p.shape(); why != "" {
			ps.Refused[why]++
			continue
		}
		ps.funcs = append(ps.funcs, p)
	}
	if len(ps.funcs) == 0 {
		return nil, fmt.Errorf("%s: no function record crossover can use (%d read; cliff-extract --functions writes them)", path, read)
	}
	return ps, nil
}

// Len is the number of usable parents.
func (ps *Parents) Len() int { return len(ps.funcs) }

// RefusedSummary says why functions were refused, for --summary: ", 12
// has a loop, 3 is too large", reasons sorted.
func (ps *Parents) RefusedSummary() string {
	var reasons []string
	for why := range ps.Refused {
		reasons = append(reasons, why)
	}
	sort.Strings(reasons)
	var b strings.Builder
	for _, why := range reasons {
		fmt.Fprintf(&b, ", %d %s", ps.Refused[why], why)
	}
	return b.String()
}

// shape checks what instantiation needs of a parent: a small acyclic
// CFG (cliff bounds loops by its own scaffold counters, and a parent's
// back edge has none), whose only branches are jump, brif and br_table
// (a block that ends otherwise becomes a jump to the region's exit, so it
// must have no successors), values of candidate types only, and one
// instruction at least that it makes again (remakes). It fills rpoNum and
// types.
func (p *parent) shape() string {
	f := p.Func
	if len(p.RPO) == 0 || len(p.RPO) > maxParentBlocks {
		return "is too large"
	}
	p.rpoNum = make([]int, len(f.Blocks))
	for b := range p.rpoNum {
		p.rpoNum[b] = -1
	}
	for k, b := range p.RPO {
		p.rpoNum[b] = k
	}
	insts, useful := 0, false
	for k, b := range p.RPO {
		body := f.Blocks[b].Insts
		if len(body) == 0 {
			return "has an empty block"
		}
		term := &f.Insts[body[len(body)-1]]
		switch term.Op {
		case ir.OpJump, ir.OpBrif, ir.OpBrTable:
			for _, d := range term.Dests {
				if int(d.Block) >= len(p.rpoNum) || p.rpoNum[d.Block] <= k {
					return "has a loop"
				}
			}
		default:
			if len(term.Dests) > 0 || len(term.Handlers) > 0 {
				return "has a branch other than jump, brif and br_table"
			}
		}
		for _, v := range f.Blocks[b].Params {
			if !p.addType(f.Values[v].Type) {
				return "has a value of a type cliff-gen does not make"
			}
		}
		for _, i := range body {
			insts++
			d := &f.Insts[i]
			useful = useful || remakes(d)
			for _, v := range d.Results {
				if !p.addType(f.Values[v].Type) {
					return "has a value of a type cliff-gen does not make"
				}
			}
		}
	}
	switch {
	case insts > maxParentInsts:
		return "is too large"
	case !useful:
		return "has nothing crossover makes again"
	}
	return ""
}

// blocks is the number of the parent's reachable blocks.
func (p *parent) blocks() int { return len(p.RPO) }

// remakes reports whether crossover makes instruction d again
// (crossInst.inst): a computation, or a load or store through an address.
func remakes(d *ir.InstData) bool {
	if computation(d.Op, false) {
		return true
	}
	if d.Op.Info().Flags&(ir.FlagCanLoad|ir.FlagCanStore) == 0 {
		return false
	}
	for _, in := range d.Op.Info().Ins {
		if in.Name == "p" {
			return true
		}
	}
	return false
}

// addType adds t to the parent's types; false when t is no candidate.
func (p *parent) addType(t ir.Type) bool {
	set := candidateOf(t)
	p.types |= set
	return set != 0
}
