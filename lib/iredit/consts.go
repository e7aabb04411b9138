package iredit

import (
	"encoding/binary"
	"math"
	"slices"

	"cliff/lib/ir"
)

// CanConst reports whether a constant of type t can be written: every
// scalar and fixed vector type; not dynamic vectors.
func CanConst(t ir.Type) bool { return t.Valid() && !t.IsDynamic() }

// ConstBytes returns the little-endian bytes of the value x of type t: the
// integer x in every lane, or the float x (0 or ±1) in every float lane.
func ConstBytes(t ir.Type, x int64) []byte {
	lane := laneBytes(t.LaneType(), x)
	out := make([]byte, 0, t.Bytes())
	for range t.Lanes() {
		out = append(out, lane...)
	}
	return out
}

func laneBytes(t ir.Type, x int64) []byte {
	b := make([]byte, t.Bytes())
	switch t {
	case ir.F16:
		binary.LittleEndian.PutUint16(b, f16Bits(float64(x)))
	case ir.F32:
		binary.LittleEndian.PutUint32(b, math.Float32bits(float32(x)))
	case ir.F64:
		binary.LittleEndian.PutUint64(b, math.Float64bits(float64(x)))
	case ir.F128: // 0, or 1.0 (exponent 0x3fff) with x's sign
		if x != 0 {
			hi := uint64(0x3fff) << 48
			if x < 0 {
				hi |= 1 << 63
			}
			binary.LittleEndian.PutUint64(b[8:], hi)
		}
	default: // integers, sign-extended to the width
		for k := range b {
			if k < 8 {
				b[k] = byte(x >> (8 * k))
			} else if x < 0 {
				b[k] = 0xff
			}
		}
	}
	return b
}

// f16Bits is the half-precision form of the small integers the edits use
// (0 and ±1; anything else is 1).
func f16Bits(x float64) uint16 {
	switch x {
	case 0:
		return 0
	case -1:
		return 0xbc00
	}
	return 0x3c00
}

// DefineConst makes v, an existing value of f, the result of new
// instructions computing the constant x of v's type, inserted at index pos
// of block b. It returns how many instructions it inserted (an i128 takes
// an iconcat of iconst.i64 halves), or 0 when the type has no constant.
func DefineConst(f *ir.Function, b ir.Block, pos int, v ir.Value, x int64) int {
	t := f.Values[v].Type
	if !CanConst(t) {
		return 0
	}
	var seq []ir.InstData
	switch {
	case t.IsVector():
		seq = []ir.InstData{{Op: ir.OpVconst, CtrlType: t, Bytes: ConstBytes(t, x), Const: ir.NoConstant}}
	case t == ir.I128:
		return defineI128(f, b, pos, v, x)
	case t.IsInt():
		seq = []ir.InstData{{Op: ir.OpIconst, CtrlType: t, Imm: truncImm(t, x)}}
	case t == ir.F16:
		seq = []ir.InstData{{Op: ir.OpF16const, FloatBits: uint64(f16Bits(float64(x)))}}
	case t == ir.F32:
		seq = []ir.InstData{{Op: ir.OpF32const, FloatBits: uint64(math.Float32bits(float32(x)))}}
	case t == ir.F64:
		seq = []ir.InstData{{Op: ir.OpF64const, FloatBits: math.Float64bits(float64(x))}}
	case t == ir.F128:
		seq = []ir.InstData{{Op: ir.OpF128const, Bytes: ConstBytes(t, x), Const: ir.NoConstant}}
	default:
		return 0
	}
	var prev ir.Value = ir.NoValue
	insts := make([]ir.Inst, len(seq))
	for k, d := range seq {
		if prev != ir.NoValue {
			d.Args = []ir.Value{prev}
		}
		i := ir.Inst(len(f.Insts))
		res := v
		if k < len(seq)-1 { // an intermediate value: a new number
			res = ir.Value(len(f.Values))
			f.Values = append(f.Values, ir.ValueData{Type: ir.I64})
		}
		d.Results = []ir.Value{res}
		f.Values[res] = ir.ValueData{Type: f.Values[res].Type, Kind: ir.DefResult, Inst: i}
		f.Insts = append(f.Insts, d)
		insts[k] = i
		prev = res
	}
	bd := &f.Blocks[b]
	bd.Insts = slices.Insert(slices.Clone(bd.Insts), pos, insts...)
	return len(insts)
}

