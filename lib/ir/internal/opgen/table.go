package main

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The table's text form, one directive per line, `#` starts a comment:
//
//	format NAME values=N [varargs] [typevar=K] [imms=KIND,KIND,...]
//	op NAME FORMAT [FLAG ...]
//	  tv NAME TYPESET...        type variable; TYPESET is ints(8..128) floats(16..128) lanes(1..256) dynlanes(2..256)
//	  in NAME:CONSTRAINT ...    value operands; CONSTRAINT is TV, TV.derive, a type (i32) or ...
//	  out NAME:CONSTRAINT ...   results
//	  example CLIF TEXT
//	  doc ONE LINE
//
// The controlling type variable is found as Cranelift finds it: the type
// variable of the format's typevar operand if that operand is a plain type
// variable (then the `.type` suffix may be omitted), else the plain type
// variable of the first result (suffix required); otherwise the opcode is
// monomorphic.

type formatDecl struct {
	name    string
	values  int
	varargs bool
	typevar int
	imms    []string
	line    int
}

type typevar struct {
	name            string
	ints, floats    uint8
	lanes, dynlanes uint16
}

type operand struct {
	name   string
	kind   string // "tv", "fixed", "varargs"
	tv     int
	derive string
	fixed  string
}

type opcode struct {
	name    string
	format  *formatDecl
	flags   []string
	tvs     []typevar
	ins     []operand
	outs    []operand
	example string
	doc     string
	line    int
	ctrl    int // index of ctrl typevar, -1 monomorphic
	ctrlOp  int
}

type table struct {
	formats []*formatDecl
	ops     []*opcode
}

var (
	knownImms = map[string]string{
		"imm64": "ImmInt64", "uimm8": "ImmUint8", "ieee16": "ImmIeee16", "ieee32": "ImmIeee32",
		"ieee64": "ImmIeee64", "intcc": "ImmIntCC", "floatcc": "ImmFloatCC", "memflags": "ImmMemFlags",
		"offset32": "ImmOffset32", "trapcode": "ImmTrapCode", "atomic_rmw_op": "ImmAtomicRmwOp",
		"func_ref": "ImmFuncRef", "sig_ref": "ImmSigRef", "stack_slot": "ImmStackSlot",
		"dyn_stack_slot": "ImmDynStackSlot", "global_value": "ImmGlobalValue", "constant": "ImmConstant",
		"shuffle_mask": "ImmShuffleMask", "block_call": "ImmBlockCall", "jump_table": "ImmJumpTable",
		"exception_table": "ImmExceptionTable", "raw_block": "ImmRawBlock",
	}
	knownFlags = map[string]string{
		"terminator": "FlagTerminator", "branch": "FlagBranch", "call": "FlagCall", "return": "FlagReturn",
		"can_trap": "FlagCanTrap", "can_load": "FlagCanLoad", "can_store": "FlagCanStore",
		"side_effects": "FlagSideEffects", "idempotent": "FlagIdempotent",
	}
	knownDerives = map[string]string{
		"lane_of": "DeriveLaneOf", "as_truthy": "DeriveAsTruthy", "half_width": "DeriveHalfWidth",
		"double_width": "DeriveDoubleWidth", "split_lanes": "DeriveSplitLanes", "merge_lanes": "DeriveMergeLanes",
		"dynamic_to_vector": "DeriveDynamicToVector", "narrower": "DeriveNarrower", "wider": "DeriveWider",
	}
	knownTypes = map[string]string{
		"i8": "I8", "i16": "I16", "i32": "I32", "i64": "I64", "i128": "I128",
		"f16": "F16", "f32": "F32", "f64": "F64", "f128": "F128",
	}
	nameRE = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	setRE  = regexp.MustCompile(`^(ints|floats|lanes|dynlanes)\((\d+)\.\.(\d+)\)$`)
)

