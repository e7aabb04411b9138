package extract

import (
	"fmt"

	"github.com/cespare/xxhash/v2"

	"cliff/lib/ir"
	"cliff/lib/printer"
	"cliff/lib/record"
)

// blockSnippet abstracts the straight-line body of block b (every
// instruction but the terminator) into a snippet. Values the body uses but
// does not define (the block's params, values from dominating blocks) become
// inputs in order of first use; values it defines become rK.M references.
// usedOutside marks values used after the body: by the terminator or by
// another block; they are the snippet's outputs.
//
// ok is false for a block with no body.
// lines prints f's instructions (one per function: it costs a pass over f).
func blockSnippet(file string, f *ir.Function, b ir.Block, usedOutside []bool, lines *printer.Lines) (s record.Snippet, ok bool) {
	insts := f.Blocks[b].Insts
	if n := len(insts); n > 0 && f.Insts[insts[n-1]].Op.IsTerminator() {
		insts = insts[:n-1]
	}
	if len(insts) == 0 {
		return s, false
	}
	refs := map[ir.Value]record.Ref{}
	ref := func(v ir.Value) record.Ref {
		v = f.Resolve(v)
		if r, ok := refs[v]; ok {
			return r
		}
		r := record.InputRef(len(s.Params))
		s.Params = append(s.Params, valueType(f, v).String())
		refs[v] = r
		return r
	}
	for k, i := range insts {
		d := &f.Insts[i]
		si := record.SnippetInst{Opcode: d.Op.String(), Text: lines.Inst(i)}
		if d.Op.Info().Polymorphic {
			si.CtrlType = d.CtrlType.String()
		}
		for _, a := range d.Args {
			si.Args = append(si.Args, ref(a))
			si.ArgTypes = append(si.ArgTypes, valueType(f, a).String())
		}
		for m, r := range d.Results {
			refs[r] = record.ResultRef(k, m)
			si.ResultTypes = append(si.ResultTypes, f.Values[r].Type.String())
		}
		si.Imms = immediates(lines, f, i)
		s.Insts = append(s.Insts, si)
	}
	for k, i := range insts {
		for m, r := range f.Insts[i].Results {
			if int(r) < len(usedOutside) && usedOutside[r] {
				s.Outputs = append(s.Outputs, record.ResultRef(k, m))
			}
		}
	}
	pos := f.Pos.InstPos(insts[0])
	s.Level = record.LevelBlock
	s.Source = record.Source{File: file, Function: f.Name, Block: b.String(), Line: pos.Line}
	s.Count = 1
	s.ID = snippetID(&s)
	s.Stamp()
	return s, true
}

// snippetID hashes the normalised snippet: its inputs, opcodes, types,
// abstract operands, immediates and outputs, but not where it came from nor
// its text (which names concrete values).
func snippetID(s *record.Snippet) string {
	h := xxhash.New()
	w := func(str string) {
		h.WriteString(str)
		h.Write([]byte{0})
	}
	for _, p := range s.Params {
		w(p)
	}
	w("|")
	for _, in := range s.Insts {
		w(in.Opcode)
		w(in.CtrlType)
		for _, a := range in.Args {
			w(a.String())
		}
		for _, t := range in.ResultTypes {
			w(t)
		}
		im := in.Imms
		for _, x := range []string{im.Imm, im.Lane, im.Cond, im.Flags, im.Offset, im.Trap, im.RmwOp, im.Bytes, im.Entity} {
			w(x)
		}
		w(";")
	}
	for _, o := range s.Outputs {
		w(o.String())
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

func valueType(f *ir.Function, v ir.Value) ir.Type {
	v = f.Resolve(v)
	if int(v) < len(f.Values) {
		return f.Values[v].Type
	}
	return ir.Invalid
}

// immediates collects the instruction's immediates as text, as the format
// table lists them.
func immediates(lines *printer.Lines, f *ir.Function, i ir.Inst) record.Imms {
	var im record.Imms
	for _, k := range f.Insts[i].Op.Format().Imms {
		text := lines.Immediate(i, k)
		switch k {
		case ir.ImmInt64, ir.ImmIeee16, ir.ImmIeee32, ir.ImmIeee64:
			im.Imm = text
		case ir.ImmUint8:
			im.Lane = text
		case ir.ImmIntCC, ir.ImmFloatCC:
			im.Cond = text
		case ir.ImmMemFlags:
			im.Flags = text
		case ir.ImmOffset32:
			im.Offset = text
		case ir.ImmTrapCode:
			im.Trap = text
		case ir.ImmAtomicRmwOp:
			im.RmwOp = text
		case ir.ImmConstant, ir.ImmShuffleMask:
			im.Bytes = text
		case ir.ImmFuncRef, ir.ImmSigRef, ir.ImmStackSlot, ir.ImmDynStackSlot, ir.ImmGlobalValue:
			im.Entity = text
		}
	}
	return im
}
