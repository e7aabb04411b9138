package cluster

import (
	"slices"
	"strings"
	"testing"

	"cliff/lib/profile"
	"cliff/lib/record"
)

// The dedup rule against the repository's own known.mask and findings.
func TestKnown(t *testing.T) {
	k, err := LoadKnown()
	if err != nil {
		t.Fatal(err)
	}
	all := []string{"x86_64/none", "x86_64/speed", "x86_64/speed_and_size"}
	newPanic := "internal error: entered unreachable code: no rule matched for term put_in_gpr at src/isa/x64/inst.isle line 17; should it be partial? (at isle_x64.rs:1:1)"
	stvCase := failure("stv-div", record.StatusOK, "", "")
	stvCase.Case.CLIF = "function %main(i8) -> i8x16 {\nblock0(v0: i8):\n    v1 = scalar_to_vector.i8x16 v0\n    return v1\n}\n"
	for _, tc := range []struct {
		name string
		sig  Signature
		rep  *record.Verdict
		loc  *record.Location
		want string
	}{
		{"ISLE rule line quoted by a finding and the mask's comment",
			SignatureOf(failure("a", record.StatusCompileCrash, stvPanic, all...)), nil, nil,
			"known: known.mask: scalar_to_vector i8x16 x86_64; findings/03-x86_64-scalar-to-vector-i8x16.clif"},
		{"quoted across comment lines",
			SignatureOf(failure("a", record.StatusCompileCrash, sseOrPanic, all...)), nil, nil,
			"known: findings/01-x86_64-band-bor-f16-f128.clif"},
		{"panic site",
			SignatureOf(failure("a", record.StatusCompileCrash, xmm64Panic, all...)), nil, nil,
			"known: findings/02-x86_64-fpromote-f16-fdemote-f128.clif"},
		{"generic site: every candidate named",
			SignatureOf(failure("a", record.StatusCompileCrash, unwrapRiscv, "riscv64/none")), nil, nil,
			"known: known.mask: select_spectre_guard * riscv64 c=uextend.i128(icmp); findings/10-riscv64-bmask-uextend-i128-cmp.clif; findings/11-riscv64-zbs-bext-i128-shift-amount.clif"},
		{"missing lowering by opcode and type",
			SignatureOf(failure("a", record.StatusCompileError, umaxError, "x86_64/speed")), nil, nil,
			"known: known.mask: select i128 x86_64 c=icmp; findings/06-midend-select-minmax-i128.clif"},
		{"the same site on another architecture is not known",
			SignatureOf(failure("a", record.StatusCompileCrash, inegPanic, "riscv64/none")), nil, nil, ""},
		{"an interpreter panic a finding quotes",
			SignatureOf(failure("a", record.StatusCompileCrash, "index out of bounds: the len is 1 but the index is 1 (at cranelift-interpreter-0.135.8/src/step.rs:1006:25)", "interp/none")), nil, nil,
			"known: findings/25-interp-bitcast-int-to-vector.clif"},
		{"a new ISLE rule",
			SignatureOf(failure("a", record.StatusCompileCrash, newPanic, all...)), nil, nil, ""},
		{"located combination in the mask",
			Signature{Verdict: record.OutcomeDivergent, Failing: "riscv64/*", Blamed: []string{"riscv64"}, Diagnostic: "i8x16 every lane value"}, nil,
			&record.Location{CaseID: "x", Function: "%main", Block: "block0", Inst: record.InstLocation{Text: "v3 = swizzle v1, v2"}},
			"known: known.mask: swizzle - riscv64 y=splat"},
		{"located combination on another architecture",
			Signature{Verdict: record.OutcomeDivergent, Failing: "aarch64/*", Blamed: []string{"aarch64"}, Diagnostic: "i8x16 every lane value"}, nil,
			&record.Location{CaseID: "x", Function: "%main", Block: "block0", Inst: record.InstLocation{Text: "v3 = swizzle v1, v2"}},
			""},
		{"unlocated divergence in a case with a masked combination",
			Signature{Verdict: record.OutcomeDivergent, Failing: "x86_64/*", Blamed: []string{"x86_64"}, Diagnostic: "i8x16 one lane value"}, stvCase, nil,
			"possibly: known.mask: scalar_to_vector i8x16 x86_64"},
		{"unlocated divergence, masked combination for another architecture",
			Signature{Verdict: record.OutcomeDivergent, Failing: "aarch64/*", Blamed: []string{"aarch64"}, Diagnostic: "i8x16 one lane value"}, stvCase, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := k.Match(tc.sig, tc.rep, tc.loc).String(); got != tc.want {
				t.Errorf("Match(%s)\n got %q\nwant %q", tc.sig, got, tc.want)
			}
		})
	}
}

