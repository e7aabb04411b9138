package parser

import (
	"math"

	"cliff/lib/ir"
)

// parsePreamble reads the entity declarations before the first block.
func (fp *funcParser) parsePreamble() error {
	for {
		var err error
		switch fp.tok.kind {
		case tokStackSlot:
			err = fp.parseStackSlotDecl()
		case tokDynSlot:
			err = fp.parseDynSlotDecl()
		case tokDynType:
			err = fp.parseDynTypeDecl()
		case tokGlobalValue:
			err = fp.parseGlobalValueDecl()
		case tokSigRef:
			err = fp.parseSigDecl()
		case tokFuncRef:
			err = fp.parseFuncRefDecl()
		case tokConstant:
			err = fp.parseConstantDecl()
		case tokRegion:
			err = fp.parseRegionDecl()
		case tokIdent:
			if fp.text(fp.tok) != "stack_limit" {
				return nil
			}
			err = fp.parseStackLimitDecl()
		default:
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// define records a declaration of an entity number, failing on a
// duplicate, and its position (that of t) under the entity's name.
func define[K comparable, V any](fp *funcParser, m *map[K]V, k K, v V, name string, t token) error {
	if *m == nil {
		*m = make(map[K]V)
	}
	if _, dup := (*m)[k]; dup {
		return fp.errAt(t, "duplicate entity: %s", name)
	}
	(*m)[k] = v
	fp.declPos(name, t)
	return nil
}

// declPos records the position of a declaration (that of t) in Pos.Decls
// under the entity's name ("ss0", "gv2", ...).
func (fp *funcParser) declPos(name string, t token) {
	if fp.f.Pos.Decls == nil {
		fp.f.Pos.Decls = fp.spare.declPos
		if fp.f.Pos.Decls == nil {
			fp.f.Pos.Decls = make(map[string]ir.Pos)
		}
	}
	fp.f.Pos.Decls[name] = t.pos()
}

// declHead consumes `entityN =` and returns the entity token.
func (fp *funcParser) declHead(what string) (token, error) {
	t := fp.tok
	fp.advance()
	if !fp.is(tokEqual) { // the message is built only when needed
		return t, fp.expected("'=' in " + what + " declaration")
	}
	fp.advance()
	return t, nil
}

// ssN = explicit_slot SIZE {, align = N | , key = K}
func (fp *funcParser) parseStackSlotDecl() error {
	t, err := fp.declHead("stack slot")
	if err != nil {
		return err
	}
	if err := define(fp, &fp.slots, ir.StackSlot(t.num), true, fp.text(t), t); err != nil {
		return err
	}
	d := ir.StackSlotDecl{Num: ir.StackSlot(t.num)}
	if !fp.isIdent("explicit_slot") && !fp.isIdent("explicit_dynamic_slot") {
		return fp.expected("stack slot kind (explicit_slot)")
	}
	d.Kind = fp.text(fp.tok)
	fp.advance()
	sizeTok := fp.tok
	size, err := fp.imm64("byte size in stack slot declaration")
	if err != nil {
		return err
	}
	if size < 0 {
		return fp.errAt(sizeTok, "negative stack slot size")
	}
	if size > math.MaxUint32 {
		return fp.errAt(sizeTok, "stack slot too large")
	}
	d.Size = uint32(size)
	for fp.optional(tokComma) {
		switch {
		case fp.optionalIdent("align"):
			if err := fp.need(tokEqual, "'=' after align"); err != nil {
				return err
			}
			at := fp.tok
			a, err := fp.imm64("alignment after 'align ='")
			if err != nil {
				return err
			}
			if a < 0 || a > math.MaxUint32 {
				return fp.errAt(at, "alignment must be a 32-bit unsigned integer")
			}
			if a == 0 || a&(a-1) != 0 {
				return fp.errAt(at, "stack slot alignment is not a power of two")
			}
			d.Align = uint32(a)
		case fp.optionalIdent("key"):
			if err := fp.need(tokEqual, "'=' after key"); err != nil {
				return err
			}
			kt, err := fp.expect(tokInteger, "u64 value for 'key'")
			if err != nil {
				return err
			}
			if d.Key, err = parseU64(fp.text(kt)); err != nil {
				return fp.errAt(kt, "expected u64 value for 'key': %v", err)
			}
			d.HasKey = true
		default:
			return fp.expected("stack slot flag (align = N or key = K)")
		}
	}
	fp.f.StackSlots = append(fp.f.StackSlots, d)
	return nil
}

// dssN = explicit_dynamic_slot dtM
func (fp *funcParser) parseDynSlotDecl() error {
	t, err := fp.declHead("dynamic stack slot")
	if err != nil {
		return err
	}
	if err := define(fp, &fp.dynSlots, ir.DynamicStackSlot(t.num), true, fp.text(t), t); err != nil {
		return err
	}
	if !fp.isIdent("explicit_slot") && !fp.isIdent("explicit_dynamic_slot") {
		return fp.expected("stack slot kind (explicit_dynamic_slot)")
	}
	kind := fp.text(fp.tok)
	fp.advance()
	dt, err := fp.expect(tokDynType, "dynamic type dtN")
	if err != nil {
		return err
	}
	fp.f.DynStackSlots = append(fp.f.DynStackSlots, ir.DynStackSlotDecl{
		Num: ir.DynamicStackSlot(t.num), Kind: kind, Type: ir.DynamicType(dt.num)})
	return nil
}

// dtN = i32x4*gvM
func (fp *funcParser) parseDynTypeDecl() error {
	t, err := fp.declHead("dynamic type")
	if err != nil {
		return err
	}
	bt, err := fp.expect(tokType, "vector base type")
	if err != nil {
		return err
	}
	if !bt.typ.IsVector() {
		return fp.errAt(bt, "expected vector base type, found %s", fp.describe(bt))
	}
	if err := fp.need(tokStar, "'*' followed by a dynamic scale global value"); err != nil {
		return err
	}
	gv, err := fp.expect(tokGlobalValue, "dynamic scale global value gvN")
	if err != nil {
		return err
	}
	if err := define(fp, &fp.dynTypes, ir.DynamicType(t.num), ir.DynamicOf(bt.typ), fp.text(t), t); err != nil {
		return err
	}
	fp.f.DynTypes = append(fp.f.DynTypes, ir.DynTypeDecl{
		Num: ir.DynamicType(t.num), Base: bt.typ, Scale: ir.GlobalValue(gv.num)})
	return nil
}

// gvN = vmctx
// gvN = load.T flags gvM[+offset]
// gvN = iadd_imm.T gvM, imm
// gvN = symbol [colocated] [tls] NAME[+offset]
// gvN = dyn_scale_target_const.T
func (fp *funcParser) parseGlobalValueDecl() error {
	t, err := fp.declHead("global value")
	if err != nil {
		return err
	}
	if err := define(fp, &fp.gvs, ir.GlobalValue(t.num), true, fp.text(t), t); err != nil {
		return err
	}
	d := ir.GlobalValueDecl{Num: ir.GlobalValue(t.num)}
	kt, err := fp.expect(tokIdent, "global value kind")
	if err != nil {
		return err
	}
	typed := func(what string) (ir.Type, error) {
		if err := fp.need(tokDot, "'.' followed by type in "+what+" global value"); err != nil {
			return ir.Invalid, err
		}
		tt, err := fp.expect(tokType, what+" type")
		return tt.typ, err
	}
	switch fp.text(kt) {
	case "vmctx":
		d.Kind = ir.GVVMContext
	case "load":
		d.Kind = ir.GVLoad
		if d.Type, err = typed("load"); err != nil {
			return err
		}
		if d.Flags, err = fp.memFlags(); err != nil {
			return err
		}
		base, err := fp.expect(tokGlobalValue, "base global value gvN")
		if err != nil {
			return err
		}
		d.Base = ir.GlobalValue(base.num)
		off, err := fp.optionalOffset32()
		if err != nil {
			return err
		}
		d.Offset = int64(off)
		if !d.Flags.NoTrap || !d.Flags.Aligned {
			return fp.errAt(kt, "global-value load must be notrap and aligned")
		}
	case "iadd_imm":
		d.Kind = ir.GVIAddImm
		if d.Type, err = typed("iadd_imm"); err != nil {
			return err
		}
		base, err := fp.expect(tokGlobalValue, "base global value gvN")
		if err != nil {
			return err
		}
		d.Base = ir.GlobalValue(base.num)
		if err := fp.need(tokComma, "',' followed by the immediate in iadd_imm global value"); err != nil {
			return err
		}
		if d.Offset, err = fp.imm64("iadd_imm immediate"); err != nil {
			return err
		}
	case "symbol":
		d.Kind = ir.GVSymbol
		d.Colocated = fp.optionalIdent("colocated")
		d.TLS = fp.optionalIdent("tls")
		if d.Name, err = fp.parseExternalName(); err != nil {
			return err
		}
		if fp.isSignedInteger() {
			ot := fp.tok
			fp.advance()
			if d.Offset, err = parseI64(fp.text(ot)); err != nil {
				return fp.errAt(ot, "bad symbol offset: %v", err)
			}
		}
	case "dyn_scale_target_const":
		d.Kind = ir.GVDynScaleConst
		if d.Type, err = typed("dynamic scale"); err != nil {
			return err
		}
		if !d.Type.IsVector() {
			return fp.errAt(kt, "expected vector type in dyn_scale_target_const, found %s", d.Type)
		}
	default:
		return fp.errAt(kt, "unknown global value kind '%s'", fp.text(kt))
	}
	fp.f.GlobalValues = append(fp.f.GlobalValues, d)
	return nil
}

// sigN = SIGNATURE
func (fp *funcParser) parseSigDecl() error {
	t, err := fp.declHead("signature")
	if err != nil {
		return err
	}
	sig, err := fp.parseSignature()
	if err != nil {
		return err
	}
	return fp.addSig(ir.SigRef(t.num), sig, t)
}

// addSig declares signature num, written at t (sigN, or the inline
// signature of a function declaration).
func (fp *funcParser) addSig(num ir.SigRef, sig ir.Signature, t token) error {
	// num.String() is sigN as written: entity numbers have no leading zeros.
	if err := define(fp, &fp.sigs, num, len(fp.f.Sigs), num.String(), t); err != nil {
		return err
	}
	fp.f.Sigs = append(fp.f.Sigs, ir.SigDecl{Num: num, Sig: sig})
	if num >= fp.nextSig {
		fp.nextSig = num + 1
	}
	return nil
}

// fnN = [colocated] [patchable] NAME (sigM | SIGNATURE)
//
// An inline signature is declared as the next free sigN, as Cranelift does.
func (fp *funcParser) parseFuncRefDecl() error {
	t, err := fp.declHead("function")
	if err != nil {
		return err
	}
	d := ir.FuncRefDecl{Num: ir.FuncRef(t.num)}
	d.Colocated = fp.optionalIdent("colocated")
	d.Patchable = fp.optionalIdent("patchable")
	if d.Name, err = fp.parseExternalName(); err != nil {
		return err
	}
	switch fp.tok.kind {
	case tokLPar:
		st := fp.tok
		sig, err := fp.parseSignature()
		if err != nil {
			return err
		}
		d.Sig = fp.nextSig
		if err := fp.addSig(d.Sig, sig, st); err != nil {
			return err
		}
	case tokSigRef:
		d.Sig = ir.SigRef(fp.tok.num)
		if _, ok := fp.sigs[d.Sig]; !ok {
			return fp.errAt(fp.tok, "undefined signature %s", d.Sig)
		}
		fp.advance()
	default:
		return fp.expected("signature (sigN or an inline signature) in function declaration")
	}
	if err := define(fp, &fp.funcs, d.Num, len(fp.f.FuncRefs), fp.text(t), t); err != nil {
		return err
	}
	fp.f.FuncRefs = append(fp.f.FuncRefs, d)
	return nil
}

// constN = [TYPE] (0x... | [literals])
func (fp *funcParser) parseConstantDecl() error {
	t, err := fp.declHead("constant")
	if err != nil {
		return err
	}
	if err := define(fp, &fp.consts, ir.Constant(t.num), true, fp.text(t), t); err != nil {
		return err
	}
	var data []byte
	if fp.is(tokType) {
		ty := fp.tok.typ
		fp.advance()
		data, err = fp.vectorConst(ty)
	} else {
		var ht token
		if ht, err = fp.expect(tokInteger, "hexadecimal constant or a type"); err == nil {
			if data, err = parseHexConstant(fp.text(ht)); err != nil {
				err = fp.errAt(ht, "expected hexadecimal immediate: %v", err)
			}
		}
	}
	if err != nil {
		return err
	}
	fp.f.Constants = append(fp.f.Constants, ir.ConstantDecl{Num: ir.Constant(t.num), Bytes: data})
	return nil
}

// regionN = USERID "description"; regions are declared in order.
func (fp *funcParser) parseRegionDecl() error {
	t, err := fp.declHead("alias region")
	if err != nil {
		return err
	}
	if int(t.num) != len(fp.f.Regions) {
		return fp.errAt(t, "duplicate alias region %s (regions are declared in order from region0)", fp.text(t))
	}
	it, err := fp.expect(tokInteger, "integer user id for alias region")
	if err != nil {
		return err
	}
	id, err := parseUnsignedDecimal32(fp.text(it))
	if err != nil {
		return fp.errAt(it, "expected integer user id for alias region, found %s", fp.describe(it))
	}
	st, err := fp.expect(tokString, "string description for alias region")
	if err != nil {
		return err
	}
	fp.declPos(fp.text(t), t)
	fp.f.Regions = append(fp.f.Regions, ir.RegionDecl{Num: ir.AliasRegion(t.num), UserID: id, Description: fp.text(st)})
	return nil
}

// stack_limit = gvN
func (fp *funcParser) parseStackLimitDecl() error {
	t, err := fp.declHead("stack limit")
	if err != nil {
		return err
	}
	gv, err := fp.expect(tokGlobalValue, "global value gvN")
	if err != nil {
		return err
	}
	if fp.f.StackLimit != ir.NoGlobalValue {
		return fp.errAt(t, "stack limit defined twice")
	}
	fp.f.StackLimit = ir.GlobalValue(gv.num)
	fp.declPos(fp.text(t), t)
	return nil
}
