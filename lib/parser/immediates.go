package parser

import (
	"strconv"

	"cliff/lib/internal/uint128"
	"cliff/lib/ir"
)

// Token-level readers of immediates shared by declarations, instructions
// and run commands.

// imm64 reads a signed 64-bit integer (Cranelift's Imm64).
func (p *parser) imm64(what string) (int64, error) {
	t, err := p.expect(tokInteger, what)
	if err != nil {
		return 0, err
	}
	v, err := parseI64(p.text(t))
	if err != nil {
		return 0, p.errAt(t, "bad %s %s: %v", what, p.text(t), err)
	}
	return v, nil
}

// uimm32 reads an unsigned 32-bit integer.
func (p *parser) uimm32(what string) (uint32, error) {
	t, err := p.expect(tokInteger, what)
	if err != nil {
		return 0, err
	}
	v, err := parseUimm32(p.text(t))
	if err != nil {
		return 0, p.errAt(t, "bad %s %s: %v", what, p.text(t), err)
	}
	return v, nil
}

// sizedImm reads a signed or unsigned integer of width bits (8, 16, 32 or
// 128) and returns its bit pattern.
func (p *parser) sizedImm(width uint, what string) (uint128.Uint128, error) {
	t, err := p.expect(tokInteger, what)
	if err != nil {
		return uint128.Uint128{}, err
	}
	v, err := parseSizedImm(p.text(t), width)
	if err != nil {
		return uint128.Uint128{}, p.errAt(t, "bad %s %s: %v", what, p.text(t), err)
	}
	return v, nil
}

// float reads a float literal of the format.
func (p *parser) float(f floatFormat, what string) (uint128.Uint128, error) {
	t, err := p.expect(tokFloat, what)
	if err != nil {
		return uint128.Uint128{}, err
	}
	v, err := parseFloat(p.text(t), f)
	if err != nil {
		return uint128.Uint128{}, p.errAt(t, "bad %s %s: %v", what, p.text(t), err)
	}
	return v, nil
}

// floatFormatOf returns the IEEE format of a float scalar type.
func floatFormatOf(t ir.Type) (floatFormat, bool) {
	switch t {
	case ir.F16:
		return formatF16, true
	case ir.F32:
		return formatF32, true
	case ir.F64:
		return formatF64, true
	case ir.F128:
		return formatF128, true
	}
	return floatFormat{}, false
}

// scalarLiteral reads one literal of a scalar type and returns its
// little-endian bytes: integers as Cranelift's run commands and constant
// lists read them, floats in exact notation.
func (p *parser) scalarLiteral(t ir.Type) ([]byte, error) {
	what := "a " + t.String() + " literal"
	if f, ok := floatFormatOf(t); ok {
		v, err := p.float(f, what)
		return v.BytesLE(t.Bytes()), err
	}
	switch t {
	case ir.I8, ir.I16, ir.I32, ir.I128:
		v, err := p.sizedImm(uint(t.Bits()), what)
		return v.BytesLE(t.Bytes()), err
	case ir.I64:
		v, err := p.imm64(what)
		return uint128.From64(uint64(v)).BytesLE(8), err
	}
	return nil, p.expected("a literal of a scalar type (not " + t.String() + ")")
}

// vectorConst reads the data of a vector-typed constant: a list of lane
// literals `[1 2 3 4]`, or one hexadecimal number zero-extended to the
// type's size. It returns the bytes little-endian, lane 0 first.
func (p *parser) vectorConst(t ir.Type) ([]byte, error) {
	start := p.tok
	var data []byte
	if p.optional(tokLBracket) {
		if !t.IsVector() && !t.IsDynamic() {
			return nil, p.errAt(start, "expected a vector type for a list of lane literals, not %s", t)
		}
		lane := t.LaneType()
		if lane == ir.I128 || lane == ir.F128 {
			return nil, p.errAt(start, "lane literals of type %s are not supported", lane)
		}
		for i := 0; i < t.Lanes(); i++ {
			b, err := p.scalarLiteral(lane)
			if err != nil {
				return nil, err
			}
			data = append(data, b...)
		}
		if !p.optional(tokRBracket) {
			return nil, p.expected("']' after " + strconv.Itoa(t.Lanes()) + " lane literals")
		}
	} else {
		ht, err := p.expect(tokInteger, "hexadecimal constant or a list of lane literals")
		if err != nil {
			return nil, err
		}
		if data, err = parseHexConstant(p.text(ht)); err != nil {
			return nil, p.errAt(ht, "expected hexadecimal immediate: %v", err)
		}
		for len(data) < t.Bytes() {
			data = append(data, 0)
		}
	}
	if len(data) != t.Bytes() {
		return nil, p.errAt(start, "expected constant of %s to have %d bytes, found %d", t, t.Bytes(), len(data))
	}
	return data, nil
}

// optionalOffset32 reads a signed offset (`+8`, `-4`) when one follows; 0
// otherwise.
func (p *parser) optionalOffset32() (int32, error) {
	if !p.isSignedInteger() {
		return 0, nil
	}
	t := p.tok
	p.advance()
	v, err := parseOffset32(p.text(t))
	if err != nil {
		return 0, p.errAt(t, "bad offset %s: %v", p.text(t), err)
	}
	return v, nil
}

// memFlags reads a possibly empty sequence of memory flags: notrap,
// aligned, readonly, can_move, little, big, a trap code, an alias region.
func (p *parser) memFlags() (ir.MemFlags, error) {
	var f ir.MemFlags
	for {
		switch p.tok.kind {
		case tokIdent:
			switch p.text(p.tok) {
			case "notrap":
				f.NoTrap, f.Trap = true, ir.TrapNone
			case "aligned":
				f.Aligned = true
			case "readonly":
				f.Readonly = true
			case "can_move":
				f.CanMove = true
			case "little", "big":
				e := ir.EndianLittle
				if p.text(p.tok) == "big" {
					e = ir.EndianBig
				}
				if f.Endian != ir.EndianNative && f.Endian != e {
					return f, p.errAt(p.tok, "cannot set both big and little endian bits")
				}
				f.Endian = e
			default:
				code, ok := ir.ParseTrapCode(p.text(p.tok))
				if !ok {
					return f, nil
				}
				f.NoTrap = false
				f.Trap = code
				if code == ir.TrapHeapOutOfBounds {
					f.Trap = ir.TrapNone // the default
				}
			}
		case tokRegion:
			if f.HasRegion {
				return f, p.errAt(p.tok, "cannot set more than one alias region")
			}
			f.Region, f.HasRegion = ir.AliasRegion(p.tok.num), true
		default:
			return f, nil
		}
		p.advance()
	}
}
