package census

import (
	"regexp"
	"slices"
	"strings"

	"cliff/lib/cluster"
	"cliff/lib/internal/deflist"
	"cliff/lib/judge"
	"cliff/lib/record"
)

// A Class is what the census says about one combination on one target.
type Class string

// The classes, worst first (Classes).
const (
	ClassPanic     Class = "panic"
	ClassWrong     Class = "wrong"
	ClassQemu      Class = "qemu"
	ClassUnlowered Class = "unlowered"
	ClassInvalid   Class = "invalid"
	ClassError     Class = "error"
	ClassHarness   Class = "harness"
	ClassInterp    Class = "interp"
	ClassFine      Class = "fine"
)

// classes lists the classes worst first, each with what it means to the
// user (cliff-census's --help and the README list them: ClassList).
var classes = []deflist.Def{
	{Term: string(ClassPanic), Means: "Cranelift panicked (detail: the ISLE rule line or panic site)"},
	{Term: string(ClassWrong), Means: "the code answered otherwise than the interpreter (else than the other targets), trapped, crashed or timed out"},
	{Term: string(ClassQemu), Means: "QEMU's fault: it aborted on an assertion, or a wrong answer under QEMU that known.mask lists as a QEMU bug"},
	{Term: string(ClassUnlowered), Means: `"should be implemented in ISLE" (or another Unsupported error)`},
	{Term: string(ClassInvalid), Means: "Cranelift's verifier rejects it: cliff's verifier discrepancy"},
	{Term: string(ClassError), Means: "another compile error"},
	{Term: string(ClassHarness), Means: "cliff's own failure"},
	{Term: string(ClassInterp), Means: "the target answered as the other targets, and the interpreter alone otherwise"},
	{Term: string(ClassFine), Means: "every configuration compiled it and answered right"},
}

// Classes lists the classes worst first: a combination takes the first
// class one of its configurations shows.
func Classes() []Class {
	out := make([]Class, len(classes))
	for i, d := range classes {
		out[i] = Class(d.Term)
	}
	return out
}

// ClassList lists the classes worst first with what each means, as
// cliff-census's --help and the README print them.
func ClassList() string { return deflist.Format(classes) }

func worse(a, b Class) Class {
	if slices.Index(Classes(), a) <= slices.Index(Classes(), b) {
		return a
	}
	return b
}

// A Finding is the classification of one combination on one target.
type Finding struct {
	Class Class
	// Configs are the configurations that show Class (for fine, every
	// one that ran).
	Configs []record.Config
	// Detail is lib/cluster's diagnostic K of the failure ("panic: ... @
	// src/isa/x64/lower.isle:354", "i8 value"), or the first message.
	Detail string
	// Message is the first failing configuration's message as cliff-run
	// wrote it.
	Message string
}

var (
	unlowered = regexp.MustCompile(`should be implemented in ISLE|Unsupported (?:feature|type)`)
	verifier  = regexp.MustCompile(`(?i)verifier`)
	qemuAbort = regexp.MustCompile(`(?i)qemu|Assertion .* failed`)
)

// Classify classifies target's results among all of a case's results
// (every target's and the interpreter's). ok is false when the target has
// no result that says anything (none, or only unsupported and
// stack_overflow). qemuKnown reports whether known.mask lists the
// combination as a QEMU bug on the target's architecture: a crash or
// timeout under QEMU is then the emulator's. The other flag sets of the
// same architecture vote as that architecture (expectedAnswer): they are one
// backend.
func Classify(target Target, all []record.RunResult, qemuKnown bool) (f Finding, ok bool) {
	var mine, interp, others []record.RunResult
	for _, r := range all {
		switch {
		case r.Config.Executor == record.ExecInterp:
			interp = append(interp, r)
		case TargetOf(r.Config) == target:
			mine = append(mine, r)
		default:
			others = append(others, r)
		}
	}
	f.Class = ClassFine
	classOf := make([]Class, len(mine))
	for i, r := range mine {
		switch r.Status {
		case record.StatusCompileError:
			switch {
			case unlowered.MatchString(r.Message):
				classOf[i] = ClassUnlowered
			case verifier.MatchString(r.Message):
				classOf[i] = ClassInvalid
			default:
				classOf[i] = ClassError
			}
		case record.StatusCompileCrash:
			classOf[i] = ClassPanic
		case record.StatusHarnessError:
			classOf[i] = ClassHarness
			if r.Config.Executor == record.ExecQemu && qemuAbort.MatchString(r.Message) {
				classOf[i] = ClassQemu
			}
		case record.StatusCrash, record.StatusTimeout:
			classOf[i] = ClassWrong
		case record.StatusOK, record.StatusTrap:
			classOf[i] = ClassFine
		default: // unsupported, stack_overflow: nothing said
			continue
		}
		ok = true
	}
	if !ok {
		return f, false
	}
	exp, interpAlone := expectedAnswer(interp, mine, others)
	if exp == nil {
		// No expected answer: the target's opt levels still must agree, the
		// answer most of them give taken as right.
		exp = mostCommon(answered(mine))
	}
	for i, r := range mine {
		if !judge.Answered(r.Status) {
			continue
		}
		switch {
		case exp == nil: // nothing to compare with
		case !agree(r, *exp):
			classOf[i] = ClassWrong
		case interpAlone:
			classOf[i] = ClassInterp
		}
	}
	for i, r := range mine {
		// A crash or hang under QEMU on a combination known.mask lists as
		// QEMU's is the emulator's; a wrong value there may be another
		// bug (Cranelift's), so it stays wrong.
		if classOf[i] == ClassWrong && r.Config.Executor == record.ExecQemu && qemuKnown && !judge.Answered(r.Status) {
			classOf[i] = ClassQemu
		}
		if classOf[i] != "" {
			f.Class = worse(f.Class, classOf[i])
		}
	}
	var shown []record.RunResult
	for i, r := range mine {
		if classOf[i] == f.Class {
			f.Configs = append(f.Configs, r.Config)
			shown = append(shown, r)
			if f.Message == "" && r.Message != "" {
				f.Message = r.Message
			}
		}
	}
	if f.Class != ClassFine {
		var exps []record.RunResult
		if exp != nil {
			exps = append(exps, *exp)
		}
		if f.Class == ClassInterp {
			exps = answered(interp)[:1]
		}
		f.Detail = detail(f.Class, shown, exps)
	}
	return f, true
}

