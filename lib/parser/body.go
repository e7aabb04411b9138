package parser

import (
	"math"
	"strings"

	"cliff/lib/ir"
)

// parseBody reads blocks up to the closing brace, then finishes the
// function: checks that every used value is defined, types the deferred
// instructions and the aliases.
func (fp *funcParser) parseBody() error {
	fp.reserve()
	for !fp.is(tokRBrace) {
		if err := fp.parseBlock(); err != nil {
			return err
		}
	}
	if err := fp.checkOperandsDefined(); err != nil {
		return err
	}
	if err := fp.typeDeferred(); err != nil {
		return err
	}
	return fp.typeAliases()
}

// parseBlock reads a block header and the block's instructions:
//
//	blockN[(vX: T, ...)] [cold]:
func (fp *funcParser) parseBlock() error {
	bt, err := fp.expect(tokBlock, "block header")
	if err != nil {
		return err
	}
	if bt.num >= maxBlocks {
		return fp.errAt(bt, "too many blocks: %s (the limit is block%d)", fp.text(bt), maxBlocks-1)
	}
	b := ir.Block(bt.num)
	f := fp.f
	if f.Blocks == nil {
		// The first block: make room for the others (see reserve).
		n := max(fp.blocksHint, int(b)+1)
		f.Blocks = room(fp.spare.blocks, n)
		f.Pos.Blocks = room(fp.spare.blockPos, n)
		f.Layout = room(fp.spare.layout, n)
	}
	for len(f.Blocks) <= int(b) {
		f.Blocks = append(f.Blocks, ir.BlockData{})
		f.Pos.Blocks = append(f.Pos.Blocks, ir.Pos{})
	}
	if f.Blocks[b].Used {
		return fp.errAt(bt, "duplicate entity: %s", fp.text(bt))
	}
	f.Blocks[b].Used = true
	f.Pos.Blocks[b] = bt.pos()
	f.Layout = append(f.Layout, b)

	if fp.optional(tokLPar) && !fp.optional(tokRPar) {
		params := fp.scratch.params[:0]
		for {
			v, err := fp.parseBlockParam(b, len(params))
			if err != nil {
				return err
			}
			params = append(params, v)
			if !fp.optional(tokComma) {
				break
			}
		}
		fp.scratch.params = params
		f.Blocks[b].Params = append(fp.values.Take(len(params)), params...)
		if err := fp.need(tokRPar, "')' after block parameters"); err != nil {
			return err
		}
	}
	if fp.optional(tokCold) {
		f.Blocks[b].Cold = true
	}
	if err := fp.need(tokColon, "':' after block header"); err != nil {
		return err
	}
	first := len(fp.blockInsts)
	for {
		switch fp.tok.kind {
		case tokValue, tokIdent, tokLBracket, tokSrcLoc, tokLAngle:
			if err := fp.parseInstLine(); err != nil {
				return err
			}
		default:
			if n := len(fp.blockInsts); n > first {
				// Capped, so that appending to one block never writes
				// into the next.
				f.Blocks[b].Insts = fp.blockInsts[first:n:n]
			}
			return nil
		}
	}
}

// reserve sizes the function's tables and the parser's arenas for the body
// ahead, from its number of lines (an instruction takes one), so that
// appending rarely copies: a case of a few hundred instructions would
// otherwise copy its instruction table several times over. The block
// tables are made with the first block, from its number of colons (a
// block header has one; so does a block parameter, which leaves room).
func (fp *funcParser) reserve() {
	body := fp.src[fp.tok.off:]
	if end := bodyEnd(body); end >= 0 {
		body = body[:end]
	}
	n := strings.Count(body, "\n") + 1
	fp.blocksHint = strings.Count(body, ":")
	f := fp.f
	// Half as much again: cliff-refine appends a good many instructions.
	f.Insts = room(fp.spare.insts, n+n/2)
	f.Pos.Insts = room(fp.spare.instPos, n)
	f.Values = room(fp.spare.values, n+n/2)
	fp.blockInsts = room(fp.spare.blockInsts, n)
	fp.values.Reserve(3 * n)
}

// bodyEnd returns the offset of the first "\n}" in body (the end of a
// function body), or -1. It looks for the '}', which is rare in CLIF:
// strings.Index would stop at every newline.
func bodyEnd(body string) int {
	for start := 0; ; {
		i := strings.IndexByte(body[start:], '}')
		if i < 0 {
			return -1
		}
		i += start
		if i > 0 && body[i-1] == '\n' {
			return i - 1
		}
		start = i + 1
	}
}