func TestKnownFromText(t *testing.T) {
	mask := "# x64: \"no rule matched for term\n# foo at src/isa/x64/inst.isle line 12\"\nband f16 x86_64\n\n# other\nbor f16 x86_64\n"
	k, err := NewKnown([]byte(mask), nil)
	if err != nil {
		t.Fatal(err)
	}
	sig := Signature{Verdict: record.OutcomeCompileCrash, Failing: "x86_64/*", Blamed: []string{"x86_64"}, Diagnostic: "panic: no rule matched for term foo @ src/isa/x64/inst.isle:12"}
	if got := k.Match(sig, nil, nil).String(); got != "known: known.mask: band f16 x86_64" {
		t.Errorf("got %q", got)
	}
	sig.Diagnostic = strings.Replace(sig.Diagnostic, ":12", ":13", 1)
	if got := k.Match(sig, nil, nil).String(); got != "" {
		t.Errorf("another rule line matched: %q", got)
	}
	if _, err := NewKnown([]byte("nosuchop i8 x86_64\n"), nil); err == nil {
		t.Error("a bad mask was accepted")
	}
}

// TestKnownByLocatedMask: a divergence, which has no diagnostic keys, is
// known when the mask entry cliff-locate wrote for it is in known.mask
// (finding 20's pattern), and only possibly known without it.
func TestKnownByLocatedMask(t *testing.T) {
	k, err := LoadKnown()
	if err != nil {
		t.Fatal(err)
	}
	sig := Signature{Verdict: record.OutcomeDivergent, Failing: "riscv64/*", Blamed: []string{"riscv64"}, Diagnostic: "i32 value"}
	loc := &record.Location{CaseID: "c", Function: "%main", Mask: []string{"swizzle - riscv64 y=splat"}}
	if got := k.Match(sig, nil, loc).String(); got != "known: known.mask: swizzle - riscv64 y=splat" {
		t.Errorf("with the located mask: %q", got)
	}
	loc.Mask = []string{"swizzle - riscv64"}
	if got := k.Match(sig, nil, loc).String(); got != "" {
		t.Errorf("with a mask entry known.mask does not have: %q", got)
	}
}

