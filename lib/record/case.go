package record

import (
	"fmt"
	"strconv"
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
	// CLIF is the module text: functions (and their preambles) only, no
	// "test", "set" or "target" lines; the configuration decides those.
	CLIF string `json:"clif"`
	// Entry names the function the inputs are for ("%f"); empty means the
	// module's first function.
	Entry string `json:"entry,omitempty"`
	// Inputs are the argument vectors to call the entry function with.
	Inputs  []InputVector `json:"inputs,omitempty"`
	Metrics Metrics       `json:"metrics,omitzero"`
	Results []RunResult   `json:"results,omitempty"`
}

// GenOptions are the cliff-gen options that shaped a case, so a case can be
// regenerated from Seed. Options without a field of their own go in Extra,
// as text.
type GenOptions struct {
	Mode      string            `json:"mode,omitempty"`      // generation strategy, e.g. "random", "snippets"
	Corpus    string            `json:"corpus,omitempty"`    // snippet corpus file
	Functions int               `json:"functions,omitempty"` // functions per module (at most)
	Blocks    int               `json:"blocks,omitempty"`    // blocks per function (at most)
	Insts     int               `json:"insts,omitempty"`     // instructions per function (at most)
	Inputs    int               `json:"inputs,omitempty"`    // input vectors per case
	Extra     map[string]string `json:"extra,omitempty"`
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
	Cyclomatic  int `json:"cyclomatic"`    // edges - blocks + 2, summed over functions
	DomDepth    int `json:"dom_depth"`     // deepest dominator tree
	DefUseDepth int `json:"def_use_depth"` // longest def-use chain
	// Opcodes counts the instructions of each opcode (distinct opcodes:
	// len(Opcodes)).
	Opcodes map[string]int `json:"opcodes,omitempty"`
	// Survival is the fraction of generated instructions that survived
	// refinement, in [0, 1].
	Survival float64 `json:"survival"`
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
			field := fmt.Sprintf("inputs[%d][%d]", i, j)
			p.require(field+".type", v.Type)
			p.require(field+".value", v.Value)
		}
		if len(vec) != len(c.Inputs[0]) {
			p.addf(fmt.Sprintf("inputs[%d]", i), "%d values, but inputs[0] has %d", len(vec), len(c.Inputs[0]))
		}
	}
	if s := c.Metrics.Survival; s < 0 || s > 1 {
		p.addf("metrics.survival", "%v, outside [0, 1]", s)
	}
	for i := range c.Results {
		q := newProblems("", "")
		c.Results[i].validate(q, true)
		p.nested("results["+strconv.Itoa(i)+"]", q)
	}
	return p.err()
}
