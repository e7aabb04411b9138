package printer

import "cliff/lib/ir"

// What an instruction prints after its results depends, apart from the
// values themselves, only on its opcode: the name, whether a `.type`
// suffix may be needed, and the operand layout of its format (modifiers,
// values, immediates and block calls, in which order and with which
// separators). Re-deriving all that from the opcode and format tables for
// every instruction took much of the printer's time, and the generator and
// cliff-refine print every case; so it is derived once, here, from those
// tables, which stay the only source of truth.

// opPlan is how instructions of one opcode print.
type opPlan struct {
	// name is the opcode's name, or "<bad opcode>"; shortName holds it too
	// when it fits, to be appended without a call to memmove.
	name      string
	shortName shortText
	// suffix says when the `.type` suffix is written; ctrlOperand is the
	// value operand that may carry the controlling type instead.
	suffix      suffixRule
	ctrlOperand int
	operands    *operandPlan
	// f128Result: the first result is an f128, so inline constant data
	// prints as a float.
	f128Result bool
	// constImm is the immediate of a constant opcode, whose results the
	// constant comments name (see constantImm); ImmNone for the others.
	constImm ir.ImmKind
}

// appendName writes the opcode's name.
func (op *opPlan) appendName(buf []byte) []byte {
	if op.shortName.n > 0 {
		return op.shortName.appendTo(buf)
	}
	return append(buf, op.name...)
}

// planOf returns op's plan; an out-of-range opcode gets OpInvalid's, as
// op.Info() gives it OpInvalid's row.
func planOf(op ir.Opcode) *opPlan {
	if int(op) < len(opPlans) {
		return &opPlans[op]
	}
	return &opPlans[ir.OpInvalid]
}

// opPlans holds the plan of every opcode, OpInvalid included.
var opPlans = func() []opPlan {
	ops := ir.Opcodes()
	plans := make([]opPlan, len(ops)+1)
	byFormat := map[ir.Format]*operandPlan{}
	for k := range plans {
		op := ir.Opcode(k)
		info := op.Info()
		if byFormat[info.Format] == nil {
			byFormat[info.Format] = newOperandPlan(info.Format)
		}
		plans[k] = opPlan{
			name:        op.String(),
			shortName:   newShortText(op.String()),
			suffix:      suffixRuleOf(info),
			ctrlOperand: info.CtrlOperand,
			operands:    byFormat[info.Format],
			f128Result:  len(info.Outs) > 0 && info.Outs[0].Kind == ir.OperandFixed && info.Outs[0].Type == ir.F128,
			constImm:    constantImm(info.Format.Info()),
		}
	}
	return plans
}()

// suffixRule says when an opcode's instructions print the `.type` suffix.
type suffixRule uint8

const (
	suffixNever         suffixRule = iota // monomorphic
	suffixAlways                          // polymorphic, no operand carries the type
	suffixUnlessOperand                   // unless the operand shows the type (needsSuffix)
)

func suffixRuleOf(info *ir.OpcodeInfo) suffixRule {
	switch {
	case !info.Polymorphic:
		return suffixNever
	case info.CtrlOperand < 0:
		return suffixAlways
	}
	return suffixUnlessOperand
}

// constantImm tells the opcodes whose results the constant comments name:
// those of a format with no value operands and one immediate that is an
// imm64, a float or a constant (iconst, f32const, vconst, ...). It returns
// that immediate, or ImmNone.
func constantImm(fi *ir.FormatInfo) ir.ImmKind {
	if fi.Values != 0 || fi.Varargs || len(fi.Imms) != 1 {
		return ir.ImmNone
	}
	switch fi.Imms[0] {
	case ir.ImmInt64, ir.ImmIeee16, ir.ImmIeee32, ir.ImmIeee64, ir.ImmConstant:
		return fi.Imms[0]
	}
	return ir.ImmNone
}

// operandPlan is how a format's operands print, as write.rs's
// write_operands does:
//
//   - modifiers (memory flags, condition codes, the atomic operation) first,
//     right after the opcode and without commas: `load.i32 notrap v0`;
//   - call-shaped formats (variable args with a func_ref or a callee value)
//     then write `sig0, v1(args)` or `fn0(args)`, then any exception table;
//   - other formats write the fixed values, then the immediates in order
//     (an offset32 sticks to the item before it: `v1+8`, `ss0+8`), then any
//     variable args;
//   - a format with no operands at all writes a lone space (`fence `).
//
// Everything except the variable args is fixed by the format, so items
// lists it with the separator before each item already decided.
type operandPlan struct {
	unknown   bool // FormatInvalid: print whatever the instruction holds
	bare      bool // the format has no operands at all
	modifiers []ir.ImmKind
	items     []operandItem
	// counted is the number of comma-separated items the plan writes, so
	// that what follows (variable args, or operands the format has no
	// room for) knows its separator.
	counted int
	// values is the number of fixed value operands; the args after them
	// are variable args when varargs is set, the call's args in
	// parentheses when callArgs is set too, and extra operands otherwise.
	values         int
	varargs        bool
	callArgs       bool
	exceptionTable bool
	// onlyValues: the format has fixed value operands and nothing else
	// (iadd, bxor, select, ...), the commonest kind, which
	// appendOperands writes without going through the items.
	onlyValues bool
}

