package printer

import (
	"strings"
	"testing"

	"cliff/lib/ir"
)

// TestEveryOpcode prints an instruction of every opcode with every
// immediate of its format set (testdata/opcodes.txt), then the same with an
// operand too few and no block calls, and with an operand, a block call and
// an exception handler too many: the operand plans derived from the opcode
// table must keep laying out each format, and marking what does not fit it,
// as write.rs and the markers do.
func TestEveryOpcode(t *testing.T) {
	f := everyOpcode()
	lines := Options{}.NewLines(f)
	var b strings.Builder
	for i := range f.Insts {
		b.WriteString(lines.Inst(ir.Inst(i)))
		b.WriteByte('\n')
	}
	checkGolden(t, "opcodes.txt", b.String())
}

// everyOpcode builds one block holding, for each opcode, the well-formed,
// short and overfull instructions TestEveryOpcode prints.
func everyOpcode() *ir.Function {
	f := ir.NewFunction("%every_opcode", sig(nil, nil, ir.CallConvNone))
	b := ir.NewBuilder(f)
	b.DeclareStackSlot(16, 0)
	b.DeclareGlobalValue(ir.GlobalValueDecl{Kind: ir.GVVMContext})
	s := b.DeclareSig(sig([]ir.Type{ir.I64, ir.I64}, []ir.Type{ir.I64}, ir.CallConvNone))
	b.DeclareFuncRef("%g", s)
	b.DeclareConstant(make([]byte, 16))
	entry, dest := b.CreateBlock(), b.CreateBlock()
	args := []ir.Value{b.AppendBlockParam(entry, ir.I64), b.AppendBlockParam(entry, ir.I64),
		b.AppendBlockParam(entry, ir.I64), b.AppendBlockParam(entry, ir.I64), b.AppendBlockParam(entry, ir.I64)}
	b.AppendBlockParam(dest, ir.I64)
	b.SwitchToBlock(entry)

	for _, op := range ir.Opcodes() {
		info := op.Info()
		fi := info.Format.Info()
		d := ir.InstData{
			Op: op, Imm: 8, FloatBits: 0x3c00, IntCC: ir.IntCC(2), FloatCC: ir.FloatCC(3),
			Flags: ir.MemFlags{NoTrap: true, Aligned: true}, Trap: ir.TrapUser + 1, RmwOp: ir.AtomicRmwOp(1),
			Func: 0, Sig: s, Slot: 0, DynSlot: 0, GV: 0, Const: 0, RawBlock: dest,
		}
		if info.Polymorphic {
			d.CtrlType = ir.I64
			if ts := info.TypeVars[0].Set; !ts.Contains(ir.I64) {
				d.CtrlType = ts.Types()[0]
			}
		}
		n := fi.Values
		if fi.Varargs {
			n += 2
		}
		d.Args = args[:n]
		for _, k := range fi.Imms {
			switch k {
			case ir.ImmShuffleMask:
				d.Bytes = []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}
			case ir.ImmBlockCall:
				d.Dests = append(d.Dests, ir.NewBlockCall(dest, args[0]))
			case ir.ImmJumpTable:
				d.Dests = append(d.Dests, ir.NewBlockCall(dest, args[0]), ir.NewBlockCall(dest, args[1]), ir.NewBlockCall(dest, args[2]))
			case ir.ImmExceptionTable:
				d.Dests = append(d.Dests, ir.BlockCall{Block: dest, Args: []ir.BlockArg{ir.RetArg(0)}})
				d.Handlers = []ir.ExceptionHandler{
					{Kind: ir.HandlerTag, Tag: 1, Dest: ir.BlockCall{Block: dest, Args: []ir.BlockArg{ir.ExnArg(0)}}},
					{Kind: ir.HandlerContext, Context: args[1]},
				}
			}
		}
		b.Append(d)

		short := d
		short.Args = args[:max(0, n-1)]
		short.Dests, short.Handlers = nil, nil
		b.Append(short)

		over := d
		over.Args = args[:n+1]
		over.Dests = append(d.Dests[:len(d.Dests):len(d.Dests)], ir.NewBlockCall(dest, args[3]))
		over.Handlers = append(d.Handlers[:len(d.Handlers):len(d.Handlers)], ir.ExceptionHandler{Kind: ir.HandlerDefault, Dest: ir.NewBlockCall(dest)})
		b.Append(over)
	}
	return f
}

