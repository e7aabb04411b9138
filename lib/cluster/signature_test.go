package cluster

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"cliff/lib/record"
)

// Real messages from cliff-run's results (Cranelift 0.135.8), with the
// noise that differs between cases and machines.
const (
	stvPanic       = "internal error: entered unreachable code: no rule matched for term bitcast_gpr_to_xmm at src/isa/x64/inst.isle line 4232; should it be partial? (at /root/.cache/cliff/cargo-target/release/build/cranelift-codegen-b2b2e536ee39b9c2/out/isle_x64.rs:14138:5)"
	stvPanicCalled = "%main needs %f2, which failed: internal error: entered unreachable code: no rule matched for term bitcast_gpr_to_xmm at src/isa/x64/inst.isle line 4232; should it be partial? (at /home/ci/target/release/build/cranelift-codegen-0123456789abcdef/out/isle_x64.rs:14141:9)"
	sseAndPanic    = "internal error: entered unreachable code: no rule matched for term sse_and at src/isa/x64/lower.isle line 354; should it be partial? (at /root/.cache/cliff/cargo-target/release/build/cranelift-codegen-b2b2e536ee39b9c2/out/isle_x64.rs:9120:5)"
	sseOrPanic     = "internal error: entered unreachable code: no rule matched for term sse_or at src/isa/x64/lower.isle line 481; should it be partial? (at /root/.cache/cliff/cargo-target/release/build/cranelift-codegen-b2b2e536ee39b9c2/out/isle_x64.rs:9188:5)"
	unwrapRiscv    = "called `Option::unwrap()` on a `None` value (at cranelift-codegen-0.135.8/src/isa/riscv64/lower/isle.rs:64:5)"
	unwrapRegistry = "%f1 needs %f3, which failed: called `Option::unwrap()` on a `None` value (at /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/cranelift-codegen-0.135.8/src/isa/riscv64/lower/isle.rs:64:5)"
	xmm32Panic     = "assertion `left == right` failed: put_in_xmm_mem_32: expected a 32-bit value, got value of type f16\n  left: 16\n right: 32 (at cranelift-codegen-0.135.8/src/isa/x64/lower/isle.rs:1272:5)"
	xmm64Panic     = "assertion `left == right` failed: put_in_xmm_mem_64: expected a 64-bit value, got value of type f128\n  left: 128\n right: 64 (at cranelift-codegen-0.135.8/src/isa/x64/lower/isle.rs:1292:5)"
	inegPanic      = "assertion `left == right` failed\n  left: Float\n right: Int (at cranelift-codegen-0.135.8/src/isa/aarch64/inst/emit.rs:98:5)"
	umaxError      = "function %f0: Unsupported feature: should be implemented in ISLE: inst = `v9 = umax.i128 v4, v2`, type = `Some(types::I128)`"
	umaxError2     = "%main needs %f2, which failed: function %f2: Unsupported feature: should be implemented in ISLE: inst = `v31 = umax.i128 v17, v30`, type = `Some(types::I128)`"
	uminError      = "function %f0: Unsupported feature: should be implemented in ISLE: inst = `v9 = umin.i128 v4, v2`, type = `Some(types::I128)`"
)

var (
	settings = []string{"enable_llvm_abi_extensions=true", "enable_multi_ret_implicit_sret=true", "preserve_frame_pointers=true"}
	arches   = map[string]struct {
		flags []string
		exec  string
	}{
		"x86_64":  {[]string{"has_sse3", "has_ssse3", "has_sse41", "has_sse42", "has_popcnt", "has_avx", "has_avx2"}, record.ExecNative},
		"aarch64": {[]string{"has_lse"}, record.ExecQemu},
		"riscv64": {[]string{"has_v", "has_zba", "has_zbb", "has_zbs"}, record.ExecQemu},
		"s390x":   {nil, record.ExecQemu},
	}
	levels = []string{"none", "speed", "speed_and_size"}
)

func cfg(arch, opt string) record.Config {
	if arch == "interp" {
		return record.Config{Arch: "interp", OptLevel: "none", Settings: settings, Executor: record.ExecInterp}
	}
	if arch == "ref" {
		return record.Config{Arch: "ref", OptLevel: "none", Settings: settings, Executor: record.ExecRef}
	}
	a := arches[arch]
	return record.Config{Arch: arch, OptLevel: opt, Flags: a.flags, Settings: settings, Executor: a.exec}
}

