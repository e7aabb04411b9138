package parser

import (
	"cliff/lib/internal/uint128"
	"cliff/lib/ir"
)

// parseInstruction reads an instruction after its results and `=`, the
// lookahead being the opcode, and appends it to the function. start is
// where the instruction begins (its first result, or the opcode).
func (fp *funcParser) parseInstruction(results []token, ann annotations, start ir.Pos) error {
	f := fp.f
	inst, d := fp.newInst()
	d.Func, d.Sig, d.Slot, d.DynSlot = ir.NoFuncRef, ir.NoSigRef, ir.NoStackSlot, ir.NoDynSlot
	d.GV, d.RawBlock, d.Const = ir.NoGlobalValue, ir.NoBlock, ir.NoConstant
	d.SrcLoc = ann.loc
	if ann.tags != nil {
		d.DebugTags = ann.tags
	}
	if len(results) > 0 {
		d.Results = fp.values.Take(len(results))[:len(results)]
	}
	for k := range results {
		rt := &results[k]
		vd, err := fp.defineValue(rt)
		if err != nil {
			return err
		}
		*vd = ir.ValueData{Kind: ir.DefResult, Inst: inst, Index: k}
		d.Results[k] = ir.Value(rt.num)
	}

	opTok := fp.tok
	fp.forwardUse = false
	explicit, err := fp.parseOpcodeAndOperands(d)
	if err != nil {
		return err
	}
	op := d.Op

	n, err := fp.resultCount(d)
	if err != nil {
		return fp.errAt(opTok, "%v", err)
	}
	if n != len(results) {
		return fp.errAtPos(start, "instruction %s produces %d result values, %d given", op, n, len(results))
	}

	f.Pos.Insts = append(f.Pos.Insts, start)
	fp.blockInsts = append(fp.blockInsts, inst)
	if fp.forwardUse {
		fp.forwardRefs = append(fp.forwardRefs, inst) // see checkOperandsDefined
	}

	typed, err := fp.typeInst(d, explicit, &opTok)
	if err != nil {
		return err
	}
	if !typed {
		fp.deferred = append(fp.deferred, deferredInst{inst, opTok})
	}

	if fp.optional(tokComma) {
		return fp.parseStackMap(d)
	}
	return nil
}

// newInst adds an instruction to the function's table and returns it, all
// zero, to be read in place: InstData is large and holds pointers, so
// copying one in, or clearing it, costs a bulk write barrier while the
// collector runs. A slot within the capacity of a new table is zero
// already (the table is made by reserve and extended only here), so it is
// not cleared again; that of a Recycler's table holds an old instruction.
// An error discards the function, half-read instruction and all.
func (fp *funcParser) newInst() (ir.Inst, *ir.InstData) {
	f := fp.f
	inst := ir.Inst(len(f.Insts))
	if len(f.Insts) < cap(f.Insts) {
		f.Insts = f.Insts[:inst+1]
		if fp.recycler != nil {
			f.Insts[inst] = ir.InstData{}
		}
	} else {
		f.Insts = append(f.Insts, ir.InstData{})
	}
	return inst, &f.Insts[inst]
}

// parseOpcodeAndOperands reads the opcode, its optional controlling type
// and its operands into d. explicit says whether the controlling type was
// written (d.CtrlType holds it then).
func (fp *funcParser) parseOpcodeAndOperands(d *ir.InstData) (explicit bool, err error) {
	opTok := fp.tok
	if opTok.kind != tokIdent {
		return false, fp.expected("instruction opcode")
	}
	op, ok := lookupOpcode(fp.text(opTok))
	if !ok {
		return false, fp.errAt(opTok, "unknown opcode '%s'", fp.text(opTok))
	}
	d.Op = op
	fp.advance()

	// The controlling type: `.T`, or `.dtN` for the dynamic vector type of
	// a declared dynamic type (an undeclared dtN leaves it to inference, as
	// in Cranelift).
	if fp.optional(tokDot) {
		switch fp.tok.kind {
		case tokType:
			d.CtrlType, explicit = fp.tok.typ, true
		case tokDynType:
			d.CtrlType, explicit = fp.dynTypes[ir.DynamicType(fp.tok.num)]
		default:
			return false, fp.expected("type after '" + fp.text(opTok) + ".'")
		}
		fp.advance()
	}
	if explicit && !op.Info().Polymorphic {
		return false, fp.errAt(opTok, "%s does not take a typevar", op)
	}
	return explicit, fp.parseOperands(d, explicit)
}

