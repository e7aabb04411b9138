package reduce

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"cliff/lib/ir"
	"cliff/lib/iredit"
	"cliff/lib/record"
)

// A Candidate is one case to try: CLIF, the input vectors to call its entry
// with, the settings it needs, and the configurations to run it on (the
// failing ones and passing ones of the expected side). Reduction changes
// all four.
type Candidate struct {
	// Module is the parsed form of CLIF. Oracles read it and must not
	// change it.
	Module *ir.Module
	CLIF   string
	// Entry names the function the inputs are for; "" means the first.
	Entry    string
	Inputs   []record.InputVector
	Settings []string
	Configs  []record.Config
}

// NewCandidate makes a candidate of a case: its CLIF parsed, its entry,
// inputs and settings, and the configurations to run it on.
func NewCandidate(c *record.Case, configs []record.Config) (*Candidate, error) {
	m, err := iredit.Parse(c.CLIF)
	if err != nil {
		return nil, fmt.Errorf("case %s: %w", c.ID, err)
	}
	if len(m.Funcs) == 0 {
		return nil, fmt.Errorf("case %s: no function", c.ID)
	}
	entry := c.Entry
	if entry == "" {
		entry = m.Funcs[0].Name
	}
	if m.Func(entry) == nil {
		return nil, fmt.Errorf("case %s: entry %s is not in the module", c.ID, entry)
	}
	// Edits are planned on the parse of the printed text (instruction IDs
	// follow the text), so the module is that parse.
	text := iredit.Text(m)
	if m, err = iredit.Parse(text); err != nil {
		return nil, fmt.Errorf("case %s: %w", c.ID, err)
	}
	return &Candidate{Module: m, CLIF: text, Entry: entry, Inputs: slices.Clone(c.Inputs),
		Settings: slices.Clone(c.Settings), Configs: cloneConfigs(configs)}, nil
}

// Case returns the candidate as a case record with the given ID, for an
// oracle that runs case records.
func (c *Candidate) Case(id string) *record.Case {
	rc := &record.Case{ID: id, CLIF: c.CLIF, Entry: c.Entry, Inputs: slices.Clone(c.Inputs), Settings: slices.Clone(c.Settings)}
	rc.Stamp()
	return rc
}

// EntryFunc returns the entry function.
func (c *Candidate) EntryFunc() *ir.Function { return iredit.EntryFunc(c.Module, c.Entry) }

// Insts counts the instructions of every function.
func (c *Candidate) Insts() int { return iredit.ModuleInsts(c.Module) }

// size measures a candidate for the reducer, which commits a variant only
// when it is smaller, so that reduction always ends: first its structure,
// then the length of its text, inputs, settings and configurations. In
// the structure an instruction counts 2, a constant 1 (substituting a
// result by a constant is progress), a block param 2 and a function param
// 1 (a used block param may become a constant, a used function param
// stays: it is the reproducer's input, opaque to the optimiser), and
// returns, stack slots, blocks and functions 1.
func (c *Candidate) size() (structure, text int) {
	for _, f := range c.Module.Funcs {
		structure += 1 + len(f.Sig.Returns) + len(f.StackSlots)
		for k, b := range f.Layout {
			structure += 1 + 2*len(f.Blocks[b].Params)
			if k == 0 {
				structure -= len(f.Blocks[b].Params)
			}
			for _, i := range f.Blocks[b].Insts {
				if iredit.IsConstForm(f, &f.Insts[i]) {
					structure++
				} else {
					structure += 2
				}
			}
		}
	}
	return structure, len(c.key())
}

// smaller reports whether a is smaller than b (see size).
func smaller(a, b *Candidate) bool {
	as, at := a.size()
	bs, bt := b.size()
	return as < bs || as == bs && at < bt
}

// key identifies a candidate for the Tester's cache.
func (c *Candidate) key() string {
	var b strings.Builder
	b.WriteString(c.CLIF)
	b.WriteString("\x00")
	for _, in := range c.Inputs {
		for _, v := range in {
			b.WriteString(v.String())
			b.WriteString(",")
		}
		b.WriteString(";")
	}
	b.WriteString("\x00" + strings.Join(c.Settings, ","))
	for _, cfg := range c.Configs {
		b.WriteString("\x00" + cfg.String())
	}
	return b.String()
}

// clone returns a copy of c sharing nothing mutable with it except Module,
// which edits never change (they work on iredit.Clone).
func (c *Candidate) clone() *Candidate {
	n := *c
	n.Inputs = make([]record.InputVector, len(c.Inputs))
	for k, in := range c.Inputs {
		n.Inputs[k] = slices.Clone(in)
	}
	n.Settings = slices.Clone(c.Settings)
	n.Configs = cloneConfigs(c.Configs)
	return &n
}

func cloneConfigs(cs []record.Config) []record.Config {
	out := make([]record.Config, len(cs))
	for k, c := range cs {
		c.Flags = slices.Clone(c.Flags)
		c.Settings = slices.Clone(c.Settings)
		out[k] = c
	}
	return out
}

// An Oracle runs candidates on their configurations and says which failure
// each shows: its signature, or "" when the configurations agree. One call
// checks a batch, so that an oracle behind a driver pays one round-trip
// per batch. An error means the oracle could not answer (not that the
// candidate failed) and stops the reduction.
type Oracle interface {
	Signatures(ctx context.Context, cands []*Candidate) ([]string, error)
}

// OracleFunc is an Oracle that checks candidates one at a time.
type OracleFunc func(ctx context.Context, c *Candidate) (string, error)

// Signatures implements Oracle.
func (fn OracleFunc) Signatures(ctx context.Context, cands []*Candidate) ([]string, error) {
	out := make([]string, len(cands))
	for k, c := range cands {
		s, err := fn(ctx, c)
		if err != nil {
			return nil, err
		}
		out[k] = s
	}
	return out, nil
}
