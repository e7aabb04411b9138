package parser

import (
	"errors"
	"strings"
	"testing"
)

// body wraps instruction lines (starting on line 3, four spaces in) in a
// function with an i32 param v0 and an i64 param v1.
func body(lines ...string) string {
	return "function %f(i32, i64) {\nblock0(v0: i32, v1: i64):\n    " + strings.Join(lines, "\n    ") + "\n}\n"
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		line, col int
		msg       string
	}{
		// Lexical errors.
		{"invalid char", "function %f() {\nblock0:\n    $ return\n}", 3, 5, "found invalid character \"$\""},
		{"unterminated string", "function %f() {\n    region0 = 1 \"heap\n}", 2, 17, "expected string description for alias region, found unterminated string"},

		// Functions and signatures.
		{"no function", "block0:", 1, 1, "expected 'function', found 'block0'"},
		{"header in module", "function %f() {\nblock0:\n return\n}\ntest run", 5, 1, "expected 'function', found 'test'"},
		{"bad name", "function f() {", 1, 10, "expected function name (%name or uN:M), found 'f'"},
		{"user name colon", "function u0 1() {", 1, 13, "expected ':' in user name uN:M, found '1'"},
		{"unclosed params", "function %f(i32 -> i32 {", 1, 17, "expected ')' after function arguments, found '->'"},
		{"param type", "function %f(i33) {", 1, 13, "expected parameter type, found 'i33'"},
		{"callconv", "function %f() notacc {", 1, 15, "unknown calling convention: notacc"},
		{"no brace", "function %f()\nblock0:", 2, 1, "expected '{' before function body, found 'block0'"},
		{"eof in body", "function %f() {\nblock0:\n    return\n", 4, 1, "expected block header, found end of file"},
		{"sarg", "function %f(i64 sarg(x)) {", 1, 22, "expected byte size in sarg(N), found 'x'"},

		// Preamble.
		{"duplicate ss", "function %f() {\n    ss0 = explicit_slot 8\n    ss0 = explicit_slot 8\n", 3, 5, "duplicate entity: ss0"},
		{"slot kind", "function %f() {\n    ss0 = spill_slot 8\n", 2, 11, "expected stack slot kind (explicit_slot), found 'spill_slot'"},
		{"negative slot", "function %f() {\n    ss0 = explicit_slot -8\n", 2, 25, "negative stack slot size"},
		{"align", "function %f() {\n    ss0 = explicit_slot 8, align = 3\n", 2, 36, "stack slot alignment is not a power of two"},
		{"slot flag", "function %f() {\n    ss0 = explicit_slot 8, size = 3\n", 2, 28, "expected stack slot flag (align = N or key = K), found 'size'"},
		{"gv load flags", "function %f() {\n    gv0 = vmctx\n    gv1 = load.i64 notrap gv0\n", 3, 11, "global-value load must be notrap and aligned"},
		{"gv kind", "function %f() {\n    gv0 = vmcontext\n", 2, 11, "unknown global value kind 'vmcontext'"},
		{"dup sig", "function %f() {\n    sig0 = ()\n    sig0 = ()\n", 3, 5, "duplicate entity: sig0"},
		{"inline sig clashes", "function %f() {\n    fn0 = %g()\n    sig0 = ()\n", 3, 5, "duplicate entity: sig0"},
		{"undefined sig", "function %f() {\n    fn0 = %g sig3\n", 2, 14, "undefined signature sig3"},
		{"dup fn", "function %f() {\n    fn0 = %g()\n    fn0 = %h()\n", 3, 5, "duplicate entity: fn0"},
		{"region order", "function %f() {\n    region1 = 1 \"x\"\n", 2, 5, "duplicate alias region region1"},
		{"stack limit twice", "function %f() {\n    gv0 = vmctx\n    stack_limit = gv0\n    stack_limit = gv0\n", 4, 5, "stack limit defined twice"},
		{"constant list", "function %f() {\n    const0 = i32x4 [1 2 3]\n", 2, 26, "expected a i32 literal, found ']'"},
		{"constant hex", "function %f() {\n    const0 = 0x123\n", 2, 14, "hexadecimal string must have an even number of digits"},
		{"dyn type base", "function %f() {\n    gv0 = vmctx\n    dt0 = i32*gv0\n", 3, 11, "expected vector base type, found 'i32'"},

		// Blocks and values.
		{"block colon", "function %f() {\nblock0\n    return\n}", 3, 5, "expected ':' after block header, found 'return'"},
		{"dup block", "function %f() {\nblock0:\n    return\nblock0:\n", 4, 1, "duplicate entity: block0"},
		{"too many blocks", "function %f() {\nblock100000:\n", 2, 1, "too many blocks"},
		{"block param", "function %f() {\nblock0(v0 i32):\n", 2, 11, "expected ':' after block parameter, found 'i32'"},
		{"dup value", body("v0 = iconst.i32 1"), 3, 5, "duplicate entity: v0"},
		{"huge value", body("v2000000 = iconst.i32 1"), 3, 5, "value number too large"},
		{"undefined operand", body("v2 = iadd v0, v9", "return"), 3, 5, "undefined operand value v9"},
		{"undefined branch arg", body("jump block1(v7)", "block1(v2: i32):", "return"), 3, 5, "undefined operand value v7"},
		{"undefined after a forward use", body("v2 = iadd v0, v3", "v3 = iadd v0, v9", "return"), 4, 5, "undefined operand value v9"},
		{"undefined call arg", "function %f(i32) {\n    fn0 = %g(i32)\nblock0(v0: i32):\n    call fn0(v9)\n    return\n}\n", 4, 5, "undefined operand value v9"},
		{"undefined table arg", body("br_table v0, block1(v0), [block1(v8)]", "block1(v2: i32):", "return"), 3, 5, "undefined operand value v8"},
		{"first undefined in layout order", body("jump block1(v7)", "block1(v2: i32):", "v3 = iadd v2, v8", "return"), 3, 5, "undefined operand value v7"},
		{"alias dest", body("v2 -> v3"), 3, 11, "value v3 is not yet defined"},
		{"alias twice", body("v2 -> v0", "v2 -> v1"), 4, 5, "value v2 is already defined as an alias with destination v0"},
		{"alias of result", body("v2 = iconst.i32 1", "v2 -> v0"), 4, 5, "value v2 is already defined"},
		{"alias count", body("v2, v3 -> v0"), 3, 5, "wrong number of aliases"},
		{"arrow or equal", body("v2 iconst.i32 1"), 3, 8, "expected '->' or '=', found 'iconst'"},

		// Instructions.
		{"unknown opcode", body("v2 = frobnicate v0"), 3, 10, "unknown opcode 'frobnicate'"},
		{"no typevar", body("jump.i32 block1"), 3, 5, "jump does not take a typevar"},
		{"bad typevar", body("v2 = iadd.f32 v0, v0"), 3, 10, "f32 is not a valid typevar for iadd"},
		{"inferred bad typevar", "function %f(f32) {\nblock0(v0: f32):\n    v1 = iadd v0, v0\n", 3, 10, "f32 is not a valid typevar for iadd"},
		{"typevar required", body("v2 = load v1"), 3, 10, "type variable required for polymorphic opcode, e.g. 'load.i32'"},
		{"cannot infer", body("v2 = iadd v2, v0", "return"), 3, 10, "can't infer from v2 which has no known type"},
		{"result count", body("v2, v3 = iadd v0, v0"), 3, 5, "instruction iadd produces 1 result values, 2 given"},
		{"missing result", body("iadd v0, v0"), 3, 5, "instruction iadd produces 1 result values, 0 given"},
		{"operand comma", body("v2 = iadd v0 v0"), 3, 18, "expected ',' between operands, found 'v0'"},
		{"operand value", body("v2 = iadd v0, 1"), 3, 19, "expected SSA value operand, found '1'"},
		{"iconst type", body("v2 = iconst 1"), 3, 17, "iconst needs an explicit integer type"},
		{"iconst i128", body("v2 = iconst.i128 1"), 3, 22, "iconst needs an explicit integer type"},
		{"iconst range", body("v2 = iconst.i8 256"), 3, 20, "bad immediate i8 operand 256: expected decimal immediate"},
		{"iconst i16 range", body("v2 = iconst.i16 65536"), 3, 21, "bad immediate i16 operand 65536"},
		{"iconst i32 range", body("v2 = iconst.i32 0x1_0000_0000"), 3, 21, "bad immediate i32 operand 0x1_0000_0000"},
		{"iconst i64 word", body("v2 = iconst.i64 x"), 3, 21, "expected immediate i64 operand, found 'x'"},
		{"iconst negative range", body("v2 = iconst.i16 -32769"), 3, 21, "negative number too small"},
		{"decimal float", body("v2 = f32const 1.5"), 3, 19, "float must be hexadecimal"},
		{"integer float", body("v2 = f64const 1"), 3, 19, "expected 64-bit float immediate, found '1'"},
		{"float range", body("v2 = f32const 0x1.0p200"), 3, 19, "magnitude too large"},
		{"vconst untyped", body("v2 = vconst [1 2 3 4]"), 3, 17, "expected a constant constN, or a controlling type and inline data"},
		{"vconst size", body("v2 = vconst.i32x4 0x" + strings.Repeat("00", 17)), 3, 23, "too many digits"},
		{"undefined const", body("v2 = vconst.i32x4 const3"), 3, 23, "undefined constant const3"},
		{"shuffle lanes", body("v2 = shuffle v0, v0, [1 2]"), 3, 30, "expected a i8 literal, found ']'"},
		{"lane range", body("v2 = extractlane v0, 256"), 3, 26, "bad unsigned 8-bit immediate 256"},
		{"intcc", body("v2 = icmp foo v0, v0"), 3, 15, "expected intcc condition code, found 'foo'"},
		{"trap code", body("trap user0"), 3, 10, "expected trap code, found 'user0'"},
		{"endianness", body("v2 = load.i32 little big v1"), 3, 26, "cannot set both big and little endian bits"},
		{"two regions", body("v2 = load.i32 region0 region1 v1"), 3, 27, "cannot set more than one alias region"},
		{"offset range", body("v2 = load.i32 v1+0x8000_0000"), 3, 21, "offset out of range"},
		{"rmw op", body("v2 = atomic_rmw.i32 mul v1, v0"), 3, 25, "expected atomic_rmw operation, found 'mul'"},
		{"undefined fn", body("call fn0()"), 3, 10, "undefined function fn0"},
		{"undefined sig ref", body("call_indirect sig0, v1()"), 3, 19, "undefined signature sig0"},
		{"undefined slot", body("v2 = stack_addr.i64 ss0"), 3, 25, "undefined stack slot ss0"},
		{"undefined gv", body("v2 = symbol_value.i64 gv0"), 3, 27, "undefined global value gv0"},
		{"undefined dss", body("v2 = dynamic_stack_addr.i64 dss1"), 3, 33, "undefined dynamic stack slot dss1"},
		{"block arg", body("jump block1(1)"), 3, 17, "expected block argument (vN, retN or exnN), found '1'"},
		{"jump table", body("br_table v0, block1, [block2 block3]"), 3, 34, "expected ',' or ']' in jump table, found 'block3'"},
		{"exception table", body("try_call fn0(), sig0, block1, [ other: block2 ]"), 3, 14, "undefined function fn0"},
		{"exception entry", "function %f() {\n    fn0 = %g()\nblock0:\n    try_call fn0(), sig0, block1, [ other: block2 ]\n", 4, 37, "expected exception table entry (tagN: block, default: block or context vN), found 'other'"},
		{"debug tag", body("<x> return"), 3, 6, "expected integer or stack slot in debug tags, found 'x'"},
		{"stack map on non-call", body("v2 = iadd v0, v0, stack_map=[]"), 3, 23, "stack map can only be attached to a (non-tail) call"},
		{"stack map on tail call", "function %f() {\n    fn0 = %g()\nblock0:\n    return_call fn0(), stack_map=[]\n}", 4, 24, "stack map can only be attached to a (non-tail) call"},
		{"stack map word", "function %f() {\n    fn0 = %g()\nblock0:\n    call fn0(), stack=[]\n}", 4, 17, "expected 'stack_map = [...]' after ',', found 'stack'"},
		{"stack map entry type", "function %f() {\n    fn0 = %g()\nblock0:\n    call fn0(), stack_map=[ss0+8]\n}", 4, 28, "expected stack map entry 'T @ ssN+offset', found 'ss0'"},
		{"stack map slot", "function %f() {\n    fn0 = %g()\nblock0:\n    call fn0(), stack_map=[i64 @ 8]\n}", 4, 34, "expected stack slot ssN, found '8'"},
		{"stack map reserved slot", "function %f() {\n    fn0 = %g()\nblock0:\n    call fn0(), stack_map=[i64 @ ss4294967295+8]\n}", 4, 34, "invalid stack slot ss4294967295"},
		{"stack map offset", "function %f() {\n    fn0 = %g()\nblock0:\n    call fn0(), stack_map=[i64 @ ss0-8]\n}", 4, 37, "expected '+ offset' in stack map entry, found '-8'"},
		{"stack map offset range", "function %f() {\n    fn0 = %g()\nblock0:\n    call fn0(), stack_map=[i64 @ ss0+0x1_0000_0000]\n}", 4, 37, "bad stack map offset +0x1_0000_0000: Uimm32 out of range"},
		{"stack map close", "function %f() {\n    fn0 = %g()\nblock0:\n    call fn0(), stack_map=[i64 @ ss0+8 i32 @ ss0+0]\n}", 4, 40, "expected ',' or ']' in stack map, found 'i32'"},
		{"srcloc range", body("@123456789 return"), 3, 5, "invalid source location: 123456789"},
		{"srcloc range zeros", body("@000100000000 return"), 3, 5, "invalid source location: 000100000000"},
		{"srcloc on nothing", body("@0019"), 4, 1, "expected instruction opcode, found '}'"},
		{"debug tag range", body("<4294967296> return"), 3, 6, "bad debug tag 4294967296: Uimm32 out of range"},
		{"debug tag reserved slot", body("<ss4294967295> return"), 3, 6, "invalid stack slot ss4294967295"},
		{"debug tag close", body("<1 2> return"), 3, 8, "expected ',' or '>' in debug tags, found '2'"},
		{"no opcode", body("v2 = 5"), 3, 10, "expected instruction opcode, found '5'"},

		// Run commands.
		{"run arity", "function %f(i32) -> i32 {\nblock0(v0: i32):\n    return v0\n}\n; run: %f(1, 2) == 3\n", 5, 12, "expected ')' after 1 argument, found ','"},
		{"run comparison", "function %f(i32) -> i32 {\nblock0(v0: i32):\n    return v0\n}\n; run: %f(1) = 3\n", 5, 16, "expected '==' or '!=', found '3'"},
		{"run value", "function %f(i8) -> i8 {\nblock0(v0: i8):\n    return v0\n}\n; run: %f(300) == 3\n", 5, 11, "bad a i8 literal 300"},
		{"run float", "function %f(f32) -> f32 {\nblock0(v0: f32):\n    return v0\n}\n; run: %f(1) == 0.0\n", 5, 11, "expected a f32 literal, found '1'"},
		{"run results", "function %f() -> i8, i8 {\nblock0:\n    return\n}\n; run: %f() == 1\n", 5, 16, "expected '[' before 2 expected results, found '1'"},
		{"run trailing", "function %f() -> i8 {\nblock0:\n    return\n}\n; run: %f() == 1 2\n", 5, 18, "unexpected '2' after the run command"},
		{"bare run", "function %f() -> f32 {\nblock0:\n    return\n}\n; run\n", 5, 3, "a bare 'run' needs a function of type () -> int"},
		{"run name", "function %f() -> i8 {\nblock0:\n    return\n}\n;   run: f() == 1\n", 5, 10, "expected a function name, e.g. %my_fn, found 'f'"},
		{"run vector", "function %f(i32x4) {\nblock0(v0: i32x4):\n    return\n}\n; run: %f([1 2 3])\n", 5, 17, "expected a i32 literal, found ']'"},
		{"run of a repeated name", "function %f() {\nblock0:\n    return\n}\nfunction %f(i8) {\nblock0(v0: i8):\n    return\n}\n; run: %f(1)\n", 9, 1, "run command for %f: 2 functions in this file have that name"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := tc.src
			_, err := ParseFile("bad.clif", []byte(src))
			if err == nil {
				t.Fatalf("parse succeeded, want error %q", tc.msg)
			}
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *parser.Error", err)
			}
			if pe.File != "bad.clif" || pe.Line != tc.line || pe.Col != tc.col || !strings.Contains(pe.Msg, tc.msg) {
				t.Errorf("got  %v\nwant bad.clif:%d:%d: ...%s...", err, tc.line, tc.col, tc.msg)
			}
		})
	}
}

func TestErrorString(t *testing.T) {
	e := &Error{File: "a.clif", Line: 3, Col: 7, Msg: "expected x, found y"}
	if got := e.Error(); got != "a.clif:3:7: expected x, found y" {
		t.Errorf("Error() = %q", got)
	}
	e.File = ""
	if got := e.Error(); got != "3:7: expected x, found y" {
		t.Errorf("Error() without file = %q", got)
	}
}
