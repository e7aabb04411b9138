package parser

import "cliff/lib/ir"

// A Recycler parses texts one after another, each in the memory of the
// texts before: cliff-refine parses a case, refines, prints and measures
// it, and is done with it before it reads the next, and allocating and
// zeroing the tables of every case afresh was a sixth of its time.
//
// Function i of a text is parsed into the same ir.Function as function i
// of the text before, and into the tables (instructions, values, blocks,
// layout, positions) that one was left with when they have room; the
// parser's maps of declarations are emptied, and the lists of operands,
// destinations and signatures come from arenas that start again from the
// beginning. The tables are taken back as the caller left them:
// cliff-refine's passes grow them, and the next case gets the room.
//
// So what a Recycler returns is valid until its next call, which
// overwrites it and everything reachable from it, including tables a
// caller put in its functions: a caller must not keep any of it, nor give
// a function a table that something else uses. The zero value is ready to
// use; a Recycler is for one goroutine at a time.
type Recycler struct {
	memory memory
	funcs  []*funcParser // by function index: the last function parsed there
}

// ParseModuleString is ParseModuleString in the Recycler's memory.
func (r *Recycler) ParseModuleString(name, src string) (*ir.Module, error) {
	return r.parser(name, src).parseModule()
}

// ParseFile is ParseFile in the Recycler's memory.
func (r *Recycler) ParseFile(name string, src []byte) (*ir.File, error) {
	return r.parser(name, string(src)).parseFile()
}

// parser returns a parser of src allocating from r's memory.
func (r *Recycler) parser(name, src string) *parser {
	r.memory.blockCalls.recycle()
	r.memory.blockArgs.recycle()
	r.memory.abiParams.recycle()
	return newParserIn(name, src, &r.memory, r)
}

// funcParser returns the state for the function p is about to read, at
// index p.funcIndex: that of the function read at that index before, whose
// tables and maps become room for the new one's. parseFunction clears the
// Function itself.
func (r *Recycler) funcParser(p *parser) *funcParser {
	if p.funcIndex == len(r.funcs) {
		r.funcs = append(r.funcs, &funcParser{f: new(ir.Function)})
	}
	fp := r.funcs[p.funcIndex]
	f, spare := fp.f, &fp.spare
	// The function's tables, or the spare ones it left unused (when it
	// failed early, had no blocks, or outgrew them).
	declPos := f.Pos.Decls
	if declPos == nil {
		declPos = spare.declPos
	}
	clear(declPos)
	*fp = funcParser{
		parser:      p,
		f:           f,
		declared:    fp.declared,
		deferred:    fp.deferred[:0],
		aliases:     fp.aliases[:0],
		forwardRefs: fp.forwardRefs[:0],
		values:      fp.values,
		spare: tables{
			insts:      larger(f.Insts, spare.insts),
			values:     larger(f.Values, spare.values),
			blocks:     larger(f.Blocks, spare.blocks),
			layout:     larger(f.Layout, spare.layout),
			instPos:    larger(f.Pos.Insts, spare.instPos),
			blockPos:   larger(f.Pos.Blocks, spare.blockPos),
			blockInsts: larger(fp.blockInsts, spare.blockInsts),
			declPos:    declPos,
		},
	}
	fp.declared.clear()
	fp.values.Recycle()
	return fp
}

// larger returns the table with more room.
func larger[T any](a, b []T) []T {
	if cap(a) >= cap(b) {
		return a
	}
	return b
}
