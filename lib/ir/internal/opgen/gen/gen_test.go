package gen

import (
	"strings"
	"testing"
)

// formats is a table prefix declaring the formats the test tables use, in
// the spelling of opcodes.txt (3 lines).
const formats = `format Binary values=2
format Ternary values=3 typevar=1
format Unary values=1
`

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, table, want string
	}{
		{"unknown directive", "frobnicate x\n", "t.txt:1: unknown directive \"frobnicate\""},
		{"op without format", formats + "op iadd\n", "t.txt:4: op needs a name and a format"},
		{"bad opcode name", formats + "op IAdd Binary\n", "t.txt:4: bad opcode name \"IAdd\""},
		{"unknown format", formats + "op iadd Quaternary\n", "t.txt:4: unknown format \"Quaternary\""},
		{"format used before declared", "op iadd Binary\nformat Binary values=2\n", "t.txt:1: unknown format \"Binary\""},
		{"unknown flag", formats + "op iadd Binary pure\n", "t.txt:4: unknown flag \"pure\""},
		{"format without name", "format\n", "t.txt:1: format needs a name"},
		{"bad values", "format F values=two\n", "t.txt:1: bad values=\"two\""},
		{"unknown immediate", "format F values=1 imms=imm32\n", "t.txt:1: unknown immediate kind \"imm32\""},
		{"unknown format attribute", "format F values=1 color=red\n", "t.txt:1: unknown format attribute \"color=red\""},
		{"typevar operand out of range", "format F values=1 typevar=1\n", "t.txt:1: typevar operand 1 out of range"},
		{"format twice", formats + "format Unary values=1\n", "t.txt:4: format Unary declared twice"},
		{"op twice", formats + "op nop Unary\n  in x:i8\n  example nop v0\n  doc d\nop nop Unary\n",
			"t.txt:8: opcode nop declared twice"},
		{"tv outside op", formats + "tv Int ints(8..128)\n", "t.txt:4: tv outside an op"},
		{"tv without set", formats + "op iadd Binary\n  tv Int\n", "t.txt:5: tv needs a name and a type set"},
		{"bad set term", formats + "op iadd Binary\n  tv Int ints(8-128)\n", "t.txt:5: bad type set term \"ints(8-128)\""},
		{"set not powers of two", formats + "op iadd Binary\n  tv Int ints(8..100)\n", "t.txt:5: type set term \"ints(8..100)\" is empty"},
		{"set out of range", formats + "op iadd Binary\n  tv Int ints(4..8)\n", "t.txt:5: type set term \"ints(4..8)\" is empty"},
		{"set term twice", formats + "op iadd Binary\n  tv Int ints(8..8) ints(16..16)\n", "t.txt:5: type set term ints given twice"},
		{"one-lane dynamic", formats + "op iadd Binary\n  tv Int ints(8..8) dynlanes(1..4)\n", "t.txt:5: dynamic vectors have at least 2 lanes"},
		{"no lane types", formats + "op iadd Binary\n  tv Int lanes(1..4)\n", "t.txt:5: type variable Int has no lane types"},
		{"tv twice", formats + "op iadd Binary\n  tv Int ints(8..128)\n  tv Int ints(8..64)\n", "t.txt:6: type variable Int declared twice"},
		{"unknown type variable", formats + "op iadd Binary\n  tv Int ints(8..128)\n  in x:Int y:Float\n",
			"t.txt:6: operand y: unknown type variable or type \"Float\""},
		{"unknown type", formats + "op iadd Binary\n  in x:i32 y:i24\n", "t.txt:5: operand y: unknown type variable or type \"i24\""},
		{"unknown derivation", formats + "op ineg Unary\n  tv Int ints(8..128)\n  in x:Int\n  out a:Int.quarter_width\n",
			"t.txt:7: operand a: unknown derivation \"quarter_width\""},
		{"malformed operand", formats + "op ineg Unary\n  in x\n", "t.txt:5: operand \"x\" is not NAME:CONSTRAINT"},
		{"empty in", formats + "op ineg Unary\n  in\n", "t.txt:5: in lists no operands"},
		{"operand name twice", formats + "op iadd Binary\n  in x:i32 x:i32\n", "t.txt:5: operand name x used twice"},
		{"second example", formats + "op ineg Unary\n  example ineg v0\n  example ineg v1\n", "t.txt:6: second example"},
		{"sem outside op", formats + "sem int_unary neg\n", "t.txt:4: sem outside an op"},
		{"sem without shape", formats + "op ineg Unary\n  sem\n", "t.txt:5: sem needs a shape and at most one kernel"},
		{"sem with two kernels", formats + "op ineg Unary\n  sem int_unary neg abs\n", "t.txt:5: sem needs a shape and at most one kernel"},
		{"bad sem shape", formats + "op ineg Unary\n  sem IntUnary\n", "t.txt:5: bad sem shape \"IntUnary\""},
		{"bad sem kernel", formats + "op ineg Unary\n  sem int_unary Neg\n", "t.txt:5: bad sem kernel \"Neg\""},
		{"second sem", formats + "op ineg Unary\n  sem int_unary neg\n  sem int_unary abs\n", "t.txt:6: second sem"},
		{"family without a name", formats + "op ineg Unary\n  family\n", "t.txt:5: family needs one name"},
		{"second family", formats + "op ineg Unary\n  family arith\n  family bitwise\n", "t.txt:6: second family"},
		{"bad partial", formats + "op ineg Unary\n  partial Non-Zero\n", "t.txt:5: partial needs one name"},
		{"role without a role", formats + "op ineg Unary\n  role\n", "t.txt:5: role needs at least one role"},
		{"unknown role", formats + "op ineg Unary\n  role pure\n", "t.txt:5: unknown role \"pure\""},
		{"role twice", formats + "op ineg Unary\n  role constant constant\n", "t.txt:5: role constant given twice"},
		{"second role line", formats + "op ineg Unary\n  role constant\n  role conversion\n", "t.txt:6: second role line"},
		{"unknown free rule", formats + "op ineg Unary\n  free same_size\n", "t.txt:5: free needs one rule of same_bits, same_lanes, same_shape, vector"},
		{"free without a free type variable", formats + "op ineg Unary\n  tv Int ints(8..128)\n  in x:Int\n  out a:Int\n  example v1 = ineg v0\n  doc d\n  free same_bits\n",
			"t.txt:4: op ineg: free rule same_bits, but no free type variable"},
		{"access not a power of two", formats + "op ineg Unary\n  access 3\n", "t.txt:5: access needs a byte count"},
		{"nanbits past the operands", formats + "op ineg Unary\n  tv Int ints(8..128)\n  in x:Int\n  nanbits 1\n", "t.txt:7: nanbits: \"1\" is not the index of one of the 1 value operands"},
		{"nanbits before in", formats + "op ineg Unary\n  nanbits 0\n", "t.txt:5: nanbits: \"0\" is not the index of one of the 0 value operands"},

		// Errors found when the whole op is checked carry the op's line.
		{"too few operands", formats + "op iadd Binary\n  tv Int ints(8..128)\n  in x:Int\n  out a:Int\n  example v1 = iadd v0\n  doc d\n",
			"t.txt:4: op iadd: format Binary has 2 fixed value operands, op lists 1"},
		{"too many operands", formats + "op ineg Unary\n  in x:i32 y:i32\n  out a:i32\n  example v1 = ineg v0\n  doc d\n",
			"t.txt:4: op ineg: format Unary has 1 fixed value operands, op lists 2"},
		{"varargs not in format", formats + "op ineg Unary\n  in x:i32 rest:...\n  example ineg v0\n  doc d\n",
			"t.txt:4: op ineg: varargs operand does not match format Unary"},
		{"varargs missing", "format Call varargs imms=func_ref\nop call Call\n  example call fn0()\n  doc d\n",
			"t.txt:2: op call: varargs operand does not match format Call"},
		{"fixed after varargs", "format CallIndirect values=1 varargs imms=sig_ref\nop call_indirect CallIndirect\n  in args:... callee:i64\n  example call_indirect sig0, v0()\n  doc d\n",
			"t.txt:2: op call_indirect: fixed operand callee after varargs"},
		{"no example", formats + "op ineg Unary\n  in x:i32\n  out a:i32\n  doc d\n", "t.txt:4: op ineg: no example"},
		{"example of another opcode", formats + "op ineg Unary\n  in x:i32\n  out a:i32\n  example v1 = iabs v0\n  doc d\n",
			"t.txt:4: op ineg: example \"v1 = iabs v0\" does not use ineg"},
		{"no doc", formats + "op ineg Unary\n  in x:i32\n  out a:i32\n  example v1 = ineg v0\n", "t.txt:4: op ineg: no doc"},
		{"single-type variable", formats + "op ineg Unary\n  tv I32 ints(32..32)\n  tv Int ints(8..64)\n  in x:Int\n  out a:I32\n  example v1 = ineg v0\n  doc d\n",
			"t.txt:4: op ineg: type variable I32 has a single type"},
		{"only single-type variables", formats + "op ineg Unary\n  tv I32 ints(32..32)\n  in x:I32\n  out a:i32\n  example v1 = ineg v0\n  doc d\n",
			"t.txt:4: op ineg: no type variable has more than one type"},
		{"derived from a free variable", formats + "op op2 Binary\n  tv A ints(8..128)\n  tv B ints(32..64)\n  in x:A y:B.lane_of\n  out a:A\n  example v2 = op2 v0, v1\n  doc d\n",
			"t.txt:4: op op2: operand y derives from B, which is not the controlling type variable A"},
		{"free variable used twice", formats + "op sel Ternary\n  tv A ints(8..128)\n  tv C ints(8..8) floats(32..32)\n  in c:C x:A y:C\n  out a:A\n  example v3 = sel v0, v1, v2\n  doc d\n",
			"t.txt:4: op sel: free type variable C is used by more than one operand"},
		{"result not controlled", formats + "op two Unary\n  tv A ints(8..128)\n  tv B floats(16..128)\n  in x:A\n  out a:B b:A\n  example v1, v2 = two v0\n  doc d\n",
			"t.txt:4: op two: result b is typed by A, which is not the controlling type variable B"},
		{"no controlling variable", formats + "op splat Unary\n  tv T ints(8..128) lanes(2..256)\n  in x:T.lane_of\n  out a:T.lane_of\n  example v1 = splat v0\n  doc d\n",
			"t.txt:4: op splat: no controlling type variable"},
		{"unused type variable", formats + "op ineg Unary\n  tv Int ints(8..128)\n  tv Float floats(16..128)\n  in x:Int\n  out a:Int\n  example v1 = ineg v0\n  doc d\n",
			"t.txt:4: op ineg: type variable Float is unused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Generate("t.txt", []byte(tc.table))
			if err == nil {
				t.Fatalf("no error; want %q", tc.want)
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %q\nwant prefix %q", err, tc.want)
			}
		})
	}
}

