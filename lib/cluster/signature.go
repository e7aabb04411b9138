package cluster

import (
	"cmp"
	"slices"
	"strings"

	"cliff/lib/internal/deflist"
	"cliff/lib/judge"
	"cliff/lib/record"
)

// A Signature is CLIR's S = ⟨R, K⟩ of a failing verdict, canonical: two
// verdicts with the same root cause get the same signature whatever their
// value numbers, paths or incidental opt levels (see the package comment).
type Signature struct {
	Verdict record.Outcome
	// Failing is R: the failing configurations, abstracted, e.g.
	// "x86_64/*", "aarch64/opt,x86_64/opt", "riscv64[has_zbs]/*".
	Failing string
	// Blamed are the names Failing's parts start with, sorted: the
	// architectures, "interp" and "ref", "*" for every compiled
	// architecture, "cranelift" for AllOfCranelift. Computed with
	// Failing, so that no reader parses Failing back (Arches).
	Blamed []string
	// Diagnostic is K: the normalised panic, error, trap or difference.
	Diagnostic string
	// Culprit, set only by a Clusterer given locations (Culprits), is
	// the located shape that tells this root cause from others with the
	// same R and K: cliff-locate's mask entries.
	Culprit string
}

// String is the signature's one-line form: "VERDICT R: K", and " @ "
// and the culprit when there is one.
func (s Signature) String() string {
	out := string(s.Verdict) + " " + s.Failing + ": " + s.Diagnostic
	if s.Culprit != "" {
		out += " @ " + s.Culprit
	}
	return out
}

// Arches are the architectures R blames, for matching known failures:
// Blamed, or nil (all) when R is "*".
func (s Signature) Arches() []string {
	if slices.Contains(s.Blamed, "*") {
		return nil
	}
	return s.Blamed
}

// Hash is the xxhash64 of String, 16 hex digits: short and stable, for
// file names.
func (s Signature) Hash() string { return record.HashString(s.String()) }

// Clustered reports whether verdicts of this kind are Cranelift failures
// that the clusterer groups. Consistent verdicts, cliff's own failures
// (harness_error) and the cases no configuration could be compared on
// (unsupported, stack_overflow) are counted but not clustered.
func Clustered(o record.Outcome) bool { return judge.IsCraneliftFailure(o) }

// ClusteredSentence says which verdicts are clustered and which only
// counted, for cliff-cluster's --help and the README, wrapped as --help
// lists are.
func ClusteredSentence() string {
	var in, out []string
	for _, o := range judge.Outcomes() {
		if Clustered(o) {
			in = append(in, string(o))
		} else {
			out = append(out, string(o))
		}
	}
	return deflist.Wrap("Verdicts "+deflist.Join(in)+" are clustered; "+deflist.Join(out)+
		" are counted (--summary, --report) but not clustered.", deflist.Width)
}

// SignatureOf computes a verdict's signature. A verdict that is not
// Clustered gets its kind alone. The messages come from the results of
// the case the verdict carries; without the case, a failure's diagnostic
// is its status.
func SignatureOf(v *record.Verdict) Signature {
	switch {
	case v.Failure() == record.OutcomeDivergent:
		return divergenceSignature(v)
	case v.Failure() == record.OutcomeReferenceDivergent:
		// All of Cranelift that answered agrees against the reference:
		// which configurations ran is the campaign's choice, not the
		// bug's, so R is all of Cranelift and K alone tells the bugs
		// apart (the reference's output is the expected one).
		s := divergenceSignature(v)
		s.Failing, s.Blamed = AllOfCranelift, []string{"cranelift"}
		return s
	case Clustered(v.Verdict):
		return failureSignature(v)
	}
	return Signature{Verdict: v.Verdict, Failing: "-", Blamed: []string{"-"}, Diagnostic: "-"}
}

// AllOfCranelift is R of a reference_divergent signature: every
// configuration of Cranelift, compiled and interpreted, against cliff's
// reference.
const AllOfCranelift = "cranelift/*"

