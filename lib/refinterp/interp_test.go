package refinterp

import (
	"errors"
	"testing"

	"cliff/lib/ir"
	"cliff/lib/parser"
	"cliff/lib/verify"
)

func mustParse(t *testing.T, src string) *ir.File {
	t.Helper()
	f, err := parser.ParseFile("test.clif", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if errs := verify.Module(&f.Module); errs != nil {
		t.Fatal(errs)
	}
	return f
}

func i64(v int64) ir.DataValue {
	return ToDataValue(ir.I64, u128{Lo: uint64(v), Hi: uint64(v >> 63)})
}

// TestEndings: traps carry their codes, and each limit or gap ends the
// run with its own error instead of a hang, a panic or a wrong answer.
func TestEndings(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		args      []ir.DataValue
		limits    Limits
		trap      ir.TrapCode
		err       error
	}{
		{"trap", `function %f(i64) -> i64 {
block0(v0: i64):
    trap user7
}`, []ir.DataValue{i64(0)}, DefaultLimits, ir.TrapUser + 7, nil},
		{"trapz", `function %f(i64) -> i64 {
block0(v0: i64):
    trapz v0, user1
    return v0
}`, []ir.DataValue{i64(0)}, DefaultLimits, ir.TrapUser + 1, nil},
		{"trapnz", `function %f(i64) -> i64 {
block0(v0: i64):
    trapnz v0, int_ovf
    return v0
}`, []ir.DataValue{i64(-1)}, DefaultLimits, ir.TrapIntegerOverflow, nil},
		{"udiv by zero", `function %f(i64) -> i64 {
block0(v0: i64):
    v1 = iconst.i64 0
    v2 = udiv v0, v1
    return v2
}`, []ir.DataValue{i64(1)}, DefaultLimits, ir.TrapIntegerDivisionByZero, nil},
		{"sdiv MIN by -1", `function %f(i64) -> i64 {
block0(v0: i64):
    v1 = iconst.i64 -1
    v2 = sdiv v0, v1
    return v2
}`, []ir.DataValue{i64(-1 << 63)}, DefaultLimits, ir.TrapIntegerOverflow, nil},
		{"uadd_overflow_trap", `function %f(i64) -> i64 {
block0(v0: i64):
    v1 = uadd_overflow_trap v0, v0, user3
    return v1
}`, []ir.DataValue{i64(-1)}, DefaultLimits, ir.TrapUser + 3, nil},
		{"fcvt of NaN", `function %f(i64) -> i64 {
block0(v0: i64):
    v1 = bitcast.f64 v0
    v2 = fcvt_to_sint.i64 v1
    return v2
}`, []ir.DataValue{i64(0x7ff8_0000_0000_0000)}, DefaultLimits, ir.TrapBadConversionToInteger, nil},
		{"fcvt out of range", `function %f(i64) -> i64 {
block0(v0: i64):
    v1 = bitcast.f64 v0
    v2 = fcvt_to_uint.i64 v1
    return v2
}`, []ir.DataValue{i64(0x43f0_0000_0000_0000)}, DefaultLimits, ir.TrapIntegerOverflow, nil}, // 2^64
		{"trap in a callee", `function %g(i64) -> i64 {
block0(v0: i64):
    trap user2
}
function %f(i64) -> i64 {
    fn0 = %g(i64) -> i64
block0(v0: i64):
    v1 = call fn0(v0)
    return v1
}`, []ir.DataValue{i64(0)}, DefaultLimits, ir.TrapUser + 2, nil},
		{"endless loop", `function %f(i64) -> i64 {
block0(v0: i64):
    jump block1
block1:
    jump block1
}`, []ir.DataValue{i64(0)}, Limits{Fuel: 1000, MaxDepth: 10, MaxStackBytes: 1024}, 0, ErrFuel},
		{"endless recursion", `function %f(i64) -> i64 {
    fn0 = %f(i64) -> i64
block0(v0: i64):
    v1 = call fn0(v0)
    return v1
}`, []ir.DataValue{i64(0)}, Limits{Fuel: 1 << 30, MaxDepth: 100, MaxStackBytes: 1 << 20}, 0, ErrDepth},
		{"slots over the cap", `function %f(i64) -> i64 {
    ss0 = explicit_slot 4096
block0(v0: i64):
    return v0
}`, []ir.DataValue{i64(0)}, Limits{Fuel: 1000, MaxDepth: 10, MaxStackBytes: 1024}, 0, ErrMemory},
		{"access past a slot", `function %f(i64) -> i64 {
    ss0 = explicit_slot 8
block0(v0: i64):
    v1 = stack_addr.i64 ss0+4
    v2 = load.i64 v1
    return v2
}`, []ir.DataValue{i64(0)}, DefaultLimits, 0, ErrUndefined},
		{"access at a made-up address", `function %f(i64) -> i64 {
block0(v0: i64):
    v1 = load.i64 v0
    return v1
}`, []ir.DataValue{i64(0)}, DefaultLimits, 0, ErrUndefined},
		{"call_indirect to no function", `function %f(i64) -> i64 {
    sig0 = (i64) -> i64
block0(v0: i64):
    v1 = call_indirect sig0, v0(v0)
    return v1
}`, []ir.DataValue{i64(12345)}, DefaultLimits, 0, ErrUndefined},
		{"external callee", `function %f(i64) -> i64 {
    fn0 = %elsewhere(i64) -> i64
block0(v0: i64):
    v1 = call fn0(v0)
    return v1
}`, []ir.DataValue{i64(0)}, DefaultLimits, 0, ErrUnsupported},
		{"256-bit vector", `function %f(i64) -> i64 {
block0(v0: i64):
    v1 = splat.i64x4 v0
    return v0
}`, []ir.DataValue{i64(0)}, DefaultLimits, 0, ErrUnsupported},
		// prepare checks each type once, remembering up to 8 that passed.
		{"256-bit vector after ten types", `function %f(i64) -> i64 {
block0(v0: i64):
    v1 = ireduce.i8 v0
    v2 = ireduce.i16 v0
    v3 = ireduce.i32 v0
    v4 = uextend.i128 v0
    v5 = bitcast.f64 v0
    v6 = splat.i64x2 v0
    v7 = splat.i8x16 v1
    v8 = splat.i16x8 v2
    v9 = splat.i32x4 v3
    v10 = ireduce.i8 v0
    v11 = splat.i64x4 v0
    return v0
}`, []ir.DataValue{i64(0)}, DefaultLimits, 0, ErrUnsupported},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := mustParse(t, tc.src)
			o, err := New(&f.Module, tc.limits).Call("%f", tc.args)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("got %v, %v; want error %v", o, err, tc.err)
				}
				return
			}
			if err != nil || o.Trap != tc.trap {
				t.Fatalf("got %v, %v; want trap %s", o, err, tc.trap)
			}
		})
	}
}

