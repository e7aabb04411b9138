// Package tramp builds the trampolines through which cliff's C harness
// calls a case's entry function. The harness cannot call a CLIF function of
// arbitrary signature, so each entry gets a companion CLIF function
//
//	function %__cliff_tramp_<entry>(i64 args, i64 results) system_v
//
// that loads the arguments from the args buffer, calls the entry and stores
// its results in the results buffer. Every load and store is explicitly
// little-endian: the buffers have the same bytes on every target (s390x
// included), so cliff reads and writes them without caring which
// architecture ran the code, and a wrong byte or lane order on one target
// shows up as a divergence instead of being hidden by the harness.
//
// Each value occupies a 16-byte-aligned slot; Layout says where. An i128
// result is stored as its two i64 halves (findings/60: Pulley's store.i128
// ignores the offset).
package tramp

import (
	"fmt"
	"strings"

	"cliff/lib/ir"
	"cliff/lib/printer"
)

// Prefix starts every trampoline's name; case functions must not use it.
const Prefix = "%__cliff_tramp_"

// slotAlign is the alignment of every value in the buffers: enough for any
// scalar and for 128-bit vectors.
const slotAlign = 16

// A Layout places an entry's arguments and results in the buffers.
type Layout struct {
	Args        []Slot
	Results     []Slot
	ArgsSize    int
	ResultsSize int
}

// A Slot is one value in a buffer.
type Slot struct {
	Type   ir.Type
	Offset int
}

// Name returns the trampoline name for an entry function name ("%f" or
// "u0:3").
func Name(entry string) string {
	s := strings.TrimPrefix(entry, "%")
	return Prefix + strings.Map(func(r rune) rune {
		if r == ':' {
			return '_'
		}
		return r
	}, s)
}

// LayoutOf places sig's params and returns.
func LayoutOf(sig *ir.Signature) (Layout, error) {
	var l Layout
	var err error
	if l.Args, l.ArgsSize, err = place(sig.Params, "parameter"); err != nil {
		return l, err
	}
	l.Results, l.ResultsSize, err = place(sig.Returns, "result")
	return l, err
}

func place(params []ir.AbiParam, what string) ([]Slot, int, error) {
	slots := make([]Slot, len(params))
	off := 0
	for i, p := range params {
		// A vmctx parameter is passed like any other: its value comes
		// from the run command or input vector, as in Cranelift's own
		// test runner. Other purposes (sret, struct arguments) change
		// the ABI in ways a plain load cannot supply.
		if p.Purpose != "" && p.Purpose != ir.PurposeVMContext {
			return nil, 0, fmt.Errorf("%s %d has purpose %s: the harness cannot supply it", what, i, p.Purpose)
		}
		t := p.Type
		if t.IsDynamic() || !t.Valid() || t.Bytes() == 0 {
			return nil, 0, fmt.Errorf("%s %d has type %s, which the harness cannot pass", what, i, t)
		}
		slots[i] = Slot{Type: t, Offset: off}
		off += (t.Bytes() + slotAlign - 1) / slotAlign * slotAlign
	}
	return slots, off, nil
}

// Build returns the trampoline for entry (a function of the same module)
// and its buffer layout.
func Build(entry *ir.Function) (*ir.Function, Layout, error) {
	return BuildFor(entry, ir.I64)
}

// BuildFor is Build with buffer pointers of type ptr: i32 for targets
// with 32-bit addresses (pulley32), whose backend refuses an i64 address.
// cliff-pulley keeps the buffers below 4 GiB for them.
func BuildFor(entry *ir.Function, ptr ir.Type) (*ir.Function, Layout, error) {
	layout, err := LayoutOf(&entry.Sig)
	if err != nil {
		return nil, layout, fmt.Errorf("function %s: %w", entry.Name, err)
	}
	f := ir.NewFunction(Name(entry.Name), ir.Signature{
		Params:   []ir.AbiParam{{Type: ptr}, {Type: ptr}},
		CallConv: ir.CallConvSystemV,
	})
	b := ir.NewBuilder(f)
	sig := b.DeclareSig(entry.Sig)
	callee := b.DeclareFuncRef(entry.Name, sig)
	blk := b.CreateBlock()
	args := b.AppendBlockParam(blk, ptr)
	results := b.AppendBlockParam(blk, ptr)
	b.SwitchToBlock(blk)
	// notrap: the buffers are always valid, and a trap here would be
	// blamed on the case.
	le := ir.MemFlags{Endian: ir.EndianLittle, NoTrap: true}
	var vals []ir.Value
	for _, s := range layout.Args {
		vals = append(vals, b.Load(s.Type, le, args, int32(s.Offset)))
	}
	rets := b.Call(callee, vals...)
	for i, s := range layout.Results {
		if s.Type != ir.I128 {
			b.Store(le, rets[i], results, int32(s.Offset))
			continue
		}
		// Cranelift's Pulley backend drops the offset of store.i128
		// (findings/60): v, p+16 is written at p. Two i64 stores of
		// the halves, low first as little-endian wants, avoid it
		// whatever the pointer width (an address computed with iadd
		// would not do for pulley32 on a 64-bit host: its 32-bit add
		// leaves the register's upper half as it was).
		f := b.Func()
		halves := f.Insts[f.Values[b.Ins(ir.OpIsplit, ir.Invalid, rets[i])].Inst].Results
		b.Store(le, halves[0], results, int32(s.Offset))
		b.Store(le, halves[1], results, int32(s.Offset)+8)
	}
	b.Return()
	return f, layout, nil
}

// Text returns the CLIF text of the trampoline for entry.
func Text(entry *ir.Function) (string, Layout, error) {
	return TextFor(entry, ir.I64)
}

// TextFor is Text with buffer pointers of type ptr (see BuildFor).
func TextFor(entry *ir.Function, ptr ir.Type) (string, Layout, error) {
	f, layout, err := BuildFor(entry, ptr)
	if err != nil {
		return "", layout, err
	}
	return printer.FunctionString(f), layout, nil
}

// PackArgs writes argument values into a buffer laid out by l.
func (l Layout) PackArgs(args []ir.DataValue) ([]byte, error) {
	if len(args) != len(l.Args) {
		return nil, fmt.Errorf("%d arguments, the function takes %d", len(args), len(l.Args))
	}
	buf := make([]byte, l.ArgsSize)
	for i, a := range args {
		if a.Type != l.Args[i].Type || len(a.Bytes) != a.Type.Bytes() {
			return nil, fmt.Errorf("argument %d is %s, the function takes %s", i, a.Type, l.Args[i].Type)
		}
		copy(buf[l.Args[i].Offset:], a.Bytes)
	}
	return buf, nil
}

// UnpackResults reads the result values from a buffer laid out by l.
func (l Layout) UnpackResults(buf []byte) ([]ir.DataValue, error) {
	if len(buf) != l.ResultsSize {
		return nil, fmt.Errorf("results buffer has %d bytes, want %d", len(buf), l.ResultsSize)
	}
	out := make([]ir.DataValue, len(l.Results))
	for i, s := range l.Results {
		n := s.Type.Bytes()
		out[i] = ir.DataValue{Type: s.Type, Bytes: append([]byte(nil), buf[s.Offset:s.Offset+n]...)}
	}
	return out, nil
}
