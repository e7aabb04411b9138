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
	// Inst is the culprit instruction, when one was found.
	Inst InstLocation `json:"inst,omitzero"`
	// Repro is the reduced CLIF that still shows the disagreement.
	Repro   string   `json:"repro,omitempty"`
	Configs []Config `json:"configs,omitempty"` // the configurations that disagree
	Notes   []string `json:"notes,omitempty"`   // what the locator tried and saw
}

// An InstLocation is an instruction within its block.
type InstLocation struct {
	Index int    `json:"index"` // 0-based position in the block
	Text  string `json:"text"`  // the instruction's CLIF line
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
	}
	for i, c := range l.Configs {
		c.validate(p, fmt.Sprintf("configs[%d]", i))
	}
	return p.err()
}
