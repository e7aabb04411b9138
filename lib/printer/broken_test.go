package printer

import (
	"math/rand/v2"
	"strings"
	"testing"

	"cliff/lib/ir"
)

// Malformed IR prints with visible markers instead of panicking.
func TestBrokenFunctions(t *testing.T) {
	for _, tc := range []struct {
		name   string
		break_ func(f *ir.Function)
		want   string
	}{
		{"undefined value", func(f *ir.Function) { f.Insts[4].Args[0] = 999 }, "v10 = iadd.i8 v999<undefined>, v8"},
		{"no value", func(f *ir.Function) { f.Insts[4].Args[1] = ir.NoValue }, "iadd v8, v?"},
		{"unused value slot", func(f *ir.Function) { f.Values[8].Kind = ir.DefNone }, "v8<undefined> = iconst.i8 -1"},
		{"missing operand", func(f *ir.Function) { f.Insts[3].Args = f.Insts[3].Args[:1] }, "v9 = iadd v7, <missing operand>"},
		{"no operands", func(f *ir.Function) { f.Insts[3].Args = nil }, "v9 = iadd.i64 <missing operand>, <missing operand>"},
		{"extra operand", func(f *ir.Function) { f.Insts[3].Args = append(f.Insts[3].Args, 0) }, "iadd v7, v7, <extra operand v0>"},
		{"bad opcode", func(f *ir.Function) { f.Insts[3].Op = 9999 }, "v9 = <bad opcode> v7, v7"},
		{"invalid opcode", func(f *ir.Function) { f.Insts[5].Op = ir.OpInvalid }, "<bad opcode> block1(v6, v6)"},
		{"missing ctrl type", func(f *ir.Function) { f.Insts[0].CtrlType = ir.Invalid }, "v6 = iconst.<missing type> 0"},
		{"bad ctrl type", func(f *ir.Function) { f.Insts[0].CtrlType = 0xfff }, "iconst.<bad type 0xfff> 0"},
		{"bad param type", func(f *ir.Function) { f.Values[1].Type = ir.Invalid }, "v1: <invalid type>"},
		{"param out of range", func(f *ir.Function) { f.Blocks[0].Params[2] = 500 }, "v500<undefined>: <invalid type>"},
		{"missing else", func(f *ir.Function) { f.Insts[10].Dests = f.Insts[10].Dests[:1] }, "brif v14, block2(v12), <missing block call>"},
		{"no dests", func(f *ir.Function) { f.Insts[5].Dests = nil }, "jump <missing block call>"},
		{"extra dest", func(f *ir.Function) { f.Insts[5].Dests = append(f.Insts[5].Dests, ir.BlockCall{Block: 2}) }, "jump block1(v6, v6), <extra block call block2>"},
		{"undefined dest", func(f *ir.Function) { f.Insts[5].Dests[0].Block = 77 }, "jump block77(v6, v6)"},
		{"no-block dest", func(f *ir.Function) { f.Insts[5].Dests[0].Block = ir.NoBlock }, "jump block?(v6, v6)"},
		{"bad block arg", func(f *ir.Function) { f.Insts[5].Dests[0].Args[0].Kind = 9 }, "jump block1(<bad block arg>, v6)"},
		{"handlers on jump", func(f *ir.Function) { f.Insts[5].Handlers = []ir.ExceptionHandler{{}} }, "<extra exception handlers>"},
		{"layout block out of range", func(f *ir.Function) { f.Layout = append(f.Layout, 42) }, "\nblock42<undefined>:\n"},
		{"layout block unused", func(f *ir.Function) { f.Blocks[2].Used = false }, "\nblock2<undefined>(v5: i32) cold:\n"},
		{"inst out of range", func(f *ir.Function) { f.Blocks[0].Insts = append(f.Blocks[0].Insts, 1234) }, "    <bad inst inst1234>\n"},
		{"alias cycle", func(f *ir.Function) {
			f.Values = append(f.Values, ir.ValueData{Kind: ir.DefAlias, AliasOf: 17}, ir.ValueData{Kind: ir.DefAlias, AliasOf: 16})
		}, "    v16 -> v17\n    v17 -> v16\n}"},
		{"alias to nowhere", func(f *ir.Function) {
			f.Values = append(f.Values, ir.ValueData{Kind: ir.DefAlias, AliasOf: 3000})
		}, "    v16 -> v3000<undefined>\n}"},
		{"cyclic alias as ctrl operand", func(f *ir.Function) {
			f.Values = append(f.Values, ir.ValueData{Kind: ir.DefAlias, AliasOf: 16})
			f.Insts[4].Args[0] = 16
		}, "v10 = iadd.i8 v16, v8"},
		{"ctrl type differs from operand", func(f *ir.Function) { f.Insts[4].CtrlType = ir.I64 }, "v10 = iadd.i64 v8, v8"},
		{"operand defined later in the block", func(f *ir.Function) {
			blk := &f.Blocks[0]
			blk.Insts[2], blk.Insts[4] = blk.Insts[4], blk.Insts[2]
		}, "v10 = iadd.i8 v8, v8  ; v8 = -1, v8 = -1\n    v9 = iadd v7, v7"},
		{"bad extension", func(f *ir.Function) { f.Sig.Params[0].Ext = 7 }, "(i32 <bad extension>,"},
		{"no name", func(f *ir.Function) { f.Name = "" }, "function <missing name>("},
		{"bad intcc", func(f *ir.Function) { f.Insts[9].IntCC = 200 }, "icmp <bad intcc> v13, v0"},
		{"bad debug tag", func(f *ir.Function) {
			f.Insts[2].DebugTags = []ir.DebugTag{{Kind: 7}, ir.SlotTag(ir.NoStackSlot)}
		}, "<<bad debug tag>, ss?> "},
		{"stack map on a non-call", func(f *ir.Function) {
			f.Insts[3].StackMap = []ir.StackMapEntry{{Type: ir.Invalid, Slot: ir.NoStackSlot, Offset: 1}}
		}, "iadd v7, v7, stack_map=[<invalid type> @ ss?+1]"},
		{"bad global value kind", func(f *ir.Function) { f.GlobalValues = []ir.GlobalValueDecl{{Num: 0, Kind: 99}} }, "gv0 = <bad global value kind>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := buildBranches()
			tc.break_(f)
			got := FunctionString(f)
			if !strings.Contains(got, tc.want) {
				t.Errorf("want %q in\n%s", tc.want, got)
			}
		})
	}
}

