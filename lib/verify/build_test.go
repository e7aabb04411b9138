package verify

import (
	"strings"
	"testing"

	"cliff/lib/ir"
)

// builder makes IR directly, for shapes the parser cannot produce (an
// instruction in two blocks, a value defined twice, alias cycles).
type builder struct{ f *ir.Function }

func newBuilder(name string, params, returns []ir.Type) *builder {
	f := &ir.Function{Name: name}
	for _, t := range params {
		f.Sig.Params = append(f.Sig.Params, ir.AbiParam{Type: t})
	}
	for _, t := range returns {
		f.Sig.Returns = append(f.Sig.Returns, ir.AbiParam{Type: t})
	}
	f.StackLimit = ir.NoGlobalValue
	return &builder{f: f}
}

func (b *builder) value(d ir.ValueData) ir.Value {
	b.f.Values = append(b.f.Values, d)
	return ir.Value(len(b.f.Values) - 1)
}

// block declares a block with params of the given types and appends it to
// the layout.
func (b *builder) block(params ...ir.Type) (ir.Block, []ir.Value) {
	blk := ir.Block(len(b.f.Blocks))
	b.f.Blocks = append(b.f.Blocks, ir.BlockData{Used: true})
	var vs []ir.Value
	for k, t := range params {
		vs = append(vs, b.value(ir.ValueData{Type: t, Kind: ir.DefParam, Block: blk, Index: k}))
	}
	b.f.Blocks[blk].Params = vs
	b.f.Layout = append(b.f.Layout, blk)
	return blk, vs
}

// inst appends an instruction to blk with results of the given types.
func (b *builder) inst(blk ir.Block, d ir.InstData, results ...ir.Type) (ir.Inst, []ir.Value) {
	i := ir.Inst(len(b.f.Insts))
	for k, t := range results {
		d.Results = append(d.Results, b.value(ir.ValueData{Type: t, Kind: ir.DefResult, Inst: i, Index: k}))
	}
	b.f.Insts = append(b.f.Insts, d)
	b.f.Blocks[blk].Insts = append(b.f.Blocks[blk].Insts, i)
	return i, d.Results
}

func (b *builder) iadd(blk ir.Block, t ir.Type, x, y ir.Value) (ir.Inst, ir.Value) {
	i, r := b.inst(blk, ir.InstData{Op: ir.OpIadd, CtrlType: t, Args: []ir.Value{x, y}}, t)
	return i, r[0]
}

func (b *builder) ret(blk ir.Block, vs ...ir.Value) ir.Inst {
	i, _ := b.inst(blk, ir.InstData{Op: ir.OpReturn, Args: vs})
	return i
}

func (b *builder) jump(blk, to ir.Block, args ...ir.Value) ir.Inst {
	bc := ir.BlockCall{Block: to}
	for _, a := range args {
		bc.Args = append(bc.Args, ir.BlockArg{Value: a})
	}
	i, _ := b.inst(blk, ir.InstData{Op: ir.OpJump, Dests: []ir.BlockCall{bc}})
	return i
}

// want is one expected error: where and a substring of the message.
type want struct {
	block ir.Block
	inst  ir.Inst
	msg   string
}

// checkErrors asserts that errs are exactly the wanted ones, in any order.
func checkErrors(t *testing.T, errs Errors, wants []want) {
	t.Helper()
	used := make([]bool, len(errs))
	for _, w := range wants {
		found := false
		for k, e := range errs {
			if !used[k] && e.Block == w.block && e.Inst == w.inst && strings.Contains(e.Msg, w.msg) {
				used[k], found = true, true
				break
			}
		}
		if !found {
			t.Errorf("missing error at %s %s: %q", w.block, w.inst, w.msg)
		}
	}
	for k, e := range errs {
		if !used[k] {
			t.Errorf("unexpected error: %v", e)
		}
	}
}