// parseStackMap reads `stack_map = [T @ ssN+off, ...]` after a call into
// d.StackMap. An empty list leaves no stack map, as in Cranelift.
func (fp *funcParser) parseStackMap(d *ir.InstData) error {
	at := fp.tok
	if !fp.optionalIdent("stack_map") {
		return fp.expected("'stack_map = [...]' after ','")
	}
	if !d.Op.IsCall() || d.Op.IsReturn() {
		return fp.errAt(at, "stack map can only be attached to a (non-tail) call")
	}
	if err := fp.need(tokEqual, "'=' after stack_map"); err != nil {
		return err
	}
	if err := fp.need(tokLBracket, "'[' after 'stack_map ='"); err != nil {
		return err
	}
	for !fp.optional(tokRBracket) {
		tt, err := fp.expect(tokType, "stack map entry 'T @ ssN+offset'")
		if err != nil {
			return err
		}
		if err := fp.need(tokAt, "'@ ssN+offset' in stack map entry"); err != nil {
			return err
		}
		ss, err := fp.anyStackSlot()
		if err != nil {
			return err
		}
		// `ss0+8` lexes as ss0 and the integer +8; `ss0 + 8` as three tokens.
		if !fp.is(tokInteger) || fp.text(fp.tok)[0] != '+' {
			if err := fp.need(tokPlus, "'+ offset' in stack map entry"); err != nil {
				return err
			}
		}
		off, err := fp.uimm32("stack map offset")
		if err != nil {
			return err
		}
		d.StackMap = append(d.StackMap, ir.StackMapEntry{Type: tt.typ, Slot: ss, Offset: off})
		if !fp.optional(tokComma) {
			if err := fp.need(tokRBracket, "',' or ']' in stack map"); err != nil {
				return err
			}
			break
		}
	}
	return nil
}

