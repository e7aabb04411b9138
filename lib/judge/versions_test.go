package judge

import (
	"strings"
	"testing"

	"cliff/lib/record"
)

// at is c compiled by Cranelift version label.
func at(c record.Config, label string) record.Config {
	c.Cranelift = label
	return c
}

func TestVersionVerdicts(t *testing.T) {
	tests := []struct {
		name    string
		results []record.RunResult
		want    record.Outcome
		symptom record.Outcome
		summary string // a part of it
	}{
		{
			name: "the old version miscompiles, the new one agrees with the reference: fixed",
			results: []record.RunResult{
				ok(at(x86Speed, "0.135.8"), hashB, "i8x16 0x2"), ok(at(x86Speed, "0.137.1"), hashA, "i8x16 0x1"), ok(ref, hashA, "i8x16 0x1"),
			},
			want: record.OutcomeFixed, symptom: record.OutcomeDivergent,
			summary: "fixed: Cranelift 0.135.8 fails where 0.137.1 is right",
		},
		{
			name: "the new version miscompiles: regression, whatever order the results came in",
			results: []record.RunResult{
				ok(at(x86Speed, "0.137.1"), hashB, "i32 0x2"), ok(at(interp, "0.137.1"), hashA, "i32 0x1"),
				ok(at(x86Speed, "0.135.8"), hashA, "i32 0x1"), ok(at(interp, "0.135.8"), hashA, "i32 0x1"),
			},
			want: record.OutcomeRegression, symptom: record.OutcomeDivergent,
			summary: "regression: Cranelift 0.137.1 fails where 0.135.8 is right",
		},
		{
			name: "versions order by number, not text: 0.99 is older than 0.135",
			results: []record.RunResult{
				failed(at(x86Speed, "0.99.0"), record.StatusCompileCrash, "panic"), ok(at(x86Speed, "0.135.8"), hashA, "i32 0x1"), ok(ref, hashA, "i32 0x1"),
			},
			want: record.OutcomeFixed, symptom: record.OutcomeCompileCrash,
		},
		{
			name: "a panic in the newest version only: regression of a compile_crash",
			results: []record.RunResult{
				ok(at(x86Speed, "0.135.8"), hashA, "i32 0x1"), failed(at(x86Speed, "0.137.1"), record.StatusCompileCrash, "panic"),
			},
			want: record.OutcomeRegression, symptom: record.OutcomeCompileCrash,
		},
		{
			name: "both versions fail alike: the plain verdict",
			results: []record.RunResult{
				ok(at(x86Speed, "0.135.8"), hashB, "i32 0x2"), ok(at(x86Speed, "0.137.1"), hashB, "i32 0x2"), ok(ref, hashA, "i32 0x1"),
			},
			want: record.OutcomeReferenceDivergent,
		},
		{
			name: "two old versions cannot outvote the reference: the newest is right",
			results: []record.RunResult{
				ok(at(x86Speed, "0.120.2"), hashB, "i32 0x2"), ok(at(x86Speed, "0.130.2"), hashB, "i32 0x2"),
				ok(at(x86Speed, "0.137.1"), hashA, "i32 0x1"), ok(ref, hashA, "i32 0x1"),
			},
			want: record.OutcomeFixed, symptom: record.OutcomeDivergent,
			summary: "fixed: Cranelift 0.120.2, 0.130.2 fails where 0.137.1 is right",
		},
		{
			name: "two versions' interpreters agreeing are not confirmed by compiled code",
			results: []record.RunResult{
				ok(at(interp, "0.135.8"), hashA, "i32 0x1"), ok(at(interp, "0.137.1"), hashA, "i32 0x1"),
				ok(at(x86Speed, "0.135.8"), hashB, "i32 0x2"), ok(at(riscv, "0.135.8"), hashB, "i32 0x2"),
				ok(at(x86Speed, "0.137.1"), hashB, "i32 0x2"), ok(at(riscv, "0.137.1"), hashB, "i32 0x2"),
			},
			// Two architectures against the interpreter alone: the
			// interpreter is blamed, on both versions alike.
			want: record.OutcomeDivergent,
		},
		{
			name: "one version only: never a version verdict",
			results: []record.RunResult{
				ok(at(x86Speed, "0.137.1"), hashB, "i32 0x2"), ok(ref, hashA, "i32 0x1"),
			},
			want: record.OutcomeReferenceDivergent,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &record.Case{ID: "c", CLIF: "function %f() -> i32 {\nblock0:\n    v0 = iconst.i32 1\n    return v0\n}\n", Entry: "%f", Results: tt.results}
			c.Stamp()
			v := Case(c)
			if v.Verdict != tt.want || v.Symptom != tt.symptom {
				t.Fatalf("verdict %s (symptom %q), want %s (%q): %s", v.Verdict, v.Symptom, tt.want, tt.symptom, v.Summary)
			}
			if !strings.Contains(v.Summary, tt.summary) {
				t.Errorf("summary %q, want it to contain %q", v.Summary, tt.summary)
			}
			if err := v.Validate(); err != nil {
				t.Errorf("the verdict does not validate: %v", err)
			}
			if v.Failure() == record.OutcomeDivergent {
				if failing, _ := Failing(&v); len(failing) == 0 {
					t.Errorf("a divergence with no failing side")
				}
			}
		})
	}
}
