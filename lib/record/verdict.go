package record

import "fmt"

// A Verdict is cliff-diff's judgement of one case, from comparing its
// RunResults across configurations. cliff-cluster groups verdicts;
// cliff-locate reads the interesting ones.
type Verdict struct {
	Kind    string  `json:"kind"`
	Version int     `json:"v"`
	CaseID  string  `json:"case_id"`
	Verdict Outcome `json:"verdict"`
	// Input is the first input vector on which the configurations disagree
	// (nil when not about one input, e.g. a compile crash).
	Input *int `json:"input,omitempty"`
	// Sides group the configurations by outcome: each side agrees within
	// itself and differs from the others. A divergence has two or more; a
	// crash or timeout, at least the one side that failed.
	Sides   []Side `json:"sides,omitempty"`
	Summary string `json:"summary,omitempty"` // one line for humans
	// Symptom is, for a regression or fixed verdict, the failure it is
	// about (divergent, compile_crash, ...): Failure's answer.
	Symptom Outcome `json:"symptom,omitempty"`
	// Case is the case itself, included for verdicts other than
	// "consistent" so that later tools need not join on CaseID.
	Case *Case `json:"case,omitempty"`
}

// Outcome is the verdict on a case.
type Outcome string

// Verdicts.
const (
	OutcomeConsistent Outcome = "consistent" // every configuration agrees
	OutcomeDivergent  Outcome = "divergent"  // configurations compute different outputs or traps: a miscompile
	// OutcomeReferenceDivergent: every configuration of Cranelift that
	// answered (compiled code and its interpreter) agrees, but cliff's
	// reference (ExecRef) answered otherwise: a bug in a part all of
	// Cranelift shares (its mid-end, its documented semantics), which no
	// comparison of Cranelift with itself can see, or one in the
	// reference; the reference's side carries the expected outputs.
	OutcomeReferenceDivergent Outcome = "reference_divergent"
	OutcomeCompileError       Outcome = "compile_error" // some configurations reject the case (a generator or Cranelift bug)
	OutcomeCompileCrash       Outcome = "compile_crash" // Cranelift panicked in some configuration
	OutcomeCrash              Outcome = "crash"         // compiled code crashed
	OutcomeTimeout            Outcome = "timeout"       // some configuration ran out of time
	OutcomeHarnessError       Outcome = "harness_error" // cliff failed: no judgement on Cranelift
	// OutcomeStackOverflow and OutcomeUnsupported: no configuration left to
	// compare, because the runs that did not answer hit the stack limit
	// (StatusStackOverflow) or could not run the case at all
	// (StatusUnsupported). Neither is a judgement on Cranelift.
	OutcomeStackOverflow Outcome = "stack_overflow"
	OutcomeUnsupported   Outcome = "unsupported"
	// OutcomeRegression and OutcomeFixed compare versions of Cranelift
	// (Config.Cranelift): the newest version tested fails (Symptom says
	// how) where an older one is right, or the reverse.
	OutcomeRegression Outcome = "regression"
	OutcomeFixed      Outcome = "fixed"
)

// Failure is the failure a verdict shows: its Symptom for a regression
// or fixed verdict, else the verdict itself.
func (v *Verdict) Failure() Outcome {
	if v.Symptom != "" {
		return v.Symptom
	}
	return v.Verdict
}

// Outcomes lists every verdict.
func Outcomes() []Outcome {
	return []Outcome{OutcomeConsistent, OutcomeDivergent, OutcomeReferenceDivergent, OutcomeCompileError, OutcomeCompileCrash, OutcomeCrash, OutcomeTimeout, OutcomeHarnessError, OutcomeStackOverflow, OutcomeUnsupported, OutcomeRegression, OutcomeFixed}
}

// A Side is a group of configurations that ended the same way.
type Side struct {
	Configs []Config `json:"configs"`
	Status  Status   `json:"status"`
	Hash    string   `json:"hash,omitempty"`   // their common output hash
	Output  string   `json:"output,omitempty"` // their output for the verdict's Input
}

// InputIndex returns a pointer to i, for Verdict.Input.
func InputIndex(i int) *int { return &i }

// RecordKind implements Record.
func (*Verdict) RecordKind() string { return KindVerdict }

// Stamp implements Record.
func (v *Verdict) Stamp() { v.Kind, v.Version = KindVerdict, SchemaVersion }

// Validate checks the required fields, the sides and the embedded case.
func (v *Verdict) Validate() error {
	p := newProblems(KindVerdict, v.CaseID)
	p.header(v.Kind, v.Version, KindVerdict, false)
	p.require("case_id", v.CaseID)
	oneOf(p, "verdict", v.Verdict, Outcomes()...)
	if v.Input != nil && *v.Input < 0 {
		p.addf("input", "%d is negative", *v.Input)
	}
	if (v.Failure() == OutcomeDivergent || v.Failure() == OutcomeReferenceDivergent) && len(v.Sides) < 2 {
		p.addf("sides", "%d for a divergence, want at least 2", len(v.Sides))
	}
	switch {
	case (v.Verdict == OutcomeRegression || v.Verdict == OutcomeFixed) && v.Symptom == "":
		p.addf("symptom", "missing for a %s verdict", v.Verdict)
	case v.Symptom != "" && v.Verdict != OutcomeRegression && v.Verdict != OutcomeFixed:
		p.addf("symptom", "%q on a %s verdict, only regression and fixed have one", v.Symptom, v.Verdict)
	case v.Symptom != "":
		oneOf(p, "symptom", v.Symptom, OutcomeDivergent, OutcomeReferenceDivergent, OutcomeCompileError, OutcomeCompileCrash, OutcomeCrash, OutcomeTimeout)
	}
	for i, s := range v.Sides {
		field := fmt.Sprintf("sides[%d]", i)
		if len(s.Configs) == 0 {
			p.addf(field+".configs", "missing")
		}
		for j, c := range s.Configs {
			c.validate(p, fmt.Sprintf("%s.configs[%d]", field, j))
		}
		oneOf(p, field+".status", s.Status, Statuses()...)
		if s.Hash != "" {
			p.hash(field+".hash", s.Hash)
		}
	}
	if v.Case != nil {
		if err := v.Case.Validate(); err != nil {
			p.addf("case", "%v", err)
		}
		if v.Case.ID != v.CaseID {
			p.addf("case.id", "%q, but case_id is %q", v.Case.ID, v.CaseID)
		}
	}
	return p.err()
}
