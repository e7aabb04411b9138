package ub

import (
	"cliff/lib/ir"
)

// ScaffoldLoc is the source location of scaffold instructions. The number
// spells "cliff" closely enough to be recognised in a dump and is far from
// the small offsets real front ends write.
var ScaffoldLoc = ir.SrcLoc(0xc1ff)

// IsScaffold reports whether d is a scaffold instruction.
func IsScaffold(d *ir.InstData) bool { return d.SrcLoc == ScaffoldLoc }

// PrunedLoc is the source location of a pruned instruction (printed
// `@c1fe`): one whose guard lib/prune dropped because its unsafe case
// never happened on the case's inputs. Its operands are safe for those
// inputs only, not for any values of the free operands: nothing may
// rebind them (FreeOperand), and a rewrite of the code that computes
// them (a refinement pass, a reduction) may make it trap or show NaN
// bits, so a pruned case is never refined again and its reductions are
// judged by the reference (lib/prune).
var PrunedLoc = ir.SrcLoc(0xc1fe)

// IsPruned reports whether d is a pruned instruction.
func IsPruned(d *ir.InstData) bool { return d.SrcLoc == PrunedLoc }

// chosenForSafety are the opcode flags of instructions whose operands are
// all chosen for safety: a trapping instruction's operands are guarded, a
// memory access's address is a stack address inside its slot.
const chosenForSafety = ir.FlagCanTrap | ir.FlagCanLoad | ir.FlagCanStore

// NaNSensitive reports whether operand k of an instruction with opcode op
// shows the NaN bits of a float value (when it is one): the opcode table's
// nanbits column. Targets produce different NaN bits for the same
// arithmetic, so a float value reaching such an operand must be canonical
// first.
func NaNSensitive(op ir.Opcode, k int) bool { return nanSensitive.has(op, k) }

// nanSensitive is the nanbits column as a table the passes can ask for
// every operand they rebind.
var nanSensitive = func() operandSet {
	byOp := map[ir.Opcode][]int{}
	for _, op := range ir.Opcodes() {
		if ks := op.Info().NaNBits; len(ks) > 0 {
			byOp[op] = ks
		}
	}
	return operandTable(byOp)
}()

// FreeOperand reports whether operand k of inst may be rebound to any
// other value of the same type that dominates inst and is not an address:
// the instruction stays defined and target-independent whatever the value.
func FreeOperand(f *ir.Function, inst ir.Inst, k int) bool {
	d := &f.Insts[inst]
	if IsScaffold(d) || IsPruned(d) || k >= len(d.Args) {
		return false
	}
	if d.Op.Info().Flags&chosenForSafety != 0 {
		return false
	}
	switch d.Op {
	case ir.OpCallIndirect, ir.OpReturnCallIndirect:
		if k == 0 {
			return false // the callee address
		}
	}
	if NaNSensitive(d.Op, k) && HasFloatLanes(f.Values[f.Resolve(d.Args[k])].Type) {
		return false
	}
	return true
}

// FreeBlockArgs reports whether the args a terminator passes to its
// destinations may be rebound: they may unless the terminator is scaffold
// (a loop's back edge carries its trip counter).
func FreeBlockArgs(f *ir.Function, inst ir.Inst) bool { return !IsScaffold(&f.Insts[inst]) }

// HasFloatLanes reports whether t is a float scalar or a vector of floats.
func HasFloatLanes(t ir.Type) bool { return t.LaneType().IsFloat() }

// addressProducers are the opcodes whose result is an address.
var addressProducers = newOpcodeSet(
	ir.OpStackAddr, ir.OpFuncAddr, ir.OpSymbolValue, ir.OpTlsValue,
	ir.OpDynamicStackAddr, ir.OpGetFramePointer, ir.OpGetStackPointer,
	ir.OpGetReturnAddress, ir.OpGetExceptionHandlerAddress,
)

// IsAddress reports whether v is an address: its bits differ between runs
// and targets, so it must never reach an output or feed arithmetic.
func IsAddress(f *ir.Function, v ir.Value) bool {
	v = f.Resolve(v)
	if int(v) >= len(f.Values) {
		return false
	}
	vd := &f.Values[v]
	return vd.Kind == ir.DefResult && addressProducers.has(f.Insts[vd.Inst].Op)
}

// ReturnedAddress returns an address (IsAddress) that f returns, if any:
// a function whose result shows an address differs between targets for
// no fault of the compiler, so no generator, pass or reduction may make
// one.
func ReturnedAddress(f *ir.Function) (ir.Value, bool) {
	for _, b := range f.Layout {
		insts := f.Blocks[b].Insts
		if len(insts) == 0 {
			continue
		}
		if d := &f.Insts[insts[len(insts)-1]]; d.Op == ir.OpReturn {
			for _, a := range d.Args {
				if IsAddress(f, a) {
					return a, true
				}
			}
		}
	}
	return ir.Value(0), false
}
