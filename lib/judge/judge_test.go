package judge

import (
	"slices"
	"testing"

	"cliff/lib/record"
)

var (
	x86Speed = record.Config{Arch: "x86_64", OptLevel: "speed", Executor: record.ExecNative}
	x86None  = record.Config{Arch: "x86_64", OptLevel: "none", Executor: record.ExecNative}
	x86AVX   = record.Config{Arch: "x86_64", OptLevel: "speed", Flags: []string{"has_avx2", "has_bmi2"}, Executor: record.ExecNative}
	riscv    = record.Config{Arch: "riscv64", OptLevel: "none", Executor: record.ExecQemu}
	arm      = record.Config{Arch: "aarch64", OptLevel: "speed", Executor: record.ExecQemu}
	interp   = record.Config{Arch: "x86_64", OptLevel: "none", Executor: record.ExecInterp}
	ref      = record.Config{Arch: "ref", OptLevel: "none", Executor: record.ExecRef}
)

// Output hashes; their values do not matter, only which are equal.
const (
	hashA = "00000000000000aa"
	hashB = "00000000000000bb"
)

func ok(c record.Config, hash string, outputs ...string) record.RunResult {
	return record.RunResult{Config: c, Status: record.StatusOK, Hash: hash, Outputs: outputs}
}

func trapped(c record.Config, code string, outputs ...string) record.RunResult {
	return record.RunResult{Config: c, Status: record.StatusTrap, Trap: code, Outputs: outputs}
}

func failed(c record.Config, s record.Status, message string) record.RunResult {
	return record.RunResult{Config: c, Status: s, Message: message}
}

func crashed(c record.Config, signal string) record.RunResult {
	return record.RunResult{Config: c, Status: record.StatusCrash, Signal: signal}
}

