package judge

import (
	"slices"
	"strings"
	"testing"

	"cliff/lib/record"
)

// TestFailing checks which sides of a verdict Failing blames and which it
// measures them against, on verdicts made by Case.
func TestFailing(t *testing.T) {
	x86Size := record.Config{Arch: "x86_64", OptLevel: "speed_and_size", Executor: record.ExecNative}
	tests := []struct {
		name     string
		results  []record.RunResult
		failing  []string // per failing side, its configurations joined by " "
		expected string   // "" when none
	}{
		{
			name:     "consistent: nothing fails, the answer is the expected one",
			results:  []record.RunResult{ok(x86Speed, hashA, "i32 0x1"), ok(riscv, hashA, "i32 0x1")},
			expected: "x86_64/speed/native riscv64/none/qemu",
		},
		{
			name: "divergent: the minority of architectures fails against the majority, interpreter or not",
			results: []record.RunResult{
				ok(interp, hashA, "i32 0x1"),
				ok(x86Speed, hashB, "i32 0x2"), ok(riscv, hashB, "i32 0x2"), ok(x86Size, hashB, "i32 0x2"),
			},
			failing:  []string{"x86_64/none/interp"},
			expected: "x86_64/speed/native riscv64/none/qemu x86_64/speed_and_size/native",
		},
		{
			name: "divergent: one architecture's opt levels are one voice against the interpreter's",
			results: []record.RunResult{
				ok(interp, hashA, "i32 0x1"),
				ok(x86Speed, hashB, "i32 0x2"), ok(x86None, hashB, "i32 0x2"), ok(x86Size, hashB, "i32 0x2"),
			},
			failing:  []string{"x86_64/speed/native x86_64/none/native x86_64/speed_and_size/native"},
			expected: "x86_64/none/interp",
		},
		{
			name: "divergent with a tie: the interpreter's side is the expected one",
			results: []record.RunResult{
				ok(x86Speed, hashB, "i32 0x2"), ok(riscv, hashA, "i32 0x1"), ok(interp, hashA, "i32 0x1"), ok(x86None, hashB, "i32 0x2"),
			},
			failing:  []string{"x86_64/speed/native x86_64/none/native"},
			expected: "riscv64/none/qemu x86_64/none/interp",
		},
		{
			name: "divergent with the reference: it is right, whatever the vote",
			results: []record.RunResult{
				ok(x86Speed, hashB, "i32 0x2"), ok(riscv, hashB, "i32 0x2"), ok(interp, hashB, "i32 0x2"),
				ok(arm, hashA, "i32 0x1"), ok(ref, hashA, "i32 0x1"),
			},
			failing:  []string{"x86_64/speed/native riscv64/none/qemu x86_64/none/interp"},
			expected: "aarch64/speed/qemu ref/none/ref",
		},
		{
			name: "reference_divergent: all of Cranelift is the failing side",
			results: []record.RunResult{
				ok(x86Speed, hashB, "i32 0x2"), ok(interp, hashB, "i32 0x2"), ok(ref, hashA, "i32 0x1"),
			},
			failing:  []string{"x86_64/speed/native x86_64/none/interp"},
			expected: "ref/none/ref",
		},
		{
			name: "a reference that did not answer is not the expected side",
			results: []record.RunResult{
				ok(x86Speed, hashA, "i32 0x1"), ok(x86None, hashA, "i32 0x1"), ok(riscv, hashB, "i32 0x2"),
				failed(ref, record.StatusUnsupported, "reference: unsupported"),
			},
			failing:  []string{"riscv64/none/qemu"},
			expected: "x86_64/speed/native x86_64/none/native",
		},
		{
			name: "divergent three ways: each minority answer is a failing side",
			results: []record.RunResult{
				ok(x86Speed, hashA, "i32 0x1"), ok(x86None, hashA, "i32 0x1"), ok(riscv, hashB, "i32 0x2"), ok(arm, "00000000000000cc", "i32 0x3"),
			},
			failing:  []string{"riscv64/none/qemu", "aarch64/speed/qemu"},
			expected: "x86_64/speed/native x86_64/none/native",
		},
		{
			name: "a compile crash fails against the answers, not the other failures",
			results: []record.RunResult{
				ok(x86Speed, hashA, "i32 0x1"), failed(riscv, record.StatusCompileCrash, "panic"),
				failed(arm, record.StatusTimeout, "timed out"), ok(interp, hashA, "i32 0x1"),
			},
			failing:  []string{"riscv64/none/qemu"},
			expected: "x86_64/speed/native x86_64/none/interp",
		},
		{
			name:     "crashes on two signals are two failing sides",
			results:  []record.RunResult{crashed(arm, "SIGSEGV"), crashed(riscv, "SIGILL"), ok(x86Speed, hashA, "i32 0x1")},
			failing:  []string{"aarch64/speed/qemu", "riscv64/none/qemu"},
			expected: "x86_64/speed/native",
		},
		{
			name:    "no answer: no expected side",
			results: []record.RunResult{failed(interp, record.StatusStackOverflow, "stack"), failed(riscv, record.StatusUnsupported, "no")},
			failing: []string{"x86_64/none/interp"},
		},
	}
	names := func(s record.Side) string {
		var ns []string
		for _, c := range s.Configs {
			ns = append(ns, c.Arch+"/"+c.OptLevel+"/"+c.Executor)
		}
		return strings.Join(ns, " ")
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Case(&record.Case{ID: "0123456789abcdef", CLIF: "function %f() {\nblock0:\n    return\n}\n", Results: tt.results})
			failing, expected := Failing(&v)
			var got []string
			for _, s := range failing {
				got = append(got, names(s))
			}
			if !slices.Equal(got, tt.failing) {
				t.Errorf("failing %q, want %q (verdict: %s)", got, tt.failing, v.Summary)
			}
			switch {
			case expected == nil && tt.expected != "":
				t.Errorf("no expected side, want %q", tt.expected)
			case expected != nil && names(*expected) != tt.expected:
				t.Errorf("expected side %q, want %q", names(*expected), tt.expected)
			case expected != nil && !slices.ContainsFunc(v.Sides, func(s record.Side) bool { return &s.Configs[0] == &expected.Configs[0] }):
				t.Errorf("the expected side is not one of the verdict's sides")
			}
		})
	}
}