// TestKnownBySettings: a divergence whose wrong configurations all carry
// the setting a finding says it needs (finding 23: riscv64 under
// regalloc_algorithm=single_pass) is possibly that finding; one where a
// wrong configuration lacks the setting, or is on another architecture,
// is not.
func TestKnownBySettings(t *testing.T) {
	k, err := LoadKnown()
	if err != nil {
		t.Fatal(err)
	}
	cfg := func(arch string, settings ...string) record.Config {
		return record.Config{Arch: arch, OptLevel: "none", Settings: settings, Executor: record.ExecQemu}
	}
	ref := record.Config{Arch: "ref", OptLevel: "none", Executor: record.ExecRef}
	single := "regalloc_algorithm=single_pass"
	const f23 = "possibly: findings/23-riscv64-single-pass-f32-stack-move-nanbox.clif"
	for _, tc := range []struct {
		name  string
		wrong []record.Config
		want  string
	}{
		{"every wrong config single_pass on riscv64", []record.Config{cfg("riscv64", single, "bb_padding_log2_minus_one=5")}, f23},
		{"one wrong config without it", []record.Config{cfg("riscv64", single), cfg("riscv64")}, ""},
		{"single_pass on another architecture", []record.Config{cfg("aarch64", single)}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := &record.Verdict{Verdict: record.OutcomeDivergent, Sides: []record.Side{
				{Configs: []record.Config{ref, cfg("riscv64"), cfg("x86_64")}, Status: record.StatusOK, Hash: "a"},
				{Configs: tc.wrong, Status: record.StatusOK, Hash: "b"},
				{Configs: []record.Config{cfg("s390x", single)}, Status: record.StatusUnsupported},
			}}
			sig := Signature{Verdict: record.OutcomeDivergent, Failing: "riscv64/*", Blamed: []string{"riscv64"}, Diagnostic: "f32 value"}
			if got := k.Match(sig, v, nil).String(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestKnownByShape: finding 23 has no opcode mask, yet a located riscv64
// divergence whose reduced file returns a float through the return area
// is that finding, whatever its instructions (issue 27: seven of nine
// "new" clusters were it). The same file on another architecture, a crash
// of that shape, or a file without a return-area float is not.
func TestKnownByShape(t *testing.T) {
	k, err := LoadKnown()
	if err != nil {
		t.Fatal(err)
	}
	const f23 = "known: findings/23-riscv64-single-pass-f32-stack-move-nanbox.clif"
	// As cliff-locate reduced one of them: a NaN-canonicalising select
	// of the third float the callee returns (fa0 and fa1 hold two).
	const reduced = `; divergent riscv64/*: i64 value
; fails:  riscv64/none/qemu+regalloc_algorithm=single_pass
test run
set enable_multi_ret_implicit_sret=true
set opt_level=none
set regalloc_algorithm=single_pass
target riscv64

function %main(f32) -> i64 {
    fn0 = %g(f32) -> f64, f32, f32

block0(v0: f32):
    v1, v2, v3 = call fn0(v0)
    v4 = fcmp uno v3, v3
    v5 = f32const +NaN
    v6 = select v4, v5, v3
    v7 = bitcast.i32 v6
    v8 = uextend.i64 v7
    return v8
}

function %g(f32) -> f64, f32, f32 {
block0(v0: f32):
    v1 = f64const 0.0
    return v1, v0, v0
}
`
	twoFloats := strings.NewReplacer("-> f64, f32, f32", "-> f64, f32", "v1, v2, v3 = call", "v1, v3 = call", "return v1, v0, v0", "return v1, v0").Replace(reduced)
	div := record.OutcomeDivergent
	for _, tc := range []struct {
		name    string
		verdict record.Outcome
		failing string
		repro   string
		want    string
	}{
		{"riscv64 divergence, a float in the return area", div, "riscv64/*", reduced, f23},
		{"two floats: both in registers", div, "riscv64/*", twoFloats, ""},
		{"on aarch64, eight float return registers", div, "aarch64/*", reduced, ""},
		{"a crash of that shape", record.OutcomeCrash, "riscv64/*", reduced, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sig := Signature{Verdict: tc.verdict, Failing: tc.failing, Blamed: []string{strings.Split(tc.failing, "/")[0]}, Diagnostic: "i64 value"}
			// cliff-locate's mask entry for it names no finding.
			loc := &record.Location{CaseID: "c", Function: "%main", Repro: tc.repro, Mask: []string{"select f32 riscv64 c=fcmp"}}
			if got := k.Match(sig, nil, loc).String(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestRecognitions: every finding's "Recognised by:" names a verdict and
// a shape shape.go knows; finding 23 has one.
func TestRecognitions(t *testing.T) {
	n := 0
	for _, f := range profile.FindingHeaders() {
		text := flatten(f.Header)
		for _, m := range recognisedBy.FindAllStringSubmatch(text, -1) {
			n++
			if shapes[m[2]] == nil {
				t.Errorf("%s: Recognised by an unknown shape %q", f.Name, m[2])
			}
			if !slices.Contains(record.Outcomes(), record.Outcome(m[1])) {
				t.Errorf("%s: Recognised by an unknown verdict %q", f.Name, m[1])
			}
		}
		if strings.Contains(text, "Recognised by") && !recognisedBy.MatchString(text) {
			t.Errorf("%s: a Recognised by: line that does not read as VERDICT SHAPE", f.Name)
		}
	}
	if n == 0 {
		t.Error("no finding is recognised by its shape")
	}
}
