package gen

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// The table's text form, one directive per line; `#` starts a comment
// except on example and doc lines:
//
//	format NAME values=N [varargs] [typevar=K] [imms=KIND,KIND,...]
//	op NAME FORMAT [FLAG ...]
//	  tv NAME TERM...           type variable; TERMs are ints(8..128) floats(16..128) lanes(1..256) dynlanes(2..256)
//	  in NAME:CONSTRAINT ...    value operands in order
//	  out NAME:CONSTRAINT ...   results in order
//	  example CLIF TEXT         one instruction as Cranelift prints it
//	  doc ONE LINE
//	  sem SHAPE [KERNEL]        what the opcode computes, for interpreters (optional)
//	  family NAME               the opcode family generators switch and weight together (optional)
//	  access BYTES              bytes a memory access touches when its value type does not say (optional)
//	  partial GUARD             a partial operation and the guard that makes it total (optional)
//	  nanbits K...              value operands whose NaN bits show in the result or memory (optional)
//	  role ROLE...              what cliff's tools take the opcode for (optional)
//	  free RULE                 what a free type variable's type must be beside the controlling type (optional)
//
// family, access, partial and nanbits are what lib/gen and lib/ub know of
// an opcode beyond its types: the swarm's opcode families; the size of an
// extending load or truncating store (uload8 touches 1 byte); the domain
// guard cliff-gen puts before a partial operation (nonzero: a zero
// divisor; nonzero_nooverflow: also MIN / -1; in_range: a float converted
// to an integer it fits); and the operands at which a float's NaN payload
// or sign becomes visible, so must be canonical where targets differ.
//
// role and free are the other opcode lists of cliff's tools, kept here so
// that no tool keeps one of its own (knownRoles; lib/ir's Role says what
// each means). free names the rule a free type variable obeys beyond its
// set (knownFreeRules; lib/gen applies them): same_bits (bitcast: as many
// bits, another type), same_shape (a conversion: any scalar from a
// scalar, a vector from as many lanes of the same width), same_lanes
// (as many lanes), vector (any vector).
//
// A sem line names the opcode's semantics as a shape shared by many
// opcodes (int_binary: lane-wise binary integer arithmetic) and, where the
// shape needs one, the kernel that fills it (add). Interpreters implement
// shapes and kernels, never opcodes; an opcode without a sem line has no
// semantics an interpreter can rely on (atomics, ISA-specific opcodes).
//
// A CONSTRAINT is a type variable (Int), a type variable with a derivation
// (Int.as_truthy, Int.narrower, ...), a type (i32, i8x16), or `...` for
// varargs typed by a signature.
//
// Type sets follow Cranelift's TypeSetBuilder: a term gives the powers of
// two in its range; without a lanes term the set holds scalars only
// (lanes(1..1)), even when dynlanes is given.
//
// A type variable whose set has a single type is no type variable to
// Cranelift: it does not make an opcode polymorphic, and elsewhere it is
// just that type. The table therefore writes the type instead, with one
// exception that Cranelift has too: a single-type variable may type the
// format's typevar operand of an opcode made polymorphic by another,
// free variable, and then controls it (istore32: x is i64, the address
// type is free).
//
// The controlling type variable is chosen as Cranelift chooses it: the
// format's typevar operand, if that operand is a plain type variable that
// can control the rest (every result is fixed or derived from it, and every
// other type variable is free: plain and used by one operand only; then
// the `.type` suffix may be omitted); else the first result, which must
// then be a plain type variable able to control the rest (suffix
// required). An opcode with no type variable is monomorphic.

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

// size is the number of types in the set.
func (tv typevar) size() int {
	lanes := popcount(uint(tv.lanes)) + popcount(uint(tv.dynlanes))
	return (popcount(uint(tv.ints)) + popcount(uint(tv.floats))) * lanes
}

func popcount(x uint) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

type operandKind int

const (
	kindTypeVar operandKind = iota
	kindFixed
	kindVarargs
)

