package ir_test

import (
	"strings"
	"testing"

	"cliff/lib/ir"
)

func rowOf(t *testing.T, name string) (ir.Opcode, *ir.OpcodeInfo) {
	t.Helper()
	op, ok := ir.LookupOpcode(name)
	if !ok {
		t.Fatalf("opcode %s is not in the table", name)
	}
	return op, op.Info()
}

// TestControllingType checks, for opcodes of every shape, whether the
// opcode is polymorphic and where its controlling type comes from: an
// operand (the `.type` suffix may be left out) or the `.type` suffix.
func TestControllingType(t *testing.T) {
	for _, tc := range []struct {
		name        string
		polymorphic bool
		ctrlOperand int
		ctrlName    string // name of TypeVars[0]
	}{
		{"iadd", true, 0, "Int"},
		{"icmp", true, 0, "Int"},
		{"brif", true, 0, "ScalarTruthy"},
		{"select", true, 1, "Any"},
		{"bitselect", true, 1, "Any"},
		{"store", true, 0, "Mem"},
		{"istore8", true, 0, "iExt8"},
		{"istore32", true, 0, "iExt32"},
		{"uload32", true, 0, "iAddr"},
		{"uload8x8", true, 0, "iAddr"},
		{"atomic_cas", true, 2, "AtomicMem"},
		{"atomic_store", true, 0, "AtomicMem"},
		{"call_indirect", true, 0, "iAddr"},
		{"extractlane", true, 0, "TxN"},
		{"insertlane", true, 0, "TxN"},
		{"swiden_low", true, 0, "I8or16or32xN"},
		{"iconst", true, -1, "NarrowInt"},
		{"load", true, -1, "Mem"},
		{"uload8", true, -1, "iExt8"},
		{"uextend", true, -1, "Int"},
		{"ireduce", true, -1, "Int"},
		{"bitcast", true, -1, "MemTo"},
		{"fcvt_to_sint", true, -1, "IntTo"},
		{"vhigh_bits", true, -1, "NarrowInt"},
		{"atomic_rmw", true, -1, "AtomicMem"},
		{"splat", true, -1, "TxN"},
		{"stack_addr", true, -1, "iAddr"},
		{"func_addr", true, -1, "iAddr"},
		{"call", false, -1, ""},
		{"jump", false, -1, ""},
		{"return", false, -1, ""},
		{"br_table", false, -1, ""},
		{"swizzle", false, -1, ""},
		{"shuffle", false, -1, ""},
		{"f32const", false, -1, ""},
		{"fvdemote", false, -1, ""},
	} {
		_, info := rowOf(t, tc.name)
		if info.Polymorphic != tc.polymorphic || info.CtrlOperand != tc.ctrlOperand {
			t.Errorf("%s: Polymorphic=%v CtrlOperand=%d, want %v and %d",
				tc.name, info.Polymorphic, info.CtrlOperand, tc.polymorphic, tc.ctrlOperand)
		}
		name := ""
		if info.Polymorphic {
			name = info.TypeVars[0].Name
		}
		if name != tc.ctrlName {
			t.Errorf("%s: controlling type variable %q, want %q", tc.name, name, tc.ctrlName)
		}
	}
}

