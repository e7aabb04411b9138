package record

import (
	"fmt"
	"strconv"
	"strings"
)

// A Snippet is a fragment of real CLIF, abstracted from its surroundings: an
// entry of the corpus that cliff-extract builds from Cranelift's filetests
// (or any CLIF) and cliff-gen splices into the test cases it generates.
//
// A block-level snippet is a straight run of instructions of one block, its
// operands renamed to the snippet's own inputs (Params) and to results of
// its earlier instructions. A function-level snippet keeps the whole
// function as CLIF text.
type Snippet struct {
	Kind    string `json:"kind"`
	Version int    `json:"v"`
	// ID is the Hash of the normalised snippet, so identical fragments from
	// different files get the same ID and are folded together (see Count).
	ID     string `json:"id"`
	Source Source `json:"source"`
	Level  string `json:"level"` // LevelBlock or LevelFunction
	// Params are the types of the inputs the snippet needs, in order: the
	// values that "in0", "in1", ... refer to.
	Params []string      `json:"params,omitempty"`
	Insts  []SnippetInst `json:"insts,omitempty"`
	// Outputs are the values live out of the snippet (used after it in the
	// original code), when known.
	Outputs []Ref `json:"outputs,omitempty"`
	// Count is how many occurrences were folded into this record (1 for a
	// fragment seen once). cliff-extract streams its output and writes 1 on
	// the first occurrence (its --summary count the copies it dropped); a tool
	// that merges corpora adds counts up.
	Count int `json:"count"`
	// Function is the CLIF text of the whole function, for LevelFunction.
	Function string `json:"function,omitempty"`
	// Runs are the arguments of the function's run lines (`; run:
	// %f(1, 2) == 3` gives [i32 1, i32 2]) in its file, for
	// LevelFunction: inputs a Cranelift developer chose for it.
	Runs []InputVector `json:"runs,omitempty"`
}

// Snippet levels.
const (
	LevelBlock    = "block"
	LevelFunction = "function"
)

// Source says where a snippet (its first occurrence) comes from.
type Source struct {
	File     string `json:"file"`
	Function string `json:"function,omitempty"` // e.g. "%foo" or "u0:1"
	Block    string `json:"block,omitempty"`    // e.g. "block3"
	Line     int    `json:"line,omitempty"`     // 1-based line of the first instruction
}

// A SnippetInst is one instruction of a block-level snippet.
type SnippetInst struct {
	Opcode string `json:"opcode"`
	// CtrlType is the controlling type ("i32" in "iadd.i32"), empty when
	// the opcode is not polymorphic.
	CtrlType    string   `json:"ctrl_type,omitempty"`
	Args        []Ref    `json:"args,omitempty"`
	ArgTypes    []string `json:"arg_types,omitempty"`
	ResultTypes []string `json:"result_types,omitempty"`
	Imms        Imms     `json:"imms,omitzero"`
	// Text is the instruction as it was written, for humans.
	Text string `json:"text,omitempty"`
}

// Imms are the immediates and entity references of an instruction, each in
// its CLIF text form (the way the printer writes it), empty when the format
// has none.
type Imms struct {
	Imm    string `json:"imm,omitempty"`    // imm64 or float constant: "-1", "0x1.8p1"
	Lane   string `json:"lane,omitempty"`   // uimm8 lane index
	Cond   string `json:"cond,omitempty"`   // intcc or floatcc: "slt", "uno"
	Flags  string `json:"flags,omitempty"`  // memflags: "notrap aligned"
	Offset string `json:"offset,omitempty"` // offset32: "+16"
	Trap   string `json:"trap,omitempty"`   // trap code: "int_divz", "user1"
	RmwOp  string `json:"rmw_op,omitempty"` // atomic_rmw op: "xchg"
	Bytes  string `json:"bytes,omitempty"`  // constant data or shuffle mask: "0x00010203..."
	Entity string `json:"entity,omitempty"` // referenced entity: "fn0", "ss1", "gv2", "sig0"
}

// A Ref names a value inside a snippet: input N of the snippet, written
// "inN", or result M of the snippet's instruction N, written "rN.M" (both
// 0-based).
type Ref struct {
	Input bool // an input rather than an instruction result
	Inst  int  // the instruction, when !Input
	Index int  // the input number, or the result number of Inst
}

// InputRef returns the Ref of the snippet's input n.
func InputRef(n int) Ref { return Ref{Input: true, Index: n} }

