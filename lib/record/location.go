package record

import "fmt"

// A Location is cliff-locate's answer for a divergent case: the instruction
// whose compilation differs, and a reduced reproducer. It is the end of the
// pipeline, read by humans and kept with the regression cases.
type Location struct {
	Kind     string `json:"kind"`
	Version  int    `json:"v"`
	CaseID   string `json:"case_id"`
	Function string `json:"function"`        // e.g. "%f0"
	Block    string `json:"block,omitempty"` // e.g. "block3"
	// Level is how far localisation got: LocFunction, LocBlock or
	// LocInstruction (Block, then Inst, are set from that level on).
	Level string `json:"level,omitempty"`
	// Signature is the failure signature the location and Repro reproduce.
	Signature string `json:"signature,omitempty"`
	// Cluster is the signature hash of the cluster record located (its
	// representative), when the input was one, without the cluster's
	// culprit: how cliff-cluster's report finds the location of each
	// cluster, and splits a signature by the culprits located for it.
	Cluster string `json:"cluster,omitempty"`
	// Mask are the mask entries (lib/profile's format) that keep the
	// failure's shape out of generation: the culprit of the reduced case
	// with the producers of its operands the failure needs, per failing
	// architecture.
	Mask []string `json:"mask,omitempty"`
	// Inst is the culprit instruction, when one was found.
	Inst InstLocation `json:"inst,omitzero"`
	// Repro is the reduced CLIF that still shows the disagreement.
	Repro   string   `json:"repro,omitempty"`
	Configs []Config `json:"configs,omitempty"` // the configurations that disagree
	Notes   []string `json:"notes,omitempty"`   // what the locator tried and saw
	// Bisect is where among Cranelift's releases the reduced case's
	// failure appears or goes away (cliff-locate --bisect).
	Bisect *Bisection `json:"bisect,omitempty"`
}

// A Bisection is the answer of a bisection between two releases.
type Bisection struct {
	From string `json:"from"` // the releases bisected between
	To   string `json:"to"`
	// Kind is "fixed" (fails at From, passes at To), "regression" (the
	// reverse) or "unchanged".
	Kind string `json:"kind"`
	// Last behaves as From does, First as To does: the change lies
	// between them, adjacent releases among those that could be judged.
	Last  string `json:"last,omitempty"`
	First string `json:"first,omitempty"`
	// Probes is how many releases were built and run; Seconds how long
	// it took.
	Probes  int     `json:"probes"`
	Seconds float64 `json:"seconds"`
}

// String is the answer in words.
func (b *Bisection) String() string {
	switch b.Kind {
	case "fixed":
		return fmt.Sprintf("fixed in Cranelift %s (last failing: %s)", b.First, b.Last)
	case "regression":
		return fmt.Sprintf("appeared in Cranelift %s (last passing: %s)", b.First, b.Last)
	}
	return fmt.Sprintf("the same in Cranelift %s and %s", b.From, b.To)
}

// Location levels, coarsest first (the snippet levels share the first
// two words).
const (
	LocFunction    = "function"
	LocBlock       = "block"
	LocInstruction = "instruction"
)

// An InstLocation is an instruction within its block.
type InstLocation struct {
	Index int    `json:"index"` // 0-based position in the block
	Text  string `json:"text"`  // the instruction's CLIF line
	// Opcode and Type name the instruction as a mask entry does
	// ("scalar_to_vector", "i8x16"; Type "CTRL:FREE" for an opcode with a
	// free operand type, "-" for a monomorphic one).
	Opcode string `json:"opcode,omitempty"`
	Type   string `json:"type,omitempty"`
}

// RecordKind implements Record.
func (*Location) RecordKind() string { return KindLocation }

// Stamp implements Record.
func (l *Location) Stamp() { l.Kind, l.Version = KindLocation, SchemaVersion }

// Validate checks the required fields.
func (l *Location) Validate() error {
	p := newProblems(KindLocation, l.CaseID)
	p.header(l.Kind, l.Version, KindLocation, false)
	p.require("case_id", l.CaseID)
	p.require("function", l.Function)
	if l.Inst != (InstLocation{}) {
		p.require("inst.text", l.Inst.Text)
		if l.Inst.Index < 0 {
			p.addf("inst.index", "%d is negative", l.Inst.Index)
		}
		p.require("block", l.Block)
		if l.Inst.Type != "" {
			p.require("inst.opcode", l.Inst.Opcode)
		}
	}
	switch l.Level {
	case "":
	default:
		oneOf(p, "level", l.Level, LocFunction, LocBlock, LocInstruction)
	case LocFunction, LocBlock, LocInstruction:
		if l.Level != LocFunction {
			p.require("block", l.Block)
		}
		if l.Level == LocInstruction {
			p.require("inst.text", l.Inst.Text)
		}
		if l.Level != LocInstruction && l.Inst != (InstLocation{}) {
			p.addf("inst", "set at level %q", l.Level)
		}
	}
	for i, c := range l.Configs {
		c.validate(p, fmt.Sprintf("configs[%d]", i))
	}
	return p.err()
}