func TestTableSpotChecks(t *testing.T) {
	iAddr := ir.TypeSet{Ints: 0b01100, Lanes: 1} // i32, i64

	t.Run("icmp", func(t *testing.T) {
		_, info := rowOf(t, "icmp")
		if len(info.Outs) != 1 || info.Outs[0].Derive != ir.DeriveAsTruthy || info.Outs[0].TypeVar != 0 {
			t.Errorf("icmp result %+v, want Int.as_truthy", info.Outs)
		}
		if info.Format != ir.FormatIntCompare {
			t.Errorf("icmp format %v", info.Format)
		}
	})
	t.Run("uextend", func(t *testing.T) {
		_, info := rowOf(t, "uextend")
		if len(info.Ins) != 1 || info.Ins[0].Derive != ir.DeriveNarrower {
			t.Errorf("uextend input %+v, want Int.narrower", info.Ins)
		}
		if !info.Ins[0].Derive.Admits(ir.I64, ir.I8) || info.Ins[0].Derive.Admits(ir.I32, ir.I64) {
			t.Error("uextend's input constraint admits the wrong widths")
		}
	})
	t.Run("ireduce", func(t *testing.T) {
		_, info := rowOf(t, "ireduce")
		if info.Ins[0].Derive != ir.DeriveWider {
			t.Errorf("ireduce input %+v, want Int.wider", info.Ins)
		}
	})
	t.Run("load", func(t *testing.T) {
		op, info := rowOf(t, "load")
		if !op.CanLoad() || op.CanStore() || op.HasSideEffects() {
			t.Errorf("load flags %#x, want can_load only", info.Flags)
		}
		p := info.Ins[0]
		if p.Name != "p" || p.Kind != ir.OperandTypeVar || p.TypeVar == 0 || p.Derive != ir.DeriveNone {
			t.Fatalf("load address %+v, want a free type variable", p)
		}
		if tv := info.TypeVars[p.TypeVar]; tv.Name != "iAddr" || tv.Set != iAddr {
			t.Errorf("load address type variable %s %v, want iAddr %v", tv.Name, tv.Set, iAddr)
		}
		if info.Format != ir.FormatLoad {
			t.Errorf("load format %v", info.Format)
		}
	})
	t.Run("store", func(t *testing.T) {
		op, info := rowOf(t, "store")
		if !op.CanStore() || op.CanLoad() || !op.HasSideEffects() {
			t.Errorf("store flags %#x, want can_store only", info.Flags)
		}
		if len(info.Outs) != 0 {
			t.Errorf("store has results %+v", info.Outs)
		}
		if len(info.Ins) != 2 || info.Ins[0].Name != "x" || info.Ins[1].Name != "p" {
			t.Errorf("store operands %+v, want x, p", info.Ins)
		}
	})
	t.Run("traps", func(t *testing.T) {
		for _, name := range []string{"trap", "trapz", "trapnz", "udiv", "sdiv", "urem", "srem",
			"fcvt_to_uint", "fcvt_to_sint", "uadd_overflow_trap"} {
			if op, _ := rowOf(t, name); !op.CanTrap() || !op.HasSideEffects() {
				t.Errorf("%s cannot trap", name)
			}
		}
		for _, name := range []string{"iadd", "fcvt_to_sint_sat", "load", "store"} {
			if op, _ := rowOf(t, name); op.CanTrap() {
				t.Errorf("%s can trap; in Cranelift only memory flags make loads and stores trap", name)
			}
		}
		if op, _ := rowOf(t, "trap"); !op.IsTerminator() || op.IsBranch() {
			t.Error("trap must end its block without branching")
		}
		if op, _ := rowOf(t, "trapz"); op.IsTerminator() {
			t.Error("trapz must not end its block")
		}
	})
	t.Run("calls and returns", func(t *testing.T) {
		for _, tc := range []struct {
			name  string
			flags ir.OpFlags
		}{
			{"call", ir.FlagCall},
			{"call_indirect", ir.FlagCall},
			{"return", ir.FlagTerminator | ir.FlagReturn},
			{"return_call", ir.FlagTerminator | ir.FlagCall | ir.FlagReturn},
			{"return_call_indirect", ir.FlagTerminator | ir.FlagCall | ir.FlagReturn},
			{"try_call", ir.FlagTerminator | ir.FlagBranch | ir.FlagCall},
			{"jump", ir.FlagTerminator | ir.FlagBranch},
			{"brif", ir.FlagTerminator | ir.FlagBranch},
			{"br_table", ir.FlagTerminator | ir.FlagBranch},
			{"stack_switch", ir.FlagCall | ir.FlagCanLoad | ir.FlagCanStore | ir.FlagSideEffects},
		} {
			if _, info := rowOf(t, tc.name); info.Flags != tc.flags {
				t.Errorf("%s flags %#x, want %#x", tc.name, info.Flags, tc.flags)
			}
		}
		_, call := rowOf(t, "call")
		if len(call.Ins) != 1 || call.Ins[0].Kind != ir.OperandVarargs || len(call.Outs) != 1 || call.Outs[0].Kind != ir.OperandVarargs {
			t.Errorf("call operands %+v results %+v, want varargs both", call.Ins, call.Outs)
		}
	})
	t.Run("br_table", func(t *testing.T) {
		_, info := rowOf(t, "br_table")
		if len(info.Ins) != 1 || info.Ins[0].Kind != ir.OperandFixed || info.Ins[0].Type != ir.I32 {
			t.Errorf("br_table index %+v, want fixed i32", info.Ins)
		}
	})
	t.Run("select", func(t *testing.T) {
		_, info := rowOf(t, "select")
		if info.CtrlOperand != 1 || info.Ins[1].Name != "x" {
			t.Errorf("select controlled by operand %d, want 1 (x)", info.CtrlOperand)
		}
		c := info.Ins[0]
		if c.TypeVar == 0 || info.TypeVars[c.TypeVar].Set.Contains(ir.I32X4) || !info.TypeVars[c.TypeVar].Set.Contains(ir.I8) {
			t.Errorf("select condition %+v must be a free scalar integer", c)
		}
	})
	t.Run("iconst", func(t *testing.T) {
		_, info := rowOf(t, "iconst")
		set := info.TypeVars[0].Set
		if set.Contains(ir.I128) || !set.Contains(ir.I64) || !set.Contains(ir.I8) || set.Contains(ir.I32X4) {
			t.Errorf("iconst type set %v, want i8..i64 scalars", set)
		}
	})
	t.Run("fixed vector types", func(t *testing.T) {
		_, info := rowOf(t, "uload16x4")
		if info.Outs[0].Kind != ir.OperandFixed || info.Outs[0].Type != ir.I32X4 {
			t.Errorf("uload16x4 result %+v, want i32x4", info.Outs[0])
		}
		_, info = rowOf(t, "fvdemote")
		if info.Ins[0].Type != ir.F64X2 || info.Outs[0].Type != ir.F32X4 {
			t.Errorf("fvdemote %+v -> %+v, want f64x2 -> f32x4", info.Ins, info.Outs)
		}
	})
	t.Run("shuffle names", func(t *testing.T) {
		// Cranelift names shuffle's first input and its result both `a`.
		_, info := rowOf(t, "shuffle")
		if info.Ins[0].Name != "a" || info.Ins[1].Name != "b" || info.Outs[0].Name != "a" {
			t.Errorf("shuffle operands %+v -> %+v", info.Ins, info.Outs)
		}
	})
}