// parseOperands reads the operands of d.Op, whose shape is fixed by its
// instruction format.
func (fp *funcParser) parseOperands(d *ir.InstData, explicit bool) error {
	var err error
	fp.scratch.dests = fp.scratch.dests[:0] // see dest
	if n := d.Op.Format().Values; n > 0 {
		d.Args = fp.values.Take(n)
	}
	// vals reads n comma-separated value operands into d.Args.
	vals := func(n int) error { return fp.valueOperands(d, n) }
	// callArgs reads `(v, ...)` into d.Args.
	callArgs := func() error {
		if err := fp.need(tokLPar, "'(' before arguments"); err != nil {
			return err
		}
		if err := fp.valueList(&d.Args); err != nil {
			return err
		}
		return fp.need(tokRPar, "')' after arguments")
	}
	// thenComma reads a ',' after an operand read without error.
	thenComma := func(err error) error {
		if err != nil {
			return err
		}
		return fp.comma()
	}

	switch d.Op.Info().Format {
	case ir.FormatNullAry:
	case ir.FormatUnary:
		err = vals(1)
	case ir.FormatBinary:
		err = vals(2)
	case ir.FormatTernary:
		err = vals(3)
	case ir.FormatMultiAry:
		err = fp.valueList(&d.Args)
	case ir.FormatBinaryImm8:
		if err = thenComma(vals(1)); err == nil {
			d.Imm, err = fp.laneImm()
		}
	case ir.FormatTernaryImm8:
		if err = thenComma(vals(2)); err == nil {
			d.Imm, err = fp.laneImm()
		}
	case ir.FormatUnaryImm:
		d.Imm, err = fp.intConstImm(d, explicit)
	case ir.FormatUnaryIeee16:
		d.FloatBits, err = fp.floatImm(formatF16, "16-bit float immediate")
	case ir.FormatUnaryIeee32:
		d.FloatBits, err = fp.floatImm(formatF32, "32-bit float immediate")
	case ir.FormatUnaryIeee64:
		d.FloatBits, err = fp.floatImm(formatF64, "64-bit float immediate")
	case ir.FormatUnaryConst:
		err = fp.constOperand(d, explicit)
	case ir.FormatUnaryGlobalValue:
		d.GV, err = fp.globalValueRef()
	case ir.FormatShuffle:
		if err = thenComma(vals(2)); err == nil {
			d.Bytes, err = fp.vectorConst(ir.I8X16)
		}
	case ir.FormatIntCompare:
		if d.IntCC, err = condCode(fp, ir.ParseIntCC, "intcc condition code"); err == nil {
			err = vals(2)
		}
	case ir.FormatFloatCompare:
		if d.FloatCC, err = condCode(fp, ir.ParseFloatCC, "floatcc condition code"); err == nil {
			err = vals(2)
		}
	case ir.FormatJump:
		err = fp.dest("jump destination block")
	case ir.FormatBrif:
		if err = thenComma(vals(1)); err == nil {
			if err = thenComma(fp.dest("branch then block")); err == nil {
				err = fp.dest("branch else block")
			}
		}
	case ir.FormatBranchTable:
		if err = thenComma(vals(1)); err == nil {
			if err = thenComma(fp.dest("default destination block")); err == nil {
				err = fp.jumpTable()
			}
		}
	case ir.FormatCall:
		if d.Func, err = fp.funcRef(); err == nil {
			err = callArgs()
		}
	case ir.FormatCallIndirect:
		if d.Sig, err = fp.sigRef(true); err == nil {
			if err = fp.comma(); err == nil {
				if err = vals(1); err == nil {
					err = callArgs()
				}
			}
		}
	case ir.FormatTryCall:
		if d.Func, err = fp.funcRef(); err == nil {
			if err = thenComma(callArgs()); err == nil {
				err = fp.exceptionTable(d)
			}
		}
	case ir.FormatTryCallIndirect:
		if err = vals(1); err == nil {
			if err = thenComma(callArgs()); err == nil {
				err = fp.exceptionTable(d)
			}
		}
	case ir.FormatFuncAddr:
		d.Func, err = fp.funcRef()
	case ir.FormatStackAddr:
		if d.Slot, err = fp.stackSlotRef(); err == nil {
			d.Imm, err = fp.offsetImm()
		}
	case ir.FormatDynamicStackAddr:
		d.DynSlot, err = fp.dynSlotRef()
	case ir.FormatLoad:
		if d.Flags, err = fp.memFlags(); err == nil {
			if err = vals(1); err == nil {
				d.Imm, err = fp.offsetImm()
			}
		}
	case ir.FormatLoadNoOffset:
		if d.Flags, err = fp.memFlags(); err == nil {
			err = vals(1)
		}
	case ir.FormatStore:
		if d.Flags, err = fp.memFlags(); err == nil {
			if err = vals(2); err == nil {
				d.Imm, err = fp.offsetImm()
			}
		}
	case ir.FormatStoreNoOffset:
		if d.Flags, err = fp.memFlags(); err == nil {
			err = vals(2)
		}
	case ir.FormatAtomicCas:
		if d.Flags, err = fp.memFlags(); err == nil {
			err = vals(3)
		}
	case ir.FormatAtomicRmw:
		if d.Flags, err = fp.memFlags(); err == nil {
			if d.RmwOp, err = condCode(fp, ir.ParseAtomicRmwOp, "atomic_rmw operation"); err == nil {
				err = vals(2)
			}
		}
	case ir.FormatTrap:
		d.Trap, err = fp.trapCode()
	case ir.FormatCondTrap:
		if err = thenComma(vals(1)); err == nil {
			d.Trap, err = fp.trapCode()
		}
	case ir.FormatIntAddTrap:
		if err = thenComma(vals(2)); err == nil {
			d.Trap, err = fp.trapCode()
		}
	case ir.FormatExceptionHandlerAddress:
		var bt token
		if bt, err = fp.expect(tokBlock, "block"); err == nil {
			d.RawBlock = ir.Block(bt.num)
			if err = fp.comma(); err == nil {
				d.Imm, err = fp.imm64("handler index")
			}
		}
	default:
		return fp.errAt(fp.tok, "instruction format %s of %s is not supported by the parser", d.Op.Info().Format, d.Op)
	}
	if len(fp.scratch.dests) > 0 {
		d.Dests = fp.blockCalls.clone(fp.scratch.dests)
	}
	return err
}

