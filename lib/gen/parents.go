package gen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/cespare/xxhash/v2"

	"cliff/lib/analysis"
	"cliff/lib/ir"
	"cliff/lib/jsonl"
	"cliff/lib/parser"
	"cliff/lib/record"
	"cliff/lib/verify"
)

// Parents are the functions crossover breeds cases from (cliff-gen
// --crossover): the function records of a cliff-extract --functions
// corpus that parse, verify, and have a shape crossover can re-instantiate
// (parentShape).
type Parents struct {
	Path string
	Hash string // xxhash of the file's bytes, for the record
	// Read counts the function records read; Refused those left out, by
	// reason.
	Read    int
	Refused map[string]int
	funcs   []parent
}

// A parent is one function of the crossover corpus, with what
// instantiation needs precomputed.
type parent struct {
	src  record.Source
	f    *ir.Function
	dom  *analysis.DomTree
	cfg  *analysis.CFG
	runs []record.InputVector
	// types are the candidate types of its values: a case that lacks one
	// does not take the parent.
	types  candidateSet
	blocks int // reachable blocks
}

// Limits on a parent's size, so that a crossed case stays as small as the
// generator's own (maxBlocks) and quick to make.
const (
	maxParentBlocks = 24
	maxParentInsts  = 96
)

// LoadParents reads the function records of a cliff-extract --functions
// corpus (JSON lines, zstd or plain); block snippets are passed over.
func LoadParents(path string) (*Parents, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	ps := &Parents{Path: path, Hash: fmt.Sprintf("%016x", xxhash.Sum64(data)), Refused: map[string]int{}}
	rd, closer, err := jsonl.Open(path)
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	for {
		line, err := rd.NextRaw()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		// Block snippets, half of a corpus and most of its bytes, are
		// passed over undecoded: a JSON string cannot hold this text
		// unescaped.
		if bytes.Contains(line, blockLevel) {
			continue
		}
		var s record.Snippet
		if err := json.Unmarshal(line, &s); err != nil {
			return nil, fmt.Errorf("%s: record %d: %w", path, rd.Record(), err)
		}
		if s.Kind != record.KindSnippet {
			return nil, fmt.Errorf("%s: record %d: a %q record, want snippets (cliff-extract --functions output)", path, rd.Record(), s.Kind)
		}
		if s.Level != record.LevelFunction {
			continue
		}
		ps.Read++
		p, why := parseParent(&s)
		if why != "" {
			ps.Refused[why]++
			continue
		}
		ps.funcs = append(ps.funcs, p)
	}
	if len(ps.funcs) == 0 {
		return nil, fmt.Errorf("%s: no function record crossover can use (%d read; cliff-extract --functions writes them)", path, ps.Read)
	}
	return ps, nil
}

// parentVerify64 are the verifier's options for a parent that needs an
// ISA (parseParent).
var parentVerify64 = verify.Options{PointerType: ir.I64, PreserveFramePointers: true, EnablePinnedReg: true}

var blockLevel = []byte(`"level":"block"`)

// Len is the number of usable parents.
func (ps *Parents) Len() int { return len(ps.funcs) }

// parseParent parses and checks a function record; why says why it
// cannot be a parent.
func parseParent(s *record.Snippet) (p parent, why string) {
	mod, err := parser.ParseModuleString(s.Source.File, s.Function)
	if err != nil || len(mod.Funcs) != 1 {
		return p, "does not parse"
	}
	f := mod.Funcs[0]
	// The record has not its file's header: no target, so the checks
	// that need one are skipped as Cranelift skips them without an ISA,
	// or, for what needs an ISA (get_frame_pointer, the pinned register),
	// a 64-bit one with the settings that allow it. What is
	// target-specific in the body is left out or replaced when
	// instantiated.
	if len(verify.FunctionWith(f, verify.Options{})) > 0 && len(verify.FunctionWith(f, parentVerify64)) > 0 {
		return p, "does not verify"
	}
	p = parent{src: s.Source, f: f, runs: s.Runs}
	p.cfg = analysis.NewCFG(f)
	p.dom = analysis.NewDomTree(p.cfg)
	if why := p.shape(); why != "" {
		return p, why
	}
	return p, ""
}

// shape checks what instantiation needs of a parent: a small acyclic
// CFG (cliff bounds loops by its own scaffold counters, and a parent's
// back edge has none), whose only branches are jump, brif and br_table
// (a block that ends otherwise becomes a jump to the region's exit, so it
// must have no successors), values of candidate types only, and one
// instruction at least that it makes again (remakes). It fills types and
// blocks.
func (p *parent) shape() string {
	f, c := p.f, p.cfg
	insts, useful := 0, false
	for _, b := range c.RPO() {
		p.blocks++
		for _, s := range c.Succs(b) {
			if c.RPONumber(s) <= c.RPONumber(b) {
				return "has a loop"
			}
		}
		body := f.Blocks[b].Insts
		if len(body) == 0 {
			return "has an empty block"
		}
		switch term := f.Insts[body[len(body)-1]].Op; term {
		case ir.OpJump, ir.OpBrif, ir.OpBrTable:
		default:
			if len(c.Succs(b)) > 0 {
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
	case p.blocks > maxParentBlocks || insts > maxParentInsts:
		return "is too large"
	case !useful:
		return "has nothing crossover makes again"
	}
	return ""
}

// remakes reports whether crossover makes instruction d again (crossInst.inst):
// a computation, or a load or store through an address.
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

// RefusedSummary says why functions were refused, for --stats: ", 12
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