type operand struct {
	name   string
	kind   operandKind
	tv     int    // kindTypeVar: index into opcode.tvs
	derive string // kindTypeVar: "" or a key of knownDerives
	fixed  string // kindFixed: a type name
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
	sem     string // "" when the op has no sem line
	kernel  string
	family  string
	access  int
	partial string
	nanbits []int
	roles   []string
	free    string
	line    int
	ctrl    int // index of the controlling type variable, -1 when monomorphic
	ctrlOp  int // value operand giving the controlling type, -1 if none
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
	knownRoles = map[string]string{
		"constant": "RoleConstant", "conversion": "RoleConversion", "comparison": "RoleComparison",
		"keep_alive": "RoleKeepAlive", "structure": "RoleStructure", "own_imm": "RoleOwnImm",
	}
	knownFreeRules = map[string]bool{"same_bits": true, "same_shape": true, "same_lanes": true, "vector": true}
	knownDerives   = map[string]string{
		"lane_of": "DeriveLaneOf", "as_truthy": "DeriveAsTruthy", "half_width": "DeriveHalfWidth",
		"double_width": "DeriveDoubleWidth", "split_lanes": "DeriveSplitLanes", "merge_lanes": "DeriveMergeLanes",
		"dynamic_to_vector": "DeriveDynamicToVector", "narrower": "DeriveNarrower", "wider": "DeriveWider",
	}
	scalarTypes = map[string]string{
		"i8": "I8", "i16": "I16", "i32": "I32", "i64": "I64", "i128": "I128",
		"f16": "F16", "f32": "F32", "f64": "F64", "f128": "F128",
	}
	nameRE   = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	kernelRE = regexp.MustCompile(`^[a-z0-9_]+$`)
	tvNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	setRE    = regexp.MustCompile(`^(ints|floats|lanes|dynlanes)\((\d+)\.\.(\d+)\)$`)
	vectorRE = regexp.MustCompile(`^([if]\d+)x(\d+)$`)
)

// goType returns the Go expression for a fixed type name of the table, or
// "" when the name is not a type. Vectors have 2..256 lanes.
func goType(name string) string {
	if s, ok := scalarTypes[name]; ok {
		return s
	}
	m := vectorRE.FindStringSubmatch(name)
	if m == nil {
		return ""
	}
	lane, ok := scalarTypes[m[1]]
	n, err := strconv.Atoi(m[2])
	if !ok || err != nil || n < 2 || n > 256 || !isPow2(n) {
		return ""
	}
	return fmt.Sprintf("Vector(%s, %d)", lane, n)
}

// parseTable reads the table; errors carry file:line.
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
		line := strings.TrimSpace(sc.Text())
		directive, rest, _ := strings.Cut(line, " ")
		rest = strings.TrimSpace(rest)
		if directive != "example" && directive != "doc" {
			if i := strings.IndexByte(line, '#'); i >= 0 {
				line = line[:i]
			}
		}
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		switch fields[0] {
		case "format":
			f, err := parseFormat(fields[1:])
			if err != nil {
				return nil, fail("%v", err)
			}
			if formats[f.name] != nil {
				return nil, fail("format %s declared twice", f.name)
			}
			f.line = lineNo
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
		case "tv", "in", "out", "example", "doc", "sem", "family", "access", "partial", "nanbits", "role", "free":
			if cur == nil {
				return nil, fail("%s outside an op", fields[0])
			}
			if err := cur.addLine(fields[0], fields[1:], rest); err != nil {
				return nil, fail("%v", err)
			}
		default:
			return nil, fail("unknown directive %q", fields[0])
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	for _, op := range t.ops {
		if err := op.check(); err != nil {
			return nil, fmt.Errorf("%s:%d: op %s: %v", file, op.line, op.name, err)
		}
	}
	return t, nil
}

func parseFormat(fields []string) (*formatDecl, error) {
	if len(fields) < 1 {
		return nil, fmt.Errorf("format needs a name")
	}
	f := &formatDecl{name: fields[0], typevar: -2}
	for _, kv := range fields[1:] {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "values":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("bad values=%q", v)
			}
			f.values = n
		case "varargs":
			f.varargs = true
		case "typevar":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("bad typevar=%q", v)
			}
			f.typevar = n
		case "imms":
			for _, imm := range strings.Split(v, ",") {
				if _, ok := knownImms[imm]; !ok {
					return nil, fmt.Errorf("unknown immediate kind %q", imm)
				}
				f.imms = append(f.imms, imm)
			}
		default:
			return nil, fmt.Errorf("unknown format attribute %q", kv)
		}
	}
	if f.typevar == -2 {
		// Cranelift's default: the first value operand, if any.
		f.typevar = -1
		if f.values > 0 {
			f.typevar = 0
		}
	}
	if f.typevar >= f.values {
		return nil, fmt.Errorf("typevar operand %d out of range", f.typevar)
	}
	return f, nil
}

