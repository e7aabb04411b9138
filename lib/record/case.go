package record

import (
	"fmt"
	"strconv"
	"strings"
)

// A Case is one generated test case: a CLIF module and the inputs to run its
// first function on. cliff-gen writes it; cliff-refine rewrites CLIF and
// Metrics; cliff-run reads it, runs it under several configurations and
// writes it again with Results appended; cliff-diff and cliff-locate read
// that.
type Case struct {
	Kind    string `json:"kind"`
	Version int    `json:"v"`
	ID      string `json:"id"`
	// Seed reproduces the case with cliff-gen and Options. It is written as
	// a decimal string: JSON tools that hold numbers as float64 (jq before
	// 1.7, JavaScript) would round seeds above 2^53 and lose the case.
	Seed    uint64     `json:"seed,string"`
	Options GenOptions `json:"options,omitzero"`
	// Features are the swarm-testing choices cliff-gen made for this case:
	// feature name → enabled.
	Features map[string]bool `json:"features,omitempty"`
	// Parents are the functions a crossover case was bred from
	// (cliff-gen --crossover): the corpus function records' file and
	// function, so that a finding names the filetests it came from.
	Parents []Source `json:"parents,omitempty"`
	// CLIF is the module text: functions (and their preambles) only, no
	// "test", "set" or "target" lines; the configuration decides those.
	CLIF string `json:"clif"`
	// Entry names the function the inputs are for ("%f"); empty means the
	// module's first function.
	Entry string `json:"entry,omitempty"`
	// Settings are Cranelift settings the case needs on every
	// configuration ("enable_llvm_abi_extensions=true" for i128 params on
	// x86_64, ...); cliff-run adds them to its own.
	Settings []string `json:"settings,omitempty"`
	// Refined lists the cliff-refine passes applied to CLIF, in order.
	Refined []string `json:"refined,omitempty"`
	// Inputs are the argument vectors to call the entry function with.
	Inputs  []InputVector `json:"inputs,omitempty"`
	Metrics Metrics       `json:"metrics,omitzero"`
	Results []RunResult   `json:"results,omitempty"`
}

// GenOptions are the cliff-gen options that shaped a case: with the
// record's Seed they regenerate it byte for byte (cliff-gen --seed SEED
// --start INDEX -n 1 and these options). Features are on the Case.
type GenOptions struct {
	// Mode is "" for a generated case, "enumerate" for one minimal case
	// per opcode and type (cliff-gen --enumerate).
	Mode    string `json:"mode,omitempty"`
	Index   uint64 `json:"index"`   // the case's index in the seed's stream
	Profile string `json:"profile"` // "compat", "x86_64", ...
	// Cranelift are the versions the case was made for (cliff-gen
	// --cranelift), comma-separated: it uses only opcodes each of them
	// knows. Empty: the default's.
	Cranelift string `json:"cranelift,omitempty"`
	Depth     int    `json:"depth"` // control-flow nesting depth
	Funcs     int    `json:"funcs"` // functions per module (at most)
	// Mutation is the probability that a corpus instruction's opcode is
	// replaced by another of the same shape.
	Mutation float64 `json:"mutation"`
	Inputs   int     `json:"inputs"` // input vectors per case
	// Corpus is the snippet corpus as given on the command line (one
	// path, or several joined by commas), and CorpusHash the xxhash of
	// each file's bytes, joined the same way: the same paths with other
	// contents give other cases.
	Corpus     string `json:"corpus,omitempty"`
	CorpusHash string `json:"corpus_hash,omitempty"`
	Mask       string `json:"mask,omitempty"` // --mask file, same caveat as Corpus
	// Weights is the --weights file as given, and WeightsHash the xxhash
	// of its bytes, as Corpus and CorpusHash (lib/weights).
	Weights     string `json:"weights,omitempty"`
	WeightsHash string `json:"weights_hash,omitempty"`
	// Crossover is the function corpus of cliff-gen --crossover, and
	// CrossoverHash the xxhash of its bytes, as for Corpus.
	Crossover     string `json:"crossover,omitempty"`
	CrossoverHash string `json:"crossover_hash,omitempty"`
	Portable      bool   `json:"portable,omitempty"`
	CrashOnly     bool   `json:"crash_only,omitempty"`
}

// An InputVector is one call's arguments, in parameter order.
type InputVector []Value

// A Value is a typed constant in CLIF run-test syntax.
type Value struct {
	Type  string `json:"type"`  // "i32", "f64", "i8x16", ...
	Value string `json:"value"` // "0x7fffffff", "-0x1.8p1", "NaN", "[1 2 3 4]"
}

func (v Value) String() string { return v.Type + " " + v.Value }

// Metrics measure a case's shape, for steering generation and for reports.
type Metrics struct {
	Functions   int `json:"functions"`
	Blocks      int `json:"blocks"`
	Insts       int `json:"insts"`
	Cyclomatic  int `json:"cyclomatic"`    // edges - blocks + 1 per function (E - N + P), summed
	DomDepth    int `json:"dom_depth"`     // deepest dominator tree
	DefUseDepth int `json:"def_use_depth"` // longest def-use chain
	// Opcodes counts the instructions of each opcode (distinct opcodes:
	// len(Opcodes)).
	Opcodes map[string]int `json:"opcodes,omitempty"`
	// Survival is the fraction of the module's instructions that are
	// still there after Cranelift's mid-end at opt_level=speed (measured
	// through the driver), in [0, 1]; nil when not measured.
	Survival *float64 `json:"survival,omitempty"`
}

// RecordKind implements Record.
func (*Case) RecordKind() string { return KindCase }

// Stamp implements Record.
func (c *Case) Stamp() { c.Kind, c.Version = KindCase, SchemaVersion }

// Validate checks the required fields, the inputs, the metrics and every
// result.
func (c *Case) Validate() error {
	p := newProblems(KindCase, c.ID)
	p.header(c.Kind, c.Version, KindCase, false)
	p.require("id", c.ID)
	p.require("clif", c.CLIF)
	for i, vec := range c.Inputs {
		for j, v := range vec {
			if v.Type == "" || v.Value == "" { // naming the field costs more than checking it
				field := fmt.Sprintf("inputs[%d][%d]", i, j)
				p.require(field+".type", v.Type)
				p.require(field+".value", v.Value)
			}
		}
		if len(vec) != len(c.Inputs[0]) {
			p.addf(fmt.Sprintf("inputs[%d]", i), "%d values, but inputs[0] has %d", len(vec), len(c.Inputs[0]))
		}
	}
	if s := c.Metrics.Survival; s != nil && (*s < 0 || *s > 1) {
		p.addf("metrics.survival", "%v, outside [0, 1]", *s)
	}
	for i, s := range c.Settings {
		if !strings.Contains(s, "=") {
			p.addf("settings["+strconv.Itoa(i)+"]", "%q is not name=value", s)
		}
	}
	for i, src := range c.Parents {
		field := "parents[" + strconv.Itoa(i) + "]"
		p.require(field+".file", src.File)
		p.require(field+".function", src.Function)
	}
	for i := range c.Results {
		q := newProblems("", "")
		c.Results[i].validate(q, true)
		p.nested("results["+strconv.Itoa(i)+"]", q)
	}
	return p.err()
}