// failureSignature is the signature of a crash, compile crash, compile
// error or timeout: the runs that failed that way, grouped by their
// normalised message. When runs fail with different messages (two bugs in
// one case) the signature is the message most runs share, the smallest
// in text order on a tie, so that every such case goes to one cluster.
func failureSignature(v *record.Verdict) Signature {
	status := record.Status(v.Failure())
	results := resultsByConfig(v.Case)
	byDiag := map[string][]record.Config{}
	var all []record.Config
	for _, s := range v.Sides {
		// A configuration that did not take the case (unsupported: the
		// interpreter's gaps, riscv64 without V given vectors) neither
		// failed nor passed: counted as passing, its flags would seem
		// to tell the failing configurations apart.
		if judge.NotCompared(record.Outcome(s.Status)) {
			continue
		}
		all = append(all, s.Configs...)
		if s.Status != status {
			continue
		}
		for _, c := range s.Configs {
			d := failureDiagnostic(status, results(c))
			byDiag[d] = append(byDiag[d], c)
		}
	}
	best := ""
	for d, cs := range byDiag {
		if best == "" || len(cs) > len(byDiag[best]) || len(cs) == len(byDiag[best]) && d < best {
			best = d
		}
	}
	if best == "" { // no side with the verdict's status: a malformed verdict
		best = string(status)
	}
	// Releases tested side by side fail alike with messages that differ
	// (an ISLE rule's line moves): another release's failure is not a
	// pass that tells the releases apart.
	all = slices.DeleteFunc(all, func(c record.Config) bool {
		if c.Cranelift == "" || slices.ContainsFunc(byDiag[best], func(f record.Config) bool { return sameConfig(f, c) }) {
			return false
		}
		for d, cs := range byDiag {
			if d != best && slices.ContainsFunc(cs, func(f record.Config) bool { return sameConfig(f, c) }) {
				return true
			}
		}
		return false
	})
	r, blamed := abstractConfigs(byDiag[best], all)
	return Signature{Verdict: v.Verdict, Failing: r, Blamed: blamed, Diagnostic: best}
}

func resultsByConfig(c *record.Case) func(record.Config) *record.RunResult {
	return func(cfg record.Config) *record.RunResult {
		if c == nil {
			return nil
		}
		for i := range c.Results {
			if sameConfig(c.Results[i].Config, cfg) {
				return &c.Results[i]
			}
		}
		return nil
	}
}

// sameConfig is a.String() == b.String() without building the strings.
func sameConfig(a, b record.Config) bool {
	return a.Arch == b.Arch && a.OptLevel == b.OptLevel && a.Executor == b.Executor &&
		slices.Equal(a.Flags, b.Flags) && slices.Equal(a.Settings, b.Settings) && a.Cranelift == b.Cranelift
}

// failureDiagnostic is K for one failed run (nil: the verdict carries no
// case to say more than the status).
func failureDiagnostic(status record.Status, r *record.RunResult) string {
	msg := ""
	if r != nil {
		msg = NormalizeMessage(r.Message)
	}
	var d string
	switch status {
	case record.StatusCompileCrash:
		d = "panic"
	case record.StatusCompileError:
		d = "error"
	case record.StatusCrash:
		d = "crash"
		if r != nil && r.Signal != "" {
			d += " " + r.Signal
		}
	default:
		d = string(status)
	}
	if msg != "" {
		d += ": " + msg
	}
	return d
}

// divergenceSignature is the signature of a divergence: the expected
// side is judge.ExpectedSide's (cliff's reference when it answered, else
// the answer the interpreter shares with at least one compiled
// configuration, else the largest side, the interpreter's on a tie); the
// other answers are the failing side.
func divergenceSignature(v *record.Verdict) Signature {
	answers := answerSides(v)
	var all []record.Config
	for _, s := range answers {
		all = append(all, s.Configs...)
	}
	exp := judge.ExpectedSide(answers)
	if exp < 0 {
		return Signature{Verdict: v.Verdict, Failing: "-", Blamed: []string{"-"}, Diagnostic: "no answers to compare"}
	}
	type wrong struct{ failing, diff string }
	var wrongs []wrong
	var failing []record.Config
	for i, s := range answers {
		if i == exp {
			continue
		}
		failing = append(failing, s.Configs...)
		diff := "outputs differ"
		if v.Input != nil {
			diff = describeDifference(answers[exp].Output, s.Output)
		}
		r, _ := abstractConfigs(s.Configs, all)
		wrongs = append(wrongs, wrong{r, diff})
	}
	var k string
	if len(wrongs) == 1 {
		k = wrongs[0].diff
	} else {
		slices.SortFunc(wrongs, func(a, b wrong) int { return cmp.Compare(a.failing, b.failing) })
		parts := make([]string, len(wrongs))
		for i, w := range wrongs {
			parts[i] = w.failing + " " + w.diff
		}
		k = strings.Join(parts, "; ")
	}
	r, blamed := abstractConfigs(failing, all)
	return Signature{Verdict: v.Verdict, Failing: r, Blamed: blamed, Diagnostic: k}
}

// answerSides are the sides of a divergent verdict that answered (ran to
// an output or a trap), among which the judge picks the expected one.
func answerSides(v *record.Verdict) []record.Side {
	var out []record.Side
	for _, s := range v.Sides {
		if s.Status == record.StatusOK || s.Status == record.StatusTrap {
			out = append(out, s)
		}
	}
	return out
}

// ExpectedSide returns the index among a divergent verdict's sides of
// the answer taken as right (judge.ExpectedSide), or -1 when no side
// answered.
func ExpectedSide(sides []record.Side) int { return judge.ExpectedSide(sides) }

func hasInterpreter(cs []record.Config) bool {
	return slices.ContainsFunc(cs, func(c record.Config) bool { return c.Executor == record.ExecInterp })
}
