package census

import (
	"slices"
	"strings"
	"testing"

	"cliff/lib/record"
)

func cfg(arch, opt, exec string) record.Config {
	return record.Config{Arch: arch, OptLevel: opt, Executor: exec}
}

func res(arch, opt, exec string, st record.Status, hashOrMsg string) record.RunResult {
	r := record.RunResult{Config: cfg(arch, opt, exec), Status: st}
	switch st {
	case record.StatusOK:
		r.Hash, r.Outputs = hashOrMsg, []string{"i8 " + hashOrMsg}
	case record.StatusTrap:
		r.Trap = hashOrMsg
	case record.StatusCrash:
		r.Signal = hashOrMsg
	default:
		r.Message = hashOrMsg
	}
	return r
}

func interp(hash string) record.RunResult {
	return res("interp", "none", record.ExecInterp, record.StatusOK, hash)
}

const (
	islePending = "function %main: Unsupported feature: should be implemented in ISLE: inst = `v2 = imul.i8x16 v0, v1`, type = `Some(types::I8X16)`"
	emitPanic   = "function %main: panic: internal error: entered unreachable code (at /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/cranelift-codegen-0.135.8/src/isa/x64/inst/emit.rs:1265:22)"
	qemuAssert  = "qemu-riscv64-static: ../../target/riscv/translate.c:230: decode_save_opc: Assertion `ctx->insn_start != NULL' failed."
)

func TestClassify(t *testing.T) {
	x := func(opt string, st record.Status, s string) record.RunResult {
		return res("x86_64", opt, record.ExecNative, st, s)
	}
	rv := func(opt string, st record.Status, s string) record.RunResult {
		return res("riscv64", opt, record.ExecQemu, st, s)
	}
	a := func(opt string, st record.Status, s string) record.RunResult {
		return res("aarch64", opt, record.ExecQemu, st, s)
	}
	ok := record.StatusOK
	tests := []struct {
		name      string
		arch      string
		results   []record.RunResult
		qemuKnown bool
		want      Class
		opts      []string
		detail    string // a part of the detail
		none      bool   // no finding
	}{
		{"fine", "x86_64", []record.RunResult{interp("1"), x("none", ok, "1"), x("speed", ok, "1")}, false, ClassFine, []string{"none", "speed"}, "", false},
		{"unlowered", "x86_64", []record.RunResult{interp("1"), x("none", record.StatusCompileError, islePending), x("speed", record.StatusCompileError, islePending)}, false,
			ClassUnlowered, []string{"none", "speed"}, "should be implemented in ISLE: imul.i8x16", false},
		{"panic: fcvt_to_uint.i8 of f64 on x86_64", "x86_64", []record.RunResult{interp("1"), x("none", record.StatusCompileCrash, emitPanic), x("speed", record.StatusCompileCrash, emitPanic)}, false,
			ClassPanic, []string{"none", "speed"}, "x64/inst/emit.rs:1265", false},
		{"the worst configuration wins", "x86_64", []record.RunResult{interp("1"), x("none", ok, "1"), x("speed", record.StatusCompileCrash, emitPanic)}, false,
			ClassPanic, []string{"speed"}, "emit.rs:1265", false},
		{"wrong against the interpreter", "x86_64", []record.RunResult{interp("1"), x("none", ok, "1"), x("speed", ok, "2")}, false,
			ClassWrong, []string{"speed"}, "i8", false},
		{"wrong: a trap where the interpreter answers", "x86_64", []record.RunResult{interp("1"), x("none", record.StatusTrap, "int_ovf")}, false,
			ClassWrong, []string{"none"}, "trap", false},
		{"wrong: a crash", "x86_64", []record.RunResult{interp("1"), x("none", record.StatusCrash, "SIGSEGV")}, false,
			ClassWrong, []string{"none"}, "", false},
		{"wrong against the other targets when the interpreter cannot run it", "riscv64",
			[]record.RunResult{res("interp", "none", record.ExecInterp, record.StatusUnsupported, "not implemented"),
				x("none", ok, "1"), a("none", ok, "1"), rv("none", ok, "2")}, false, ClassWrong, []string{"none"}, "", false},
		{"the majority is fine", "aarch64",
			[]record.RunResult{res("interp", "none", record.ExecInterp, record.StatusUnsupported, "not implemented"),
				x("none", ok, "1"), a("none", ok, "1"), rv("none", ok, "2")}, false, ClassFine, []string{"none"}, "", false},
		{"qemu: QEMU aborts on an assertion", "riscv64", []record.RunResult{interp("1"), rv("none", record.StatusHarnessError, qemuAssert)}, false,
			ClassQemu, []string{"none"}, "", false},
		{"qemu: a crash under QEMU of a combination known.mask puts on QEMU", "riscv64", []record.RunResult{interp("1"), rv("none", record.StatusCrash, "SIGSEGV")}, true,
			ClassQemu, []string{"none"}, "", false},
		{"a wrong value of a combination known.mask puts on QEMU may be Cranelift's", "riscv64", []record.RunResult{interp("1"), rv("none", ok, "2")}, true,
			ClassWrong, []string{"none"}, "", false},
		{"wrong under QEMU that nothing blames on QEMU", "riscv64", []record.RunResult{interp("1"), rv("none", ok, "2")}, false,
			ClassWrong, []string{"none"}, "", false},
		{"interp: the interpreter alone differs from the targets", "x86_64", []record.RunResult{interp("9"), x("none", ok, "1"), a("none", ok, "1"), rv("speed", ok, "1")}, false,
			ClassInterp, []string{"none"}, "", false},
		{"one target alone against the interpreter is wrong", "riscv64", []record.RunResult{interp("9"), interp("9"), interp("9"), rv("none", ok, "1"), rv("speed", ok, "1"), rv("speed_and_size", ok, "1")}, false,
			ClassWrong, []string{"none", "speed", "speed_and_size"}, "", false},
		{"opt levels disagree, nothing else answered", "riscv64",
			[]record.RunResult{res("interp", "none", record.ExecInterp, record.StatusUnsupported, "not implemented"), rv("none", ok, "1"), rv("speed", ok, "2"), rv("speed_and_size", ok, "1")}, false,
			ClassWrong, []string{"speed"}, "", false},
		{"harness: cliff's own failure", "x86_64", []record.RunResult{interp("1"), x("none", record.StatusHarnessError, "gcc: not found")}, false,
			ClassHarness, []string{"none"}, "", false},
		{"invalid: Cranelift's verifier rejects it", "x86_64", []record.RunResult{interp("1"), x("none", record.StatusCompileError, "function %main: Verifier errors: inst0: bad")}, false,
			ClassInvalid, []string{"none"}, "", false},
		{"error: another compile error", "x86_64", []record.RunResult{interp("1"), x("none", record.StatusCompileError, "function %main: Too many return values")}, false,
			ClassError, []string{"none"}, "", false},
		{"nothing said", "x86_64", []record.RunResult{interp("1"), x("none", record.StatusUnsupported, "external name")}, false, "", nil, "", true},
		{"no results of the target", "s390x", []record.RunResult{interp("1"), x("none", ok, "1")}, false, "", nil, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, ok := Classify(TargetOf(record.Config{Arch: tt.arch}), tt.results, tt.qemuKnown)
			if tt.none {
				if ok {
					t.Fatalf("got %+v, want no finding", f)
				}
				return
			}
			if !ok {
				t.Fatal("no finding")
			}
			if f.Class != tt.want {
				t.Errorf("class %s, want %s (%+v)", f.Class, tt.want, f)
			}
			if got := OptLevels(f.Configs); !slices.Equal(got, tt.opts) {
				t.Errorf("opt levels %v, want %v", got, tt.opts)
			}
			if !strings.Contains(f.Detail, tt.detail) {
				t.Errorf("detail %q, want it to contain %q", f.Detail, tt.detail)
			}
		})
	}
}