// every is every configuration of a compat campaign, the interpreter
// first.
func every() []record.Config {
	out := []record.Config{cfg("interp", "none")}
	for _, a := range []string{"x86_64", "aarch64", "riscv64", "s390x"} {
		for _, o := range levels {
			out = append(out, cfg(a, o))
		}
	}
	return out
}

// failure is a verdict in which the configurations named "arch/opt" failed
// with status and message, and the others returned the same value.
func failure(id string, status record.Status, message string, failing ...string) *record.Verdict {
	c := &record.Case{ID: id, CLIF: "function %main() {\nblock0:\n    return\n}\n"}
	c.Stamp()
	bad := record.Side{Status: status}
	good := record.Side{Status: record.StatusOK, Hash: "0000000000000001"}
	for _, conf := range every() {
		name := conf.Arch + "/" + conf.OptLevel
		if slices.Contains(failing, name) {
			bad.Configs = append(bad.Configs, conf)
			c.Results = append(c.Results, record.RunResult{Config: conf, Status: status, Message: message})
		} else {
			good.Configs = append(good.Configs, conf)
			c.Results = append(c.Results, record.RunResult{Config: conf, Status: record.StatusOK, Hash: "0000000000000001"})
		}
	}
	v := &record.Verdict{CaseID: id, Verdict: record.Outcome(status), Sides: []record.Side{bad, good}, Case: c}
	v.Stamp()
	return v
}

// divergence is a verdict on input 0 with the given sides: "output
// arch/opt,arch/opt,...".
func divergence(id string, sides ...string) *record.Verdict {
	v := &record.Verdict{CaseID: id, Verdict: record.OutcomeDivergent, Input: record.InputIndex(0)}
	for _, s := range sides {
		output, configs, _ := strings.Cut(s, " @")
		side := record.Side{Status: record.StatusOK, Output: output}
		if strings.HasPrefix(output, "trap ") {
			side.Status = record.StatusTrap
		}
		for _, c := range strings.Split(configs, ",") {
			arch, opt, _ := strings.Cut(c, "/")
			side.Configs = append(side.Configs, cfg(arch, opt))
		}
		v.Sides = append(v.Sides, side)
	}
	v.Stamp()
	return v
}

// referenceDivergence is divergence with the verdict reference_divergent.
func referenceDivergence(id string, sides ...string) *record.Verdict {
	v := divergence(id, sides...)
	v.Verdict = record.OutcomeReferenceDivergent
	return v
}