// TestControllingTypeVar checks Cranelift's rule for the controlling type
// variable on small tables shaped like real opcodes.
func TestControllingTypeVar(t *testing.T) {
	const header = formats + "format Load values=1 imms=memflags,offset32\nformat Store values=2 imms=memflags,offset32\n"
	for _, tc := range []struct {
		name, body   string
		ctrl         string // name of the controlling type variable, "" if monomorphic
		ctrlOperand  int
		typeVarOrder string // emitted order: controlling first
	}{
		{"operand controls", "op iadd Binary\n  tv Int ints(8..128)\n  in x:Int y:Int\n  out a:Int",
			"Int", 0, "Int"},
		{"second operand controls (select)", "op select Ternary\n  tv Truthy ints(8..128)\n  tv Any ints(8..128) floats(16..128)\n  in c:Truthy x:Any y:Any\n  out a:Any",
			"Any", 1, "Any Truthy"},
		{"result controls, free address (load)", "op load Load\n  tv iAddr ints(32..64)\n  tv Mem ints(8..128) floats(16..128)\n  in p:iAddr\n  out a:Mem",
			"Mem", -1, "Mem iAddr"},
		{"result not derived from operand (vhigh_bits)", "op vhigh_bits Unary\n  tv TxN ints(8..128) lanes(2..256)\n  tv NarrowInt ints(8..64)\n  in a:TxN\n  out x:NarrowInt",
			"NarrowInt", -1, "NarrowInt TxN"},
		{"fixed result, operand controls (uload32)", "op uload32 Load\n  tv iAddr ints(32..64)\n  in p:iAddr\n  out a:i64",
			"iAddr", 0, "iAddr"},
		{"single-type operand controls (istore32)", "op istore32 Store\n  tv iExt32 ints(64..64)\n  tv iAddr ints(32..64)\n  in x:iExt32 p:iAddr",
			"iExt32", 0, "iExt32 iAddr"},
		{"derived operand, result controls (uextend)", "op uextend Unary\n  tv Int ints(8..128)\n  in x:Int.narrower\n  out a:Int",
			"Int", -1, "Int"},
		{"no type variables", "op fvdemote Unary\n  in x:f64x2\n  out a:f32x4",
			"", -1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := strings.Fields(tc.body)[1]
			src := header + tc.body + "\n  example " + name + " v0\n  doc d\n"
			tab, err := parseTable("t.txt", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			op := tab.ops[0]
			ctrl := ""
			if op.ctrl >= 0 {
				ctrl = op.tvs[op.ctrl].name
			}
			if ctrl != tc.ctrl || op.ctrlOp != tc.ctrlOperand {
				t.Errorf("controlling type variable %q from operand %d, want %q from %d", ctrl, op.ctrlOp, tc.ctrl, tc.ctrlOperand)
			}
			var order []string
			for _, i := range tvOrder(op) {
				order = append(order, op.tvs[i].name)
			}
			if got := strings.Join(order, " "); got != tc.typeVarOrder {
				t.Errorf("type variables emitted as %q, want %q", got, tc.typeVarOrder)
			}
		})
	}
}

