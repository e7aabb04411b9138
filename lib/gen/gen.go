package gen

import (
	"fmt"

	"cliff/lib/ir"
	"cliff/lib/printer"
	"cliff/lib/profile"
	"cliff/lib/record"
	"cliff/lib/weights"
)

// Options shape generation. With Seed, they determine every case byte for
// byte: the case with index i is the same whichever cases come before it.
type Options struct {
	Seed    uint64
	Profile *profile.Profile
	// ProfileName is the name the profile was asked for ("compat"), for
	// the record; Profile.Name when empty.
	ProfileName string
	Depth       int     // nesting depth of control structures
	Funcs       int     // functions per module, %main included (at most)
	Mutation    float64 // probability a corpus instruction's opcode mutates
	Inputs      int     // input vectors per case
	Corpus      *Corpus // nil: instructions come from the profile only
	// Parents are crossover's functions (cliff-gen --crossover); nil:
	// no crossover, and its swarm switches are not drawn.
	Parents *Parents
	// CrashOnly lets trapping instructions in unguarded: such cases may
	// trap, and only compiler crashes count.
	CrashOnly bool
	// Features override the swarm choice for every case ("loops" off,
	// "ops:float" on, ...).
	Features map[string]bool
	// Reuse builds each case's IR in the memory of the cases before,
	// which saves allocating and zeroing it (a fifth of the time of
	// Case): a module Case, Unprinted or Module returns is then valid only
	// until the next call, and one Enumerate passes to emit only until
	// emit returns. For callers done with each case before the next, as
	// cliff-gen is.
	Reuse bool
	// Weights move the swarm's chances and weights (weights.go); empty
	// changes nothing. The record states the file (Record.Weights).
	Weights weights.Weights
	// Record holds what the record states about options the generator
	// does not read itself (corpus and mask paths, portable).
	Record record.GenOptions
}

// Defaults for the command-line flags.
const (
	DefaultDepth    = 5
	DefaultFuncs    = 4
	DefaultMutation = 0.5
	DefaultInputs   = 8
)

// DefaultOptions are the options of `cliff-gen --seed SEED --depth DEPTH`
// with profile p: the flags' defaults for the rest.
func DefaultOptions(p *profile.Profile, seed uint64, depth int) Options {
	return Options{Seed: seed, Profile: p, Depth: depth, Funcs: DefaultFuncs, Mutation: DefaultMutation, Inputs: DefaultInputs}
}

// A Generator makes cases. It precomputes the profile's opcode tables once;
// Case may then be called for any index, from one goroutine at a time.
type Generator struct {
	opts    Options
	tab     *tables
	weights *swarmWeights // nil without Options.Weights
	arena   arena         // what functions are allocated from (arena.go)
	scope   scope         // of the function being generated, reused by the next
	takers  []opType      // consume's scratch
}

// New checks the options and prepares the tables.
func New(opts Options) (*Generator, error) {
	if opts.Profile == nil {
		return nil, fmt.Errorf("gen: no profile")
	}
	if opts.Depth < 0 || opts.Depth > 30 {
		return nil, fmt.Errorf("depth %d: want 0..30", opts.Depth)
	}
	if opts.Funcs < 1 || opts.Funcs > 64 {
		return nil, fmt.Errorf("funcs %d: want 1..64", opts.Funcs)
	}
	if opts.Mutation < 0 || opts.Mutation > 1 {
		return nil, fmt.Errorf("mutation %v: want a probability in [0, 1]", opts.Mutation)
	}
	if opts.Inputs < 1 || opts.Inputs > 1000 {
		return nil, fmt.Errorf("inputs %d: want 1..1000", opts.Inputs)
	}
	if opts.ProfileName == "" {
		opts.ProfileName = opts.Profile.Name
	}
	tab := newTables(opts.Profile, opts.CrashOnly)
	sw, err := newSwarmWeights(opts.Weights, tab)
	if err != nil {
		return nil, err
	}
	return &Generator{opts: opts, tab: tab, weights: sw, arena: newArena(opts.Reuse)}, nil
}

// CaseSeed is the seed of case index of a campaign seed.
func CaseSeed(seed, index uint64) uint64 { return derive(seed, index) }

// Case generates the case with the given index, as a record (without
// metrics) and as IR.
func (g *Generator) Case(index uint64) (*record.Case, *ir.Module, error) {
	rec, mod, err := g.Unprinted(index)
	if err != nil {
		return nil, nil, err
	}
	if err := SetCLIF(rec, mod); err != nil {
		return nil, nil, fmt.Errorf("case %d: %w", index, err)
	}
	return rec, mod, nil
}

// Unprinted is Case without the CLIF text, for callers that rewrite the
// IR first (cliff-gen --refine) and then call SetCLIF once.
func (g *Generator) Unprinted(index uint64) (*record.Case, *ir.Module, error) {
	g.arena.reset()
	c := newCaseGen(g, CaseSeed(g.opts.Seed, index))
	mod, err := c.module()
	if err != nil {
		return nil, nil, fmt.Errorf("case %d: %w", index, err)
	}
	opts := g.opts.Record
	opts.Index = index
	opts.Profile = g.opts.ProfileName
	opts.Depth, opts.Funcs, opts.Mutation, opts.Inputs = g.opts.Depth, g.opts.Funcs, g.opts.Mutation, g.opts.Inputs
	opts.CrashOnly = g.opts.CrashOnly
	rec := &record.Case{
		ID:       fmt.Sprintf("g%016x-%d", g.opts.Seed, index),
		Seed:     g.opts.Seed,
		Options:  opts,
		Features: c.sw.on,
		Settings: g.opts.Profile.Settings,
		Inputs:   c.inputs(mod.Funcs[0]),
		Parents:  c.parents,
	}
	rec.Stamp()
	return rec, mod, nil
}

// SetCLIF prints mod into the record, in the compact layout every cliff
// tool writes cases in.
func SetCLIF(rec *record.Case, mod *ir.Module) error {
	rec.CLIF = printer.Options{Compact: true}.ModuleString(mod)
	return nil
}

// Opcodes lists the opcodes the generator may emit with its profile, in
// table order: what opcode diversity is measured against.
func (g *Generator) Opcodes() []ir.Opcode {
	var out []ir.Opcode
	for _, op := range g.opts.Profile.Opcodes() {
		if computation(op, g.opts.CrashOnly) || op.Is(ir.RoleStructure) {
			out = append(out, op)
			continue
		}
		for _, a := range g.tab.mem {
			if a.ot.op == op {
				out = append(out, op)
				break
			}
		}
	}
	return out
}

// Module generates the IR of the case with the given index, for callers
// (tests, benchmarks) that want it before printing.
func (g *Generator) Module(index uint64) (*ir.Module, error) {
	g.arena.reset()
	return newCaseGen(g, CaseSeed(g.opts.Seed, index)).module()
}
