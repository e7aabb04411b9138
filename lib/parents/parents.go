// Package parents reads what cliff-gen --crossover breeds cases from: the
// function records of a cliff-extract --functions corpus, each parsed,
// verified, and given the order lib/gen instantiates a parent in (its
// reachable blocks in reverse post-order, and the blocks each immediately
// dominates). lib/gen takes them as plain data (gen.Parent, the same
// fields as Func) and keeps those it can re-instantiate; it cannot read
// them itself, since the parser's and the analyses' tests generate cases.
package parents

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/cespare/xxhash/v2"

	"cliff/lib/analysis"
	"cliff/lib/ir"
	"cliff/lib/jsonl"
	"cliff/lib/parser"
	"cliff/lib/record"
	"cliff/lib/verify"
)

// Func is one function of the corpus, ready to be a parent.
type Func struct {
	Source record.Source
	Func   *ir.Function
	// Runs are the arguments of its run lines (record.Snippet's Runs).
	Runs []record.InputVector
	// RPO are its reachable blocks in reverse post-order, the entry
	// first; DomChildren, by block, the blocks each immediately
	// dominates, in RPO order.
	RPO         []ir.Block
	DomChildren [][]ir.Block
}

// Corpus is what Load read.
type Corpus struct {
	Path string
	Hash string // xxhash of the file's bytes, for the record
	// Read counts the function records read; Refused those that do not
	// parse or verify, by reason.
	Read    int
	Refused map[string]int
	Funcs   []Func
}

// Reasons for refusing a function record.
const (
	NoParse  = "does not parse"
	NoVerify = "does not verify"
)

// verify64 are the verifier's options for a function that needs an ISA.
var verify64 = verify.Options{PointerType: ir.I64, PreserveFramePointers: true, EnablePinnedReg: true}

// blockLevel is how a block snippet says so: such records, half of a
// corpus and most of its bytes, are passed over undecoded (a JSON string
// cannot hold this text unescaped).
var blockLevel = []byte(`"level":"block"`)

// Load reads the function records of a cliff-extract --functions corpus
// (JSON lines, zstd or plain), one at a time; block snippets are passed
// over.
func Load(path string) (*Corpus, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c := &Corpus{Path: path, Hash: fmt.Sprintf("%016x", xxhash.Sum64(data)), Refused: map[string]int{}}
	rd, closer, err := jsonl.Open(path)
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	var dec decoder
	for {
		line, err := rd.NextRaw()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if bytes.Contains(line, blockLevel) {
			continue
		}
		var s record.Snippet
		if err := dec.unmarshal(line, &s); err != nil {
			return nil, fmt.Errorf("%s: record %d: %w", path, rd.Record(), err)
		}
		if s.Kind != record.KindSnippet {
			return nil, fmt.Errorf("%s: record %d: a %q record, want snippets (cliff-extract --functions output)", path, rd.Record(), s.Kind)
		}
		if s.Level != record.LevelFunction {
			continue
		}
		c.Read++
		f, why := parse(&s)
		if why != "" {
			c.Refused[why]++
			continue
		}
		c.Funcs = append(c.Funcs, f)
	}
	return c, nil
}

// parse parses and verifies a function record; why says why it cannot be
// a parent.
func parse(s *record.Snippet) (Func, string) {
	mod, err := parser.ParseModuleString(s.Source.File, s.Function)
	if err != nil || len(mod.Funcs) != 1 {
		return Func{}, NoParse
	}
	f := mod.Funcs[0]
	// The record has not its file's header: no target, so the checks
	// that need one are skipped as Cranelift skips them without an ISA,
	// or, for what needs an ISA (get_frame_pointer, the pinned register),
	// a 64-bit one with the settings that allow it. What is
	// target-specific in the body is left out or replaced when
	// instantiated.
	if len(verify.FunctionWith(f, verify.Options{})) > 0 && len(verify.FunctionWith(f, verify64)) > 0 {
		return Func{}, NoVerify
	}
	// A parent lives as long as cliff-gen: its tables without the
	// parser's spare room (an instruction is 256 bytes, and the spare
	// room was four tenths of the corpus's memory), so that the
	// collector has less to go through.
	f.Insts, f.Values, f.Blocks = slices.Clone(f.Insts), slices.Clone(f.Values), slices.Clone(f.Blocks)
	cfg := analysis.NewCFG(f)
	dom := analysis.NewDomTree(cfg)
	out := Func{Source: s.Source, Func: f, Runs: s.Runs, RPO: cfg.RPO(), DomChildren: make([][]ir.Block, len(f.Blocks))}
	for _, b := range out.RPO {
		out.DomChildren[b] = dom.Children(b)
	}
	return out, ""
}