// addLine handles a line inside an op: tv, in, out, example or doc.
func (op *opcode) addLine(directive string, args []string, rest string) error {
	switch directive {
	case "tv":
		tv, err := parseTypevar(args)
		if err != nil {
			return err
		}
		for _, o := range op.tvs {
			if o.name == tv.name {
				return fmt.Errorf("type variable %s declared twice", tv.name)
			}
		}
		op.tvs = append(op.tvs, tv)
	case "in", "out":
		if len(args) == 0 {
			return fmt.Errorf("%s lists no operands", directive)
		}
		for _, spec := range args {
			list := op.ins
			if directive == "out" {
				list = op.outs
			}
			o, err := op.parseOperand(spec, list)
			if err != nil {
				return err
			}
			if directive == "in" {
				op.ins = append(op.ins, o)
			} else {
				op.outs = append(op.outs, o)
			}
		}
	case "example":
		if op.example != "" {
			return fmt.Errorf("second example")
		}
		op.example = rest
	case "doc":
		if op.doc != "" {
			return fmt.Errorf("second doc")
		}
		op.doc = rest
	case "sem":
		if op.sem != "" {
			return fmt.Errorf("second sem")
		}
		if len(args) < 1 || len(args) > 2 {
			return fmt.Errorf("sem needs a shape and at most one kernel")
		}
		if !nameRE.MatchString(args[0]) {
			return fmt.Errorf("bad sem shape %q", args[0])
		}
		if len(args) == 2 && !kernelRE.MatchString(args[1]) {
			return fmt.Errorf("bad sem kernel %q", args[1])
		}
		op.sem = args[0]
		if len(args) == 2 {
			op.kernel = args[1]
		}
	case "family", "partial":
		target := &op.family
		if directive == "partial" {
			target = &op.partial
		}
		if *target != "" {
			return fmt.Errorf("second %s", directive)
		}
		if len(args) != 1 || !nameRE.MatchString(args[0]) {
			return fmt.Errorf("%s needs one name", directive)
		}
		*target = args[0]
	case "role":
		if op.roles != nil {
			return fmt.Errorf("second role line")
		}
		if len(args) == 0 {
			return fmt.Errorf("role needs at least one role")
		}
		for _, r := range args {
			if _, ok := knownRoles[r]; !ok {
				return fmt.Errorf("unknown role %q", r)
			}
			if slices.Contains(op.roles, r) {
				return fmt.Errorf("role %s given twice", r)
			}
			op.roles = append(op.roles, r)
		}
	case "free":
		if op.free != "" {
			return fmt.Errorf("second free")
		}
		if len(args) != 1 || !knownFreeRules[args[0]] {
			return fmt.Errorf("free needs one rule of %s", strings.Join(sortedKeys(knownFreeRules), ", "))
		}
		op.free = args[0]
	case "access":
		if op.access != 0 {
			return fmt.Errorf("second access")
		}
		n, err := strconv.Atoi(strings.Join(args, " "))
		if err != nil || n <= 0 || n&(n-1) != 0 || n > 16 {
			return fmt.Errorf("access needs a byte count, a power of two up to 16")
		}
		op.access = n
	case "nanbits":
		if op.nanbits != nil {
			return fmt.Errorf("second nanbits")
		}
		if len(args) == 0 {
			return fmt.Errorf("nanbits needs operand indices")
		}
		for _, a := range args {
			k, err := strconv.Atoi(a)
			if err != nil || k < 0 || k >= len(op.ins) {
				return fmt.Errorf("nanbits: %q is not the index of one of the %d value operands (give in before nanbits)", a, len(op.ins))
			}
			op.nanbits = append(op.nanbits, k)
		}
	}
	return nil
}