func TestTypeSets(t *testing.T) {
	for _, tc := range []struct {
		terms           string
		ints, floats    uint8
		lanes, dynlanes uint16
	}{
		{"ints(8..128)", 0x1f, 0, 1, 0},
		{"ints(32..64)", 0x0c, 0, 1, 0},
		{"floats(16..128) lanes(2..256)", 0, 0xf, 0x1fe, 0},
		{"ints(8..128) floats(16..128) lanes(1..256) dynlanes(2..256)", 0x1f, 0xf, 0x1ff, 0x1fe},
		// Without a lanes term the set keeps the scalars, as Cranelift's
		// TypeSetBuilder does (extract_vector's TxN).
		{"ints(8..128) dynlanes(2..256)", 0x1f, 0, 1, 0x1fe},
		{"ints(16..16) lanes(8..8)", 0x02, 0, 0x08, 0},
	} {
		tv, err := parseTypevar(append([]string{"T"}, strings.Fields(tc.terms)...))
		if err != nil {
			t.Errorf("%s: %v", tc.terms, err)
			continue
		}
		if tv.ints != tc.ints || tv.floats != tc.floats || tv.lanes != tc.lanes || tv.dynlanes != tc.dynlanes {
			t.Errorf("%s: ints %#x floats %#x lanes %#x dynlanes %#x", tc.terms, tv.ints, tv.floats, tv.lanes, tv.dynlanes)
		}
	}
}