func parseTable(file string, src []byte) (*table, error) {
	t := &table{}
	formats := map[string]*formatDecl{}
	ops := map[string]bool{}
	var cur *opcode
	sc := bufio.NewScanner(bytes.NewReader(src))
	lineNo := 0
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", file, lineNo, fmt.Sprintf(format, args...))
	}
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 && !strings.HasPrefix(strings.TrimSpace(line), "example") && !strings.HasPrefix(strings.TrimSpace(line), "doc") {
			line = line[:i]
		}
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), fields[0]))
		switch fields[0] {
		case "format":
			if len(fields) < 2 {
				return nil, fail("format needs a name")
			}
			f := &formatDecl{name: fields[1], typevar: -2, line: lineNo}
			for _, kv := range fields[2:] {
				k, v, _ := strings.Cut(kv, "=")
				switch k {
				case "values":
					n, err := strconv.Atoi(v)
					if err != nil || n < 0 {
						return nil, fail("bad values=%q", v)
					}
					f.values = n
				case "varargs":
					f.varargs = true
				case "typevar":
					n, err := strconv.Atoi(v)
					if err != nil {
						return nil, fail("bad typevar=%q", v)
					}
					f.typevar = n
				case "imms":
					for _, imm := range strings.Split(v, ",") {
						if _, ok := knownImms[imm]; !ok {
							return nil, fail("unknown immediate kind %q", imm)
						}
						f.imms = append(f.imms, imm)
					}
				default:
					return nil, fail("unknown format attribute %q", kv)
				}
			}
			if f.typevar == -2 {
				f.typevar = -1
				if f.values > 0 {
					f.typevar = 0
				}
			}
			if f.typevar >= f.values {
				return nil, fail("typevar operand %d out of range", f.typevar)
			}
			if formats[f.name] != nil {
				return nil, fail("format %s declared twice", f.name)
			}
			formats[f.name] = f
			t.formats = append(t.formats, f)
			cur = nil
		case "op":
			if len(fields) < 3 {
				return nil, fail("op needs a name and a format")
			}
			if !nameRE.MatchString(fields[1]) {
				return nil, fail("bad opcode name %q", fields[1])
			}
			if ops[fields[1]] {
				return nil, fail("opcode %s declared twice", fields[1])
			}
			ops[fields[1]] = true
			f := formats[fields[2]]
			if f == nil {
				return nil, fail("unknown format %q (formats are declared before use)", fields[2])
			}
			cur = &opcode{name: fields[1], format: f, line: lineNo}
			for _, fl := range fields[3:] {
				if _, ok := knownFlags[fl]; !ok {
					return nil, fail("unknown flag %q", fl)
				}
				cur.flags = append(cur.flags, fl)
			}
			t.ops = append(t.ops, cur)
		case "tv", "in", "out", "example", "doc":
			if cur == nil {
				return nil, fail("%s outside an op", fields[0])
			}
			switch fields[0] {
			case "tv":
				tv, err := parseTypevar(fields[1:])
				if err != nil {
					return nil, fail("%v", err)
				}
				for _, o := range cur.tvs {
					if o.name == tv.name {
						return nil, fail("type variable %s declared twice", tv.name)
					}
				}
				cur.tvs = append(cur.tvs, tv)
			case "in", "out":
				for _, spec := range fields[1:] {
					o, err := parseOperand(cur, spec)
					if err != nil {
						return nil, fail("%v", err)
					}
					if fields[0] == "in" {
						cur.ins = append(cur.ins, o)
					} else {
						cur.outs = append(cur.outs, o)
					}
				}
			case "example":
				cur.example = rest
			case "doc":
				cur.doc = rest
			}
		default:
			return nil, fail("unknown directive %q", fields[0])
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for _, op := range t.ops {
		if err := op.check(); err != nil {
			return nil, fmt.Errorf("%s:%d: op %s: %v", file, op.line, op.name, err)
		}
	}
	return t, nil
}

