package gen

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"

	"cliff/lib/ir"
	"cliff/lib/jsonl"
	"cliff/lib/profile"
	"cliff/lib/record"
)

// Corpus is the block-level snippets of one or more cliff-extract
// corpora, parsed once into the form instantiation needs.
type Corpus struct {
	// Path is the corpora's paths as given, joined by commas, and Hash
	// the xxhash of each file's bytes, joined the same way: one file
	// keeps the one hash it always had, and several name their exact
	// contents and order (the order is the order of the snippets drawn).
	Path  string
	Hash  string
	snips []snippet
	// files are the ends of each file's snippets in snips (the first
	// file's are snips[:files[0]]), for the files that have any.
	files []int
}

type snippet struct {
	insts []snippetInst
}

// snippetInst is one corpus instruction: opcode and type, operands as
// references to the snippet's inputs or earlier results, immediates when
// they could be read.
type snippetInst struct {
	ot       opType
	args     []record.Ref
	argTypes []ir.Type
	nresults int
	imms     *ir.InstData
	// memory: a load or store through an address operand, which
	// instantiation re-targets at a stack slot (snippetMemory).
	memory bool
}

// maxSnippetInsts bounds how much of a long block one slot takes.
const maxSnippetInsts = 12

// SplitCorpusPaths splits a --corpus value, "FILE[,FILE...]", into its
// paths.
func SplitCorpusPaths(paths string) []string {
	var out []string
	for _, p := range strings.Split(paths, ",") {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// LoadCorpus reads one or more cliff-extract corpora (JSON lines, zstd
// or plain; several paths separated by commas, as SplitCorpusPaths
// reads them), keeping block-level snippets with at least one
// computation, in file order. Several are drawn from as one, each corpus
// with the same chance (pick).
func LoadCorpus(paths string) (*Corpus, error) {
	files := SplitCorpusPaths(paths)
	if len(files) == 0 {
		return nil, fmt.Errorf("no corpus file in %q", paths)
	}
	c := &Corpus{Path: paths}
	var hashes []string
	for _, path := range files {
		before := len(c.snips)
		hash, err := c.load(path)
		if err != nil {
			return nil, err
		}
		hashes = append(hashes, hash)
		if len(c.snips) > before {
			c.files = append(c.files, len(c.snips))
		}
	}
	c.Hash = strings.Join(hashes, ",")
	if len(c.snips) == 0 {
		return nil, fmt.Errorf("%s: no block-level snippet with a computation", paths)
	}
	return c, nil
}

// load appends the snippets of one corpus file and returns the xxhash of
// its bytes.
func (c *Corpus) load(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	hash := fmt.Sprintf("%016x", xxhash.Sum64(data))
	rd, closer, err := jsonl.Open(path)
	if err != nil {
		return "", err
	}
	defer closer.Close()
	for {
		var s record.Snippet
		err := rd.Next(&s)
		if errors.Is(err, io.EOF) {
			return hash, nil
		}
		if err != nil {
			return "", err
		}
		if s.Kind != record.KindSnippet {
			return "", fmt.Errorf("%s: record %d: a %q record, want snippets (cliff-extract output)", path, rd.Record(), s.Kind)
		}
		if s.Level != record.LevelBlock {
			continue
		}
		if sn, ok := parseSnippet(&s); ok {
			c.snips = append(c.snips, sn)
		}
	}
}

// pick draws a snippet: with several corpora, a corpus first, each with
// the same chance, then one of its snippets, so that a large corpus (60k
// blocks of real programs) does not drown a small one (the filetests'
// 5k, which hold most of the opcodes and types); with one, a snippet of
// it, as it always was.
func (c *Corpus) pick(r *rng) *snippet {
	if len(c.files) <= 1 {
		return &c.snips[r.intn(len(c.snips))]
	}
	k := r.intn(len(c.files))
	lo := 0
	if k > 0 {
		lo = c.files[k-1]
	}
	return &c.snips[lo+r.intn(c.files[k]-lo)]
}

// Len is the number of usable snippets.
func (c *Corpus) Len() int { return len(c.snips) }

// Forbidden counts the snippets that hold an instruction profile p does
// not allow as written (profile.AllowsTypes: its opcode with its
// controlling type, or the type of its free operand, as fpromote.f64 of
// an f16), and among them those with an instruction whose opcode and
// controlling type p allows but not the type of an operand.
// They stay in the corpus: when a case uses one, such an instruction
// becomes another of the same shape p allows, or takes other operands, or
// is left out (snippet), so that the rest of the block still counts.
func (c *Corpus) Forbidden(p *profile.Profile) (snippets, byOperand int) {
	for i := range c.snips {
		forbidden, operand := false, false
		for _, si := range c.snips[i].insts {
			if !p.Allows(si.ot.op, si.ot.ctrl) {
				forbidden = true
			} else if !p.AllowsTypes(si.ot.op, si.ot.ctrl, si.argTypes) {
				forbidden, operand = true, true
			}
		}
		if forbidden {
			snippets++
		}
		if operand {
			byOperand++
		}
	}
	return snippets, byOperand
}

func parseSnippet(s *record.Snippet) (snippet, bool) {
	var sn snippet
	useful := false
	for _, si := range s.Insts[:min(len(s.Insts), maxSnippetInsts)] {
		op, ok := ir.LookupOpcode(si.Opcode)
		if !ok {
			return sn, false
		}
		ctrl := ir.Invalid
		if si.CtrlType != "" {
			if ctrl, ok = ir.ParseType(si.CtrlType); !ok {
				return sn, false
			}
		}
		in := snippetInst{ot: opType{op, ctrl}, args: si.Args, nresults: len(si.ResultTypes), imms: parseImms(op, &si.Imms), memory: addressed(op)}
		for _, a := range si.ArgTypes {
			t, ok := ir.ParseType(a)
			if !ok {
				return sn, false
			}
			in.argTypes = append(in.argTypes, t)
		}
		useful = useful || computation(op, false)
		sn.insts = append(sn.insts, in)
	}
	return sn, useful
}

// parseImms reads the immediates instantiation keeps (integers, floats,
// conditions, lanes); nil when the format has others or one does not read,
// and then they are drawn afresh.
func parseImms(op ir.Opcode, im *record.Imms) *ir.InstData {
	d := &ir.InstData{}
	for _, k := range op.Format().Imms {
		var ok bool
		switch k {
		case ir.ImmInt64:
			var err error
			d.Imm, err = strconv.ParseInt(im.Imm, 0, 64)
			if err != nil {
				u, err2 := strconv.ParseUint(im.Imm, 0, 64)
				d.Imm, ok = int64(u), err2 == nil
			} else {
				ok = true
			}
		case ir.ImmUint8:
			n, err := strconv.Atoi(im.Lane)
			d.Imm, ok = int64(n), err == nil
		case ir.ImmIntCC:
			d.IntCC, ok = ir.ParseIntCC(im.Cond)
		case ir.ImmFloatCC:
			d.FloatCC, ok = ir.ParseFloatCC(im.Cond)
		case ir.ImmIeee32:
			f, err := strconv.ParseFloat(im.Imm, 32)
			d.FloatBits, ok = uint64(math.Float32bits(float32(f))), err == nil
		case ir.ImmIeee64:
			f, err := strconv.ParseFloat(im.Imm, 64)
			d.FloatBits, ok = math.Float64bits(f), err == nil
		case ir.ImmMemFlags:
			ok = true // always little-endian (inst.go)
		}
		if !ok {
			return nil
		}
	}
	return d
}

// snippet instantiates a corpus snippet in place: its inputs bound to
// values in scope, its internal dataflow kept, each opcode mutated with
// probability Options.Mutation to another of the same shape the profile
// allows. A load or store becomes the same access on one of the
// function's stack slots (snippetMemory) when the case has them and
// snippet_memory is on. Instructions the case cannot take (other memory,
// control, calls, traps, types off) are left out; their uses take values
// from scope instead. An operand whose type the profile does not allow
// there (fpromote.f64 takes no f16 in compat) is chosen afresh, as for a
// computation (fitArgs).
func (fg *funcGen) snippet(r *rng) {
	corpus := fg.c.g.opts.Corpus
	sn := corpus.pick(r)
	inputs := map[int]ir.Value{}
	results := make([][]ir.Value, len(sn.insts))
	for i := range sn.insts {
		si := &sn.insts[i]
		if si.memory {
			if len(fg.slots) > 0 && fg.c.sw.on["snippet_memory"] {
				results[i] = fg.snippetMemory(r, i, si, inputs, results)
			}
			continue
		}
		ot, ok := fg.instantiable(r, si.ot)
		if !ok {
			continue
		}
		args := make([]ir.Value, len(si.args))
		for k, ref := range si.args {
			args[k] = ir.NoValue
			if k >= len(si.argTypes) {
				continue
			}
			var v ir.Value = ir.NoValue
			if ref.Input {
				if in, ok := inputs[ref.Index]; ok {
					v = in
				} else if fg.c.typeOK(si.argTypes[k]) {
					v = fg.operand(r, si.argTypes[k])
					inputs[ref.Index] = v
				}
			} else if ref.Inst < i && ref.Index < len(results[ref.Inst]) {
				v = results[ref.Inst][ref.Index]
			}
			args[k] = v
		}
		imms := si.imms
		if ot != si.ot {
			imms = nil // another opcode: its immediates mean other things
		}
		results[i] = fg.emit(r, ot, fg.fitArgs(ot, args), imms)
	}
}

// snippetMemory re-targets a corpus load or store (of a heap, a table,
// a vmctx field: memory cliff does not have) at one of the function's
// stack slots, as a generated access is placed (access): the same
// opcode and type, a fresh place, flags and byte order, the stored
// operands taken from the snippet's dataflow where it has them; its
// results feed the rest of the snippet. Its choices come from a stream
// of their own, derived from r without drawing from it, so that the rest
// of the snippet is instantiated as it would be without it. nil when the
// case takes no such access (its type off, an atomic without atomics).
func (fg *funcGen) snippetMemory(r *rng, i int, si *snippetInst, inputs map[int]ir.Value, results [][]ir.Value) []ir.Value {
	var acc *memAccess
	accs := fg.c.memAccesses()
	for k := range accs {
		if accs[k].ot == si.ot {
			acc = &accs[k]
			break
		}
	}
	if acc == nil {
		return nil
	}
	var values []ir.Value
	for k, in := range si.ot.op.Info().Ins {
		if in.Name == "p" || k >= len(si.args) {
			continue
		}
		v := ir.NoValue
		if ref := si.args[k]; ref.Input {
			if in, ok := inputs[ref.Index]; ok {
				v = in
			}
		} else if ref.Inst < i && ref.Index < len(results[ref.Inst]) {
			v = results[ref.Inst][ref.Index]
		}
		values = append(values, v)
	}
	mr := newRng(derive(derive(r.State, tag("snippet_memory")), uint64(i)))
	res, _ := fg.access(&mr, *acc, values)
	return res
}

// instantiable returns the opcode to emit for a corpus instruction: a
// mutation of the same shape with probability Options.Mutation (or when
// the profile does not allow the original), the original otherwise.
func (fg *funcGen) instantiable(r *rng, ot opType) (opType, bool) {
	tab := fg.c.tab
	same, allowed := tab.sameShape[ot]
	if !allowed {
		var ok bool
		if same, ok = tab.byShape[shapeKey(ot)]; !ok {
			return ot, false
		}
	}
	if !allowed || r.chance(fg.c.g.opts.Mutation) {
		for tries := 0; tries < 4; tries++ {
			cand := same[r.intn(len(same))]
			if fg.c.sw.weights[familyIndex(cand.op)] > 0 && fg.c.typeOK(cand.ctrl) {
				return cand, true
			}
		}
		if !allowed {
			return ot, false
		}
	}
	return ot, fg.c.typeOK(ot.ctrl)
}

// fitArgs drops given operands whose types the instruction would not
// take (a mutated opcode, a value of another type, a source type the
// profile does not allow, as fpromote.f64 of an f16 is not in compat):
// emit then chooses. An operand whose type the controlling type does not
// fix must be one of the types emit would choose (operandTypes).
func (fg *funcGen) fitArgs(ot opType, args []ir.Value) []ir.Value {
	info := ot.op.Info()
	if len(args) != len(info.Ins) {
		return nil
	}
	for k, in := range info.Ins {
		if args[k] == ir.NoValue {
			continue
		}
		t := fg.f.Values[args[k]].Type
		ok := false
		switch in.Kind {
		case ir.OperandFixed:
			ok = t == in.Type
		case ir.OperandTypeVar:
			if in.TypeVar == 0 && in.Derive != ir.DeriveNarrower && in.Derive != ir.DeriveWider {
				ok = in.Derive.Admits(ot.ctrl, t)
			} else {
				ok = fg.c.tab.operandTypes(ot, k)&fg.c.typeSet&candidateOf(t) != 0
			}
		}
		if !ok {
			args[k] = ir.NoValue
		}
	}
	return args
}