// expectedAnswer returns the answer the target's are measured against, nil
// when there is none: the interpreter's when a compiled configuration of
// any target shares it (the documented semantics, confirmed); else, when
// the interpreter answered otherwise than every target, the answer two or
// more targets share (then interpAlone: the interpreter is the odd one
// out, not the backends); else the interpreter's (one target alone
// against it: the target is wrong). Without the interpreter's answer, the
// answer most targets share. Targets, not configurations, vote: the opt
// levels of one backend are not independent witnesses.
func expectedAnswer(interp, mine, others []record.RunResult) (exp *record.RunResult, interpAlone bool) {
	compiled := append(answered(mine), answered(others)...)
	// An answer and the targets that gave it.
	type answer struct {
		r       record.RunResult
		targets []string
	}
	var answers []*answer
	for _, r := range compiled {
		i := slices.IndexFunc(answers, func(a *answer) bool { return agree(a.r, r) })
		if i < 0 {
			answers = append(answers, &answer{r: r})
			i = len(answers) - 1
		}
		if !slices.Contains(answers[i].targets, r.Config.Arch) {
			answers[i].targets = append(answers[i].targets, r.Config.Arch)
		}
	}
	// The most shared answer, the first on a tie.
	var best *answer
	for _, a := range answers {
		if best == nil || len(a.targets) > len(best.targets) {
			best = a
		}
	}
	if in := answered(interp); len(in) > 0 {
		if slices.ContainsFunc(compiled, func(r record.RunResult) bool { return agree(r, in[0]) }) || best == nil || len(best.targets) < 2 {
			return &in[0], false
		}
		return &best.r, true
	}
	if best == nil || len(best.targets) < 2 {
		return nil, false
	}
	return &best.r, false
}

// mostCommon returns the answer most of rs give (the first on a tie),
// nil when there are fewer than two.
func mostCommon(rs []record.RunResult) *record.RunResult {
	if len(rs) < 2 {
		return nil
	}
	best, bestN := -1, 0
	for i, r := range rs {
		n := 0
		for _, q := range rs {
			if agree(r, q) {
				n++
			}
		}
		if n > bestN {
			best, bestN = i, n
		}
	}
	return &rs[best]
}

// agree reports whether two results are the same answer (lib/judge's
// comparison: the same hash, or the same trap on the same input).
func agree(a, b record.RunResult) bool {
	return judge.Case(&record.Case{ID: "census", Results: []record.RunResult{a, b}}).Verdict == record.OutcomeConsistent
}

func answered(rs []record.RunResult) []record.RunResult {
	var out []record.RunResult
	for _, r := range rs {
		if judge.Answered(r.Status) {
			out = append(out, r)
		}
	}
	return out
}

// detail is lib/cluster's diagnostic of the failing results against the
// expected answer.
func detail(c Class, failing, exp []record.RunResult) string {
	results := failing
	if c == ClassWrong || c == ClassQemu {
		results = append(slices.Clone(failing), exp...)
	}
	v := judge.Case(&record.Case{ID: "census", Results: results})
	if v.Verdict == record.OutcomeConsistent {
		return firstLine(failing[0].Message)
	}
	if d := cluster.SignatureOf(&v).Diagnostic; d != "" {
		return d
	}
	return firstLine(failing[0].Message)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// OptLevels are the distinct opt levels of configs, in order of first
// appearance.
func OptLevels(configs []record.Config) []string {
	var out []string
	for _, c := range configs {
		if !slices.Contains(out, c.OptLevel) {
			out = append(out, c.OptLevel)
		}
	}
	return out
}