// ResultRef returns the Ref of result n of the snippet's instruction inst.
func ResultRef(inst, n int) Ref { return Ref{Inst: inst, Index: n} }

func (r Ref) String() string {
	if r.Input {
		return "in" + strconv.Itoa(r.Index)
	}
	return "r" + strconv.Itoa(r.Inst) + "." + strconv.Itoa(r.Index)
}

// ParseRef reads the text form of a Ref.
func ParseRef(s string) (Ref, error) {
	bad := fmt.Errorf(`bad value reference %q, want "inN" or "rN.M"`, s)
	if rest, ok := strings.CutPrefix(s, "in"); ok {
		n, err := parseIndex(rest)
		if err != nil {
			return Ref{}, bad
		}
		return InputRef(n), nil
	}
	rest, ok := strings.CutPrefix(s, "r")
	if !ok {
		return Ref{}, bad
	}
	inst, result, ok := strings.Cut(rest, ".")
	if !ok {
		return Ref{}, bad
	}
	i, err1 := parseIndex(inst)
	n, err2 := parseIndex(result)
	if err1 != nil || err2 != nil {
		return Ref{}, bad
	}
	return ResultRef(i, n), nil
}

// parseIndex reads a non-negative decimal without sign or leading zeros, so
// every Ref has exactly one text form.
func parseIndex(s string) (int, error) {
	if s == "" || s[0] == '+' || s[0] == '-' || (len(s) > 1 && s[0] == '0') {
		return 0, strconv.ErrSyntax
	}
	return strconv.Atoi(s)
}

// MarshalText writes the Ref as "inN" or "rN.M".
func (r Ref) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads "inN" or "rN.M".
func (r *Ref) UnmarshalText(text []byte) error {
	ref, err := ParseRef(string(text))
	if err != nil {
		return err
	}
	*r = ref
	return nil
}

// RecordKind implements Record.
func (*Snippet) RecordKind() string { return KindSnippet }

// Stamp implements Record.
func (s *Snippet) Stamp() { s.Kind, s.Version = KindSnippet, SchemaVersion }

// Validate checks the required fields and that every Ref points at an input
// or at a result of an earlier instruction.
func (s *Snippet) Validate() error {
	p := newProblems(KindSnippet, s.ID)
	p.header(s.Kind, s.Version, KindSnippet, false)
	p.hash("id", s.ID)
	p.require("source.file", s.Source.File)
	if s.Count < 1 {
		p.addf("count", "%d, want at least 1", s.Count)
	}
	switch s.Level {
	case LevelBlock:
		if len(s.Insts) == 0 {
			p.addf("insts", "missing for a block-level snippet")
		}
	case LevelFunction:
		p.require("function", s.Function)
	default:
		oneOf(p, "level", s.Level, LevelBlock, LevelFunction)
	}
	for i, t := range s.Params {
		p.require(fmt.Sprintf("params[%d]", i), t)
	}
	for i, vec := range s.Runs {
		for j, v := range vec {
			p.require(fmt.Sprintf("runs[%d][%d].type", i, j), v.Type)
			p.require(fmt.Sprintf("runs[%d][%d].value", i, j), v.Value)
		}
	}
	for i, inst := range s.Insts {
		field := fmt.Sprintf("insts[%d]", i)
		p.require(field+".opcode", inst.Opcode)
		if inst.ArgTypes != nil && len(inst.ArgTypes) != len(inst.Args) {
			p.addf(field+".arg_types", "%d types for %d args", len(inst.ArgTypes), len(inst.Args))
		}
		for j, a := range inst.Args {
			s.checkRef(p, fmt.Sprintf("%s.args[%d]", field, j), a, i)
		}
	}
	for i, o := range s.Outputs {
		s.checkRef(p, fmt.Sprintf("outputs[%d]", i), o, len(s.Insts))
	}
	return p.err()
}

// checkRef checks that r names an input or a result of an instruction
// before the instruction numbered before.
func (s *Snippet) checkRef(p *problems, field string, r Ref, before int) {
	switch {
	case r.Input:
		if r.Index < 0 || r.Index >= len(s.Params) {
			p.addf(field, "%s, but the snippet has %d inputs", r, len(s.Params))
		}
	case r.Inst < 0 || r.Inst >= before:
		p.addf(field, "%s does not name an earlier instruction", r)
	case r.Index < 0 || r.Index >= len(s.Insts[r.Inst].ResultTypes):
		p.addf(field, "%s, but instruction %d has %d results", r, r.Inst, len(s.Insts[r.Inst].ResultTypes))
	}
}