// truncImm stores x zero-extended from t's width, as Cranelift stores an
// iconst's immediate.
func truncImm(t ir.Type, x int64) int64 {
	if bits := t.Bits(); bits < 64 {
		return x & (1<<bits - 1)
	}
	return x
}

// RemoveInst takes instruction k of block b out of the layout. Its results
// must have no uses left.
func RemoveInst(f *ir.Function, b ir.Block, k int) {
	bd := &f.Blocks[b]
	bd.Insts = slices.Delete(slices.Clone(bd.Insts), k, k+1)
}

// SubstituteConst replaces instruction k of block b by constants: each of
// its results that is used becomes the constant x of its type. It reports
// false when a used result has no constant.
func SubstituteConst(f *ir.Function, u Uses, b ir.Block, k int, x int64) bool {
	i := f.Blocks[b].Insts[k]
	results := slices.Clone(f.Insts[i].Results)
	RemoveInst(f, b, k)
	pos := k
	for _, r := range results {
		if !u.Used(f, r) {
			continue
		}
		n := DefineConst(f, b, pos, r, x)
		if n == 0 {
			return false
		}
		pos += n
	}
	return true
}

// RemoveDead takes out of f's layout every instruction without side
// effects (HasSideEffects) whose results are all unused, repeatedly, and
// returns how many went. Instructions in spare stay: an edit passes the
// ones that were dead before it (Dead), so that it removes only the
// operands it left without uses, and a failure that needs dead code (a
// crash in lowering it) keeps it.
func RemoveDead(f *ir.Function, spare map[ir.Inst]bool) int {
	removed := 0
	for {
		u := IndexUses(f)
		n := 0
		for _, b := range f.Layout {
			bd := &f.Blocks[b]
			bd.Insts = slices.DeleteFunc(slices.Clone(bd.Insts), func(i ir.Inst) bool {
				d := &f.Insts[i]
				if spare[i] || d.Op.HasSideEffects() || len(d.Results) == 0 {
					return false
				}
				for _, r := range d.Results {
					if u.Used(f, r) {
						return false
					}
				}
				n++
				return true
			})
		}
		if n == 0 {
			return removed
		}
		removed += n
	}
}

// Dead returns the instructions RemoveDead(f, nil) would remove first.
func Dead(f *ir.Function) map[ir.Inst]bool {
	u := IndexUses(f)
	dead := map[ir.Inst]bool{}
	for _, b := range f.Layout {
		for _, i := range f.Blocks[b].Insts {
			d := &f.Insts[i]
			if d.Op.HasSideEffects() || len(d.Results) == 0 {
				continue
			}
			used := false
			for _, r := range d.Results {
				used = used || u.Used(f, r)
			}
			if !used {
				dead[i] = true
			}
		}
	}
	return dead
}

// defineI128 makes v the i128 constant x: `iconcat lo, hi` of iconst.i64
// halves (one iconst when they are equal). An iconcat rather than an
// extension, so that the constant is not an instance of the extensions
// i128 bugs are about.
func defineI128(f *ir.Function, b ir.Block, pos int, v ir.Value, x int64) int {
	hi := int64(0)
	if x < 0 {
		hi = -1
	}
	newInst := func(d ir.InstData) ir.Inst {
		i := ir.Inst(len(f.Insts))
		f.Insts = append(f.Insts, d)
		return i
	}
	newConst := func(c int64) (ir.Inst, ir.Value) {
		r := ir.Value(len(f.Values))
		i := newInst(ir.InstData{Op: ir.OpIconst, CtrlType: ir.I64, Imm: c, Results: []ir.Value{r}})
		f.Values = append(f.Values, ir.ValueData{Type: ir.I64, Kind: ir.DefResult, Inst: i})
		return i, r
	}
	loInst, lo := newConst(x)
	insts := []ir.Inst{loInst}
	hiVal := lo
	if hi != x {
		hiInst, h := newConst(hi)
		insts, hiVal = append(insts, hiInst), h
	}
	cat := newInst(ir.InstData{Op: ir.OpIconcat, CtrlType: ir.I64, Args: []ir.Value{lo, hiVal}, Results: []ir.Value{v}})
	f.Values[v] = ir.ValueData{Type: ir.I128, Kind: ir.DefResult, Inst: cat}
	insts = append(insts, cat)
	bd := &f.Blocks[b]
	bd.Insts = slices.Insert(slices.Clone(bd.Insts), pos, insts...)
	return len(insts)
}