func TestGoType(t *testing.T) {
	for in, want := range map[string]string{
		"i8": "I8", "f128": "F128", "i8x16": "Vector(I8, 16)", "f64x2": "Vector(F64, 2)",
		"i32x1": "", "i32x3": "", "i32x512": "", "b1": "", "i32x4xN": "", "Int": "",
	} {
		if got := goType(in); got != want {
			t.Errorf("goType(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestGenerateOutput(t *testing.T) {
	src := formats + "op ineg Unary\n  tv Int ints(8..128)\n  in x:Int\n  out a:Int\n  example v1 = ineg v0 # comment kept\n  doc Negate # too\n  sem int_unary neg\n  family arith\n  nanbits 0\n" +
		"op udiv Unary\n  tv Int ints(8..128)\n  in x:Int\n  out a:Int\n  example v1 = udiv v0\n  doc Div\n  partial nonzero\n  access 4\n" +
		"op iabs Unary\n  tv Int ints(8..128)\n  in x:Int\n  out a:Int\n  example v1 = iabs v0\n  doc Abs\n" +
		"op cast Unary\n  tv Any ints(8..128) floats(16..128)\n  tv AnyFrom ints(8..128) floats(16..128)\n  in x:AnyFrom\n  out a:Any\n  example v1 = cast.f32 v0\n  doc Bits\n  role conversion own_imm\n  free same_bits\n"
	code, err := Generate("t.txt", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"// Code generated by lib/ir/internal/opgen from opcodes.txt. DO NOT EDIT.\n",
		"// v1 = ineg v0 # comment kept\n",
		`Example: "v1 = ineg v0 # comment kept",`,
		`Doc:     "Negate # too",`,
		"Polymorphic: true, CtrlOperand: 0,",
		`"ineg": OpIneg,`,
		"FormatTernary:",
		`Sem:     "int_unary", SemKernel: "neg",`,
		`Family:  "arith",`,
		"NaNBits: []int{0},",
		`Partial:     "nonzero",`,
		"AccessBytes: 4,",
		"Roles:    RoleConversion | RoleOwnImm,",
		`FreeRule: "same_bits",`,
	} {
		if !strings.Contains(string(code), want) {
			t.Errorf("generated code lacks %q:\n%s", want, code)
		}
	}
	// An op without a sem line has none in its row.
	if n := strings.Count(string(code), "Sem:"); n != 1 {
		t.Errorf("generated code has %d Sem fields, want 1 (iabs has no sem line):\n%s", n, code)
	}
}