func parseTypevar(fields []string) (typevar, error) {
	if len(fields) < 2 {
		return typevar{}, fmt.Errorf("tv needs a name and a type set")
	}
	tv := typevar{name: fields[0]}
	if !tvNameRE.MatchString(tv.name) {
		return tv, fmt.Errorf("bad type variable name %q", tv.name)
	}
	seen := map[string]bool{}
	for _, s := range fields[1:] {
		m := setRE.FindStringSubmatch(s)
		if m == nil {
			return tv, fmt.Errorf("bad type set term %q", s)
		}
		if seen[m[1]] {
			return tv, fmt.Errorf("type set term %s given twice", m[1])
		}
		seen[m[1]] = true
		lo, _ := strconv.Atoi(m[2])
		hi, _ := strconv.Atoi(m[3])
		base := map[string]int{"ints": 8, "floats": 16, "lanes": 1, "dynlanes": 1}[m[1]]
		maxv := map[string]int{"ints": 128, "floats": 128, "lanes": 256, "dynlanes": 256}[m[1]]
		if !isPow2(lo) || !isPow2(hi) || lo > hi || lo < base || hi > maxv {
			return tv, fmt.Errorf("type set term %q is empty, out of range or not powers of two", s)
		}
		var mask uint16
		for i := 0; base<<i <= maxv; i++ {
			if w := base << i; w >= lo && w <= hi {
				mask |= 1 << i
			}
		}
		switch m[1] {
		case "ints":
			tv.ints = uint8(mask)
		case "floats":
			tv.floats = uint8(mask)
		case "lanes":
			tv.lanes = mask
		case "dynlanes":
			if mask&1 != 0 {
				return tv, fmt.Errorf("dynamic vectors have at least 2 lanes: %q", s)
			}
			tv.dynlanes = mask
		}
	}
	if !seen["lanes"] {
		tv.lanes = 1 // scalars only, as Cranelift's TypeSetBuilder defaults
	}
	if tv.ints == 0 && tv.floats == 0 {
		return tv, fmt.Errorf("type variable %s has no lane types", tv.name)
	}
	return tv, nil
}

func sortedKeys(m map[string]bool) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func isPow2(n int) bool { return n > 0 && n&(n-1) == 0 }

// parseOperand reads NAME:CONSTRAINT. Names are unique among the inputs
// and among the results; an input and a result may share one, as in
// Cranelift's shuffle.
func (op *opcode) parseOperand(spec string, siblings []operand) (operand, error) {
	name, c, ok := strings.Cut(spec, ":")
	if !ok || name == "" || c == "" {
		return operand{}, fmt.Errorf("operand %q is not NAME:CONSTRAINT", spec)
	}
	for _, o := range siblings {
		if o.name == name {
			return operand{}, fmt.Errorf("operand name %s used twice", name)
		}
	}
	o := operand{name: name}
	if c == "..." {
		o.kind = kindVarargs
		return o, nil
	}
	if goType(c) != "" {
		o.kind, o.fixed = kindFixed, c
		return o, nil
	}
	tvName, derive, _ := strings.Cut(c, ".")
	for i, tv := range op.tvs {
		if tv.name != tvName {
			continue
		}
		o.kind, o.tv = kindTypeVar, i
		if derive != "" {
			if _, ok := knownDerives[derive]; !ok {
				return o, fmt.Errorf("operand %s: unknown derivation %q", name, derive)
			}
			o.derive = derive
		}
		return o, nil
	}
	return o, fmt.Errorf("operand %s: unknown type variable or type %q (declare tv first)", name, tvName)
}