func TestSignatureOf(t *testing.T) {
	all := func(arch string) []string { return []string{arch + "/none", arch + "/speed", arch + "/speed_and_size"} }
	for _, tc := range []struct {
		name string
		v    *record.Verdict
		want string
	}{
		{"ISLE panic at every opt level", failure("a", record.StatusCompileCrash, stvPanic, all("x86_64")...),
			"compile_crash x86_64/*: panic: internal error: entered unreachable code: no rule matched for term bitcast_gpr_to_xmm @ src/isa/x64/inst.isle:4232"},
		// The optimiser removed the failing code at speed: still the
		// same bug, still x86_64/*.
		{"ISLE panic without optimisation only, in a callee", failure("b", record.StatusCompileCrash, stvPanicCalled, "x86_64/none"),
			"compile_crash x86_64/*: panic: internal error: entered unreachable code: no rule matched for term bitcast_gpr_to_xmm @ src/isa/x64/inst.isle:4232"},
		{"panic site path and line", failure("c", record.StatusCompileCrash, unwrapRiscv, "riscv64/none"),
			"compile_crash riscv64/*: panic: called `Option::unwrap()` on a `None` value @ cranelift-codegen/src/isa/riscv64/lower/isle.rs:64"},
		{"assertion with numbers", failure("d", record.StatusCompileCrash, xmm32Panic, all("x86_64")...),
			"compile_crash x86_64/*: panic: assertion `left == right` failed: put_in_xmm_mem_32: expected a N-bit value, got value of type f16 left: N right: N @ cranelift-codegen/src/isa/x64/lower/isle.rs:1272"},
		{"mid-end made it: opt levels only", failure("e", record.StatusCompileError, umaxError, "x86_64/speed", "x86_64/speed_and_size"),
			"compile_error x86_64/opt: error: Unsupported feature: should be implemented in ISLE: umax.i128"},
		{"two architectures", failure("f", record.StatusCompileError, umaxError, "x86_64/speed", "x86_64/speed_and_size", "aarch64/speed", "aarch64/speed_and_size"),
			"compile_error aarch64/opt,x86_64/opt: error: Unsupported feature: should be implemented in ISLE: umax.i128"},
		{"the reference disagrees with all of Cranelift", referenceDivergence("r1", "i32 0x1 @ref/none",
			"i32 0x2 @interp/none,x86_64/none,x86_64/speed,x86_64/speed_and_size"),
			"reference_divergent cranelift/*: i32 value"},
		// Which configurations ran is the campaign's: the same bug seen
		// by x86_64 alone gets the same signature.
		{"the reference against x86_64 alone, a trap", referenceDivergence("r2", "i32 0x1 @ref/none",
			"trap int_divz @x86_64/none,x86_64/speed"),
			"reference_divergent cranelift/*: unexpected trap int_divz"},
		// The reference is right whatever the vote: x86_64's three opt
		// levels and the interpreter are wrong beside it and aarch64.
		{"a divergence with the reference", divergence("r3", "i32 0x1 @ref/none,aarch64/none,aarch64/speed",
			"i32 0x2 @interp/none,x86_64/none,x86_64/speed,x86_64/speed_and_size"),
			"divergent interp/*,x86_64/*: i32 value"},
		{"every architecture", divergence("g", "i32 0x1 @interp/none,x86_64/none,aarch64/none,riscv64/none,s390x/none",
			"i32 0x2 @x86_64/speed,x86_64/speed_and_size,aarch64/speed,aarch64/speed_and_size,riscv64/speed,riscv64/speed_and_size,s390x/speed,s390x/speed_and_size"),
			"divergent */opt: i32 value"},
		{"one lane of a vector", divergence("h", "i8x16 0x0f0e0d0c0b0a09080706050403020100 @interp/none,x86_64/none,x86_64/speed",
			"i8x16 0x0f0e0d0c0b0a090807060504030201ff @riscv64/none,riscv64/speed"),
			"divergent riscv64/*: i8x16 one lane value"},
		{"every lane", divergence("i", "i8x16 0x65656565656565656565656565656565 @interp/none,x86_64/none",
			"i8x16 0x00000000000000000000000000000000 @riscv64/none,riscv64/speed,riscv64/speed_and_size"),
			"divergent riscv64/*: i8x16 every lane value"},
		{"sign of a float", divergence("j", "f64 0x1.0p0, i32 0x7 @interp/none,x86_64/none,aarch64/none",
			"f64 -0x1.0p0, i32 0x7 @s390x/none"),
			"divergent s390x/*: f64 sign"},
		{"NaN against a number", divergence("k", "f32 +NaN @interp/none,x86_64/none,x86_64/speed,aarch64/none",
			"f32 0x1.0p0 @aarch64/speed"),
			"divergent aarch64/opt: f32 nan"},
		{"unexpected trap", divergence("l", "i32 0x1 @interp/none,x86_64/none", "trap int_divz @aarch64/none,aarch64/speed"),
			"divergent aarch64/*: unexpected trap int_divz"},
		{"crash with a signal", func() *record.Verdict {
			v := failure("n", record.StatusCrash, "killed by SIGABRT: qemu-riscv64-static: ../../target/riscv/translate.c:213: decode_save_opc: Assertion `ctx->insn_start != NULL' failed.", "riscv64/none")
			v.Case.Results[7].Signal = "SIGABRT"
			return v
		}(), "crash riscv64/*: crash SIGABRT: killed by SIGABRT: qemu-riscv64-static: ../../target/riscv/translate.c:213: decode_save_opc: Assertion `ctx->insn_start != NULL' failed."},
		{"timeout", failure("o", record.StatusTimeout, "input 3: no answer after 10s of CPU time", "s390x/speed"),
			"timeout s390x/opt: timeout: input N: no answer after Ns of CPU time"},
		// Two bugs in one case: the message most runs share decides, so
		// that the case joins one cluster.
		{"two panics in one case", func() *record.Verdict {
			v := failure("q", record.StatusCompileCrash, stvPanic, "x86_64/none", "x86_64/speed", "aarch64/none")
			for i, r := range v.Case.Results {
				if r.Config.Arch == "aarch64" && r.Status == record.StatusCompileCrash {
					v.Case.Results[i].Message = inegPanic
				}
			}
			return v
		}(), "compile_crash x86_64/*: panic: internal error: entered unreachable code: no rule matched for term bitcast_gpr_to_xmm @ src/isa/x64/inst.isle:4232"},
		{"verdict without its case", func() *record.Verdict {
			v := failure("p", record.StatusCompileCrash, stvPanic, "x86_64/none")
			v.Case = nil
			return v
		}(), "compile_crash x86_64/*: panic"},
		{"interpreter alone against every target", divergence("m", "i8x2 0x0060 @interp/none",
			"i8x2 0xe260 @riscv64/none,riscv64/speed,riscv64/speed_and_size,x86_64/none"),
			"divergent interp/*: i8x2 one lane value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.v.Validate(); err != nil {
				t.Fatalf("test verdict does not validate: %v", err)
			}
			checkBlamed(t, SignatureOf(tc.v))
			if got := SignatureOf(tc.v).String(); got != tc.want {
				t.Errorf("signature\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// Same root cause, different noise: one signature. Different ISLE rules
// or panic sites: different signatures.
func TestSignatureIdentity(t *testing.T) {
	all := []string{"x86_64/none", "x86_64/speed", "x86_64/speed_and_size"}
	for _, tc := range []struct {
		name string
		a, b *record.Verdict
		same bool
	}{
		{"same ISLE panic, other build directory, caller and opt levels",
			failure("a", record.StatusCompileCrash, stvPanic, all...),
			failure("b", record.StatusCompileCrash, stvPanicCalled, "x86_64/none"), true},
		{"same unwrap, registry path and caller prefix",
			failure("a", record.StatusCompileCrash, unwrapRiscv, "riscv64/none"),
			failure("b", record.StatusCompileCrash, unwrapRegistry, "riscv64/none", "riscv64/speed"), true},
		{"same missing lowering, other value numbers",
			failure("a", record.StatusCompileError, umaxError, "x86_64/speed"),
			failure("b", record.StatusCompileError, umaxError2, "x86_64/speed", "x86_64/speed_and_size"), true},
		{"same lane bug, other values",
			divergence("a", "i8x16 0x65656565656565656565656565656565 @interp/none,x86_64/none", "i8x16 0x00000000000000000000000000000000 @riscv64/none"),
			divergence("b", "i8x16 0x03030303030303030303030303030303 @interp/none,x86_64/none,x86_64/speed", "i8x16 0x00000000000000000000000000000000 @riscv64/none,riscv64/speed"), true},
		{"ISLE panics at different rule lines",
			failure("a", record.StatusCompileCrash, sseAndPanic, all...),
			failure("b", record.StatusCompileCrash, sseOrPanic, all...), false},
		{"ISLE panics in different terms",
			failure("a", record.StatusCompileCrash, stvPanic, all...),
			failure("b", record.StatusCompileCrash, sseAndPanic, all...), false},
		{"assertions at different sites",
			failure("a", record.StatusCompileCrash, xmm32Panic, all...),
			failure("b", record.StatusCompileCrash, xmm64Panic, all...), false},
		{"same panic, other architecture",
			failure("a", record.StatusCompileCrash, inegPanic, "aarch64/none"),
			failure("b", record.StatusCompileCrash, inegPanic, "riscv64/none"), false},
		{"other opcode",
			failure("a", record.StatusCompileError, umaxError, "x86_64/speed"),
			failure("b", record.StatusCompileError, uminError, "x86_64/speed"), false},
		{"mid-end only against every level",
			failure("a", record.StatusCompileError, umaxError, "x86_64/speed"),
			failure("b", record.StatusCompileError, umaxError, all...), false},
		{"other output type",
			divergence("a", "i8x2 0x0060 @interp/none", "i8x2 0xe260 @riscv64/none,riscv64/speed"),
			divergence("b", "i16x2 0x00006540 @interp/none", "i16x2 0x4e7b6540 @riscv64/none,riscv64/speed"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := SignatureOf(tc.a), SignatureOf(tc.b)
			same := a.String() == b.String() && slices.Equal(a.Blamed, b.Blamed)
			if same != tc.same || (a.Hash() == b.Hash()) != tc.same {
				t.Errorf("same = %v, want %v:\n%s\n%s", same, tc.same, a, b)
			}
		})
	}
}

func TestAbstractConfigsFlags(t *testing.T) {
	avx := record.Config{Arch: "x86_64", OptLevel: "none", Flags: []string{"has_avx", "has_sse41"}, Executor: record.ExecNative}
	sse := record.Config{Arch: "x86_64", OptLevel: "none", Flags: []string{"has_sse41"}, Executor: record.ExecNative}
	emu := avx
	emu.Executor = record.ExecQemu
	for _, tc := range []struct {
		name          string
		failing, rest []record.Config
		want          string
	}{
		{"flags that fail", []record.Config{avx}, []record.Config{sse}, "x86_64[has_avx]/*"},
		{"flags that pass", []record.Config{sse}, []record.Config{avx}, "x86_64[!has_avx]/*"},
		{"both flag sets fail", []record.Config{sse, avx}, nil, "x86_64/*"},
		{"only under QEMU", []record.Config{emu}, []record.Config{avx}, "x86_64/*@qemu"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, blamed := abstractConfigs(tc.failing, append(tc.failing, tc.rest...))
			if got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
			checkBlamed(t, Signature{Failing: got, Blamed: blamed})
		})
	}
}

func TestNormalizeMessage(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"function %f0: inst12 (v12 = iadd.i32 v3, v4): arg 0 (v3) has type i64, expected i32",
			"instN (vN = iadd.i32 vN, vN): arg N (vN) has type i64, expected i32"},
		{"qemu-riscv64-static: ../../target/riscv/translate.c:213: decode_save_opc: Assertion `ctx->insn_start != NULL' failed.",
			"qemu-riscv64-static: ../../target/riscv/translate.c:213: decode_save_opc: Assertion `ctx->insn_start != NULL' failed."},
		{"signal 11 at pc 0x7f00aa12 in block7", "signal N at pc 0xN in blockN"},
		{"SIGSEGV at cliff_m73_main+0x6ba (pc 0x106a002), address 0x0", "SIGSEGV at cliff_mN_main+0xN (pc 0xN), address 0xN"},
		{"bad TypeSet { lanes: BitSet(1..8), ints: BitSet(8..128) } for v3", "bad TypeSet{…} for vN"},
		{strings.Repeat("x", 300), strings.Repeat("x", maxDiagnostic) + "…"},
	} {
		if got := NormalizeMessage(tc.in); got != tc.want {
			t.Errorf("NormalizeMessage(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

func TestNormalizePath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/cranelift-codegen-0.135.8/src/isa/x64/lower/isle.rs:1272:5", "cranelift-codegen/src/isa/x64/lower/isle.rs:1272:5"},
		{"cranelift-codegen-0.135.8/src/isa/riscv64/lower/isle.rs", "cranelift-codegen/src/isa/riscv64/lower/isle.rs"},
		{"/root/.cache/cliff/cargo-target/release/build/cranelift-codegen-b2b2e536ee39b9c2/out/isle_x64.rs", "cranelift-codegen/out/isle_x64.rs"},
		{"(/home/u/vendor/regalloc2-0.13.2-rc1/src/ion/mod.rs", "(regalloc2/src/ion/mod.rs"},
		{"../../target/riscv/translate.c:213:", "../../target/riscv/translate.c:213:"},
		{"src/isa/x64/inst.isle", "src/isa/x64/inst.isle"},
	} {
		if got := normalizePath(tc.in); got != tc.want {
			t.Errorf("normalizePath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestSignatureAcrossFlagSets: a target run with several flag sets and
// settings (the campaign's swarm) is described by what tells its failing
// configurations from its passing ones; a configuration that did not
// take the case (unsupported: riscv64 without V given vectors) is
// neither, so it cannot make the flags seem to matter.
func TestSignatureAcrossFlagSets(t *testing.T) {
	rv := func(opt string, flags []string, own ...string) record.Config {
		return record.Config{Arch: "riscv64", OptLevel: opt, Flags: flags, Settings: append(slices.Clone(own), settings...), Executor: record.ExecQemu}
	}
	def := []string{"has_v", "has_zba", "has_zbb", "has_zbc", "has_zbs"}
	v, base := []string{"has_v"}, []string{}
	single := "regalloc_algorithm=single_pass"
	verdict := func(status record.Status, sides ...record.Side) *record.Verdict {
		c := &record.Case{ID: "s", CLIF: "function %main() {\nblock0:\n    return\n}\n"}
		c.Stamp()
		for _, s := range sides {
			for _, conf := range s.Configs {
				r := record.RunResult{Config: conf, Status: s.Status, Hash: s.Hash}
				if s.Status == record.StatusCompileCrash {
					r.Message = unwrapRiscv
				}
				if s.Status == record.StatusUnsupported {
					r.Message = "%main uses i32x4: riscv64 compiles vector types only with has_v"
				}
				c.Results = append(c.Results, r)
			}
		}
		out := &record.Verdict{CaseID: "s", Verdict: record.Outcome(status), Sides: sides, Case: c}
		if status == record.StatusOK {
			out.Verdict = record.OutcomeDivergent
			out.Input = record.InputIndex(0)
		}
		out.Stamp()
		return out
	}
	interp := cfg("interp", "none")
	crash := func(cs ...record.Config) record.Side {
		return record.Side{Status: record.StatusCompileCrash, Configs: cs}
	}
	ok := func(output string, cs ...record.Config) record.Side {
		return record.Side{Status: record.StatusOK, Hash: fmt.Sprintf("%016x", len(output)+int(output[len(output)-1])), Output: output, Configs: cs}
	}
	unsupported := func(cs ...record.Config) record.Side {
		return record.Side{Status: record.StatusUnsupported, Configs: cs}
	}
	crashText := ": panic: called `Option::unwrap()` on a `None` value @ cranelift-codegen/src/isa/riscv64/lower/isle.rs:64"
	for _, tc := range []struct {
		name string
		v    *record.Verdict
		want string
	}{
		{"every set that compiled crashes; one set did not take the case",
			verdict(record.StatusCompileCrash, crash(rv("none", def), rv("speed", def), rv("none", v), rv("speed", v)),
				unsupported(rv("none", base, single), rv("speed", base, single)), ok("i32 0x1", interp)),
			"compile_crash riscv64/*" + crashText},
		{"a set and a setting crash, another set passes",
			verdict(record.StatusCompileCrash, crash(rv("none", def, single), rv("speed", def, single)), ok("i32 0x1", interp, rv("none", v), rv("speed", v))),
			// The setting is named alone: the flags drawn beside it are
			// the chunk's accident (a swarm otherwise makes a cluster per
			// draw of one bug).
			"compile_crash riscv64[regalloc_algorithm=single_pass]/*" + crashText},
		{"one set computes another value",
			verdict(record.StatusOK, ok("i32 0x1", interp, rv("none", def), rv("speed", def)), ok("i32 0x2", rv("none", v, single), rv("speed", v, single))),
			"divergent riscv64[regalloc_algorithm=single_pass]/*: i32 value"},
		{"a flag that a passing set has too is not named",
			verdict(record.StatusOK, ok("i32 0x1", interp, rv("none", def), rv("none", v)), ok("i32 0x2", rv("none", def, single), rv("speed", def, single))),
			"divergent riscv64[regalloc_algorithm=single_pass]/*: i32 value"},
		{"one set computes another value, another did not take the case",
			verdict(record.StatusOK, ok("i32 0x1", interp, rv("none", def), rv("speed", def)), ok("i32 0x2", rv("none", v), rv("speed", v)), unsupported(rv("none", base))),
			"divergent riscv64[!has_zba,!has_zbb,!has_zbc,!has_zbs]/*: i32 value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.v.Validate(); err != nil {
				t.Fatalf("test verdict does not validate: %v", err)
			}
			checkBlamed(t, SignatureOf(tc.v))
			if got := SignatureOf(tc.v).String(); got != tc.want {
				t.Errorf("signature\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// checkBlamed: a signature's Blamed are the names its R's parts start
// with, sorted, as a reader of the one-line form would find them (a flag
// list "[a,b]" holds commas too: what the parsers of R that Blamed
// replaced got wrong).
func checkBlamed(t *testing.T, sig Signature) {
	t.Helper()
	want := []string{}
	depth, start := 0, 0
	for i := 0; i <= len(sig.Failing); i++ {
		if i < len(sig.Failing) {
			switch sig.Failing[i] {
			case '[':
				depth++
			case ']':
				depth--
			}
			if sig.Failing[i] != ',' || depth > 0 {
				continue
			}
		}
		a, _, _ := strings.Cut(sig.Failing[start:i], "/")
		a, _, _ = strings.Cut(a, "[")
		if a != "" && !slices.Contains(want, a) {
			want = append(want, a)
		}
		start = i + 1
	}
	slices.Sort(want)
	if !slices.Equal(sig.Blamed, want) || sig.Blamed == nil {
		t.Errorf("%s: Blamed %q, want %q", sig.Failing, sig.Blamed, want)
	}
}