func TestJudge(t *testing.T) {
	tests := []struct {
		name    string
		results []record.RunResult
		want    record.Outcome
		input   int             // -1: no input named
		sides   []record.Status // statuses of the sides, in order
		outputs []string        // the sides' outputs on the input, when named
		summary string
	}{
		{
			name:    "all agree, interpreter included",
			results: []record.RunResult{ok(x86Speed, hashA, "i32 0x1"), ok(riscv, hashA, "i32 0x1"), ok(interp, hashA, "i32 0x1")},
			want:    record.OutcomeConsistent, input: -1,
			sides:   []record.Status{record.StatusOK},
			summary: "3 configurations agree: ok",
		},
		{
			name: "values differ: the first differing input, the interpreter's side first",
			results: []record.RunResult{
				ok(x86Speed, hashA, "i32 0x0", "i32 0x1", "i32 0x1", "i32 0x7"),
				ok(x86None, hashA, "i32 0x0", "i32 0x1", "i32 0x1", "i32 0x7"),
				ok(riscv, hashB, "i32 0x0", "i32 0x1", "i32 0x2", "i32 0x8"),
				ok(interp, hashB, "i32 0x0", "i32 0x1", "i32 0x2", "i32 0x8"),
			},
			want: record.OutcomeDivergent, input: 2,
			sides:   []record.Status{record.StatusOK, record.StatusOK},
			outputs: []string{"i32 0x2", "i32 0x1"},
			summary: "divergent on input 2: riscv64/none/qemu, x86_64/none/interp = i32 0x2 vs x86_64/speed/native, x86_64/none/native = i32 0x1",
		},
		{
			name:    "every configuration traps the same way on the same input",
			results: []record.RunResult{trapped(x86Speed, "int_divz", "i32 0x1"), trapped(riscv, "int_divz", "i32 0x1"), trapped(interp, "int_divz", "i32 0x1")},
			want:    record.OutcomeConsistent, input: -1,
			sides:   []record.Status{record.StatusTrap},
			summary: "3 configurations agree: trap int_divz on input 1",
		},
		{
			name: "a trap entry written or left out is the same trap",
			results: []record.RunResult{
				trapped(x86Speed, "int_divz", "i32 0x1", "trap int_divz"),
				trapped(riscv, "int_divz", "i32 0x1"),
			},
			want: record.OutcomeConsistent, input: -1,
			sides:   []record.Status{record.StatusTrap},
			summary: "2 configurations agree: trap int_divz on input 1",
		},
		{
			name:    "a trap against a value, on the trapping input",
			results: []record.RunResult{ok(interp, hashA, "i32 0x1", "i32 -1"), trapped(x86AVX, "int_ovf", "i32 0x1"), trapped(x86None, "int_ovf", "i32 0x1")},
			want:    record.OutcomeDivergent, input: 1,
			sides:   []record.Status{record.StatusOK, record.StatusTrap},
			outputs: []string{"i32 -1", "trap int_ovf"},
			summary: "divergent on input 1: x86_64/none/interp = i32 -1 vs x86_64/speed/native, x86_64/none/native = trap int_ovf",
		},
		{
			name:    "the same trap on different inputs",
			results: []record.RunResult{trapped(x86Speed, "int_divz", "i32 0x1", "i32 0x2"), trapped(riscv, "int_divz", "i32 0x1")},
			want:    record.OutcomeDivergent, input: 1,
			sides:   []record.Status{record.StatusTrap, record.StatusTrap},
			outputs: []string{"i32 0x2", "trap int_divz"},
			summary: "divergent on input 1: x86_64/speed/native = i32 0x2 vs riscv64/none/qemu = trap int_divz",
		},
		{
			name:    "different traps on the same input",
			results: []record.RunResult{trapped(x86Speed, "int_divz"), trapped(riscv, "int_ovf")},
			want:    record.OutcomeDivergent, input: 0,
			sides:   []record.Status{record.StatusTrap, record.StatusTrap},
			outputs: []string{"trap int_divz", "trap int_ovf"},
			summary: "divergent on input 0: x86_64/speed/native = trap int_divz vs riscv64/none/qemu = trap int_ovf",
		},
		{
			name:    "the same trap after different outputs",
			results: []record.RunResult{trapped(x86Speed, "user1", "i32 0x5"), trapped(riscv, "user1", "i32 0x6")},
			want:    record.OutcomeDivergent, input: 0,
			sides:   []record.Status{record.StatusTrap, record.StatusTrap},
			outputs: []string{"i32 0x5", "i32 0x6"},
			summary: "divergent on input 0: x86_64/speed/native = i32 0x5 vs riscv64/none/qemu = i32 0x6",
		},
		{
			name:    "hashes differ, no outputs to name an input",
			results: []record.RunResult{ok(x86Speed, hashA), ok(riscv, hashB)},
			want:    record.OutcomeDivergent, input: -1,
			sides:   []record.Status{record.StatusOK, record.StatusOK},
			summary: "divergent: x86_64/speed/native = hash 00000000000000aa vs riscv64/none/qemu = hash 00000000000000bb",
		},
		{
			name:    "a compile crash in one configuration while the others agree",
			results: []record.RunResult{ok(x86Speed, hashA, "i32 0x1"), failed(arm, record.StatusCompileCrash, "assertion failed: rn != rd\nbacktrace..."), ok(interp, hashA, "i32 0x1")},
			want:    record.OutcomeCompileCrash, input: -1,
			sides:   []record.Status{record.StatusCompileCrash, record.StatusOK},
			summary: "compile_crash in aarch64/speed/qemu: assertion failed: rn != rd",
		},
		{
			name:    "a compile crash outranks a divergence, which the summary names",
			results: []record.RunResult{ok(x86Speed, hashA, "i32 0x1"), ok(riscv, hashB, "i32 0x2"), failed(arm, record.StatusCompileCrash, "panic")},
			want:    record.OutcomeCompileCrash, input: 0,
			sides:   []record.Status{record.StatusCompileCrash, record.StatusOK, record.StatusOK},
			outputs: []string{"", "i32 0x1", "i32 0x2"},
			summary: "compile_crash in aarch64/speed/qemu: panic; also divergent on input 0",
		},
		{
			name:    "a crash outranks a divergence",
			results: []record.RunResult{ok(x86Speed, hashA, "i32 0x1"), ok(riscv, hashB, "i32 0x2"), crashed(arm, "SIGSEGV")},
			want:    record.OutcomeCrash, input: 0,
			sides:   []record.Status{record.StatusCrash, record.StatusOK, record.StatusOK},
			outputs: []string{"", "i32 0x1", "i32 0x2"},
			summary: "crash in aarch64/speed/qemu: SIGSEGV; also divergent on input 0",
		},
		{
			name:    "a divergence outranks a timeout and a compile error",
			results: []record.RunResult{ok(x86Speed, hashA, "i32 0x1"), failed(arm, record.StatusTimeout, ""), ok(riscv, hashB, "i32 0x2"), failed(x86None, record.StatusCompileError, "unsupported")},
			want:    record.OutcomeDivergent, input: 0,
			sides:   []record.Status{record.StatusOK, record.StatusOK, record.StatusTimeout, record.StatusCompileError},
			outputs: []string{"i32 0x1", "i32 0x2", "", ""},
			summary: "divergent on input 0: x86_64/speed/native = i32 0x1 vs riscv64/none/qemu = i32 0x2; also timeout, compile_error",
		},
		{
			name:    "a timeout while the others agree",
			results: []record.RunResult{ok(x86Speed, hashA, "i32 0x1"), failed(riscv, record.StatusTimeout, ""), ok(interp, hashA, "i32 0x1")},
			want:    record.OutcomeTimeout, input: -1,
			sides:   []record.Status{record.StatusTimeout, record.StatusOK},
			summary: "timeout in riscv64/none/qemu",
		},
		{
			name:    "every configuration rejects the case",
			results: []record.RunResult{failed(x86Speed, record.StatusCompileError, "verifier errors"), failed(riscv, record.StatusCompileError, "verifier errors")},
			want:    record.OutcomeCompileError, input: -1,
			sides:   []record.Status{record.StatusCompileError},
			summary: "compile_error in every configuration: verifier errors",
		},
		{
			name:    "harness errors are left out of the comparison",
			results: []record.RunResult{ok(x86Speed, hashA, "i32 0x1"), failed(riscv, record.StatusHarnessError, "qemu-riscv64-static: not found"), ok(interp, hashA, "i32 0x1")},
			want:    record.OutcomeHarnessError, input: -1,
			sides:   []record.Status{record.StatusHarnessError, record.StatusOK},
			summary: "harness_error in riscv64/none/qemu: qemu-riscv64-static: not found; otherwise 2 configurations agree: ok",
		},
		{
			name:    "a harness error never hides a Cranelift failure",
			results: []record.RunResult{failed(riscv, record.StatusHarnessError, "no qemu"), ok(x86Speed, hashA, "i32 0x1"), ok(interp, hashB, "i32 0x2")},
			want:    record.OutcomeDivergent, input: 0,
			sides:   []record.Status{record.StatusOK, record.StatusOK, record.StatusHarnessError},
			outputs: []string{"i32 0x2", "i32 0x1", ""},
			summary: "divergent on input 0: x86_64/none/interp = i32 0x2 vs x86_64/speed/native = i32 0x1; also harness_error",
		},
		{
			name:    "an unsupported run is left out: judged on the others",
			results: []record.RunResult{ok(x86Speed, hashA, "i32 0x1"), failed(interp, record.StatusUnsupported, "not implemented: SequencePoint"), ok(riscv, hashA, "i32 0x1")},
			want:    record.OutcomeConsistent, input: -1,
			sides:   []record.Status{record.StatusOK, record.StatusUnsupported},
			summary: "2 configurations agree: ok; not compared: unsupported in x86_64/none/interp: not implemented: SequencePoint",
		},
		{
			name:    "an unsupported run hides no divergence of the others",
			results: []record.RunResult{failed(interp, record.StatusUnsupported, "not implemented"), ok(x86Speed, hashA, "i32 0x1"), ok(riscv, hashB, "i32 0x2")},
			want:    record.OutcomeDivergent, input: 0,
			sides:   []record.Status{record.StatusOK, record.StatusOK, record.StatusUnsupported},
			outputs: []string{"i32 0x1", "i32 0x2", ""},
			summary: "divergent on input 0: x86_64/speed/native = i32 0x1 vs riscv64/none/qemu = i32 0x2; not compared: unsupported in x86_64/none/interp: not implemented",
		},
		{
			name:    "a stack overflow is left out: judged on the others",
			results: []record.RunResult{failed(interp, record.StatusStackOverflow, "interpreter: more than 100000 frames deep"), ok(x86Speed, hashA, "i32 0x1"), ok(riscv, hashA, "i32 0x1")},
			want:    record.OutcomeConsistent, input: -1,
			sides:   []record.Status{record.StatusOK, record.StatusStackOverflow},
			summary: "2 configurations agree: ok; not compared: stack_overflow in x86_64/none/interp: interpreter: more than 100000 frames deep",
		},
		{
			name:    "nothing left to compare: unsupported",
			results: []record.RunResult{failed(interp, record.StatusUnsupported, "not implemented: SequencePoint")},
			want:    record.OutcomeUnsupported, input: -1,
			sides:   []record.Status{record.StatusUnsupported},
			summary: "unsupported in x86_64/none/interp: not implemented: SequencePoint",
		},
		{
			name:    "nothing left to compare: a stack overflow ranks before unsupported",
			results: []record.RunResult{failed(arm, record.StatusUnsupported, "external name %x"), failed(interp, record.StatusStackOverflow, "deep")},
			want:    record.OutcomeStackOverflow, input: -1,
			sides:   []record.Status{record.StatusStackOverflow, record.StatusUnsupported},
			summary: "stack_overflow in x86_64/none/interp: deep; not compared: unsupported in aarch64/speed/qemu: external name %x",
		},
		{
			name:    "a harness error outranks unsupported",
			results: []record.RunResult{failed(interp, record.StatusUnsupported, "not implemented"), failed(riscv, record.StatusHarnessError, "no qemu")},
			want:    record.OutcomeHarnessError, input: -1,
			sides:   []record.Status{record.StatusHarnessError, record.StatusUnsupported},
			summary: "harness_error in riscv64/none/qemu: no qemu; not compared: unsupported in x86_64/none/interp: not implemented",
		},
		{
			name:    "unsupported never hides a compile crash",
			results: []record.RunResult{failed(interp, record.StatusUnsupported, "not implemented"), failed(arm, record.StatusCompileCrash, "panic"), ok(x86Speed, hashA, "i32 0x1")},
			want:    record.OutcomeCompileCrash, input: -1,
			sides:   []record.Status{record.StatusCompileCrash, record.StatusOK, record.StatusUnsupported},
			summary: "compile_crash in aarch64/speed/qemu: panic; not compared: unsupported in x86_64/none/interp: not implemented",
		},
		{
			name:    "only one configuration ran",
			results: []record.RunResult{ok(x86Speed, hashA, "i32 0x1")},
			want:    record.OutcomeConsistent, input: -1,
			sides:   []record.Status{record.StatusOK},
			summary: "only one configuration ran: x86_64/speed/native (ok)",
		},
		{
			name:    "one answer and a compile crash is a failure",
			results: []record.RunResult{ok(x86Speed, hashA, "i32 0x1"), failed(riscv, record.StatusCompileCrash, "")},
			want:    record.OutcomeCompileCrash, input: -1,
			sides:   []record.Status{record.StatusCompileCrash, record.StatusOK},
			summary: "compile_crash in riscv64/none/qemu",
		},
		{
			name: "no results",
			want: record.OutcomeConsistent, input: -1,
			summary: "no configuration ran",
		},
		{
			name:    "the same configuration twice with different outcomes",
			results: []record.RunResult{ok(x86Speed, hashA, "i32 0x1"), ok(x86Speed, hashB, "i32 0x2"), ok(riscv, hashA, "i32 0x1")},
			want:    record.OutcomeDivergent, input: 0,
			sides:   []record.Status{record.StatusOK, record.StatusOK},
			outputs: []string{"i32 0x1", "i32 0x2"},
			summary: "divergent on input 0: x86_64/speed/native, riscv64/none/qemu = i32 0x1 vs x86_64/speed/native = i32 0x2; x86_64/speed/native disagrees with itself",
		},
		{
			// A campaign's configurations all carry the same long flags and
			// settings: the summary names them by arch/opt/executor ...
			name: "configurations named compactly",
			results: []record.RunResult{
				ok(campaign(x86Speed), hashA, "i32 0x1"), ok(campaign(x86None), hashA, "i32 0x1"),
				failed(campaign(riscv), record.StatusCompileCrash, "panic"),
			},
			want: record.OutcomeCompileCrash, input: -1,
			sides:   []record.Status{record.StatusCompileCrash, record.StatusOK},
			summary: "compile_crash in riscv64/none/qemu: panic",
		},
		{
			// ... and in full where that alone would not tell two apart.
			// Named by what tells them apart: the flag set's name in
			// lib/arch's table (or the flags) and their own settings.
			name: "configurations that differ only in flags told apart",
			results: []record.RunResult{
				ok(campaign(x86Speed), hashA, "i32 0x1"),
				ok(record.Config{Arch: "x86_64", OptLevel: "speed", Executor: record.ExecNative, Flags: []string{"has_sse3"}}, hashB, "i32 0x2"),
			},
			want: record.OutcomeDivergent, input: 0,
			sides:   []record.Status{record.StatusOK, record.StatusOK},
			outputs: []string{"i32 0x1", "i32 0x2"},
			summary: "divergent on input 0: x86_64/speed/native:default+enable_llvm_abi_extensions=true = i32 0x1 vs x86_64/speed/native:has_sse3 = i32 0x2",
		},
		{
			name: "the reference disagrees with all of Cranelift: reference_divergent, the reference's side first and expected",
			results: []record.RunResult{
				ok(x86Speed, hashA, "i32 0x0", "i32 0x1"), ok(riscv, hashA, "i32 0x0", "i32 0x1"), ok(interp, hashA, "i32 0x0", "i32 0x1"),
				ok(ref, hashB, "i32 0x0", "i32 0x2"),
			},
			want: record.OutcomeReferenceDivergent, input: 1,
			sides:   []record.Status{record.StatusOK, record.StatusOK},
			outputs: []string{"i32 0x2", "i32 0x1"},
			summary: "reference_divergent on input 1: ref/none/ref = i32 0x2 (expected) vs all of Cranelift (3: x86_64/speed/native, riscv64/none/qemu, x86_64/none/interp) = i32 0x1",
		},
		{
			name: "the reference against a trap of all of Cranelift",
			results: []record.RunResult{
				trapped(x86Speed, "int_divz", "i32 0x0", "trap int_divz"), trapped(x86None, "int_divz", "i32 0x0", "trap int_divz"),
				ok(ref, hashB, "i32 0x0", "i32 0x2"),
			},
			want: record.OutcomeReferenceDivergent, input: 1,
			sides:   []record.Status{record.StatusOK, record.StatusTrap},
			outputs: []string{"i32 0x2", "trap int_divz"},
			summary: "reference_divergent on input 1: ref/none/ref = i32 0x2 (expected) vs all of Cranelift (2: x86_64/speed/native, x86_64/none/native) = trap int_divz",
		},
		{
			name: "Cranelift disagrees with itself: divergent, the reference's side first, with the configurations that agree with it",
			results: []record.RunResult{
				ok(x86Speed, hashA, "i32 0x1"), ok(x86None, hashA, "i32 0x1"),
				ok(riscv, hashB, "i32 0x2"), ok(ref, hashB, "i32 0x2"),
			},
			want: record.OutcomeDivergent, input: 0,
			sides:   []record.Status{record.StatusOK, record.StatusOK},
			outputs: []string{"i32 0x2", "i32 0x1"},
			summary: "divergent on input 0: riscv64/none/qemu, ref/none/ref = i32 0x2 (expected) vs x86_64/speed/native, x86_64/none/native = i32 0x1",
		},
		{
			name: "the reference's fuel is not a timeout of Cranelift: not compared",
			results: []record.RunResult{
				ok(x86Speed, hashA, "i32 0x1"), ok(x86None, hashA, "i32 0x1"),
				failed(ref, record.StatusTimeout, "reference: out of fuel"),
			},
			want: record.OutcomeConsistent, input: -1,
			sides:   []record.Status{record.StatusOK, record.StatusTimeout},
			summary: "2 configurations agree: ok; not compared: stack_overflow in ref/none/ref: reference: out of fuel",
		},
		{
			name: "the reference's timeout and Cranelift's are separate sides; Cranelift's is the verdict",
			results: []record.RunResult{
				failed(x86Speed, record.StatusTimeout, "deadline"), ok(x86None, hashA, "i32 0x1"),
				failed(ref, record.StatusTimeout, "reference: out of fuel"),
			},
			want: record.OutcomeTimeout, input: -1,
			sides:   []record.Status{record.StatusTimeout, record.StatusOK, record.StatusTimeout},
			summary: "timeout in x86_64/speed/native: deadline; not compared: stack_overflow in ref/none/ref: reference: out of fuel",
		},
		{
			name: "an unsupported reference leaves the case to Cranelift's comparison",
			results: []record.RunResult{
				ok(x86Speed, hashA, "i32 0x1"), ok(riscv, hashB, "i32 0x2"),
				failed(ref, record.StatusUnsupported, "reference: unsupported: opcode x"),
			},
			want: record.OutcomeDivergent, input: 0,
			sides:   []record.Status{record.StatusOK, record.StatusOK, record.StatusUnsupported},
			summary: "divergent on input 0: x86_64/speed/native = i32 0x1 vs riscv64/none/qemu = i32 0x2; not compared: unsupported in ref/none/ref: reference: unsupported: opcode x",
		},
		{
			name:    "only the reference ran, out of fuel: not compared, never a failure",
			results: []record.RunResult{failed(ref, record.StatusTimeout, "reference: out of fuel")},
			want:    record.OutcomeStackOverflow, input: -1,
			sides:   []record.Status{record.StatusTimeout},
			summary: "stack_overflow in ref/none/ref: reference: out of fuel",
		},
		{
			name:    "crashes with different signals are separate sides",
			results: []record.RunResult{crashed(arm, "SIGSEGV"), crashed(riscv, "SIGILL"), ok(x86Speed, hashA, "i32 0x1")},
			want:    record.OutcomeCrash, input: -1,
			sides:   []record.Status{record.StatusCrash, record.StatusCrash, record.StatusOK},
			summary: "crash in aarch64/speed/qemu: SIGSEGV; riscv64/none/qemu: SIGILL",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &record.Case{ID: "0123456789abcdef", CLIF: "function %f() {\nblock0:\n    return\n}\n", Results: tt.results}
			v := Case(c)
			if err := v.Validate(); err != nil {
				t.Errorf("invalid verdict: %v", err)
			}
			if v.Verdict != tt.want {
				t.Errorf("verdict %s, want %s", v.Verdict, tt.want)
			}
			if v.Summary != tt.summary {
				t.Errorf("summary\n got %q\nwant %q", v.Summary, tt.summary)
			}
			switch {
			case tt.input < 0 && v.Input != nil:
				t.Errorf("input %d, want none", *v.Input)
			case tt.input >= 0 && (v.Input == nil || *v.Input != tt.input):
				t.Errorf("input %v, want %d", v.Input, tt.input)
			}
			var statuses []record.Status
			var outputs []string
			for _, s := range v.Sides {
				statuses = append(statuses, s.Status)
				outputs = append(outputs, s.Output)
			}
			if !slices.Equal(statuses, tt.sides) {
				t.Errorf("sides %v, want %v", statuses, tt.sides)
			}
			if tt.outputs != nil && !slices.Equal(outputs, tt.outputs) {
				t.Errorf("side outputs %q, want %q", outputs, tt.outputs)
			}
			if (v.Case != nil) != (tt.want != record.OutcomeConsistent) {
				t.Errorf("case embedded: %v, for a %s verdict", v.Case != nil, v.Verdict)
			}
		})
	}
}

