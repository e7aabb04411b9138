package printer

import (
	"strings"
	"testing"

	"cliff/lib/ir"
)

// buildCall is `v1 = call fn0(v0); return v1` with a stack slot to name.
func buildCall() *ir.Function {
	f := ir.NewFunction("%f", sig([]ir.Type{ir.I64}, []ir.Type{ir.I64}, ir.CallConvFast))
	b := ir.NewBuilder(f)
	b.DeclareStackSlot(8, 0)
	fn0 := b.DeclareFuncRef("%g", b.DeclareSig(sig([]ir.Type{ir.I64}, []ir.Type{ir.I64}, ir.CallConvFast)))
	blk := b.CreateBlock()
	x := b.AppendBlockParam(blk, ir.I64)
	b.SwitchToBlock(blk)
	b.Return(b.Call(fn0, x)...)
	return f
}

// TestAnnotations prints source locations, debug tags and stack maps where
// and as write.rs does: any location or tag in the function moves every
// instruction to column 36 (block headers to 32); tags come first and eat
// into that indentation; the location is padded to what is left of it.
func TestAnnotations(t *testing.T) {
	const (
		plain = "block0(v0: i64):\n    v1 = call fn0(v0)\n    return v1\n}\n"
		wide  = "                                block0(v0: i64):\n"
		ret36 = "                                    return v1\n}\n"
	)
	for _, tc := range []struct {
		name     string
		loc      ir.SourceLoc
		tags     []ir.DebugTag
		stackMap []ir.StackMapEntry
		want     string // the text after the preamble
		line     string // Lines.Inst of the call
	}{
		{name: "none", want: plain, line: "v1 = call fn0(v0)"},
		{name: "all-ones srcloc is none", loc: ir.SrcLoc(0xffffffff), want: plain, line: "v1 = call fn0(v0)"},
		{name: "srcloc", loc: ir.SrcLoc(0x19),
			want: wide + "@0019                               v1 = call fn0(v0)\n" + ret36,
			line: "@0019 v1 = call fn0(v0)"},
		{name: "srcloc zero", loc: ir.SrcLoc(0),
			want: wide + "@0000                               v1 = call fn0(v0)\n" + ret36,
			line: "@0000 v1 = call fn0(v0)"},
		{name: "srcloc five digits", loc: ir.SrcLoc(0x12345),
			want: wide + "@12345                              v1 = call fn0(v0)\n" + ret36,
			line: "@12345 v1 = call fn0(v0)"},
		{name: "srcloc largest", loc: ir.SrcLoc(0xfffffffe),
			want: wide + "@fffffffe                           v1 = call fn0(v0)\n" + ret36,
			line: "@fffffffe v1 = call fn0(v0)"},
		{name: "user tags", tags: []ir.DebugTag{ir.UserTag(1), ir.UserTag(4294967295)},
			want: wide + "<1, 4294967295>                     v1 = call fn0(v0)\n" + ret36,
			line: "<1, 4294967295> v1 = call fn0(v0)"},
		{name: "slot tag", tags: []ir.DebugTag{ir.SlotTag(0), ir.UserTag(2), ir.UserTag(2)},
			want: wide + "<ss0, 2, 2>                         v1 = call fn0(v0)\n" + ret36,
			line: "<ss0, 2, 2> v1 = call fn0(v0)"},
		{name: "tags then srcloc", loc: ir.SrcLoc(0x2a), tags: []ir.DebugTag{ir.SlotTag(0), ir.UserTag(1)},
			want: wide + "<ss0, 1> @002a                      v1 = call fn0(v0)\n" + ret36,
			line: "<ss0, 1> @002a v1 = call fn0(v0)"},
		{name: "tags and srcloc wider than the indentation", loc: ir.SrcLoc(0xabc),
			tags: []ir.DebugTag{ir.UserTag(1111111111), ir.UserTag(2222222222), ir.UserTag(3333333333)},
			want: wide + "<1111111111, 2222222222, 3333333333> @0abc v1 = call fn0(v0)\n" + ret36,
			line: "<1111111111, 2222222222, 3333333333> @0abc v1 = call fn0(v0)"},
		{name: "stack map", stackMap: []ir.StackMapEntry{{Type: ir.I64, Slot: 0, Offset: 8}},
			want: "block0(v0: i64):\n    v1 = call fn0(v0), stack_map=[i64 @ ss0+8]\n    return v1\n}\n",
			line: "v1 = call fn0(v0), stack_map=[i64 @ ss0+8]"},
		{name: "stack map of several entries", stackMap: []ir.StackMapEntry{{Type: ir.I32, Slot: 0, Offset: 0}, {Type: ir.F64X2, Slot: 3, Offset: 4294967295}},
			want: "block0(v0: i64):\n    v1 = call fn0(v0), stack_map=[i32 @ ss0+0, f64x2 @ ss3+4294967295]\n    return v1\n}\n",
			line: "v1 = call fn0(v0), stack_map=[i32 @ ss0+0, f64x2 @ ss3+4294967295]"},
		{name: "all three", loc: ir.SrcLoc(0x19), tags: []ir.DebugTag{ir.SlotTag(0)}, stackMap: []ir.StackMapEntry{{Type: ir.I64, Slot: 0, Offset: 8}},
			want: wide + "<ss0> @0019                         v1 = call fn0(v0), stack_map=[i64 @ ss0+8]\n" + ret36,
			line: "<ss0> @0019 v1 = call fn0(v0), stack_map=[i64 @ ss0+8]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := buildCall()
			d := &f.Insts[0]
			d.SrcLoc, d.DebugTags, d.StackMap = tc.loc, tc.tags, tc.stackMap
			text := FunctionString(f)
			_, got, ok := strings.Cut(text, "\n\n")
			if !ok || got != tc.want {
				t.Errorf("printed\n%s\nwant the body\n%s", text, tc.want)
			}
			if got := Inst(f, 0); got != tc.line {
				t.Errorf("Inst = %q, want %q", got, tc.line)
			}
		})
	}
}
