package parser

import (
	"fmt"

	"cliff/lib/ir"
)

// Limits that keep a hostile text from making the parser allocate per-ID
// slices of absurd size (IDs index slices, and source numbers are kept).
const (
	maxBlocks = 100_000 // as Cranelift's reader
	maxValues = 1 << 20
)

// funcParser holds the state of one function being parsed: the function
// and the entities declared so far.
type funcParser struct {
	*parser
	f *ir.Function

	declared
	nextSig ir.SigRef // the number an inline signature gets: one past the largest so far

	// deferred are instructions whose controlling type comes from an
	// operand not typed when they were read; typeDeferred types them once
	// the whole function is known.
	deferred []deferredInst
	// aliases are the `vN -> vM` lines, typed at the end.
	aliases []aliasDef
	// forwardRefs are the instructions that use a value not defined when
	// they were read, in order; checkOperandsDefined checks them at the end.
	forwardRefs []ir.Inst
	// forwardUse says whether the instruction being read uses a value not
	// defined yet (see use): all its operands are read after its results
	// are defined, and before it is added to forwardRefs.
	forwardUse bool

	// Arenas (see reserve): the instructions of the blocks read so far, in
	// order, and the values of instructions' operand and result lists and
	// of block parameters.
	blockInsts []ir.Inst
	values     ir.ValueArena
	blocksHint int // the capacity to give the block tables

	// spare holds the tables of the function fp parsed before (with a
	// Recycler; empty otherwise), which f's are made in when they have
	// room (see room).
	spare tables
}

// tables are the per-ID tables of a function, the arena of its blocks'
// instruction lists and the map of its declarations' positions.
type tables struct {
	insts      []ir.InstData
	values     []ir.ValueData
	blocks     []ir.BlockData
	layout     []ir.Block
	instPos    []ir.Pos
	blockPos   []ir.Pos
	blockInsts []ir.Inst
	declPos    map[string]ir.Pos // empty
}

// room returns an empty table with room for n elements: in spare's memory
// when it has that much, else new.
func room[T any](spare []T, n int) []T {
	if cap(spare) >= n {
		return spare[:0]
	}
	return make([]T, 0, n)
}

// declared holds the entities of the preamble, made as they are declared.
type declared struct {
	slots    map[ir.StackSlot]bool
	dynSlots map[ir.DynamicStackSlot]bool
	dynTypes map[ir.DynamicType]ir.Type // the dynamic vector type of each dtN
	gvs      map[ir.GlobalValue]bool
	sigs     map[ir.SigRef]int // index into f.Sigs
	funcs    map[ir.FuncRef]int
	consts   map[ir.Constant]bool
}

// clear empties the maps, keeping their memory (see Recycler).
func (d *declared) clear() {
	clear(d.slots)
	clear(d.dynSlots)
	clear(d.dynTypes)
	clear(d.gvs)
	clear(d.sigs)
	clear(d.funcs)
	clear(d.consts)
}

type deferredInst struct {
	inst ir.Inst
	tok  token // the opcode, for errors
}

type aliasDef struct {
	v   ir.Value
	tok token
}

// parseFunction reads
//
//	function NAME SIGNATURE { PREAMBLE BLOCKS }
func (p *parser) parseFunction() (*ir.Function, error) {
	if !p.isIdent("function") {
		return nil, p.expected("'function'")
	}
	p.takeComments()
	p.funcIndex++
	var fp *funcParser
	if p.recycler != nil {
		fp = p.recycler.funcParser(p)
	} else {
		fp = &funcParser{parser: p, f: new(ir.Function)}
	}
	*fp.f = ir.Function{
		Preamble: ir.Preamble{StackLimit: ir.NoGlobalValue},
		Pos:      ir.Positions{Func: p.tok.pos()},
	}
	p.advance()
	var err error
	if fp.f.Name, err = p.parseFuncName(); err != nil {
		return nil, err
	}
	if fp.f.Sig, err = p.parseSignature(); err != nil {
		return nil, err
	}
	if err := p.need(tokLBrace, "'{' before function body"); err != nil {
		return nil, err
	}
	if err := fp.parsePreamble(); err != nil {
		return nil, err
	}
	if err := fp.parseBody(); err != nil {
		return nil, err
	}
	if err := p.need(tokRBrace, "'}' after function body"); err != nil {
		return nil, err
	}
	return fp.f, nil
}