// TestMutatedFunctionsDoNotPanic breaks valid IR at random, many times, and
// prints it: the printer must never panic.
func TestMutatedFunctionsDoNotPanic(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	builds := []func() *ir.Function{buildBranches, buildPreamble, buildDebugTags, buildAnnotations}
	n := 3000
	if testing.Short() {
		n = 300
	}
	for k := range n {
		f := builds[k%len(builds)]()
		for range 1 + rng.IntN(6) {
			mutate(rng, f)
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panic printing mutation %d: %v\n%#v", k, r, f)
				}
			}()
			if FunctionString(f) == "" {
				t.Fatal("empty output")
			}
			for i := range f.Insts {
				Inst(f, ir.Inst(i))
			}
		}()
	}
}

// mutate applies one random corruption to f.
func mutate(rng *rand.Rand, f *ir.Function) {
	bogus32 := func() uint32 {
		switch rng.IntN(4) {
		case 0:
			return ^uint32(0)
		case 1:
			return uint32(rng.IntN(40))
		case 2:
			return 1 << 31
		}
		return rng.Uint32()
	}
	pickInst := func() *ir.InstData {
		if len(f.Insts) == 0 {
			return nil
		}
		return &f.Insts[rng.IntN(len(f.Insts))]
	}
	switch rng.IntN(16) {
	case 0: // delete an arg
		if d := pickInst(); d != nil && len(d.Args) > 0 {
			j := rng.IntN(len(d.Args))
			d.Args = append(d.Args[:j:j], d.Args[j+1:]...)
		}
	case 1: // bogus arg
		if d := pickInst(); d != nil && len(d.Args) > 0 {
			d.Args[rng.IntN(len(d.Args))] = ir.Value(bogus32())
		}
	case 2: // wrong opcode
		if d := pickInst(); d != nil {
			d.Op = ir.Opcode(rng.IntN(len(ir.Opcodes()) + 3))
		}
	case 3: // bogus ctrl type
		if d := pickInst(); d != nil {
			d.CtrlType = ir.Type(rng.Uint32())
		}
	case 4: // drop or add dests
		if d := pickInst(); d != nil {
			if len(d.Dests) > 0 && rng.IntN(2) == 0 {
				d.Dests = d.Dests[:rng.IntN(len(d.Dests))]
			} else {
				d.Dests = append(d.Dests, ir.BlockCall{Block: ir.Block(bogus32()),
					Args: []ir.BlockArg{{Kind: ir.BlockArgKind(rng.IntN(4)), Value: ir.Value(bogus32()), Index: bogus32()}}})
			}
		}
	case 5: // bogus handlers
		if d := pickInst(); d != nil {
			d.Handlers = append(d.Handlers, ir.ExceptionHandler{Kind: ir.HandlerKind(rng.IntN(4)), Tag: bogus32(),
				Context: ir.Value(bogus32()), Dest: ir.BlockCall{Block: ir.Block(bogus32())}})
		}
	case 6: // bogus layout
		f.Layout = append(f.Layout, ir.Block(bogus32()))
	case 7: // bogus inst in a block
		if len(f.Blocks) > 0 {
			b := &f.Blocks[rng.IntN(len(f.Blocks))]
			b.Insts = append(b.Insts, ir.Inst(bogus32()))
		}
	case 8: // value turned into an alias of anything
		if len(f.Values) > 0 {
			f.Values[rng.IntN(len(f.Values))] = ir.ValueData{Kind: ir.DefAlias, AliasOf: ir.Value(bogus32())}
		}
	case 9: // value definition pointing anywhere
		if len(f.Values) > 0 {
			f.Values[rng.IntN(len(f.Values))] = ir.ValueData{Type: ir.Type(rng.Uint32()), Kind: ir.ValueDefKind(rng.IntN(5)),
				Block: ir.Block(bogus32()), Inst: ir.Inst(bogus32()), Index: rng.IntN(9) - 3}
		}
	case 10: // truncate Values, Insts or Blocks behind the layout's back
		switch rng.IntN(3) {
		case 0:
			f.Values = f.Values[:rng.IntN(len(f.Values)+1)]
		case 1:
			f.Insts = f.Insts[:rng.IntN(len(f.Insts)+1)]
		case 2:
			f.Blocks = f.Blocks[:rng.IntN(len(f.Blocks)+1)]
		}
	case 11: // bogus immediates
		if d := pickInst(); d != nil {
			d.Imm = int64(rng.Uint64())
			d.FloatBits = rng.Uint64()
			d.IntCC = ir.IntCC(rng.IntN(256))
			d.FloatCC = ir.FloatCC(rng.IntN(256))
			d.RmwOp = ir.AtomicRmwOp(rng.IntN(256))
			d.Trap = ir.TrapCode(rng.IntN(1 << 16))
			d.Bytes = make([]byte, rng.IntN(20))
			d.Const = ir.Constant(bogus32())
			d.Flags = ir.MemFlags{Trap: ir.TrapCode(rng.IntN(300)), Endian: ir.Endianness(rng.IntN(5)), HasRegion: true, Region: ir.AliasRegion(bogus32())}
		}
	case 12: // results pointing anywhere
		if d := pickInst(); d != nil {
			d.Results = append(d.Results, ir.Value(bogus32()))
		}
	case 13: // annotations
		if d := pickInst(); d != nil {
			d.DebugTags = append(d.DebugTags, ir.DebugTag{Kind: ir.DebugTagKind(rng.IntN(3)), User: bogus32(), Slot: ir.StackSlot(bogus32())})
			d.SrcLoc = ir.SrcLoc(bogus32())
			d.StackMap = append(d.StackMap, ir.StackMapEntry{Type: ir.Type(rng.Uint32()), Slot: ir.StackSlot(bogus32()), Offset: bogus32()})
		}
	case 14: // bogus preamble
		f.GlobalValues = append(f.GlobalValues, ir.GlobalValueDecl{Num: ir.GlobalValue(bogus32()), Kind: ir.GlobalValueKind(rng.IntN(8)),
			Type: ir.Type(rng.Uint32()), Offset: int64(rng.Uint64())})
		f.StackSlots = append(f.StackSlots, ir.StackSlotDecl{Num: ir.StackSlot(bogus32()), Size: bogus32(), Align: bogus32()})
		f.DynTypes = append(f.DynTypes, ir.DynTypeDecl{Num: ir.DynamicType(bogus32()), Base: ir.Type(rng.Uint32())})
	case 15: // bogus signature
		f.Sig.Params = append(f.Sig.Params, ir.AbiParam{Type: ir.Type(rng.Uint32()), Ext: ir.Extension(rng.IntN(5))})
		f.Sig.CallConv = ir.CallConv("weird")
	}
}