// TestOnlyValuesMatchesItems checks appendOperands' shortcut for the
// formats of value operands only against the items it skips, on every
// opcode's well-formed, short and overfull instructions (see everyOpcode).
func TestOnlyValuesMatchesItems(t *testing.T) {
	f := everyOpcode()
	p := newFuncPrinter(Options{}, f)
	shortcuts := 0
	for i := range f.Insts {
		d := &f.Insts[i]
		plan := planOf(d.Op).operands
		if !plan.onlyValues {
			continue
		}
		shortcuts++
		general := *plan
		general.onlyValues = false
		if got, want := string(p.appendOperands(nil, plan, d)), string(p.appendOperands(nil, &general, d)); got != want {
			t.Errorf("%s: shortcut wrote %q, the items %q", d.Op, got, want)
		}
	}
	if shortcuts == 0 {
		t.Error("no instruction takes the shortcut")
	}
}

// TestNeedsSuffixMatchesRule checks needsSuffix, which inlines resolve and
// looks values up once, against write.rs's rule spelled out plainly, with
// every value of a function (params, results before and after, aliases,
// an alias cycle, an unused slot, out of range) as the operand that may
// carry the type.
func TestNeedsSuffixMatchesRule(t *testing.T) {
	f := buildBranches()
	n := ir.Value(len(f.Values))
	f.Values = append(f.Values,
		ir.ValueData{Kind: ir.DefAlias, AliasOf: 0},     // to a param of the entry block
		ir.ValueData{Kind: ir.DefAlias, AliasOf: n},     // to an alias
		ir.ValueData{Kind: ir.DefAlias, AliasOf: 8},     // to a result
		ir.ValueData{Kind: ir.DefAlias, AliasOf: n + 4}, // a cycle
		ir.ValueData{Kind: ir.DefAlias, AliasOf: n + 3},
		ir.ValueData{}, // unused
		ir.ValueData{Kind: ir.DefAlias, AliasOf: 9999}, // to nothing
	)
	rule := func(p *funcPrinter, k int, i ir.Inst, d *ir.InstData) bool {
		if k >= len(d.Args) {
			return true
		}
		v := p.resolve(d.Args[k])
		if v == ir.NoValue || p.values[v].Type != d.CtrlType || !p.instAt[i].placed {
			return true
		}
		at, vd := p.instAt[i], &p.values[v]
		switch vd.Kind {
		case ir.DefParam:
			return vd.Block != at.block
		case ir.DefResult:
			def := p.instAt[vd.Inst]
			return !def.placed || def.block != at.block || def.pos >= at.pos
		}
		return true
	}
	var p funcPrinter
	checked := 0
	for i := range f.Insts {
		d := &f.Insts[i]
		plan := planOf(d.Op)
		if plan.suffix != suffixUnlessOperand {
			continue
		}
		orig := d.Args[plan.ctrlOperand]
		for v := range ir.Value(len(f.Values) + 2) {
			d.Args[plan.ctrlOperand] = v
			p.reset(Options{}, f)
			if got, want := p.needsSuffix(plan.ctrlOperand, ir.Inst(i), d), rule(&p, plan.ctrlOperand, ir.Inst(i), d); got != want {
				t.Errorf("inst%d (%s) with operand %s: needsSuffix = %v, want %v", i, d.Op, v, got, want)
			}
			checked++
		}
		d.Args[plan.ctrlOperand] = orig
	}
	if checked == 0 {
		t.Error("nothing checked")
	}
}
