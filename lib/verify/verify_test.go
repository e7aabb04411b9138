package verify

import (
	"strings"
	"testing"

	"cliff/lib/ir"
	"cliff/lib/parser"
)

// Each case is one function in CLIF text whose expected errors are marked
// with `; error:` comments, as in Cranelift's verifier filetests. The
// function must produce exactly those errors: each on its line (which fixes
// the block and instruction) with the text in its message, and no others.
// A ' in the text stands for a backquote, which Go's raw strings cannot
// hold.
var verifyTests = []struct {
	name string
	opts Options // zero: DefaultOptions
	src  string
}{
	{name: "valid diamond", src: `
function %f(i32, i64) -> i64 {
block0(v0: i32, v1: i64):
    brif v0, block1, block2(v1)
block1:
    v2 = iconst.i64 1
    jump block3(v2)
block2(v3: i64):
    jump block3(v3)
block3(v4: i64):
    v5 = iadd v4, v1
    return v5
}`},
	{name: "use from sibling branch", src: `
function %f(i32) -> i32 {
block0(v0: i32):
    brif v0, block1, block2
block1:
    v1 = iconst.i32 1
    return v1
block2:
    v2 = iadd v0, v1 ; error: uses value v1 from non-dominating
    return v2
}`},
	{name: "use before def and self use", src: `
function %f(i32) -> i32 {
block0(v0: i32):
    v1 = iadd.i32 v2, v0 ; error: uses value v2 from non-dominating
    v2 = iadd v1, v0
    v3 = iadd.i32 v3, v0 ; error: uses value v3 from itself
    return v3
}`},
	{name: "unreachable code may use anything defined", src: `
function %f(i32) -> i32 {
block0(v0: i32):
    return v0
block1:
    v1 = iadd v2, v0
    jump block2
block2:
    v2 = iconst.i32 3
    return v1
}`},
	{name: "param of an unreachable block", src: `
function %f(i32) -> i32 {
block0(v0: i32):
    v1 = iadd v0, v9 ; error: uses value arg from non-dominating block5
    return v1
block5(v9: i32):
    return v9
}`},
	{name: "structure", src: `
function %f(i32) {
block0(v0: i32):
    jump block1 ; error: a terminator instruction was encountered before the end of block0
    jump block0 ; error: invalid reference to entry block block0
                ; error: mismatched argument count for 'jump block0': got 0, expected 1
block1: ; error: block does not end in a terminator instruction
    v1 = iconst.i32 1
}`},
	{name: "entry block", src: `
function %f(i32, i64) {
block0(v0: i64, v1: i64) cold: ; error: entry block cannot be marked as cold
                               ; error: entry block parameter 0 expected to have type i32, got i64
    return
}`},
	{name: "entry block param count", src: `
function %f(i32) {
block0: ; error: entry block parameters (0) must match function signature (1)
    return
}`},
	{name: "block args", src: `
function %f(i32, i64) {
block0(v0: i32, v1: i64):
    brif v0, block1(v0), block2 ; error: arg v0 has type i32, expected i64
                                ; error: mismatched argument count for 'brif v0, block1(v0), block2': got 0, expected 1
block1(v2: i64):
    return
block2(v3: i64):
    br_table v1, block1(v3), [block1(v3), block3] ; error: arg 0 (v1) has type i64, expected i32
                                                  ; error: invalid block reference block3
}`},
	{name: "types from the table", src: `
function %f(f32, i8, i32) {
block0(v0: f32, v1: i8, v2: i32):
    v4 = iadd v2, v1 ; error: arg 1 (v1) has type i8, expected i32
    v9 = iadd.i64 v2, v2 ; error: arg 0 (v2) has type i32, expected i64
                         ; error: arg 1 (v2) has type i32, expected i64
    v5 = uextend.i8 v2 ; error: arg 0 (v2) with type i32 failed to satisfy type set narrower than i8
    v6 = ireduce.i64 v2 ; error: arg 0 (v2) with type i32 failed to satisfy type set wider than i64
    v7 = scalar_to_vector.i32x4 v1 ; error: arg 0 (v1) has type i8, expected i32
    v8 = load.i32 v0 ; error: arg 0 (v0) with type f32 failed to satisfy type set
                     ; error: invalid pointer width (got 32, expected 64) encountered v0
    return
}`},
	{name: "returns", src: `
function %f(i32) -> i64, i32 {
block0(v0: i32):
    brif v0, block1, block2
block1:
    return v0, v0 ; error: result 0 has type i32, must match function signature of i64
block2:
    return v0 ; error: arguments of return must match function signature
}`},
	{name: "calls", src: `
function %f(i64) {
    sig0 = (f32) -> i32
    fn0 = %g(i32, f32) -> i64
block0(v0: i64):
    v1 = iconst.i32 1
    v2 = call fn0(v1) ; error: mismatched argument count for 'v2 = call fn0(v1)': got 1, expected 2
    v3 = call_indirect sig0, v0(v1) ; error: arg 0 (v1) has type i32, expected f32
    v5 = call fn0(v1, v1) ; error: arg 1 (v1) has type i32, expected f32
    return
}`},
	{name: "tail calls", src: `
function %f(i32) -> i32 fast {
    fn0 = %g(i32) -> i64 tail
block0(v0: i32):
    return_call fn0(v0) ; error: calling convention must match caller
                        ; error: result 0 has type i64, must match function signature of i32
}`},
	{name: "signature", src: `
function %f(f64 uext, i32 sext) -> f32 sext preserve_all { ; error: Parameter at position 0 has invalid extension Uext
                                                            ; error: Return value at position 0 has invalid extension Sext
                                                            ; error: Signature with 'preserve_all' ABI cannot have return values
    sig1 = () -> i8 preserve_all ; error: Signature with 'preserve_all' ABI cannot have return values
block0(v0: f64, v1: i32):
    v2 = f32const 0.0
    return v2
}`},
	{name: "patchable", src: `
function %f() system_v {
    fn0 = patchable %g() -> i32 system_v
block0:
    v0 = call fn0() ; error: patchable call to non-colocated function
                    ; error: patchable call cannot occur to a function with return values
    return
}`},
	{name: "global values", src: `
function %f(i64) {
    gv0 = vmctx ; error: undeclared vmctx reference gv0
    gv1 = load.i64 notrap aligned gv2 ; error: global value cycle: [gv1, gv2]
    gv2 = iadd_imm.i64 gv1, 8
    gv3 = symbol %sym
block0(v0: i64):
    v1 = symbol_value.i32 gv3 ; error: global_value instruction with type i32 references global value with type i64
    return
}`},
	{name: "alias regions", src: `
function %f(i64) {
    region0 = 5 "heap"
    region1 = 5 "table" ; error: duplicate alias region user_id 5: region0 and region1
block0(v0: i64):
    v1 = load.i32 notrap region2 v0 ; error: undefined alias region region2
    store readonly v1, v0 ; error: A store instruction cannot have the 'readonly' MemFlag
    return
}`},
	{name: "immediates", src: `
function %f(i32x4, i8x16) {
    const0 = 0x0001
block0(v0: i32x4, v1: i8x16):
    v2 = extractlane v0, 4 ; error: The lane 4 does not index into the type i32x4
    v3 = shuffle v1, v1, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 40] ; error: shuffle immediate index 40 is larger than the maximum 31
    v4 = vconst.i32x4 const0 ; error: The instruction expects const0 to have a size of 16 bytes but it has 2
    v5 = bitcast.i64x2 v0 ; error: Byte order specifier required for bitcast instruction changing lane count
    v6 = bitcast.i64x2 little v0
    v7 = bitcast.i64 v0 ; error: The bitcast argument v0 has a type of 128 bits
    return
}`},
	{name: "debug tags", src: `
function %f(i32) -> i32 {
    fn0 = %g(i32) -> i32
block0(v0: i32):
<1> v1 = iadd v0, v0 ; error: debug tags present on non-call, non-sequence point instruction
<2> v2 = call fn0(v1)
<3> sequence_point
    return v2
}`},
	{name: "stack slots of debug tags and stack maps", src: `
function %f(i64) -> i64 {
    ss0 = explicit_slot 16
    fn0 = %g(i64) -> i64
block0(v0: i64):
<ss0, 1> v1 = call fn0(v0), stack_map=[i64 @ ss0+8]
<ss1, 1> sequence_point ; error: invalid stack slot ss1 in debug tags
    v2 = call fn0(v1), stack_map=[i64 @ ss0+0, i32 @ ss2+4] ; error: invalid stack slot ss2 in stack map
    return v2
}`},
	{name: "pointer width of a 32-bit target", opts: Options{PointerType: ir.I32}, src: `
function %f(i64, i32) {
block0(v0: i64, v1: i32):
    v2 = load.i32 v0 ; error: invalid pointer width (got 64, expected 32) encountered v0
    store v2, v1
    v3 = atomic_rmw.i32 add v0, v2 ; error: invalid pointer width (got 64, expected 32) encountered v0
    return
}`},
	{name: "frame pointers and pinned reg need settings", src: `
function %f() -> i64 {
block0:
    v0 = get_frame_pointer.i64 ; error: cannot be used without enabling 'preserve_frame_pointers'
    v1 = get_pinned_reg.i64 ; error: cannot be used without enable_pinned_reg
    return v0
}`},
	{name: "frame pointers with the setting", opts: Options{PointerType: ir.I64, PreserveFramePointers: true}, src: `
function %f() -> i64 {
block0:
    v0 = get_frame_pointer.i64
    v1 = get_return_address.i64
    return v0
}`},
	{name: "no target, no pointer width", opts: Options{}, src: `
function %f(i64, i32) {
block0(v0: i64, v1: i32):
    v2 = load.i32 v0
    store v2, v1
    return
}`},
	{name: "exceptions", src: `
function %f(i32) -> i32 {
    sig0 = (i32) -> f32 tail
    fn0 = %g(i32) -> f32 tail
block0(v0: i32):
    v9 = get_exception_handler_address.i64 block4, 2 ; error: exception handler index 2 is out-of-range
    jump block4
block4:
    try_call fn0(v0), sig0, block1(ret0, exn0), [ tag1: block2(ret0), default: block3(exn5) ] ; error: 'exnN' block argument used outside normal-return target
        ; error: 'retN' block argument used outside normal-return target
        ; error: out-of-bounds 'exnN' block argument
block1(v1: f32, v2: i64):
    return v0
block2(v4: f32):
    return v0
block3(v5: i64):
    return v0
}`},
	{name: "empty block", src: `
function %f() {
block0:
    jump block1
block1: ; error: block1 cannot be empty
}`},
}

