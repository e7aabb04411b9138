// Package verify checks that CLIF functions are well formed, as Cranelift's
// verifier does before compiling: block structure, SSA form and dominance,
// types against the opcode table, branch and call signatures, and references
// to preamble entities.
//
// Unlike Cranelift, which stops at the first fatal problem, it reports every
// problem it finds, each with its function, block, instruction and source
// line (go/ssa's sanity checker works the same way). Messages keep
// Cranelift's wording where Cranelift has a check, so that an error can be
// looked up in Cranelift's sources and filetests.
//
// Everything opcode-specific comes from the opcode table (ir.Opcode.Info),
// read once per opcode into the rules of rules.go; the few opcodes with
// checks the table cannot express (lane indexes, bitcast flags, the
// settings that frame-pointer and pinned-register instructions need) are
// named in special.go.
//
// Some checks need the target: its pointer width (address operands, global
// value types, exception payloads) and two of its settings. Options carry
// them; OptionsFor derives them from a .clif file's header as Cranelift's
// filetest runner does. As in Cranelift, dominance is checked only for uses
// in blocks reachable from the entry.
package verify

import (
	"fmt"
	"strings"
	"sync"

	"cliff/lib/analysis"
	"cliff/lib/ir"
	"cliff/lib/printer"
)

// Error is one problem in one function. Block and Inst are ir.NoBlock and
// ir.NoInst when the problem is not about one block or instruction; Entity
// names the preamble entity ("gv2", "sig0", "fn1", "region1") a problem is
// about, if any.
type Error struct {
	Func   string
	Block  ir.Block
	Inst   ir.Inst
	Entity string
	// Context is the instruction as text, for messages.
	Context string
	Pos     ir.Pos
	Msg     string
}