// TestTableInvariants checks every row for the properties the rest of
// cliff relies on.
func TestTableInvariants(t *testing.T) {
	ops := ir.Opcodes()
	if len(ops) != 163 {
		t.Errorf("%d opcodes, want 163", len(ops))
	}
	seen := map[string]bool{}
	for _, op := range ops {
		info := op.Info()
		name := info.Name
		if seen[name] {
			t.Errorf("%s listed twice", name)
		}
		seen[name] = true
		if got, ok := ir.LookupOpcode(name); !ok || got != op {
			t.Errorf("LookupOpcode(%q) = %v, %v", name, got, ok)
		}
		if op.String() != name {
			t.Errorf("%v.String() = %q", op, op.String())
		}
		if info.Doc == "" {
			t.Errorf("%s has no doc", name)
		}
		words := strings.Fields(info.Example)
		if _, rest, ok := strings.Cut(info.Example, "= "); ok {
			words = strings.Fields(rest)
		}
		if len(words) == 0 || strings.Split(words[0], ".")[0] != name {
			t.Errorf("%s: example %q does not use it", name, info.Example)
		}

		f := op.Format()
		fixed, varargs := 0, false
		for _, in := range info.Ins {
			if in.Kind == ir.OperandVarargs {
				varargs = true
			} else {
				fixed++
			}
		}
		if fixed != f.Values || varargs != f.Varargs {
			t.Errorf("%s: %d fixed operands (varargs %v), format %s has %d (%v)", name, fixed, varargs, f.Name, f.Values, f.Varargs)
		}

		if info.Polymorphic != (len(info.TypeVars) > 0) {
			t.Errorf("%s: Polymorphic=%v with %d type variables", name, info.Polymorphic, len(info.TypeVars))
		}
		for _, tv := range info.TypeVars {
			if tv.Set.IsEmpty() || len(tv.Set.Types()) == 0 {
				t.Errorf("%s: type variable %s has an empty set", name, tv.Name)
			}
		}
		if info.Polymorphic {
			var ctrl ir.Operand
			switch {
			case info.CtrlOperand >= 0:
				ctrl = info.Ins[info.CtrlOperand]
			case len(info.Outs) > 0:
				ctrl = info.Outs[0]
			default:
				t.Errorf("%s: polymorphic with no controlling operand or result", name)
				continue
			}
			if ctrl.Kind != ir.OperandTypeVar || ctrl.TypeVar != 0 || ctrl.Derive != ir.DeriveNone {
				t.Errorf("%s: controlling operand %+v is not TypeVars[0]", name, ctrl)
			}
		} else if info.CtrlOperand != -1 {
			t.Errorf("%s: monomorphic with CtrlOperand %d", name, info.CtrlOperand)
		}
		for _, o := range append(append([]ir.Operand{}, info.Ins...), info.Outs...) {
			if o.Kind != ir.OperandTypeVar {
				continue
			}
			if o.TypeVar >= len(info.TypeVars) {
				t.Errorf("%s: operand %s has type variable %d of %d", name, o.Name, o.TypeVar, len(info.TypeVars))
			} else if o.Derive != ir.DeriveNone && o.TypeVar != 0 {
				t.Errorf("%s: operand %s derives from a free type variable", name, o.Name)
			}
		}

		fl := info.Flags
		if (fl.Has(ir.FlagBranch) || fl.Has(ir.FlagReturn)) && !fl.Has(ir.FlagTerminator) {
			t.Errorf("%s: branches or returns without ending the block", name)
		}
	}
}