// valueOperands reads n comma-separated value operands into d.Args. (As
// comma and valueOperand, without their calls: most instructions have
// operands like these.)
func (fp *funcParser) valueOperands(d *ir.InstData, n int) error {
	for k := 0; k < n; k++ {
		if k > 0 && !fp.optional(tokComma) {
			return fp.expected("',' between operands")
		}
		if !fp.is(tokValue) {
			return fp.expected("SSA value operand")
		}
		v := ir.Value(fp.tok.num)
		fp.use(v)
		d.Args = append(d.Args, v)
		fp.advance()
	}
	return nil
}

// comma reads the ',' between operands.
func (fp *funcParser) comma() error { return fp.need(tokComma, "',' between operands") }

// valueOperand reads a value operand.
func (fp *funcParser) valueOperand() (ir.Value, error) {
	if !fp.is(tokValue) {
		return ir.NoValue, fp.expected("SSA value operand")
	}
	v := ir.Value(fp.tok.num)
	fp.use(v)
	fp.advance()
	return v, nil
}

// valueList reads a possibly empty comma-separated list of values and
// appends them to args.
func (fp *funcParser) valueList(args *[]ir.Value) error {
	if !fp.is(tokValue) {
		return nil
	}
	list := append(fp.scratch.values[:0], *args...)
	for {
		v, err := fp.valueOperand()
		if err != nil {
			return err
		}
		list = append(list, v)
		if !fp.optional(tokComma) {
			break
		}
	}
	fp.scratch.values = list
	*args = append(fp.values.Take(len(list)), list...)
	return nil
}

// laneImm reads an unsigned 8-bit immediate (a lane index).
func (fp *funcParser) laneImm() (int64, error) {
	t, err := fp.expect(tokInteger, "unsigned 8-bit immediate")
	if err != nil {
		return 0, err
	}
	v, err := parseUimm8(fp.text(t))
	if err != nil {
		return 0, fp.errAt(t, "bad unsigned 8-bit immediate %s: %v", fp.text(t), err)
	}
	return int64(v), nil
}

// offsetImm reads an optional signed 32-bit offset.
func (fp *funcParser) offsetImm() (int64, error) {
	v, err := fp.optionalOffset32()
	return int64(v), err
}

// intConstImm reads the integer of a UnaryImm instruction (iconst). Its
// width is the explicit controlling type; the value is stored zero-extended
// from that width, as Cranelift does (iconst.i8 -1 holds 0xff).
func (fp *funcParser) intConstImm(d *ir.InstData, explicit bool) (int64, error) {
	t := d.CtrlType
	if !explicit || !t.IsInt() || !t.IsScalar() || t.Bits() > 64 {
		return 0, fp.errAt(fp.tok, "%s needs an explicit integer type of at most 64 bits: %s.i8, .i16, .i32 or .i64", d.Op, d.Op)
	}
	what := intImmWhat[t.LaneKind()]
	if t.Bits() == 64 {
		return fp.imm64(what)
	}
	v, err := fp.sizedImm(uint(t.Bits()), what)
	return int64(v.Lo), err
}

// intImmWhat names the immediate of iconst for messages, per lane kind of
// its type (a scalar integer of at most 64 bits): made once, as iconst is
// among the commonest instructions.
var intImmWhat = [...]string{
	ir.LaneI8: "immediate i8 operand", ir.LaneI16: "immediate i16 operand",
	ir.LaneI32: "immediate i32 operand", ir.LaneI64: "immediate i64 operand",
}

// floatImm reads the float of an f16const, f32const or f64const.
func (fp *funcParser) floatImm(f floatFormat, what string) (uint64, error) {
	v, err := fp.float(f, what)
	return v.Lo, err
}

// constOperand reads the operand of a UnaryConst instruction: a declared
// constN, or inline data typed by the explicit controlling type (vconst) or
// else by the fixed result type (f128const takes a float literal).
func (fp *funcParser) constOperand(d *ir.InstData, explicit bool) error {
	if fp.is(tokConstant) {
		c := ir.Constant(fp.tok.num)
		if !fp.consts[c] {
			return fp.errAt(fp.tok, "undefined constant %s", c)
		}
		d.Const = c
		fp.advance()
		return nil
	}
	var err error
	switch outs := d.Op.Info().Outs; {
	case explicit:
		d.Bytes, err = fp.vectorConst(d.CtrlType)
	case len(outs) == 1 && outs[0].Kind == ir.OperandFixed:
		t := outs[0].Type
		if f, ok := floatFormatOf(t); ok {
			var v uint128.Uint128
			v, err = fp.float(f, t.String()+" float immediate")
			d.Bytes = v.BytesLE(t.Bytes())
		} else {
			d.Bytes, err = fp.vectorConst(t)
		}
	default:
		return fp.expected("a constant constN, or a controlling type and inline data, e.g. " + d.Op.String() + ".i32x4 [1 2 3 4]")
	}
	return err
}

