package verify

import (
	"math/rand"
	"runtime/debug"
	"strings"
	"testing"

	"cliff/lib/ir"
)

// cloneFunc copies the parts of f that corrupt changes.
func cloneFunc(f *ir.Function) *ir.Function {
	g := *f
	g.Insts = make([]ir.InstData, len(f.Insts))
	for i, d := range f.Insts {
		d.Args = append([]ir.Value(nil), d.Args...)
		d.Results = append([]ir.Value(nil), d.Results...)
		d.Dests = append([]ir.BlockCall(nil), d.Dests...)
		for k := range d.Dests {
			d.Dests[k].Args = append([]ir.BlockArg(nil), d.Dests[k].Args...)
		}
		d.Handlers = append([]ir.ExceptionHandler(nil), d.Handlers...)
		g.Insts[i] = d
	}
	g.Blocks = make([]ir.BlockData, len(f.Blocks))
	for i, b := range f.Blocks {
		b.Insts = append([]ir.Inst(nil), b.Insts...)
		b.Params = append([]ir.Value(nil), b.Params...)
		g.Blocks[i] = b
	}
	g.Values = append([]ir.ValueData(nil), f.Values...)
	g.Layout = append([]ir.Block(nil), f.Layout...)
	g.Sig.Params = append([]ir.AbiParam(nil), f.Sig.Params...)
	g.Sigs = append([]ir.SigDecl(nil), f.Sigs...)
	g.GlobalValues = append([]ir.GlobalValueDecl(nil), f.GlobalValues...)
	return &g
}

// corrupt breaks one thing in f, with no regard for sense: IDs out of
// range, wrong kinds, missing operands, other opcodes.
func corrupt(f *ir.Function, rng *rand.Rand) {
	anyID := func(n int) uint32 {
		switch rng.Intn(4) {
		case 0:
			return ^uint32(0)
		case 1:
			return uint32(n + rng.Intn(3))
		}
		return uint32(rng.Intn(n + 1))
	}
	inst := func() *ir.InstData {
		if len(f.Insts) == 0 {
			return nil
		}
		return &f.Insts[rng.Intn(len(f.Insts))]
	}
	switch rng.Intn(15) {
	case 0:
		if d := inst(); d != nil && len(d.Args) > 0 {
			d.Args[rng.Intn(len(d.Args))] = ir.Value(anyID(len(f.Values)))
		}
	case 1:
		if d := inst(); d != nil && len(d.Results) > 0 {
			d.Results[rng.Intn(len(d.Results))] = ir.Value(anyID(len(f.Values)))
		}
	case 2:
		if d := inst(); d != nil && len(d.Dests) > 0 {
			bc := &d.Dests[rng.Intn(len(d.Dests))]
			bc.Block = ir.Block(anyID(len(f.Blocks)))
			bc.Args = append(bc.Args, ir.BlockArg{Kind: ir.BlockArgKind(rng.Intn(4)), Index: anyID(3), Value: ir.Value(anyID(len(f.Values)))})
		}
	case 3:
		if d := inst(); d != nil {
			d.Op = ir.Opcode(rng.Intn(len(ir.Opcodes()) + 3))
		}
	case 4:
		if d := inst(); d != nil {
			d.Func, d.Sig, d.Slot = ir.FuncRef(anyID(3)), ir.SigRef(anyID(3)), ir.StackSlot(anyID(3))
			d.GV, d.Const, d.RawBlock = ir.GlobalValue(anyID(3)), ir.Constant(anyID(3)), ir.Block(anyID(len(f.Blocks)))
			d.Imm = int64(anyID(40)) - 5
		}
	case 5:
		if d := inst(); d != nil && len(d.Args) > 0 {
			d.Args = d.Args[:rng.Intn(len(d.Args))]
		}
	case 6:
		if d := inst(); d != nil {
			d.Handlers = append(d.Handlers, ir.ExceptionHandler{Kind: ir.HandlerKind(rng.Intn(4)),
				Context: ir.Value(anyID(len(f.Values))), Dest: ir.BlockCall{Block: ir.Block(anyID(len(f.Blocks)))}})
		}
	case 7:
		if len(f.Blocks) > 0 {
			b := &f.Blocks[rng.Intn(len(f.Blocks))]
			b.Insts = append(b.Insts, ir.Inst(anyID(len(f.Insts))))
		}
	case 8:
		if len(f.Blocks) > 0 {
			b := &f.Blocks[rng.Intn(len(f.Blocks))]
			b.Params = append(b.Params, ir.Value(anyID(len(f.Values))))
		}
	case 9:
		if len(f.Layout) > 0 {
			f.Layout[rng.Intn(len(f.Layout))] = ir.Block(anyID(len(f.Blocks)))
		}
	case 10:
		if len(f.Values) > 0 {
			v := &f.Values[rng.Intn(len(f.Values))]
			v.Kind = ir.ValueDefKind(rng.Intn(5))
			v.Block, v.Inst = ir.Block(anyID(len(f.Blocks))), ir.Inst(anyID(len(f.Insts)))
			v.Index, v.AliasOf = int(anyID(3))%8-1, ir.Value(anyID(len(f.Values)))
			v.Type = ir.Type(rng.Intn(0x200))
		}
	case 11:
		if len(f.Sig.Params) > 0 {
			f.Sig.Params = f.Sig.Params[:rng.Intn(len(f.Sig.Params))]
		}
		f.Sig.Returns = append(f.Sig.Returns, ir.AbiParam{Type: ir.Type(rng.Intn(0x200)), Ext: ir.Extension(rng.Intn(3))})
	case 12:
		for k := range f.GlobalValues {
			f.GlobalValues[k].Base = ir.GlobalValue(anyID(len(f.GlobalValues)))
			f.GlobalValues[k].Kind = ir.GlobalValueKind(rng.Intn(6))
		}
	case 13:
		for k := range f.Sigs {
			f.Sigs[k].Num = ir.SigRef(anyID(3))
		}
	case 14:
		if d := inst(); d != nil {
			// Full slice expressions: the original's arrays stay as they are.
			d.DebugTags = append(d.DebugTags[:len(d.DebugTags):len(d.DebugTags)],
				ir.DebugTag{Kind: ir.DebugTagKind(rng.Intn(3)), User: anyID(3), Slot: ir.StackSlot(anyID(3))})
			d.StackMap = append(d.StackMap[:len(d.StackMap):len(d.StackMap)],
				ir.StackMapEntry{Type: ir.Type(rng.Intn(0x200)), Slot: ir.StackSlot(anyID(3)), Offset: anyID(3)})
			d.SrcLoc = ir.SrcLoc(anyID(3))
		}
	}
}

// TestNoPanicOnCorruptIR verifies corrupted copies of the filetests'
// functions: the verifier must report, never panic.
func TestNoPanicOnCorruptIR(t *testing.T) {
	tests, _ := loadFiletests(t, "", func(rel string) bool { return !strings.HasPrefix(rel, "parser/") })
	rng := rand.New(rand.NewSource(1))
	n := 0
	for _, ft := range tests {
		for _, f := range ft.file.Funcs {
			for range 3 {
				g := cloneFunc(f)
				for range 1 + rng.Intn(3) {
					corrupt(g, rng)
				}
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Fatalf("%s: %s: panic: %v\n%s", ft.rel, f.Name, r, debug.Stack())
						}
					}()
					FunctionWith(g, Options{PointerType: ir.I64})
				}()
				n++
			}
		}
	}
	t.Logf("%d corrupted functions verified without panic", n)
}