// TestTargets: a configuration's target is its architecture and the name
// of its flag set, and the report's table lists the targets with new rows
// first, the rest in table order.
func TestTargets(t *testing.T) {
	for _, tt := range []struct {
		c    record.Config
		want Target
	}{
		{record.Config{Arch: "riscv64", Flags: []string{"has_v", "has_zba", "has_zbb", "has_zbc", "has_zbs"}}, Target{"riscv64", "default"}},
		{record.Config{Arch: "riscv64", Flags: []string{"has_v"}}, Target{"riscv64", "v"}},
		{record.Config{Arch: "riscv64"}, Target{"riscv64", "base"}},
		{record.Config{Arch: "s390x"}, Target{"s390x", "default"}},
		{record.Config{Arch: "x86_64"}, Target{"x86_64", "sse2"}},
		{record.Config{Arch: "aarch64", Flags: []string{"has_lse", "has_fp16"}}, Target{"aarch64", "has_lse,has_fp16"}},
	} {
		if got := TargetOf(tt.c); got != tt.want {
			t.Errorf("TargetOf(%v) = %v, want %v", tt.c, got, tt.want)
		}
	}
	tally := func(news int) *Tally { return &Tally{ByClass: map[Class]int{}, New: map[Class]int{ClassPanic: news}} }
	tallies := map[Target]*Tally{
		{"riscv64", "zcb"}: tally(1), {"riscv64", "default"}: tally(0), {"x86_64", "default"}: tally(0), {"x86_64", "avx512"}: tally(2),
	}
	want := []Target{{"x86_64", "avx512"}, {"riscv64", "zcb"}, {"x86_64", "default"}, {"riscv64", "default"}}
	if got := tableOrder(tallies); !slices.Equal(got, want) {
		t.Errorf("tableOrder = %v, want %v", got, want)
	}
}