// condCode reads an enumerated immediate word: a condition code or an
// atomic_rmw operation.
func condCode[T any](fp *funcParser, parse func(string) (T, bool), what string) (T, error) {
	var zero T
	if !fp.is(tokIdent) {
		return zero, fp.expected(what)
	}
	v, ok := parse(fp.text(fp.tok))
	if !ok {
		return zero, fp.expected(what)
	}
	fp.advance()
	return v, nil
}

// trapCode reads a trap code.
func (fp *funcParser) trapCode() (ir.TrapCode, error) {
	return condCode(fp, ir.ParseTrapCode, "trap code")
}

// funcRef reads fnN, which must be declared.
func (fp *funcParser) funcRef() (ir.FuncRef, error) {
	t, err := fp.expect(tokFuncRef, "function reference fnN")
	if err != nil {
		return ir.NoFuncRef, err
	}
	if _, ok := fp.funcs[ir.FuncRef(t.num)]; !ok {
		return ir.NoFuncRef, fp.errAt(t, "undefined function %s", fp.text(t))
	}
	return ir.FuncRef(t.num), nil
}

// sigRef reads sigN; declared says whether it must be declared.
func (fp *funcParser) sigRef(declared bool) (ir.SigRef, error) {
	t, err := fp.expect(tokSigRef, "signature reference sigN")
	if err != nil {
		return ir.NoSigRef, err
	}
	if _, ok := fp.sigs[ir.SigRef(t.num)]; declared && !ok {
		return ir.NoSigRef, fp.errAt(t, "undefined signature %s", fp.text(t))
	}
	return ir.SigRef(t.num), nil
}

// anyStackSlot reads a stack slot that need not be declared (debug tags and
// stack maps name such slots; the verifier checks them). Only the reserved
// number ss4294967295 is refused, as Cranelift refuses it.
func (fp *funcParser) anyStackSlot() (ir.StackSlot, error) {
	t, err := fp.expect(tokStackSlot, "stack slot ssN")
	if err != nil {
		return ir.NoStackSlot, err
	}
	if ir.StackSlot(t.num) == ir.NoStackSlot {
		return ir.NoStackSlot, fp.errAt(t, "invalid stack slot %s", fp.text(t))
	}
	return ir.StackSlot(t.num), nil
}

func (fp *funcParser) stackSlotRef() (ir.StackSlot, error) {
	t, err := fp.expect(tokStackSlot, "stack slot ssN")
	if err != nil {
		return ir.NoStackSlot, err
	}
	if !fp.slots[ir.StackSlot(t.num)] {
		return ir.NoStackSlot, fp.errAt(t, "undefined stack slot %s", fp.text(t))
	}
	return ir.StackSlot(t.num), nil
}

func (fp *funcParser) dynSlotRef() (ir.DynamicStackSlot, error) {
	t, err := fp.expect(tokDynSlot, "dynamic stack slot dssN")
	if err != nil {
		return ir.NoDynSlot, err
	}
	if !fp.dynSlots[ir.DynamicStackSlot(t.num)] {
		return ir.NoDynSlot, fp.errAt(t, "undefined dynamic stack slot %s", fp.text(t))
	}
	return ir.DynamicStackSlot(t.num), nil
}

func (fp *funcParser) globalValueRef() (ir.GlobalValue, error) {
	t, err := fp.expect(tokGlobalValue, "global value gvN")
	if err != nil {
		return ir.NoGlobalValue, err
	}
	if !fp.gvs[ir.GlobalValue(t.num)] {
		return ir.NoGlobalValue, fp.errAt(t, "undefined global value %s", fp.text(t))
	}
	return ir.GlobalValue(t.num), nil
}