// operandItem is one thing an operand plan writes.
type operandItem struct {
	kind  itemKind
	sep   separator  // written before the item
	value uint8      // itemValue: the index among the args
	imm   ir.ImmKind // itemImm: the immediate's kind
}

type itemKind uint8

const (
	itemValue          itemKind = iota // a fixed value operand, or a marker
	itemBlockCall                      // the next block call: `block1(v2)`
	itemImm                            // one other immediate or entity reference (appendSingleImm)
	itemOffset                         // an offset32, glued to the item before: `v1+8`
	itemCallArgs                       // `(v1, v2)`: the args after the fixed values
	itemJumpTable                      // `block1, [block2, block3]`
	itemExceptionTable                 // `sig0, block1(ret0), [ tag1: block2(exn0) ]`
)

// separator is what goes between operand items.
type separator uint8

const (
	sepNone  separator = iota
	sepSpace           // before the first item
	sepComma           // before the others
)

func (s separator) append(buf []byte) []byte {
	switch s {
	case sepSpace:
		return append(buf, ' ')
	case sepComma:
		return append(buf, ',', ' ')
	}
	return buf
}

// newOperandPlan derives the operand plan of format f from its table row.
func newOperandPlan(f ir.Format) *operandPlan {
	fi := f.Info()
	p := &operandPlan{
		unknown:        f == ir.FormatInvalid,
		bare:           fi.Values == 0 && !fi.Varargs && len(fi.Imms) == 0,
		values:         fi.Values,
		varargs:        fi.Varargs,
		exceptionTable: hasImm(fi, ir.ImmExceptionTable),
	}
	if p.unknown {
		return p
	}
	p.onlyValues = fi.Values > 0 && !fi.Varargs && len(fi.Imms) == 0
	for _, k := range fi.Imms {
		if isModifier(k) {
			p.modifiers = append(p.modifiers, k)
		}
	}
	if fi.Varargs && (hasImm(fi, ir.ImmFuncRef) || fi.Values >= 1) {
		p.callArgs = true
		for _, k := range fi.Imms {
			if k == ir.ImmSigRef {
				p.add(operandItem{kind: itemImm, imm: k}, 1)
			}
		}
		if hasImm(fi, ir.ImmFuncRef) {
			p.add(operandItem{kind: itemImm, imm: ir.ImmFuncRef}, 1)
		} else {
			p.add(operandItem{kind: itemValue, value: 0}, 1)
			for j := 1; j < fi.Values; j++ { // no such format today
				p.items = append(p.items, operandItem{kind: itemValue, sep: sepComma, value: uint8(j)})
			}
		}
		p.items = append(p.items, operandItem{kind: itemCallArgs})
		for _, k := range fi.Imms {
			if k != ir.ImmSigRef && k != ir.ImmFuncRef && !isModifier(k) {
				p.addImm(k)
			}
		}
		return p
	}
	for j := range fi.Values {
		p.add(operandItem{kind: itemValue, value: uint8(j)}, 1)
	}
	for _, k := range fi.Imms {
		if !isModifier(k) {
			p.addImm(k)
		}
	}
	return p
}

// add appends an item that writes n comma-separated items, choosing the
// separator before the first.
func (p *operandPlan) add(it operandItem, n int) {
	it.sep = sepComma
	if p.counted == 0 {
		it.sep = sepSpace
	}
	p.items = append(p.items, it)
	p.counted += n
}

// addImm appends the item of a non-modifier immediate.
func (p *operandPlan) addImm(k ir.ImmKind) {
	switch k {
	case ir.ImmOffset32:
		p.items = append(p.items, operandItem{kind: itemOffset})
	case ir.ImmBlockCall:
		p.add(operandItem{kind: itemBlockCall}, 1)
	case ir.ImmJumpTable:
		p.add(operandItem{kind: itemJumpTable}, 2)
	case ir.ImmExceptionTable:
		p.add(operandItem{kind: itemExceptionTable}, 3)
	default:
		p.add(operandItem{kind: itemImm, imm: k}, 1)
	}
}

func hasImm(fi *ir.FormatInfo, k ir.ImmKind) bool {
	for _, x := range fi.Imms {
		if x == k {
			return true
		}
	}
	return false
}

// isModifier tells the immediates written right after the opcode, before
// the operands and without commas: `load.i32 notrap aligned v0`,
// `icmp eq v0, v1`, `atomic_rmw.i32 add v0, v1`.
func isModifier(k ir.ImmKind) bool {
	switch k {
	case ir.ImmMemFlags, ir.ImmIntCC, ir.ImmFloatCC, ir.ImmAtomicRmwOp:
		return true
	}
	return false
}