func TestBuiltIR(t *testing.T) {
	tests := []struct {
		name  string
		build func() (*ir.Function, []want)
	}{
		{"valid", func() (*ir.Function, []want) {
			b := newBuilder("%ok", []ir.Type{ir.I32, ir.I32}, []ir.Type{ir.I32})
			b0, p := b.block(ir.I32, ir.I32)
			_, s := b.iadd(b0, ir.I32, p[0], p[1])
			b.ret(b0, s)
			return b.f, nil
		}},
		{"no blocks", func() (*ir.Function, []want) {
			b := newBuilder("%empty", nil, nil)
			return b.f, []want{{ir.NoBlock, ir.NoInst, "function has no blocks"}}
		}},
		{"inst in two blocks", func() (*ir.Function, []want) {
			b := newBuilder("%twice", nil, nil)
			b0, _ := b.block()
			b1, _ := b.block()
			j := b.jump(b0, b1)
			b.f.Blocks[b1].Insts = append(b.f.Blocks[b1].Insts, j)
			return b.f, []want{{b1, ir.NoInst, "block1 lists inst0, which already appears in block0"}}
		}},
		{"block twice in layout", func() (*ir.Function, []want) {
			b := newBuilder("%dup", nil, nil)
			b0, _ := b.block()
			b.ret(b0)
			b.f.Layout = append(b.f.Layout, b0)
			return b.f, []want{{b0, ir.NoInst, "appears more than once in the layout"}}
		}},
		{"undeclared block in layout", func() (*ir.Function, []want) {
			b := newBuilder("%undeclared", nil, nil)
			b0, _ := b.block()
			b.ret(b0)
			b.f.Layout = append(b.f.Layout, 7)
			return b.f, []want{{7, ir.NoInst, "block7 is in the layout but not declared"}}
		}},
		{"result defined twice", func() (*ir.Function, []want) {
			b := newBuilder("%redef", []ir.Type{ir.I32}, []ir.Type{ir.I32})
			b0, p := b.block(ir.I32)
			_, s := b.iadd(b0, ir.I32, p[0], p[0])
			i2, _ := b.iadd(b0, ir.I32, s, s)
			b.f.Insts[i2].Results = []ir.Value{s} // claims v1 as well
			b.ret(b0, s)
			return b.f, []want{{b0, i2, "instruction result v1 is not defined by the instruction"}}
		}},
		{"param of another block", func() (*ir.Function, []want) {
			b := newBuilder("%param", []ir.Type{ir.I32}, nil)
			b0, p := b.block(ir.I32)
			b1, _ := b.block()
			b.f.Blocks[b1].Params = []ir.Value{p[0]}
			b.jump(b0, b1, p[0])
			b.ret(b1)
			return b.f, []want{{b1, ir.NoInst, "v0 does not belong to block1"}}
		}},
		{"alias cycle", func() (*ir.Function, []want) {
			b := newBuilder("%alias", nil, []ir.Type{ir.I32})
			b0, _ := b.block()
			a := b.value(ir.ValueData{Type: ir.I32, Kind: ir.DefAlias})
			c := b.value(ir.ValueData{Type: ir.I32, Kind: ir.DefAlias, AliasOf: a})
			b.f.Values[a].AliasOf = c
			r := b.ret(b0, a)
			return b.f, []want{{b0, r, "value v0 is an alias in a cycle"}}
		}},
		{"alias resolves", func() (*ir.Function, []want) {
			b := newBuilder("%alias_ok", []ir.Type{ir.I32}, []ir.Type{ir.I32})
			b0, p := b.block(ir.I32)
			a := b.value(ir.ValueData{Type: ir.I32, Kind: ir.DefAlias, AliasOf: p[0]})
			b.ret(b0, a)
			return b.f, nil
		}},
		{"undefined and out-of-range values", func() (*ir.Function, []want) {
			b := newBuilder("%undef", nil, []ir.Type{ir.I32})
			b0, _ := b.block()
			hole := b.value(ir.ValueData{}) // an unused slot
			i, _ := b.iadd(b0, ir.I32, hole, 99)
			r := b.ret(b0, 98)
			return b.f, []want{
				{b0, i, "invalid value reference v0"},
				{b0, i, "invalid value reference v99"},
				{b0, r, "invalid value reference v98"},
			}
		}},
		{"missing operand", func() (*ir.Function, []want) {
			b := newBuilder("%short", []ir.Type{ir.I32}, nil)
			b0, p := b.block(ir.I32)
			i, _ := b.inst(b0, ir.InstData{Op: ir.OpIadd, Args: []ir.Value{p[0]}}, ir.I32)
			b.ret(b0)
			return b.f, []want{{b0, i, "expected 2 value operands, found 1"}}
		}},
		{"bad opcode", func() (*ir.Function, []want) {
			b := newBuilder("%badop", nil, nil)
			b0, _ := b.block()
			i, _ := b.inst(b0, ir.InstData{Op: ir.Opcode(60000)})
			b.ret(b0)
			return b.f, []want{{b0, i, "invalid opcode 60000"}}
		}},
		{"controlling type outside its set", func() (*ir.Function, []want) {
			b := newBuilder("%ctrl", []ir.Type{ir.F32}, nil)
			b0, p := b.block(ir.F32)
			b1, _ := b.block()
			i, _ := b.iadd(b0, ir.F32, p[0], p[0])
			br, _ := b.inst(b0, ir.InstData{Op: ir.OpBrif, Args: []ir.Value{p[0]},
				Dests: []ir.BlockCall{{Block: b1}, {Block: b1}}})
			b.ret(b1)
			return b.f, []want{
				{b0, i, "has an invalid controlling type f32"},
				{b0, br, "has an invalid controlling type f32"},
			}
		}},
		{"result types and counts", func() (*ir.Function, []want) {
			b := newBuilder("%results", []ir.Type{ir.I32}, nil)
			b.f.Sigs = []ir.SigDecl{{Num: 0, Sig: ir.Signature{Returns: []ir.AbiParam{{Type: ir.I64}}}}}
			b.f.FuncRefs = []ir.FuncRefDecl{{Num: 0, Name: "%g", Sig: 0}}
			b0, p := b.block(ir.I32)
			i0, _ := b.inst(b0, ir.InstData{Op: ir.OpIadd, Args: []ir.Value{p[0], p[0]}}, ir.I64)
			i1, _ := b.inst(b0, ir.InstData{Op: ir.OpIcmp, Args: []ir.Value{p[0], p[0]}}, ir.I32)
			i2, _ := b.inst(b0, ir.InstData{Op: ir.OpCall, Func: 0})
			i3, _ := b.inst(b0, ir.InstData{Op: ir.OpCall, Func: 0}, ir.I32)
			i4, _ := b.inst(b0, ir.InstData{Op: ir.OpIadd, Args: []ir.Value{p[0], p[0]}})
			b.ret(b0)
			return b.f, []want{
				// The result gives the controlling type, as in Cranelift.
				{b0, i0, "arg 0 (v0) has type i32, expected i64"},
				{b0, i0, "arg 1 (v0) has type i32, expected i64"},
				{b0, i1, "expected result 0 (v2) to have type i8, found i32"},
				{b0, i2, "expected 1 result values, found 0"},
				{b0, i3, "expected result 0 (v3) to have type i64, found i32"},
				{b0, i4, "expected 1 result values, found 0"},
			}
		}},
		{"undeclared entities", func() (*ir.Function, []want) {
			b := newBuilder("%refs", nil, nil)
			b0, _ := b.block()
			i0, _ := b.inst(b0, ir.InstData{Op: ir.OpCall, Func: 3})
			b.ret(b0)
			return b.f, []want{{b0, i0, "invalid function reference fn3"}}
		}},
		{"annotations the parser refuses", func() (*ir.Function, []want) {
			b := newBuilder("%annotations", []ir.Type{ir.I32}, nil)
			b.f.Sig.CallConv = ir.CallConvTail
			b.f.StackSlots = []ir.StackSlotDecl{{Num: 0, Kind: "explicit_slot", Size: 8}}
			b.f.Sigs = []ir.SigDecl{{Num: 0, Sig: ir.Signature{CallConv: ir.CallConvTail}}}
			b.f.FuncRefs = []ir.FuncRefDecl{{Num: 0, Name: "%g", Sig: 0}}
			b0, p := b.block(ir.I32)
			entry := []ir.StackMapEntry{{Type: ir.I64, Slot: 0, Offset: 8}}
			i0, _ := b.iadd(b0, ir.I32, p[0], p[0])
			b.f.Insts[i0].StackMap = entry
			b.f.Insts[i0].SrcLoc = ir.SrcLoc(0x19) // fine anywhere
			i1, _ := b.inst(b0, ir.InstData{Op: ir.OpCall, Func: 0, DebugTags: []ir.DebugTag{{Kind: 5}},
				StackMap: []ir.StackMapEntry{{Type: ir.Invalid, Slot: 0}, {Type: ir.DynamicOf(ir.I32X4), Slot: 0}}})
			r, _ := b.inst(b0, ir.InstData{Op: ir.OpReturnCall, Func: 0, StackMap: entry})
			return b.f, []want{
				{b0, i0, "stack map can only be attached to a (non-tail) call"},
				{b0, i1, "invalid debug tag kind 5"},
				{b0, i1, "invalid stack map entry type"},
				{b0, i1, "invalid stack map entry type i32x4xN"},
				{b0, r, "stack map can only be attached to a (non-tail) call"},
			}
		}},
		{"many problems, all reported", func() (*ir.Function, []want) {
			b := newBuilder("%many", []ir.Type{ir.I32}, []ir.Type{ir.I64})
			b0, p := b.block(ir.I32)
			b1, _ := b.block()
			b2, _ := b.block()
			i0, s := b.iadd(b0, ir.I32, p[0], 5) // v5 is never defined
			r0 := b.ret(b0, s)                   // early, and returns an i32
			b.iadd(b0, ir.I32, s, s)
			j := b.jump(b0, b1, s) // block1 takes no params
			b.jump(b1, b2)         // block2 stays empty
			return b.f, []want{
				{b0, i0, "invalid value reference v5"},
				{b0, r0, "a terminator instruction was encountered before the end of block0"},
				{b0, r0, "result 0 has type i32, must match function signature of i64"},
				{b0, j, "mismatched argument count for `jump block1(v1)`: got 1, expected 0"},
				{b2, ir.NoInst, "block2 cannot be empty"},
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, wants := tc.build()
			checkErrors(t, Function(f), wants)
		})
	}
}

func TestErrorString(t *testing.T) {
	e := Error{Func: "%f", Block: 0, Inst: 3, Context: "v1 = iadd v2, v0", Pos: ir.Pos{Line: 7, Col: 5},
		Msg: "uses value v2 from non-dominating inst4"}
	want := "line 7: function %f, block0, inst `v1 = iadd v2, v0`: uses value v2 from non-dominating inst4"
	if got := e.Error(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	e = Error{Func: "%g", Block: ir.NoBlock, Inst: ir.NoInst, Entity: "gv1", Msg: "global value cycle: [gv1]"}
	if got, want := e.Error(), "function %g, gv1: global value cycle: [gv1]"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	errs := Errors{e, e}
	if got := strings.Count(errs.Error(), "\n"); got != 1 {
		t.Errorf("Errors.Error() has %d newlines, want 1", got)
	}
}