// dest reads a destination `blockN[(args)]` of the instruction being read
// and appends it to fp.scratch.dests, which parseOperands copies to the
// instruction's Dests.
func (fp *funcParser) dest(what string) error {
	bc, err := fp.blockCall(what)
	if err == nil {
		fp.scratch.dests = append(fp.scratch.dests, bc)
	}
	return err
}

// blockCall reads `blockN[(arg, ...)]`; an arg is vN, retN or exnN.
func (fp *funcParser) blockCall(what string) (ir.BlockCall, error) {
	if !fp.is(tokBlock) {
		return ir.BlockCall{}, fp.expected(what)
	}
	bc := ir.BlockCall{Block: ir.Block(fp.tok.num)}
	fp.advance()
	if !fp.optional(tokLPar) {
		return bc, nil
	}
	args := fp.scratch.blockArgs[:0]
	for !fp.is(tokRPar) {
		switch fp.tok.kind {
		case tokValue:
			fp.use(ir.Value(fp.tok.num))
			args = append(args, ir.BlockArg{Kind: ir.ArgValue, Value: ir.Value(fp.tok.num)})
		case tokRet:
			args = append(args, ir.BlockArg{Kind: ir.ArgRet, Value: ir.NoValue, Index: fp.tok.num})
		case tokExn:
			args = append(args, ir.BlockArg{Kind: ir.ArgExn, Value: ir.NoValue, Index: fp.tok.num})
		default:
			return bc, fp.expected("block argument (vN, retN or exnN)")
		}
		fp.advance()
		if !fp.optional(tokComma) {
			break
		}
	}
	fp.scratch.blockArgs = args
	bc.Args = fp.blockArgs.clone(args)
	return bc, fp.need(tokRPar, "')' after block arguments")
}

// jumpTable reads `[blockcall, ...]`, the destinations after the default.
func (fp *funcParser) jumpTable() error {
	if err := fp.need(tokLBracket, "'[' before jump table contents"); err != nil {
		return err
	}
	if fp.optional(tokRBracket) {
		return nil
	}
	for {
		if err := fp.dest("jump table entry blockN"); err != nil {
			return err
		}
		if fp.optional(tokRBracket) {
			return nil
		}
		if !fp.optional(tokComma) {
			return fp.expected("',' or ']' in jump table")
		}
	}
}

// exceptionTable reads the tail of a try_call:
//
//	sigN, blockcall, [ (tagN: blockcall | default: blockcall | context vN), ... ]
func (fp *funcParser) exceptionTable(d *ir.InstData) error {
	var err error
	if d.Sig, err = fp.sigRef(false); err != nil {
		return err
	}
	if err := fp.need(tokComma, "',' after the exception table signature"); err != nil {
		return err
	}
	if err := fp.dest("normal-return block"); err != nil {
		return err
	}
	if err := fp.need(tokComma, "',' after the normal-return block"); err != nil {
		return err
	}
	if err := fp.need(tokLBracket, "'[' before the exception table"); err != nil {
		return err
	}
	for !fp.is(tokRBracket) {
		h := ir.ExceptionHandler{Context: ir.NoValue, Dest: ir.BlockCall{Block: ir.NoBlock}}
		switch {
		case fp.is(tokTag):
			h.Kind, h.Tag = ir.HandlerTag, fp.tok.num
			fp.advance()
			if err := fp.need(tokColon, "':' after exception tag"); err != nil {
				return err
			}
			if h.Dest, err = fp.blockCall("handler block"); err != nil {
				return err
			}
		case fp.isIdent("default"):
			h.Kind = ir.HandlerDefault
			fp.advance()
			if err := fp.need(tokColon, "':' after 'default'"); err != nil {
				return err
			}
			if h.Dest, err = fp.blockCall("handler block"); err != nil {
				return err
			}
		case fp.isIdent("context"):
			h.Kind = ir.HandlerContext
			fp.advance()
			if h.Context, err = fp.valueOperand(); err != nil {
				return err
			}
		default:
			return fp.expected("exception table entry (tagN: block, default: block or context vN)")
		}
		d.Handlers = append(d.Handlers, h)
		if !fp.optional(tokComma) {
			break
		}
	}
	err = fp.need(tokRBracket, "']' after the exception table")
	return err
}
