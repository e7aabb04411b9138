package parser

import (
	"fmt"

	"cliff/lib/ir"
)

// checkFunction reports the first way in which a parsed function breaks the
// invariants the parser promises: tables indexed consistently, every
// defined value typed, every instruction typed by the opcode table.
func checkFunction(f *ir.Function) error {
	if len(f.Pos.Blocks) != len(f.Blocks) || len(f.Pos.Insts) != len(f.Insts) {
		return fmt.Errorf("%s: positions do not match blocks/insts", f.Name)
	}
	seenBlock := map[ir.Block]bool{}
	instBlock := make([]int, len(f.Insts))
	for _, b := range f.Layout {
		if int(b) >= len(f.Blocks) || !f.Blocks[b].Used || seenBlock[b] {
			return fmt.Errorf("%s: bad layout block %s", f.Name, b)
		}
		seenBlock[b] = true
		bd := &f.Blocks[b]
		for k, p := range bd.Params {
			vd := f.Values[p]
			if vd.Kind != ir.DefParam || vd.Block != b || vd.Index != k {
				return fmt.Errorf("%s: param %s of %s has data %+v", f.Name, p, b, vd)
			}
		}
		for _, i := range bd.Insts {
			if int(i) >= len(f.Insts) || instBlock[i] != 0 {
				return fmt.Errorf("%s: bad inst %s in %s", f.Name, i, b)
			}
			instBlock[i] = 1
			if err := checkInst(f, i); err != nil {
				return err
			}
		}
	}
	for i, n := range instBlock {
		if n == 0 {
			return fmt.Errorf("%s: inst%d is in no block", f.Name, i)
		}
	}
	for v, vd := range f.Values {
		if vd.Kind != ir.DefNone && !vd.Type.Valid() {
			return fmt.Errorf("%s: v%d (%+v) has no type", f.Name, v, vd)
		}
		if vd.Kind == ir.DefAlias && f.Resolve(ir.Value(v)) == ir.NoValue {
			return fmt.Errorf("%s: v%d is in an alias cycle", f.Name, v)
		}
	}
	return nil
}

func checkInst(f *ir.Function, i ir.Inst) error {
	d := &f.Insts[i]
	info := d.Op.Info()
	if info.Name == "" {
		return fmt.Errorf("%s: %s has no opcode", f.Name, i)
	}
	if info.Polymorphic != (d.CtrlType != ir.Invalid) {
		return fmt.Errorf("%s: %s %s has controlling type %s", f.Name, i, d.Op, d.CtrlType)
	}
	if info.Polymorphic && len(info.TypeVars) > 0 && !info.TypeVars[0].Set.Contains(d.CtrlType) {
		return fmt.Errorf("%s: %s %s has controlling type %s outside its set", f.Name, i, d.Op, d.CtrlType)
	}
	format := d.Op.Format()
	if len(d.Args) < format.Values || !format.Varargs && len(d.Args) != format.Values {
		return fmt.Errorf("%s: %s %s has %d args, format %s wants %d", f.Name, i, d.Op, len(d.Args), format.Name, format.Values)
	}
	for k, r := range d.Results {
		vd := f.Values[r]
		if vd.Kind != ir.DefResult || vd.Inst != i || vd.Index != k {
			return fmt.Errorf("%s: result %s of %s has data %+v", f.Name, r, i, vd)
		}
	}
	return nil
}

// checkCommands checks that run command values match their types.
func checkCommands(file *ir.File) error {
	for _, c := range file.Commands {
		fn := file.Func(c.Func)
		if fn == nil {
			return fmt.Errorf("line %d: run command for unknown function %s", c.Line, c.Func)
		}
		if c.Kind == ir.RunCheck && c.Cmp != "" && len(c.Want) != len(fn.Sig.Returns) {
			return fmt.Errorf("line %d: %d expected values for %d returns", c.Line, len(c.Want), len(fn.Sig.Returns))
		}
		if len(c.Args) != len(fn.Sig.Params) {
			return fmt.Errorf("line %d: %d args for %d params", c.Line, len(c.Args), len(fn.Sig.Params))
		}
		for _, dv := range append(append([]ir.DataValue{}, c.Args...), c.Want...) {
			if len(dv.Bytes) != dv.Type.Bytes() {
				return fmt.Errorf("line %d: %s value has %d bytes", c.Line, dv.Type, len(dv.Bytes))
			}
		}
	}
	return nil
}