// TestCallChecksArguments: Call refuses arguments that do not fit the
// signature, and names that are no function of the module.
func TestCallChecksArguments(t *testing.T) {
	f := mustParse(t, "function %f(i64) -> i64 {\nblock0(v0: i64):\n    return v0\n}\n")
	in := New(&f.Module, DefaultLimits)
	for _, tc := range []struct {
		name string
		args []ir.DataValue
	}{
		{"%g", []ir.DataValue{i64(1)}},
		{"%f", nil},
		{"%f", []ir.DataValue{ToDataValue(ir.I32, u64(1))}},
	} {
		if o, err := in.Call(tc.name, tc.args); err == nil {
			t.Errorf("Call(%s, %v) = %v, want an error", tc.name, tc.args, o)
		}
	}
	if o, err := in.Call("%f", []ir.DataValue{i64(-5)}); err != nil || o.String() != "i64 0xfffffffffffffffb" {
		t.Errorf("Call(%%f, -5) = %v, %v", o, err)
	}
}

// TestCheckFileFails: a run line whose expectation the interpreter does
// not meet is a failure, for == and for != (so the conformance counts
// can go down).
func TestCheckFileFails(t *testing.T) {
	f := mustParse(t, `function %f(i32) -> i32 {
block0(v0: i32):
    v1 = iconst.i32 1
    v2 = iadd v0, v1
    return v2
}
; run: %f(1) == 2
; run: %f(1) == 3
; run: %f(1) != 2
; run: %f(1) != 3
`)
	want := []LineStatus{LinePass, LineFail, LineFail, LinePass}
	got := CheckFile(f, DefaultLimits)
	if len(got) != len(want) {
		t.Fatalf("%d results, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].Status != want[i] {
			t.Errorf("line %d (%s): %s, want %s", got[i].Line, got[i].Text, got[i].Status, want[i])
		}
	}
	if got[1].Got != "i32 0x00000002" {
		t.Errorf("failure shows %q", got[1].Got)
	}
}

// TestStackCapBelowFunctions: however large the limit asked for, stack
// memory stays below the function addresses, so that no slot address is
// ever taken for a function by call_indirect.
func TestStackCapBelowFunctions(t *testing.T) {
	f := mustParse(t, "function %f(i64) -> i64 {\nblock0(v0: i64):\n    return v0\n}\n")
	in := New(&f.Module, Limits{Fuel: 10, MaxDepth: 10, MaxStackBytes: 1 << 40})
	if got := uint64(memBase + in.limits.MaxStackBytes); got > funcBase {
		t.Errorf("stack memory may reach %#x, past the function addresses at %#x", got, funcBase)
	}
}
