package printer

import (
	"strings"
	"testing"

	"cliff/lib/ir"
)

// The append forms must write exactly what the ir String methods return.

func TestAppendSourceLocMatchesString(t *testing.T) {
	for _, bits := range []uint32{0, 1, 0xf, 0x10, 0x19, 0xfff, 0x1000, 0xc1ff, 0xffff, 0x10000, 0x12345,
		0xfffff, 0x100000, 0xabcdef1, 0x7fffffff, 0xfffffffe, 0xffffffff} {
		loc := ir.SrcLoc(bits)
		if got, want := string(appendSourceLoc(nil, loc)), loc.String(); got != want {
			t.Errorf("appendSourceLoc(%#x) = %q, want %q", bits, got, want)
		}
	}
}

func TestAppendMemFlagsMatchesString(t *testing.T) {
	traps := []ir.TrapCode{ir.TrapNone, ir.TrapHeapOutOfBounds, ir.TrapIntegerOverflow, ir.TrapUser + 1,
		ir.TrapUser + 255, ir.TrapUser}
	for _, trap := range traps {
		for bits := range 1 << 5 {
			for _, endian := range []ir.Endianness{ir.EndianNative, ir.EndianLittle, ir.EndianBig} {
				f := ir.MemFlags{
					NoTrap: bits&1 != 0, Trap: trap, Aligned: bits&2 != 0, Readonly: bits&4 != 0,
					CanMove: bits&8 != 0, Endian: endian, HasRegion: bits&16 != 0, Region: ir.AliasRegion(bits * 7),
				}
				if got, want := string(appendMemFlags(nil, f)), f.String(); got != want {
					t.Errorf("appendMemFlags(%+v) = %q, want %q", f, got, want)
				}
			}
		}
	}
}

func TestAppendTrapCodeMatchesString(t *testing.T) {
	for c := range ir.TrapUser + 300 {
		if got, want := string(appendTrapCode(nil, c)), c.String(); got != want {
			t.Errorf("appendTrapCode(%d) = %q, want %q", c, got, want)
		}
	}
}

func TestAppendEntityNumMatchesString(t *testing.T) {
	nums := []uint32{12345, 1<<32 - 2, 1<<32 - 1}
	for n := range uint32(2 * smallNums) {
		nums = append(nums, n)
	}
	for _, n := range nums {
		if got, want := "v"+string(appendEntityNum(nil, n)), ir.Value(n).String(); got != want {
			t.Errorf("appendEntityNum(%d) = %q, want %q", n, got, want)
		}
	}
}