// Error spells the problem with its context:
//
//	line 7: function %f, block0, inst `v1 = iadd v2, v0`: uses value v2 from non-dominating inst1
func (e Error) Error() string {
	var b strings.Builder
	if e.Pos.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Pos.Line)
	}
	b.WriteString("function ")
	b.WriteString(e.Func)
	if e.Block != ir.NoBlock {
		b.WriteString(", ")
		b.WriteString(e.Block.String())
	}
	switch {
	case e.Inst != ir.NoInst && e.Context != "":
		fmt.Fprintf(&b, ", inst `%s`", e.Context)
	case e.Inst != ir.NoInst:
		b.WriteString(", ")
		b.WriteString(e.Inst.String())
	}
	if e.Entity != "" {
		b.WriteString(", ")
		b.WriteString(e.Entity)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// Errors are all the problems found, in the order of the function text.
type Errors []Error

// Error lists the problems one per line.
func (e Errors) Error() string {
	var b strings.Builder
	for i, err := range e {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(err.Error())
	}
	return b.String()
}

// Options says what the verifier may assume about the target.
type Options struct {
	// PointerType is the target's pointer type (ir.I64 or ir.I32). Invalid
	// means no target is known: the checks that need one (address widths,
	// global value types, exception payload types) are skipped, as
	// Cranelift skips them without an ISA.
	PointerType ir.Type
	// DefaultCallConv stands for a calling convention that is not written.
	// Empty means fast, as in Cranelift's parser.
	DefaultCallConv ir.CallConv
	// PreserveFramePointers and EnablePinnedReg are the Cranelift settings
	// of those names: get_frame_pointer and get_return_address need the
	// first, get_pinned_reg and set_pinned_reg the second. Without a target
	// these instructions are errors, as in Cranelift.
	PreserveFramePointers bool
	EnablePinnedReg       bool
}

// DefaultOptions assume a 64-bit target.
func DefaultOptions() Options { return Options{PointerType: ir.I64} }

// Function verifies f for a 64-bit target; nil means f is valid.
func Function(f *ir.Function) Errors { return FunctionWith(f, DefaultOptions()) }

// FunctionWith verifies f under opts; nil means f is valid.
func FunctionWith(f *ir.Function, opts Options) Errors {
	v := verifierPool.Get().(*verifier)
	defer verifierPool.Put(v)
	return v.verify(f, opts)
}

// Module verifies every function of m for a 64-bit target.
func Module(m *ir.Module) Errors { return ModuleWith(m, DefaultOptions()) }

// ModuleWith verifies every function of m under opts, and that no two of
// them share a name: a module is one object, where a name is one symbol
// (Cranelift's module refuses the second definition).
func ModuleWith(m *ir.Module, opts Options) Errors {
	var errs Errors
	first := make(map[string]*ir.Function, len(m.Funcs))
	for _, f := range m.Funcs {
		if prev, ok := first[f.Name]; ok {
			errs = append(errs, Error{Func: f.Name, Block: ir.NoBlock, Inst: ir.NoInst, Pos: f.Pos.Func,
				Msg: fmt.Sprintf("defined twice in the module (first at line %d)", prev.Pos.Func.Line)})
			continue
		}
		first[f.Name] = f
		errs = append(errs, FunctionWith(f, opts)...)
	}
	return errs
}

// verifier holds one function and what is derived from it once: the
// declarations by number, the control flow graph (which also tells where
// each instruction is), the dominator tree, and the type and definition
// of each value.
//
// Verifiers are pooled and reset for each function, so that all of this is
// rebuilt in memory they already have: cliff-gen verifies every case it
// makes, and allocating the CFG and dominator tree afresh alone was a third
// of the time the verifier took.
type verifier struct {
	f    *ir.Function
	opts Options
	errs Errors

	decls  decls
	cfg    analysis.CFG
	dom    analysis.DomTree
	values []valueInfo // by value

	// Scratch: checkLayout's blocks seen, the type lists of returns.
	seen     []bool
	typeList []ir.Type
}

var verifierPool = sync.Pool{New: func() any { return new(verifier) }}

// verify verifies f under opts in v's memory, whatever v verified before.
func (v *verifier) verify(f *ir.Function, opts Options) Errors {
	if opts.DefaultCallConv == ir.CallConvNone {
		opts.DefaultCallConv = ir.CallConvFast
	}
	v.reset(f, opts)
	v.run()
	errs := v.errs
	v.f, v.errs = nil, nil // for the pool: keep no function alive
	return errs
}

// reset makes v a verifier of f under opts.
func (v *verifier) reset(f *ir.Function, opts Options) {
	v.f, v.opts, v.errs = f, opts, nil
	v.indexDecls()
	v.cfg.Recompute(f)
	v.dom.Recompute(&v.cfg)
	v.indexValues() // after the CFG, which places instructions
}

// run performs every check: the function-level ones first, then each block
// and instruction in layout order, so that errors come out in text order.
func (v *verifier) run() {
	v.checkSignatures()
	v.checkDecls()
	v.checkGlobalValues()
	v.checkLayout()
	v.checkEntryBlock()
	for _, b := range v.cfg.Layout() {
		v.checkBlock(b)
		for k, i := range v.f.Blocks[b].Insts {
			if v.placed(i, b, k) {
				v.checkInst(i, b, k)
			}
		}
	}
}

// placed reports whether inst is at index k of block b, its one place in
// the layout (checkBlock reports instructions listed twice or not existing).
func (v *verifier) placed(inst ir.Inst, b ir.Block, k int) bool {
	return v.cfg.InstBlock(inst) == b && v.cfg.InstIndex(inst) == k
}

// checkInst runs every per-instruction check of i, at index k of block b.
func (v *verifier) checkInst(i ir.Inst, b ir.Block, k int) {
	d := &v.f.Insts[i]
	r := rulesOf(d.Op)
	if r.info == nil {
		v.instErr(i, "invalid opcode %d", d.Op)
		return
	}
	if !v.checkOperandCount(i, d, r) {
		return
	}
	// Some checks are skipped when they have nothing to look at: most
	// instructions name no entity, branch nowhere and call nothing.
	if len(d.Results) > 0 {
		v.checkResultDefs(i, d)
	}
	v.checkUses(i, d, b, k)
	if len(r.entityImms) > 0 || len(d.DebugTags) > 0 || len(d.StackMap) > 0 {
		v.checkEntityRefs(i, d, r)
	}
	v.checkTypes(i, d, r)
	if r.dests > 0 || r.rawBlocks > 0 || len(d.Dests) > 0 || len(d.Handlers) > 0 {
		v.checkBranches(i, d, r)
	}
	if r.signature {
		v.checkCallSignature(i, d, r)
	}
	if len(r.special) > 0 || len(d.DebugTags) > 0 || len(d.StackMap) > 0 {
		v.checkSpecial(i, d, r)
	}
}

// Reporting. Each helper fills in the context of its kind of location.

func (v *verifier) funcErr(format string, args ...any) {
	v.errs = append(v.errs, Error{Func: v.f.Name, Block: ir.NoBlock, Inst: ir.NoInst,
		Pos: v.f.Pos.Func, Msg: fmt.Sprintf(format, args...)})
}

func (v *verifier) entityErr(entity string, format string, args ...any) {
	v.errs = append(v.errs, Error{Func: v.f.Name, Block: ir.NoBlock, Inst: ir.NoInst,
		Entity: entity, Msg: fmt.Sprintf(format, args...)})
}

func (v *verifier) blockErr(b ir.Block, format string, args ...any) {
	v.errs = append(v.errs, Error{Func: v.f.Name, Block: b, Inst: ir.NoInst,
		Pos: v.f.Pos.BlockPos(b), Msg: fmt.Sprintf(format, args...)})
}

func (v *verifier) instErr(i ir.Inst, format string, args ...any) {
	v.errs = append(v.errs, Error{Func: v.f.Name, Block: v.cfg.InstBlock(i), Inst: i,
		Context: describeInst(v.f, i), Pos: v.f.Pos.InstPos(i), Msg: fmt.Sprintf(format, args...)})
}

// contextPrinter spells instructions for error context, without the
// constant comments.
var contextPrinter = printer.Options{NoConstComments: true}

// describeInst spells an instruction as CLIF text.
func describeInst(f *ir.Function, i ir.Inst) string { return contextPrinter.Inst(f, i) }