// parseFuncName reads a function name: %name or uN:M.
func (p *parser) parseFuncName() (string, error) {
	switch p.tok.kind {
	case tokName:
		name := p.text(p.tok)
		p.advance()
		return name, nil
	case tokUserRef:
		return p.parseUserName()
	}
	return "", p.expected("function name (%name or uN:M)")
}

// parseUserName reads uN:M, the lookahead being uN.
func (p *parser) parseUserName() (string, error) {
	ns := p.tok.num
	p.advance()
	if err := p.need(tokColon, "':' in user name uN:M"); err != nil {
		return "", err
	}
	t, err := p.expect(tokInteger, "integer index in user name uN:M")
	if err != nil {
		return "", err
	}
	index, err := parseUnsignedDecimal32(p.text(t))
	if err != nil {
		return "", p.errAt(t, "the integer given overflows the u32 type")
	}
	return fmt.Sprintf("u%d:%d", ns, index), nil
}

func parseUnsignedDecimal32(s string) (uint32, error) {
	v, ok := parseUnsigned(s, 10, 32)
	if !ok {
		return 0, fmt.Errorf("bad u32 %q", s)
	}
	return uint32(v.Lo), nil
}

// parseExternalName reads the name of a callee or symbol: %name,
// userextnameN or uN:M.
func (p *parser) parseExternalName() (string, error) {
	switch p.tok.kind {
	case tokName, tokUserName:
		name := p.text(p.tok)
		p.advance()
		return name, nil
	case tokUserRef:
		return p.parseUserName()
	}
	return "", p.expected("external name (%name, uN:M or userextnameN)")
}

// parseSignature reads
//
//	( [param {, param}] ) [-> param {, param}] [callconv]
func (p *parser) parseSignature() (ir.Signature, error) {
	var sig ir.Signature
	if err := p.need(tokLPar, "function signature: ( args... )"); err != nil {
		return sig, err
	}
	var err error
	if !p.is(tokRPar) {
		if sig.Params, err = p.parseAbiParams(); err != nil {
			return sig, err
		}
	}
	if err := p.need(tokRPar, "')' after function arguments"); err != nil {
		return sig, err
	}
	if p.optional(tokArrow) {
		if sig.Returns, err = p.parseAbiParams(); err != nil {
			return sig, err
		}
	}
	if p.is(tokIdent) {
		cc := ir.CallConv(p.text(p.tok))
		known := false
		for _, c := range ir.CallConvs {
			known = known || c == cc
		}
		if !known {
			return sig, p.errAt(p.tok, "unknown calling convention: %s", p.text(p.tok))
		}
		sig.CallConv = cc
		p.advance()
	}
	return sig, nil
}

func (p *parser) parseAbiParams() ([]ir.AbiParam, error) {
	list := p.scratch.abi[:0]
	for {
		a, err := p.parseAbiParam()
		if err != nil {
			return nil, err
		}
		list = append(list, a)
		if !p.optional(tokComma) {
			p.scratch.abi = list
			return p.abiParams.clone(list), nil
		}
	}
}

// parseAbiParam reads a type and its flags: uext, sext, sret, vmctx,
// normal, sarg(N).
func (p *parser) parseAbiParam() (ir.AbiParam, error) {
	t, err := p.expect(tokType, "parameter type")
	if err != nil {
		return ir.AbiParam{}, err
	}
	a := ir.AbiParam{Type: t.typ}
	for p.is(tokIdent) {
		switch p.text(p.tok) {
		case "uext":
			a.Ext = ir.ExtUext
		case "sext":
			a.Ext = ir.ExtSext
		case "normal":
			a.Purpose = ""
		case "sret", "vmctx":
			a.Purpose = ir.Purpose(p.text(p.tok))
		case "sarg":
			p.advance()
			if err := p.need(tokLPar, "'(' to begin sarg size"); err != nil {
				return a, err
			}
			n, err := p.uimm32("byte size in sarg(N)")
			if err != nil {
				return a, err
			}
			if err := p.need(tokRPar, "')' to end sarg size"); err != nil {
				return a, err
			}
			a.Purpose = ir.Purpose(fmt.Sprintf("sarg(%d)", n))
			continue
		default:
			return a, nil
		}
		p.advance()
	}
	return a, nil
}
