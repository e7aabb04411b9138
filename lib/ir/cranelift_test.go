package ir_test

// These tests hold the opcode table and the derived types against what
// Cranelift 0.135 itself reports. testdata/cranelift_opcodes.txt and
// testdata/cranelift_types.txt are written by the Rust program in
// testdata/crdump (see its src/main.rs for the format and the command); the
// tests need neither Rust nor Cranelift to run.

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"cliff/lib/ir"
)

// craneliftOpcodes are the opcodes of cranelift-codegen-meta 0.135.0
// (shared/instructions.rs), in its order.
var craneliftOpcodes = []string{
	"jump", "brif", "br_table", "debugtrap", "trap", "trapz", "trapnz", "return",
	"call", "call_indirect", "return_call", "return_call_indirect", "func_addr",
	"try_call", "try_call_indirect", "splat", "swizzle", "x86_pshufb", "insertlane",
	"extractlane", "smin", "umin", "smax", "umax", "avg_round", "uadd_sat", "sadd_sat",
	"usub_sat", "ssub_sat", "load", "store", "uload8", "sload8", "istore8", "uload16",
	"sload16", "istore16", "uload32", "sload32", "istore32", "stack_switch", "uload8x8",
	"sload8x8", "uload16x4", "sload16x4", "uload32x2", "sload32x2", "stack_addr",
	"dynamic_stack_addr", "symbol_value", "tls_value", "get_pinned_reg", "set_pinned_reg",
	"get_frame_pointer", "get_stack_pointer", "get_return_address",
	"get_exception_handler_address", "iconst", "f16const", "f32const", "f64const",
	"f128const", "vconst", "shuffle", "nop", "select", "select_spectre_guard", "bitselect",
	"blendv", "vany_true", "vall_true", "vhigh_bits", "icmp", "iadd", "isub", "ineg", "iabs",
	"imul", "umulhi", "smulhi", "sqmul_round_sat", "x86_pmulhrsw", "udiv", "sdiv", "urem",
	"srem", "sadd_overflow_cin", "uadd_overflow_cin", "uadd_overflow", "sadd_overflow",
	"usub_overflow", "ssub_overflow", "umul_overflow", "smul_overflow", "uadd_overflow_trap",
	"ssub_overflow_bin", "usub_overflow_bin", "band", "bor", "bxor", "bnot", "rotl", "rotr",
	"ishl", "ushr", "sshr", "bitrev", "clz", "cls", "ctz", "bswap", "popcnt", "fcmp", "fadd",
	"fsub", "fmul", "fdiv", "sqrt", "fma", "fneg", "fabs", "fcopysign", "fmin", "fmax", "ceil",
	"floor", "trunc", "nearest", "bitcast", "scalar_to_vector", "bmask", "ireduce", "snarrow",
	"unarrow", "uunarrow", "swiden_low", "swiden_high", "uwiden_low", "uwiden_high",
	"iadd_pairwise", "x86_pmaddubsw", "uextend", "sextend", "fpromote", "fdemote", "fvdemote",
	"fvpromote_low", "fcvt_to_uint", "fcvt_to_sint", "fcvt_to_uint_sat", "fcvt_to_sint_sat",
	"x86_cvtt2dq", "fcvt_from_uint", "fcvt_from_sint", "isplit", "iconcat", "atomic_rmw",
	"atomic_cas", "atomic_load", "atomic_store", "fence", "extract_vector", "sequence_point",
}

func TestTableHasExactlyCraneliftOpcodes(t *testing.T) {
	if len(craneliftOpcodes) != 163 {
		t.Fatalf("reference list has %d names, want 163", len(craneliftOpcodes))
	}
	var ours []string
	for _, op := range ir.Opcodes() {
		ours = append(ours, op.String())
	}
	for _, name := range craneliftOpcodes {
		if _, ok := ir.LookupOpcode(name); !ok {
			t.Errorf("Cranelift opcode %s is missing from opcodes.txt", name)
		}
	}
	for _, name := range ours {
		if !slices.Contains(craneliftOpcodes, name) {
			t.Errorf("opcodes.txt has %s, which Cranelift 0.135 does not", name)
		}
	}
	if len(ours) != len(craneliftOpcodes) {
		t.Errorf("table has %d opcodes, Cranelift %d", len(ours), len(craneliftOpcodes))
	}
}

