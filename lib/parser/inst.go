package parser

import (
	"cliff/lib/internal/uint128"
	"cliff/lib/ir"
)

// parseInstruction reads an instruction after its results and `=`, the
// lookahead being the opcode, and appends it to block b. start is where
// the instruction begins (its first result, or the opcode).
func (fp *funcParser) parseInstruction(b ir.Block, results []token, ann annotations, start token) error {
	f := fp.f
	inst := ir.Inst(len(f.Insts))
	d := ir.InstData{
		Func: ir.NoFuncRef, Sig: ir.NoSigRef, Slot: ir.NoStackSlot, DynSlot: ir.NoDynSlot,
		GV: ir.NoGlobalValue, RawBlock: ir.NoBlock, Const: ir.NoConstant,
		SrcLoc: ann.loc, DebugTags: ann.tags,
	}
	if len(results) > 0 {
		d.Results = fp.values.Take(len(results))[:len(results)]
	}
	for k, rt := range results {
		vd, err := fp.defineValue(rt)
		if err != nil {
			return err
		}
		*vd = ir.ValueData{Kind: ir.DefResult, Inst: inst, Index: k}
		d.Results[k] = ir.Value(rt.num)
	}

	opTok, explicit, err := fp.parseOpcodeAndOperands(&d)
	if err != nil {
		return err
	}
	op := d.Op

	n, err := fp.resultCount(&d)
	if err != nil {
		return fp.errAt(opTok, "%v", err)
	}
	if n != len(results) {
		return fp.errAt(start, "instruction %s produces %d result values, %d given", op, n, len(results))
	}

	f.Insts = append(f.Insts, d)
	f.Pos.Insts = append(f.Pos.Insts, ir.Pos{Line: start.line, Col: start.col})
	fp.blockInsts = append(fp.blockInsts, inst)

	typed, err := fp.typeInst(inst, explicit, opTok)
	if err != nil {
		return err
	}
	if !typed {
		fp.deferred = append(fp.deferred, deferredInst{inst, opTok})
	}

	if fp.optional(tokComma) {
		return fp.parseStackMap(&f.Insts[inst])
	}
	return nil
}