// TestConfigName checks the compact names of the summaries: full only when
// another configuration has the same compact name.
func TestConfigName(t *testing.T) {
	sse3 := record.Config{Arch: "x86_64", OptLevel: "speed", Executor: record.ExecNative, Flags: []string{"has_sse3"}}
	needs := []string{"enable_llvm_abi_extensions=true", "preserve_frame_pointers=true"}
	rv := func(flags []string, own ...string) record.Config {
		return record.Config{Arch: "riscv64", OptLevel: "speed", Executor: record.ExecQemu, Flags: flags, Settings: append(own, needs...)}
	}
	rvDefault := rv([]string{"has_v", "has_zba", "has_zbb", "has_zbc", "has_zbs"})
	rvBase := rv([]string{}, "regalloc_algorithm=single_pass")
	rvV := rv([]string{"has_v"})
	rvVSingle := rv([]string{"has_v"}, "regalloc_algorithm=single_pass")
	interpNeeds := record.Config{Arch: "interp", OptLevel: "none", Executor: record.ExecInterp, Settings: needs}
	tests := []struct {
		c     record.Config
		among []record.Config
		want  string
	}{
		{x86Speed, nil, "x86_64/speed/native"},
		{x86Speed, []record.Config{x86Speed, riscv, x86None}, "x86_64/speed/native"},
		{campaign(x86Speed), []record.Config{campaign(x86Speed), campaign(x86None)}, "x86_64/speed/native"},
		{x86AVX, []record.Config{x86AVX, sse3}, "x86_64/speed/native:has_avx2,has_bmi2"},
		{sse3, []record.Config{x86AVX, sse3, riscv}, "x86_64/speed/native:has_sse3"},
		{riscv, []record.Config{x86AVX, sse3, riscv}, "riscv64/none/qemu"},
		// The swarm's flag sets and settings of one target: named by
		// their set in lib/arch's table and the settings of their own,
		// not by the eleven flags and the case's settings they share.
		{rvDefault, []record.Config{rvDefault, rvBase, interpNeeds}, "riscv64/speed/qemu:default"},
		{rvBase, []record.Config{rvDefault, rvBase, interpNeeds}, "riscv64/speed/qemu:base+regalloc_algorithm=single_pass"},
		{rvV, []record.Config{rvV, rvBase}, "riscv64/speed/qemu:v"},
		{rvBase, []record.Config{rvV, rvBase}, "riscv64/speed/qemu:base+regalloc_algorithm=single_pass"},
		{rvV, []record.Config{rvV, rvVSingle}, "riscv64/speed/qemu:v"},
		{rvVSingle, []record.Config{rvV, rvVSingle}, "riscv64/speed/qemu:v+regalloc_algorithm=single_pass"},
	}
	for _, tt := range tests {
		if got := ConfigName(tt.c, tt.among); got != tt.want {
			t.Errorf("ConfigName(%s, %d configs) = %q, want %q", tt.c, len(tt.among), got, tt.want)
		}
	}
}