// TestFailureStatus pins which verdicts make the exit status 1.
func TestFailureStatus(t *testing.T) {
	for _, o := range record.Outcomes() {
		want := o != record.OutcomeConsistent && o != record.OutcomeHarnessError &&
			o != record.OutcomeUnsupported && o != record.OutcomeStackOverflow
		if got := IsCraneliftFailure(o); got != want {
			t.Errorf("IsCraneliftFailure(%s) = %v, want %v", o, got, want)
		}
	}
	// Every failure is ranked, so none can be dropped from a verdict
	// (regression and fixed refine a ranked failure, their symptom).
	for _, o := range record.Outcomes() {
		if o != record.OutcomeConsistent && o != record.OutcomeRegression && o != record.OutcomeFixed && !slices.Contains(Precedence(), o) {
			t.Errorf("%s has no place in the precedence", o)
		}
	}
	// A caller's change to the order is its own.
	Precedence()[0] = record.OutcomeConsistent
	if Precedence()[0] != record.OutcomeCompileCrash {
		t.Errorf("Precedence starts with %s after a caller changed its copy", Precedence()[0])
	}
}

// TestSameRun checks which repeated results the join merges: the same
// configuration and outcome, whatever the timings and messages.
func TestSameRun(t *testing.T) {
	withTiming := ok(x86Speed, hashA, "i32 0x1")
	withTiming.Timings.ExecMS = 3
	crashA, crashB := failed(riscv, record.StatusCompileCrash, "at 0x1234"), failed(riscv, record.StatusCompileCrash, "at 0x5678")
	tests := []struct {
		name string
		a, b record.RunResult
		same bool
	}{
		{"timings differ", ok(x86Speed, hashA, "i32 0x1"), withTiming, true},
		{"messages differ", crashA, crashB, true},
		{"hashes differ", ok(x86Speed, hashA), ok(x86Speed, hashB), false},
		{"configurations differ", ok(x86Speed, hashA), ok(x86None, hashA), false},
		{"flags differ", ok(x86Speed, hashA), ok(x86AVX, hashA), false},
		{"trap codes differ", trapped(riscv, "int_divz"), trapped(riscv, "int_ovf"), false},
		{"signals differ", crashed(arm, "SIGSEGV"), crashed(arm, "SIGBUS"), false},
	}
	for _, tt := range tests {
		if got := sameRun(&tt.a, &tt.b); got != tt.same {
			t.Errorf("%s: sameRun = %v, want %v", tt.name, got, tt.same)
		}
	}
}

// campaign gives a configuration the flags and a setting a campaign runs
// with.
func campaign(c record.Config) record.Config {
	c.Flags = []string{"has_sse3", "has_ssse3", "has_sse41", "has_sse42", "has_popcnt", "has_avx", "has_avx2", "has_fma", "has_bmi1", "has_bmi2", "has_lzcnt"}
	c.Settings = []string{"enable_llvm_abi_extensions=true"}
	return c
}