// parseOpcodeAndOperands reads the opcode, its optional controlling type
// and its operands into d. explicit says whether the controlling type was
// written (d.CtrlType holds it then).
func (fp *funcParser) parseOpcodeAndOperands(d *ir.InstData) (opTok token, explicit bool, err error) {
	opTok, err = fp.expect(tokIdent, "instruction opcode")
	if err != nil {
		return opTok, false, err
	}
	op, ok := ir.LookupOpcode(opTok.text)
	if !ok {
		return opTok, false, fp.errAt(opTok, "unknown opcode '%s'", opTok.text)
	}
	d.Op = op

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
			return opTok, false, fp.expected("type after '" + opTok.text + ".'")
		}
		fp.advance()
	}
	if explicit && !op.Info().Polymorphic {
		return opTok, false, fp.errAt(opTok, "%s does not take a typevar", op)
	}
	return opTok, explicit, fp.parseOperands(d, explicit)
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
	if _, err := fp.expect(tokEqual, "'=' after stack_map"); err != nil {
		return err
	}
	if _, err := fp.expect(tokLBracket, "'[' after 'stack_map ='"); err != nil {
		return err
	}
	for !fp.optional(tokRBracket) {
		tt, err := fp.expect(tokType, "stack map entry 'T @ ssN+offset'")
		if err != nil {
			return err
		}
		if _, err := fp.expect(tokAt, "'@ ssN+offset' in stack map entry"); err != nil {
			return err
		}
		ss, err := fp.anyStackSlot()
		if err != nil {
			return err
		}
		// `ss0+8` lexes as ss0 and the integer +8; `ss0 + 8` as three tokens.
		if !fp.is(tokInteger) || fp.tok.text[0] != '+' {
			if _, err := fp.expect(tokPlus, "'+ offset' in stack map entry"); err != nil {
				return err
			}
		}
		off, err := fp.uimm32("stack map offset")
		if err != nil {
			return err
		}
		d.StackMap = append(d.StackMap, ir.StackMapEntry{Type: tt.typ, Slot: ss, Offset: off})
		if !fp.optional(tokComma) {
			if _, err := fp.expect(tokRBracket, "',' or ']' in stack map"); err != nil {
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
	if n := d.Op.Format().Values; n > 0 {
		d.Args = fp.values.Take(n)
	}
	// vals reads comma-separated value operands into d.Args.
	vals := func(n int) error {
		for k := 0; k < n; k++ {
			if k > 0 {
				if err := fp.comma(); err != nil {
					return err
				}
			}
			v, err := fp.valueOperand()
			if err != nil {
				return err
			}
			d.Args = append(d.Args, v)
		}
		return nil
	}
	// callArgs reads `(v, ...)` into d.Args.
	callArgs := func() error {
		if _, err := fp.expect(tokLPar, "'(' before arguments"); err != nil {
			return err
		}
		if err := fp.valueList(&d.Args); err != nil {
			return err
		}
		_, err := fp.expect(tokRPar, "')' after arguments")
		return err
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
		err = fp.blockCallInto(&d.Dests, "jump destination block")
	case ir.FormatBrif:
		if err = thenComma(vals(1)); err == nil {
			if err = thenComma(fp.blockCallInto(&d.Dests, "branch then block")); err == nil {
				err = fp.blockCallInto(&d.Dests, "branch else block")
			}
		}
	case ir.FormatBranchTable:
		if err = thenComma(vals(1)); err == nil {
			if err = thenComma(fp.blockCallInto(&d.Dests, "default destination block")); err == nil {
				err = fp.jumpTable(d)
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
	return err
}

// comma reads the ',' between operands.
func (fp *funcParser) comma() error {
	_, err := fp.expect(tokComma, "',' between operands")
	return err
}

// valueOperand reads a value operand.
func (fp *funcParser) valueOperand() (ir.Value, error) {
	t, err := fp.expect(tokValue, "SSA value operand")
	return ir.Value(t.num), err
}

// valueList reads a possibly empty comma-separated list of values.
func (fp *funcParser) valueList(args *[]ir.Value) error {
	if !fp.is(tokValue) {
		return nil
	}
	for {
		v, err := fp.valueOperand()
		if err != nil {
			return err
		}
		*args = append(*args, v)
		if !fp.optional(tokComma) {
			return nil
		}
	}
}

// laneImm reads an unsigned 8-bit immediate (a lane index).
func (fp *funcParser) laneImm() (int64, error) {
	t, err := fp.expect(tokInteger, "unsigned 8-bit immediate")
	if err != nil {
		return 0, err
	}
	v, err := parseUimm8(t.text)
	if err != nil {
		return 0, fp.errAt(t, "bad unsigned 8-bit immediate %s: %v", t.text, err)
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
	what := "immediate " + t.String() + " operand"
	if t.Bits() == 64 {
		return fp.imm64(what)
	}
	v, err := fp.sizedImm(uint(t.Bits()), what)
	return int64(v.Lo), err
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
	v, ok := parse(fp.tok.text)
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
		return ir.NoFuncRef, fp.errAt(t, "undefined function %s", t.text)
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
		return ir.NoSigRef, fp.errAt(t, "undefined signature %s", t.text)
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
		return ir.NoStackSlot, fp.errAt(t, "invalid stack slot %s", t.text)
	}
	return ir.StackSlot(t.num), nil
}

func (fp *funcParser) stackSlotRef() (ir.StackSlot, error) {
	t, err := fp.expect(tokStackSlot, "stack slot ssN")
	if err != nil {
		return ir.NoStackSlot, err
	}
	if !fp.slots[ir.StackSlot(t.num)] {
		return ir.NoStackSlot, fp.errAt(t, "undefined stack slot %s", t.text)
	}
	return ir.StackSlot(t.num), nil
}

func (fp *funcParser) dynSlotRef() (ir.DynamicStackSlot, error) {
	t, err := fp.expect(tokDynSlot, "dynamic stack slot dssN")
	if err != nil {
		return ir.NoDynSlot, err
	}
	if !fp.dynSlots[ir.DynamicStackSlot(t.num)] {
		return ir.NoDynSlot, fp.errAt(t, "undefined dynamic stack slot %s", t.text)
	}
	return ir.DynamicStackSlot(t.num), nil
}

func (fp *funcParser) globalValueRef() (ir.GlobalValue, error) {
	t, err := fp.expect(tokGlobalValue, "global value gvN")
	if err != nil {
		return ir.NoGlobalValue, err
	}
	if !fp.gvs[ir.GlobalValue(t.num)] {
		return ir.NoGlobalValue, fp.errAt(t, "undefined global value %s", t.text)
	}
	return ir.GlobalValue(t.num), nil
}

// blockCallInto reads `blockN[(args)]` and appends it to dests.
func (fp *funcParser) blockCallInto(dests *[]ir.BlockCall, what string) error {
	bc, err := fp.blockCall(what)
	if err == nil {
		*dests = append(*dests, bc)
	}
	return err
}

// blockCall reads `blockN[(arg, ...)]`; an arg is vN, retN or exnN.
func (fp *funcParser) blockCall(what string) (ir.BlockCall, error) {
	bt, err := fp.expect(tokBlock, what)
	if err != nil {
		return ir.BlockCall{}, err
	}
	bc := ir.BlockCall{Block: ir.Block(bt.num)}
	if !fp.optional(tokLPar) {
		return bc, nil
	}
	for !fp.is(tokRPar) {
		switch fp.tok.kind {
		case tokValue:
			bc.Args = append(bc.Args, ir.BlockArg{Kind: ir.ArgValue, Value: ir.Value(fp.tok.num)})
		case tokRet:
			bc.Args = append(bc.Args, ir.BlockArg{Kind: ir.ArgRet, Value: ir.NoValue, Index: fp.tok.num})
		case tokExn:
			bc.Args = append(bc.Args, ir.BlockArg{Kind: ir.ArgExn, Value: ir.NoValue, Index: fp.tok.num})
		default:
			return bc, fp.expected("block argument (vN, retN or exnN)")
		}
		fp.advance()
		if !fp.optional(tokComma) {
			break
		}
	}
	_, err = fp.expect(tokRPar, "')' after block arguments")
	return bc, err
}

// jumpTable reads `[blockcall, ...]`, appending the entries to d.Dests
// after the default.
func (fp *funcParser) jumpTable(d *ir.InstData) error {
	if _, err := fp.expect(tokLBracket, "'[' before jump table contents"); err != nil {
		return err
	}
	if fp.optional(tokRBracket) {
		return nil
	}
	for {
		if err := fp.blockCallInto(&d.Dests, "jump table entry blockN"); err != nil {
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
	if _, err := fp.expect(tokComma, "',' after the exception table signature"); err != nil {
		return err
	}
	if err := fp.blockCallInto(&d.Dests, "normal-return block"); err != nil {
		return err
	}
	if _, err := fp.expect(tokComma, "',' after the normal-return block"); err != nil {
		return err
	}
	if _, err := fp.expect(tokLBracket, "'[' before the exception table"); err != nil {
		return err
	}
	for !fp.is(tokRBracket) {
		h := ir.ExceptionHandler{Context: ir.NoValue, Dest: ir.BlockCall{Block: ir.NoBlock}}
		switch {
		case fp.is(tokTag):
			h.Kind, h.Tag = ir.HandlerTag, fp.tok.num
			fp.advance()
			if _, err := fp.expect(tokColon, "':' after exception tag"); err != nil {
				return err
			}
			if h.Dest, err = fp.blockCall("handler block"); err != nil {
				return err
			}
		case fp.isIdent("default"):
			h.Kind = ir.HandlerDefault
			fp.advance()
			if _, err := fp.expect(tokColon, "':' after 'default'"); err != nil {
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
	_, err = fp.expect(tokRBracket, "']' after the exception table")
	return err
}