// TestExpectedSideInterpreterWithCompany: the interpreter's answer,
// shared by a compiled configuration, is the expected one even against
// a larger side (the rule cliff-cluster's signatures and cliff-locate's
// passing configurations use too); alone, it is not, unless the other side is no
// more architectures than it.
func TestExpectedSideInterpreterWithCompany(t *testing.T) {
	interp := record.Config{Arch: "interp", OptLevel: "none", Executor: record.ExecInterp}
	x86 := record.Config{Arch: "x86_64", OptLevel: "none", Executor: record.ExecNative}
	rv := record.Config{Arch: "riscv64", OptLevel: "none", Executor: record.ExecQemu}
	arm := record.Config{Arch: "aarch64", OptLevel: "none", Executor: record.ExecQemu}
	s390 := record.Config{Arch: "s390x", OptLevel: "none", Executor: record.ExecQemu}
	withCompany := []record.Side{
		{Configs: []record.Config{rv, arm, s390}, Status: record.StatusOK},
		{Configs: []record.Config{interp, x86}, Status: record.StatusOK},
	}
	if got := ExpectedSide(withCompany); got != 1 {
		t.Errorf("interpreter with company: side %d, want 1", got)
	}
	alone := []record.Side{
		{Configs: []record.Config{rv, arm, s390}, Status: record.StatusOK},
		{Configs: []record.Config{interp}, Status: record.StatusOK},
	}
	if got := ExpectedSide(alone); got != 0 {
		t.Errorf("interpreter alone: side %d, want 0", got)
	}
	// One target's three opt levels against the interpreter: one
	// architecture against one, the interpreter's answer is taken.
	rvAt := func(opt string) record.Config { c := rv; c.OptLevel = opt; return c }
	oneTarget := []record.Side{
		{Configs: []record.Config{rvAt("none"), rvAt("speed"), rvAt("speed_and_size")}, Status: record.StatusOK},
		{Configs: []record.Config{interp}, Status: record.StatusOK},
	}
	if got := ExpectedSide(oneTarget); got != 1 {
		t.Errorf("one target's opt levels against the interpreter: side %d, want 1", got)
	}
	// Architectures outvote opt levels: two targets at one level against
	// one target at three.
	twoArches := []record.Side{
		{Configs: []record.Config{rvAt("none"), rvAt("speed"), rvAt("speed_and_size")}, Status: record.StatusOK},
		{Configs: []record.Config{x86, arm}, Status: record.StatusOK},
	}
	if got := ExpectedSide(twoArches); got != 1 {
		t.Errorf("two architectures against one at three levels: side %d, want 1", got)
	}
	// Within one architecture, the opt levels that agree win.
	levels := []record.Side{
		{Configs: []record.Config{rvAt("none")}, Status: record.StatusOK},
		{Configs: []record.Config{rvAt("speed"), rvAt("speed_and_size")}, Status: record.StatusOK},
	}
	if got := ExpectedSide(levels); got != 1 {
		t.Errorf("one level against two of one architecture: side %d, want 1", got)
	}
	if got := ExpectedSide([]record.Side{{Configs: []record.Config{x86}, Status: record.StatusCrash}}); got != -1 {
		t.Errorf("no answer: side %d, want -1", got)
	}
}