// parseBlockParam reads `vN: T`, parameter number index of b, and returns
// the value.
func (fp *funcParser) parseBlockParam(b ir.Block, index int) (ir.Value, error) {
	vt, err := fp.expect(tokValue, "block parameter vN")
	if err != nil {
		return ir.NoValue, err
	}
	if err := fp.need(tokColon, "':' after block parameter"); err != nil {
		return ir.NoValue, err
	}
	tt, err := fp.expect(tokType, "block parameter type")
	if err != nil {
		return ir.NoValue, err
	}
	vd, err := fp.defineValue(&vt)
	if err != nil {
		return ir.NoValue, err
	}
	*vd = ir.ValueData{Type: tt.typ, Kind: ir.DefParam, Block: b, Index: index}
	return ir.Value(vt.num), nil
}

// valueSlot grows the value table to hold the value of token t.
func (fp *funcParser) valueSlot(t *token) (*ir.ValueData, error) {
	if t.num >= maxValues {
		return nil, fp.errAt(*t, "value number too large: %s (the limit is v%d)", fp.text(*t), maxValues-1)
	}
	for len(fp.f.Values) <= int(t.num) {
		fp.f.Values = append(fp.f.Values, ir.ValueData{})
	}
	return &fp.f.Values[t.num], nil
}

// defineValue returns the slot of a value being defined, failing when the
// value is already defined.
func (fp *funcParser) defineValue(t *token) (*ir.ValueData, error) {
	vd, err := fp.valueSlot(t)
	if err != nil {
		return nil, err
	}
	if vd.Kind != ir.DefNone {
		return nil, fp.errAt(*t, "duplicate entity: %s", fp.text(*t))
	}
	return vd, nil
}

// use notes a value operand of the instruction being read: one not yet
// defined makes the instruction a forward reference (fp.forwardUse, see
// checkOperandsDefined).
func (fp *funcParser) use(v ir.Value) {
	if !fp.isDefined(v) {
		fp.forwardUse = true
	}
}

// isDefined reports whether v has a definition so far.
func (fp *funcParser) isDefined(v ir.Value) bool {
	return int(v) < len(fp.f.Values) && fp.f.Values[v].Kind != ir.DefNone
}

// parseInstLine reads one line of a block: an instruction, possibly with
// debug tags and a source location in front (in that order, as write.rs
// prints them), or a value alias `vN -> vM` (which drops any tags and
// location in front of it, as Cranelift does).
func (fp *funcParser) parseInstLine() error {
	var ann annotations
	var err error
	if fp.is(tokLAngle) {
		if ann.tags, err = fp.debugTags(); err != nil {
			return err
		}
	}
	if fp.is(tokSrcLoc) {
		if ann.loc, err = fp.srcLoc(); err != nil {
			return err
		}
	}
	results := fp.scratch.results[:0]
	if fp.is(tokValue) {
		for {
			if !fp.is(tokValue) {
				return fp.expected("result value")
			}
			results = append(results, fp.tok)
			fp.advance()
			if !fp.optional(tokComma) {
				break
			}
		}
		fp.scratch.results = results
	}
	switch {
	case fp.is(tokArrow):
		fp.advance()
		return fp.parseAlias(results)
	case fp.is(tokEqual):
		fp.advance()
	case len(results) > 0:
		return fp.expected("'->' or '='")
	}
	start := fp.tok.pos() // the opcode
	if len(results) > 0 {
		start = results[0].pos()
	}
	return fp.parseInstruction(results, ann, start)
}

// annotations are what an instruction line carries in front of the
// instruction.
type annotations struct {
	loc  ir.SourceLoc
	tags []ir.DebugTag
}

// srcLoc reads a source location `@0019`, the lookahead: a u32 in hex.
// `@ffffffff` is Cranelift's "none" and reads as none.
func (fp *funcParser) srcLoc() (ir.SourceLoc, error) {
	// The lexer made the token of hex digits only.
	text := fp.text(fp.tok)
	var bits uint32
	for i := 0; i < len(text); i++ {
		if bits > math.MaxUint32>>4 {
			return ir.SourceLoc{}, fp.errAt(fp.tok, "invalid source location: %s", text)
		}
		bits = bits<<4 | uint32(digitValues[text[i]])
	}
	fp.advance()
	return ir.SrcLoc(bits), nil
}