// craneliftOpcode is one opcode of testdata/cranelift_opcodes.txt.
type craneliftOpcode struct {
	name, format              string
	polymorphic, useTypevarOp bool
	results, args             int
	flags                     []string
	ctrl                      string // TypeSet in crdump's spelling; "" when monomorphic
	outs, ins                 [][]string
	line                      int
}

func readCraneliftOpcodes(t *testing.T) []*craneliftOpcode {
	t.Helper()
	f, err := os.Open("testdata/cranelift_opcodes.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ops []*craneliftOpcode
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		fail := func(format string, args ...any) {
			t.Fatalf("cranelift_opcodes.txt:%d: %s", n, fmt.Sprintf(format, args...))
		}
		switch fields[0] {
		case "op":
			op := &craneliftOpcode{name: fields[1], line: n}
			for _, kv := range fields[2:] {
				k, v, _ := strings.Cut(kv, "=")
				switch k {
				case "format":
					op.format = v
				case "polymorphic":
					op.polymorphic = v == "true"
				case "use_typevar_operand":
					op.useTypevarOp = v == "true"
				case "results":
					op.results, _ = strconv.Atoi(v)
				case "args":
					op.args, _ = strconv.Atoi(v)
				case "flags":
					if v != "-" {
						op.flags = strings.Split(v, ",")
					}
				}
			}
			ops = append(ops, op)
		case "ctrl":
			ops[len(ops)-1].ctrl = fields[1]
		case "out", "in":
			kinds := strings.Split(fields[2], "|")
			if kinds[0] == "UNKNOWN" {
				fail("crdump could not explain this constraint")
			}
			op := ops[len(ops)-1]
			if fields[0] == "out" {
				op.outs = append(op.outs, kinds)
			} else {
				op.ins = append(op.ins, kinds)
			}
		default:
			fail("unknown line %q", sc.Text())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return ops
}

// crdumpSet spells a TypeSet as crdump does.
func crdumpSet(s ir.TypeSet) string {
	return fmt.Sprintf("ints=%#x,floats=%#x,lanes=%#x,dynlanes=%#x", s.Ints, s.Floats, s.Lanes, s.DynLanes)
}

// crdumpKind describes one of our operands the way crdump describes a
// constraint, so that it can be looked up in crdump's list of kinds.
func crdumpKind(info *ir.OpcodeInfo, o ir.Operand) string {
	switch o.Kind {
	case ir.OperandFixed:
		return "fixed:" + o.Type.String()
	case ir.OperandTypeVar:
		if info.Polymorphic && o.TypeVar == 0 {
			if o.Derive == ir.DeriveNone {
				return "same"
			}
			return o.Derive.String()
		}
		return "free:" + crdumpSet(info.TypeVars[o.TypeVar].Set)
	}
	return "varargs"
}

func fixedOperands(list []ir.Operand) []ir.Operand {
	var out []ir.Operand
	for _, o := range list {
		if o.Kind != ir.OperandVarargs {
			out = append(out, o)
		}
	}
	return out
}

func TestTableMatchesCranelift(t *testing.T) {
	ref := readCraneliftOpcodes(t)
	if len(ref) != len(craneliftOpcodes) {
		t.Errorf("cranelift_opcodes.txt has %d opcodes, want %d", len(ref), len(craneliftOpcodes))
	}
	for _, want := range ref {
		op, ok := ir.LookupOpcode(want.name)
		if !ok {
			t.Errorf("%s: not in the table", want.name)
			continue
		}
		info := op.Info()
		errorf := func(format string, args ...any) {
			t.Errorf("%s (cranelift_opcodes.txt:%d): %s", want.name, want.line, fmt.Sprintf(format, args...))
		}
		if got := info.Format.String(); got != want.format {
			errorf("format %s, Cranelift %s", got, want.format)
		}
		if info.Polymorphic != want.polymorphic {
			errorf("Polymorphic %v, Cranelift %v", info.Polymorphic, want.polymorphic)
		}
		if got := info.CtrlOperand >= 0; got != want.useTypevarOp {
			errorf("CtrlOperand %d, Cranelift use_typevar_operand=%v", info.CtrlOperand, want.useTypevarOp)
		}
		if info.CtrlOperand >= 0 && info.CtrlOperand != op.Format().TypevarOperand {
			errorf("CtrlOperand %d is not the format's typevar operand %d", info.CtrlOperand, op.Format().TypevarOperand)
		}
		var flags ir.OpFlags
		for _, name := range want.flags {
			f, ok := ir.ParseFlag(name)
			if !ok {
				t.Fatalf("cranelift_opcodes.txt:%d: unknown flag %s", want.line, name)
			}
			flags |= f
		}
		if info.Flags != flags {
			errorf("flags %#x, Cranelift %v (%#x)", info.Flags, want.flags, flags)
		}
		if info.Polymorphic {
			if got := crdumpSet(info.TypeVars[0].Set); got != want.ctrl {
				errorf("controlling type set %s (%v), Cranelift %s", got, info.TypeVars[0].Set, want.ctrl)
			}
		}
		outs, ins := fixedOperands(info.Outs), fixedOperands(info.Ins)
		if len(outs) != want.results || len(ins) != want.args {
			errorf("%d fixed results and %d fixed operands, Cranelift %d and %d", len(outs), len(ins), want.results, want.args)
			continue
		}
		for _, side := range []struct {
			dir  string
			ours []ir.Operand
			ref  [][]string
		}{{"out", outs, want.outs}, {"in", ins, want.ins}} {
			for i, o := range side.ours {
				if got := crdumpKind(info, o); !slices.Contains(side.ref[i], got) {
					errorf("%s %d (%s) is %s; Cranelift's constraint is %s", side.dir, i, o.Name, got, strings.Join(side.ref[i], " or "))
				}
			}
		}
	}
}

// TestDerivedTypesMatchCranelift checks every derived-type function on every
// type Cranelift can represent.
func TestDerivedTypesMatchCranelift(t *testing.T) {
	f, err := os.Open("testdata/cranelift_types.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	columns := []struct {
		name string
		fn   func(ir.Type) ir.Type
	}{
		{"lane_of", ir.Type.LaneType},
		{"as_truthy", ir.Type.AsTruthy},
		{"as_int", ir.Type.AsInt},
		{"half_width", ir.Type.HalfWidth},
		{"double_width", ir.Type.DoubleWidth},
		{"split_lanes", ir.Type.SplitLanes},
		{"merge_lanes", ir.Type.MergeLanes},
		{"dynamic_to_vector", ir.Type.DynamicToVector},
	}
	sc := bufio.NewScanner(f)
	count := 0
	for n := 1; sc.Scan(); n++ {
		c := strings.Fields(sc.Text())
		if len(c) == 0 || strings.HasPrefix(c[0], "#") {
			continue
		}
		if len(c) != 12 {
			t.Fatalf("cranelift_types.txt:%d: %d columns, want 12", n, len(c))
		}
		count++
		ty, ok := ir.ParseType(c[0])
		if !ok {
			t.Errorf("ParseType(%q) fails; Cranelift has the type", c[0])
			continue
		}
		for i, col := range columns {
			want := c[i+1]
			switch want {
			case "?": // Cranelift yields an invalid type; no behaviour to match
				continue
			case "-":
				want = ir.Invalid.String()
			}
			if got := col.fn(ty).String(); got != want {
				t.Errorf("%s.%s = %s, Cranelift %s", c[0], col.name, got, want)
			}
		}
		for i, got := range []int{ty.LaneBits(), ty.Lanes(), ty.Bits()} {
			if strconv.Itoa(got) != c[9+i] {
				t.Errorf("%s: %s = %d, Cranelift %s", c[0], []string{"LaneBits", "Lanes", "Bits"}[i], got, c[9+i])
			}
		}
	}
	// 9 lane types x 9 lane counts, plus the 25 dynamic vectors of 2+ lanes
	// and at most 256 bits.
	if count != 106 {
		t.Errorf("cranelift_types.txt lists %d types, want 106", count)
	}
}