// TestDerivedOperandTypesExist resolves every derived operand for every
// controlling type: a type set wider than the derivations allow would let
// generators build instructions no type fits.
func TestDerivedOperandTypesExist(t *testing.T) {
	for _, op := range ir.Opcodes() {
		info := op.Info()
		if !info.Polymorphic {
			continue
		}
		for _, ctrl := range info.TypeVars[0].Set.Types() {
			for _, o := range append(append([]ir.Operand{}, info.Ins...), info.Outs...) {
				if o.Kind != ir.OperandTypeVar || o.TypeVar != 0 {
					continue
				}
				switch {
				case o.Derive == ir.DeriveNarrower || o.Derive == ir.DeriveWider:
					continue // may be empty (uextend.i8), as in Cranelift
				case o.Derive == ir.DeriveMergeLanes && ctrl.IsDynamic() && ctrl.Lanes() == 2,
					o.Derive == ir.DeriveDynamicToVector && !ctrl.IsDynamic():
					// Cranelift's sets admit these and its resolver panics on
					// them (see the panics: entries of cranelift_opcodes.txt).
					if o.Derive.Apply(ctrl) != ir.Invalid {
						t.Errorf("%s.%v: %s.%v should be Invalid", info.Name, ctrl, o.Name, o.Derive)
					}
					continue
				}
				if got := o.Derive.Apply(ctrl); !got.Valid() {
					t.Errorf("%s.%v: operand %s (%v) has no type", info.Name, ctrl, o.Name, o.Derive)
				}
			}
		}
	}
}

func TestOpcodeOutOfRange(t *testing.T) {
	for _, op := range []ir.Opcode{ir.OpInvalid, ir.Opcode(60000)} {
		if op.String() != "<bad opcode>" || op.Info().Name != "" || op.IsTerminator() {
			t.Errorf("%d: String %q, Info %+v", op, op.String(), op.Info())
		}
	}
	if _, ok := ir.LookupOpcode("iadd_imm"); ok {
		t.Error("iadd_imm was removed from Cranelift before 0.135")
	}
}

// TestRolesFollowCranelift checks the role lines of the table against
// what Cranelift says of each opcode (its format and flags, which
// TestTableMatchesCranelift checks in turn), so that a role is the list
// its tools kept before, and an opcode of a new Cranelift that should
// play a role does not go without it.
func TestRolesFollowCranelift(t *testing.T) {
	formatIn := func(op ir.Opcode, names ...string) bool {
		for _, n := range names {
			if op.Format().Name == n {
				return true
			}
		}
		return false
	}
	rules := []struct {
		role ir.Role
		why  string
		want func(op ir.Opcode) bool
	}{
		{ir.RoleConstant, "a constant is what the immediate formats of one value define", func(op ir.Opcode) bool {
			return formatIn(op, "UnaryImm", "UnaryIeee16", "UnaryIeee32", "UnaryIeee64", "UnaryConst")
		}},
		{ir.RoleComparison, "a comparison has a compare format", func(op ir.Opcode) bool {
			return formatIn(op, "IntCompare", "FloatCompare")
		}},
		{ir.RoleKeepAlive, "a keep-alive is a plain call or a non-atomic store", func(op ir.Opcode) bool {
			return formatIn(op, "Call", "CallIndirect", "Store")
		}},
		{ir.RoleStructure, "structure is control flow, calls with a signature and the address of a function or stack slot", func(op ir.Opcode) bool {
			f := op.Info().Flags
			plainBranch := f.Has(ir.FlagBranch) && !f.Has(ir.FlagCall)
			plainReturn := f.Has(ir.FlagReturn) && op.Format().Varargs
			return plainBranch || plainReturn || formatIn(op, "Call", "CallIndirect", "FuncAddr", "StackAddr")
		}},
	}
	for _, r := range rules {
		for _, op := range ir.Opcodes() {
			if got, want := op.Is(r.role), r.want(op); got != want {
				t.Errorf("%s: role %#x is %v, want %v: %s", op, r.role, got, want, r.why)
			}
		}
	}
	for _, op := range ir.Opcodes() {
		info := op.Info()
		if op.Is(ir.RoleConversion) && (info.Flags != 0 || len(info.Ins) == 0 || len(info.Ins) > 2 || len(info.Outs) == 0) {
			t.Errorf("%s: a conversion is pure, of one or two operands (iconcat), with results", op)
		}
		if op.Is(ir.RoleOwnImm) && len(op.Format().Imms) == 0 {
			t.Errorf("%s: own_imm without an immediate", op)
		}
		if info.FreeRule != "" && len(info.TypeVars) < 2 {
			t.Errorf("%s: free rule %s without a free type variable", op, info.FreeRule)
		}
	}
}