// check validates the op against its format and finds the controlling type
// variable.
func (op *opcode) check() error {
	f := op.format
	fixedIns := 0
	sawVarargs := false
	for _, in := range op.ins {
		if in.kind == kindVarargs {
			if sawVarargs {
				return fmt.Errorf("two varargs operands")
			}
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
		return fmt.Errorf("varargs operand does not match format %s", f.name)
	}
	for i, out := range op.outs {
		if out.kind == kindVarargs && i != len(op.outs)-1 {
			return fmt.Errorf("varargs result %s is not last", out.name)
		}
	}
	if err := op.checkExample(); err != nil {
		return err
	}
	if op.doc == "" {
		return fmt.Errorf("no doc")
	}
	if err := op.findCtrl(); err != nil {
		return err
	}
	if op.free != "" && (op.ctrl < 0 || len(op.tvs) < 2) {
		return fmt.Errorf("free rule %s, but no free type variable", op.free)
	}
	return nil
}

// checkExample requires the example to use the opcode.
func (op *opcode) checkExample() error {
	if op.example == "" {
		return fmt.Errorf("no example")
	}
	text := op.example
	if _, after, ok := strings.Cut(text, "="); ok {
		text = after
	}
	word := strings.Fields(text)
	if len(word) == 0 {
		return fmt.Errorf("example %q does not use %s", op.example, op.name)
	}
	if name, _, _ := strings.Cut(word[0], "."); name != op.name {
		return fmt.Errorf("example %q does not use %s", op.example, op.name)
	}
	return nil
}

// findCtrl applies Cranelift's rule for the controlling type variable.
func (op *opcode) findCtrl() error {
	op.ctrl, op.ctrlOp = -1, -1
	if len(op.tvs) == 0 {
		return nil
	}
	free := false
	for i, tv := range op.tvs {
		if tv.size() > 1 {
			free = true
			continue
		}
		k := op.format.typevar
		if k < 0 || op.ins[k].kind != kindTypeVar || op.ins[k].tv != i || op.ins[k].derive != "" || op.uses(i) != 1 {
			return fmt.Errorf("type variable %s has a single type; write the type (Cranelift treats it as fixed)", tv.name)
		}
	}
	if !free {
		return fmt.Errorf("no type variable has more than one type, so the opcode is monomorphic; write the types")
	}
	var why error
	if k := op.format.typevar; k >= 0 {
		if in := op.ins[k]; in.kind == kindTypeVar && in.derive == "" {
			if why = op.canControl(in.tv); why == nil {
				op.ctrl, op.ctrlOp = in.tv, k
				return op.checkUsed()
			}
		}
	}
	if len(op.outs) == 0 || op.outs[0].kind != kindTypeVar || op.outs[0].derive != "" {
		if why != nil {
			return why
		}
		return fmt.Errorf("no controlling type variable: the typevar operand and the first result are not plain type variables")
	}
	if err := op.canControl(op.outs[0].tv); err != nil {
		return err
	}
	op.ctrl = op.outs[0].tv
	return op.checkUsed()
}

// canControl reports why type variable c cannot be the controlling one.
func (op *opcode) canControl(c int) error {
	freeUsed := map[int]bool{}
	for _, in := range op.ins {
		if in.kind != kindTypeVar || in.tv == c {
			continue
		}
		if in.derive != "" {
			return fmt.Errorf("operand %s derives from %s, which is not the controlling type variable %s",
				in.name, op.tvs[in.tv].name, op.tvs[c].name)
		}
		if freeUsed[in.tv] {
			return fmt.Errorf("free type variable %s is used by more than one operand", op.tvs[in.tv].name)
		}
		freeUsed[in.tv] = true
	}
	for _, out := range op.outs {
		if out.kind == kindTypeVar && out.tv != c {
			return fmt.Errorf("result %s is typed by %s, which is not the controlling type variable %s",
				out.name, op.tvs[out.tv].name, op.tvs[c].name)
		}
	}
	return nil
}

// uses counts the operands typed by type variable i.
func (op *opcode) uses(i int) int {
	n := 0
	for _, o := range append(append([]operand{}, op.ins...), op.outs...) {
		if o.kind == kindTypeVar && o.tv == i {
			n++
		}
	}
	return n
}

func (op *opcode) checkUsed() error {
	used := make([]bool, len(op.tvs))
	for _, o := range append(append([]operand{}, op.ins...), op.outs...) {
		if o.kind == kindTypeVar {
			used[o.tv] = true
		}
	}
	for i, u := range used {
		if !u {
			return fmt.Errorf("type variable %s is unused", op.tvs[i].name)
		}
	}
	return nil
}