func parseTypevar(fields []string) (typevar, error) {
	if len(fields) < 2 {
		return typevar{}, fmt.Errorf("tv needs a name and a type set")
	}
	tv := typevar{name: fields[0]}
	for _, s := range fields[1:] {
		m := setRE.FindStringSubmatch(s)
		if m == nil {
			return tv, fmt.Errorf("bad type set term %q", s)
		}
		lo, _ := strconv.Atoi(m[2])
		hi, _ := strconv.Atoi(m[3])
		base := map[string]int{"ints": 8, "floats": 16, "lanes": 1, "dynlanes": 1}[m[1]]
		maxv := map[string]int{"ints": 128, "floats": 128, "lanes": 256, "dynlanes": 256}[m[1]]
		var mask uint16
		for i := 0; base<<i <= maxv; i++ {
			if w := base << i; w >= lo && w <= hi {
				mask |= 1 << i
			}
		}
		if mask == 0 || !isPow2(lo) || !isPow2(hi) || lo > hi {
			return tv, fmt.Errorf("type set term %q is empty or not powers of two", s)
		}
		switch m[1] {
		case "ints":
			tv.ints = uint8(mask)
		case "floats":
			tv.floats = uint8(mask)
		case "lanes":
			tv.lanes = mask
		case "dynlanes":
			tv.dynlanes = mask
		}
	}
	if tv.lanes == 0 && tv.dynlanes == 0 {
		tv.lanes = 1 // scalars only, as in Cranelift's TypeSetBuilder
	}
	if tv.ints == 0 && tv.floats == 0 {
		return tv, fmt.Errorf("type variable %s has no lane types", tv.name)
	}
	return tv, nil
}

func isPow2(n int) bool { return n > 0 && n&(n-1) == 0 }

func parseOperand(op *opcode, spec string) (operand, error) {
	name, c, ok := strings.Cut(spec, ":")
	if !ok || name == "" || c == "" {
		return operand{}, fmt.Errorf("operand %q is not NAME:CONSTRAINT", spec)
	}
	o := operand{name: name}
	if c == "..." {
		o.kind = "varargs"
		return o, nil
	}
	if _, ok := knownTypes[c]; ok {
		o.kind, o.fixed = "fixed", c
		return o, nil
	}
	tvName, derive, _ := strings.Cut(c, ".")
	for i, tv := range op.tvs {
		if tv.name == tvName {
			o.kind, o.tv = "tv", i
			if derive != "" {
				if _, ok := knownDerives[derive]; !ok {
					return o, fmt.Errorf("unknown derivation %q", derive)
				}
				o.derive = derive
			}
			return o, nil
		}
	}
	return o, fmt.Errorf("operand %s: unknown type variable or type %q (declare tv first)", name, tvName)
}

func (op *opcode) check() error {
	f := op.format
	fixedIns := 0
	sawVarargs := false
	for _, in := range op.ins {
		if in.kind == "varargs" {
			sawVarargs = true
			continue
		}
		if sawVarargs {
			return fmt.Errorf("fixed operand %s after varargs", in.name)
		}
		fixedIns++
	}
	if fixedIns != f.values {
		return fmt.Errorf("format %s has %d fixed value operands, op lists %d", f.name, f.values, fixedIns)
	}
	if sawVarargs != f.varargs {
		return fmt.Errorf("varargs mismatch with format %s", f.name)
	}
	if op.example == "" {
		return fmt.Errorf("no example")
	}
	// Find the controlling type variable.
	op.ctrl, op.ctrlOp = -1, -1
	if f.typevar >= 0 && op.ins[f.typevar].kind == "tv" && op.ins[f.typevar].derive == "" {
		op.ctrl, op.ctrlOp = op.ins[f.typevar].tv, f.typevar
	} else if len(op.outs) > 0 && op.outs[0].kind == "tv" && op.outs[0].derive == "" {
		op.ctrl = op.outs[0].tv
	}
	used := make([]bool, len(op.tvs))
	for _, o := range append(append([]operand{}, op.ins...), op.outs...) {
		if o.kind == "tv" {
			used[o.tv] = true
			if o.derive != "" && o.tv != op.ctrl {
				return fmt.Errorf("operand %s derives from %s, which is not the controlling type variable", o.name, op.tvs[o.tv].name)
			}
		}
	}
	for i, u := range used {
		if !u {
			return fmt.Errorf("type variable %s is unused", op.tvs[i].name)
		}
	}
	return nil
}