// The fixed-size tables append a padded copy and cut it back: what they
// write must be exact wherever the buffer ends and whatever its spare
// capacity holds.
func TestFixedSizeAppendsAreExact(t *testing.T) {
	dirty := func(prefix string) []byte {
		buf := make([]byte, len(prefix), len(prefix)+64)
		copy(buf, prefix)
		for k := len(prefix); k < cap(buf); k++ {
			buf[:cap(buf)][k] = '#'
		}
		return buf
	}
	var p funcPrinter
	p.reset(Options{}, &ir.Function{Values: make([]ir.ValueData, 2*smallValues)})
	for k := range p.values {
		if k%7 != 3 { // the others stay undefined
			p.values[k].Kind = ir.DefParam
		}
	}
	for v := range ir.Value(2*smallValues + 1) {
		want := v.String()
		if int(v) >= len(p.values) || p.values[v].Kind == ir.DefNone {
			want += "<undefined>"
		}
		if got := string(p.appendValue(dirty("x "), v)); got != "x "+want {
			t.Errorf("appendValue(%d) = %q, want %q", v, got, "x "+want)
		}
		// The copies of appendValue inlined in the loops.
		if got := string(p.appendValues(dirty("x "), []ir.Value{v, v})); got != "x "+want+", "+want {
			t.Errorf("appendValues(%d, %d) = %q, want %q", v, v, got, "x "+want+", "+want)
		}
		d := &ir.InstData{Op: ir.OpIconst, CtrlType: ir.I32, Results: []ir.Value{v}}
		if got := string(p.appendInst(dirty("x "), 0, d)); got != "x "+want+" = iconst.i32 0\n" {
			t.Errorf("appendInst(%s = iconst.i32 0) = %q, want %q", v, got, "x "+want+" = iconst.i32 0\n")
		}
		bc := ir.NewBlockCall(1, v, v)
		if got := string(p.appendBlockCall(dirty("x "), &bc)); got != "x block1("+want+", "+want+")" {
			t.Errorf("appendBlockCall(block1(%d, %d)) = %q, want %q", v, v, got, "x block1("+want+", "+want+")")
		}
	}
	for t0 := range ir.Type(1 << 9) {
		if !t0.Valid() || t0.IsDynamic() {
			continue
		}
		if got, want := string(p.appendType(dirty("x."), t0)), "x."+t0.String(); got != want {
			t.Errorf("appendType(%#x) = %q, want %q", uint16(t0), got, want)
		}
	}
	for n := -1; n <= 70; n++ {
		if got, want := string(appendSpaces(dirty("x"), n)), "x"+strings.Repeat(" ", max(0, n)); got != want {
			t.Errorf("appendSpaces(%d) = %q, want %q", n, got, want)
		}
	}
	for n := range 20 {
		s := strings.Repeat("abcdefghij", 2)[:n]
		want := "x" + s
		if n > 15 {
			want = "x" // too long for a shortText: empty
		}
		st := newShortText(s)
		if got := string(st.appendTo(dirty("x"))); got != want {
			t.Errorf("shortText(%q) appends %q, want %q", s, got, want)
		}
	}
}

// signShifts must sign-extend as the type's width says: iconst.i8 255
// prints -1; an immediate of 64 bits or more (or of an invalid type) prints
// as stored.
func TestSignExtend(t *testing.T) {
	for _, tc := range []struct {
		x    int64
		t    ir.Type
		want int64
	}{
		{255, ir.I8, -1}, {127, ir.I8, 127}, {0x8000, ir.I16, -0x8000}, {0xffff_ffff, ir.I32, -1},
		{0x7fff_ffff, ir.I32, 0x7fff_ffff}, {-1, ir.I64, -1}, {255, ir.I128, 255}, {255, ir.Invalid, 255},
		{255, ir.Type(0xfff), 255}, {0x80, ir.I8X16, 0x80},
	} {
		if got := signExtend(tc.x, tc.t); got != tc.want {
			t.Errorf("signExtend(%#x, %s) = %d, want %d", tc.x, tc.t, got, tc.want)
		}
	}
}

// TestAppendLinePrefix checks the line prefix (appendLinePrefix's usual
// four-digit case written in one append, and the general one) against
// write.rs's layout spelled out with SourceLoc.String.
func TestAppendLinePrefix(t *testing.T) {
	var p funcPrinter
	for _, loc := range []ir.SourceLoc{{}, ir.SrcLoc(0), ir.SrcLoc(0x19), ir.SrcLoc(0xabcd), ir.SrcLoc(0xffff),
		ir.SrcLoc(0x10000), ir.SrcLoc(0xfffffffe)} {
		for _, tags := range [][]ir.DebugTag{nil, {ir.UserTag(7)}} {
			for _, indent := range []int{0, 4, 6, 7, 36} {
				want, left := "", indent
				if len(tags) > 0 {
					want = "<7> "
					left = max(0, indent-len(want))
				}
				spelled := ""
				if loc.IsSet() {
					spelled = loc.String() + " "
				}
				want += spelled + strings.Repeat(" ", max(0, left-len(spelled)))
				d := &ir.InstData{SrcLoc: loc, DebugTags: tags}
				buf, gotLeft := p.appendLinePrefix([]byte("x"), d, indent)
				if string(buf) != "x"+want || gotLeft != left {
					t.Errorf("loc %s, tags %v, indent %d: got %q, %d; want %q, %d", loc, tags, indent, buf, gotLeft, "x"+want, left)
				}
			}
		}
	}
}