func TestVerifyCLIF(t *testing.T) {
	for _, tc := range verifyTests {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.ReplaceAll(strings.TrimPrefix(tc.src, "\n"), "'", "`")
			file, err := parser.ParseFile(tc.name, []byte(src))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			if len(file.Funcs) != 1 {
				t.Fatalf("%d functions, want 1", len(file.Funcs))
			}
			opts := tc.opts
			if opts == (Options{}) && !strings.HasPrefix(tc.name, "no target") {
				opts = DefaultOptions()
			}
			lines := strings.Split(src, "\n")
			errs := FunctionWith(file.Funcs[0], opts)
			m := match(parseExpectations(src), errs, lines, 1, len(lines))
			if !m.ok() {
				t.Errorf("%s", m)
			}
			// An instruction's error names the block that holds it.
			for _, e := range errs {
				if e.Inst != ir.NoInst && e.Block == ir.NoBlock {
					t.Errorf("error without its block: %v", e)
				}
			}
		})
	}
}

// TestModuleNames: a module is one object file, so a name defined twice is
// an error of the second definition, and its body is not verified again.
func TestModuleNames(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"distinct", "function %f() {\nblock0:\n    return\n}\nfunction %g() {\nblock0:\n    return\n}\n", nil},
		{"twice", "function %f() {\nblock0:\n    return\n}\nfunction %g() {\nblock0:\n    return\n}\nfunction %f(i32) {\nblock0(v0: i32):\n    return\n}\n",
			[]string{"line 9: function %f: defined twice in the module (first at line 1)"}},
		{"twice, first bad", "function %f() -> i32 {\nblock0:\n    return\n}\nfunction %f() {\nblock0:\n    return\n}\n",
			[]string{"line 3: function %f, block0, inst `return`: ", "line 5: function %f: defined twice in the module (first at line 1)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := parser.ParseModuleString(tc.name, tc.src)
			if err != nil {
				t.Fatal(err)
			}
			errs := Module(m)
			if len(errs) != len(tc.want) {
				t.Fatalf("errors:\n%v\nwant %d", errs, len(tc.want))
			}
			for i, e := range errs {
				if !strings.HasPrefix(e.Error(), tc.want[i]) {
					t.Errorf("error %d = %q, want prefix %q", i, e.Error(), tc.want[i])
				}
			}
		})
	}
}

// TestOptionsForSettings: a case record's settings reach the checks that
// read them.
func TestOptionsForSettings(t *testing.T) {
	opts := OptionsForSettings([]string{"opt_level=speed", "preserve_frame_pointers=true", "enable_pinned_reg"})
	if !opts.PreserveFramePointers || !opts.EnablePinnedReg || opts.PointerType != ir.I64 {
		t.Errorf("got %+v", opts)
	}
	if opts := OptionsForSettings([]string{"preserve_frame_pointers=false"}); opts.PreserveFramePointers {
		t.Errorf("false read as true: %+v", opts)
	}
}