// debugTags reads `<1, 2, ss0>` in front of an instruction, the lookahead
// being the '<'. The stack slots need not be declared (the verifier checks
// that). An empty list `<>` reads as no tags, as in Cranelift.
func (fp *funcParser) debugTags() ([]ir.DebugTag, error) {
	fp.advance()
	var tags []ir.DebugTag
	for !fp.optional(tokRAngle) {
		switch fp.tok.kind {
		case tokInteger:
			v, err := fp.uimm32("debug tag")
			if err != nil {
				return nil, err
			}
			tags = append(tags, ir.UserTag(v))
		case tokStackSlot:
			ss, err := fp.anyStackSlot()
			if err != nil {
				return nil, err
			}
			tags = append(tags, ir.SlotTag(ss))
		default:
			return nil, fp.expected("integer or stack slot in debug tags")
		}
		if !fp.optional(tokComma) {
			if err := fp.need(tokRAngle, "',' or '>' in debug tags"); err != nil {
				return nil, err
			}
			break
		}
	}
	return tags, nil
}

// parseAlias reads the destination of `vN -> vM`, the lookahead being vM.
// Redefining an alias identically is allowed, as in Cranelift.
func (fp *funcParser) parseAlias(results []token) error {
	if len(results) != 1 {
		at := fp.tok
		if len(results) > 0 {
			at = results[0]
		}
		return fp.errAt(at, "wrong number of aliases: an alias defines exactly one value")
	}
	dt, err := fp.expect(tokValue, "value alias destination vN")
	if err != nil {
		return err
	}
	src, dest := ir.Value(results[0].num), ir.Value(dt.num)
	vd, err := fp.valueSlot(&results[0])
	if err != nil {
		return err
	}
	switch {
	case vd.Kind == ir.DefAlias && vd.AliasOf == dest:
		return nil
	case vd.Kind == ir.DefAlias:
		return fp.errAt(results[0], "value %s is already defined as an alias with destination %s", src, vd.AliasOf)
	case vd.Kind != ir.DefNone:
		return fp.errAt(results[0], "value %s is already defined", src)
	}
	if !fp.isDefined(dest) {
		return fp.errAt(dt, "value %s is not yet defined", dest)
	}
	*vd = ir.ValueData{Kind: ir.DefAlias, AliasOf: dest}
	fp.aliases = append(fp.aliases, aliasDef{src, results[0]})
	return nil
}

// checkOperandsDefined reports the first use, in layout order, of a value
// that the function never defines. Only the instructions that used a value
// not yet defined when they were read can (fp.forwardRefs, in text order,
// which is layout order).
func (fp *funcParser) checkOperandsDefined() error {
	f := fp.f
	for _, i := range fp.forwardRefs {
		if v, found := fp.undefinedOperand(&f.Insts[i]); found {
			pos := f.Pos.InstPos(i)
			return &Error{File: fp.file, Line: pos.Line, Col: pos.Col, Msg: "undefined operand value " + v.String()}
		}
	}
	return nil
}

// undefinedOperand returns the first operand of d that is not defined, if
// any: arguments first, then those of the destinations, then those of the
// exception handlers.
func (fp *funcParser) undefinedOperand(d *ir.InstData) (ir.Value, bool) {
	for _, v := range d.Args {
		if !fp.isDefined(v) {
			return v, true
		}
	}
	for _, bc := range d.Dests {
		if v, found := fp.undefinedArg(bc); found {
			return v, true
		}
	}
	for _, h := range d.Handlers {
		if h.Kind != ir.HandlerContext {
			if v, found := fp.undefinedArg(h.Dest); found {
				return v, true
			}
		} else if !fp.isDefined(h.Context) {
			return h.Context, true
		}
	}
	return ir.NoValue, false
}

// undefinedArg returns the first value argument of bc that is not
// defined, if any.
func (fp *funcParser) undefinedArg(bc ir.BlockCall) (ir.Value, bool) {
	for _, a := range bc.Args {
		if a.Kind == ir.ArgValue && !fp.isDefined(a.Value) {
			return a.Value, true
		}
	}
	return ir.NoValue, false
}

// typeAliases gives each alias the type of the value it resolves to.
func (fp *funcParser) typeAliases() error {
	for _, a := range fp.aliases {
		r := fp.f.Resolve(a.v)
		if r == ir.NoValue {
			return fp.errAt(a.tok, "alias cycle involving %s", a.v)
		}
		fp.f.Values[a.v].Type = fp.f.Values[r].Type
	}
	return nil
}
