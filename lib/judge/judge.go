package judge

import (
	"cmp"
	"slices"
	"strings"

	"cliff/lib/canon"
	"cliff/lib/internal/deflist"
	"cliff/lib/record"
)

// precedence orders the failures a case can show at once; the first one
// present is the verdict, the others are named in the summary. A Cranelift
// developer triaging wants the most certain, most severe bug first:
//
//   - compile_crash: Cranelift panicked; always a Cranelift bug, and the
//     backtrace says where.
//   - crash: the compiled code died on a signal; almost always a miscompile,
//     and a loud one.
//   - divergent: configurations computed different values or traps; a
//     silent miscompile, deterministic and tied to one input vector.
//   - reference_divergent: every configuration of Cranelift that answered
//     agrees, and cliff's reference (lib/refinterp, --arch ref) alone answers
//     otherwise: a bug in what all of Cranelift shares, or in the
//     reference; as certain as a divergence, but after it, since a
//     divergence within Cranelift is the more direct lead.
//   - timeout: may be a miscompiled loop, but also a loaded machine or a slow
//     qemu; the least certain signal about Cranelift, so it yields to a
//     concrete divergence.
//   - compile_error: Cranelift rejected the case in some configuration: a
//     missing lowering or, when every configuration rejects it, a generator
//     bug.
//   - harness_error: cliff itself failed; says nothing about Cranelift. Such
//     results are left out of every comparison, and the verdict is
//     harness_error only when nothing else went wrong.
//   - stack_overflow: a run hit the interpreter's stack limit (depth or
//     frame bytes), or compiled code exhausted its native stack where no
//     configuration answered (endless recursion; see overflowsAsCrashes):
//     a resource limit of that configuration, not a wrong answer. Unlike a timeout it says nothing about Cranelift's code (the
//     interpreter is not compiled code, and compiled code has its own,
//     different stack), so such results are left out of the comparison
//     and the case is judged on the rest; the verdict is stack_overflow
//     only when no configuration answered and nothing else went wrong.
//   - unsupported: a configuration cannot run the case at all (the
//     interpreter lacks an instruction, say); left out and judged on the
//     rest the same way. Its own outcome, apart from stack_overflow: it is
//     permanent for the case (no input or limit helps) and counts what the
//     generator asks of the interpreter, while a stack overflow depends on
//     the case's depth; a campaign's summary keeps the two apart.
//
// Each row says what its verdict means to the user: cliff-diff's --help
// and the README list them (VerdictList).
var verdicts = []deflist.Def{
	{Term: string(record.OutcomeCompileCrash), Means: "Cranelift panicked in some configuration"},
	{Term: string(record.OutcomeCrash), Means: "the compiled code died on a signal"},
	{Term: string(record.OutcomeDivergent), Means: `answers differ; "input" is the first input vector on which they differ, and each side's output on it is given`},
	{Term: string(record.OutcomeReferenceDivergent), Means: "every configuration of Cranelift that answered agrees, but cliff's reference (cliff-run --arch ref) answers otherwise: a bug in what all of Cranelift shares, or in the reference"},
	{Term: string(record.OutcomeTimeout), Means: "some configuration ran out of time"},
	{Term: string(record.OutcomeCompileError), Means: "Cranelift rejected the case in some configuration"},
	{Term: string(record.OutcomeHarnessError), Means: "cliff itself failed in some configuration (nothing else went wrong), or QEMU aborted on an assertion: not a Cranelift failure; such results are never compared"},
	{Term: string(record.OutcomeStackOverflow), Means: "no configuration answered: a run hit the interpreter's stack limit (and nothing else went wrong)"},
	{Term: string(record.OutcomeUnsupported), Means: "no configuration answered: a configuration cannot run the case at all (the interpreter lacks an instruction, say)"},
}

// precedence is the verdicts' outcomes in their order.
var precedence = func() []record.Outcome {
	var out []record.Outcome
	for _, d := range verdicts {
		out = append(out, record.Outcome(d.Term))
	}
	return out
}()

// releaseVerdicts are what several releases refine a failure into.
var releaseVerdicts = []deflist.Def{
	{Term: string(record.OutcomeRegression), Means: "the newest release fails where an older one is right"},
	{Term: string(record.OutcomeFixed), Means: "the reverse: an older release fails, the newest is right"},
}

// Outcomes returns every verdict cliff-diff writes: consistent, the
// failures in precedence order, then what several releases refine a
// failure into.
func Outcomes() []record.Outcome {
	out := append([]record.Outcome{record.OutcomeConsistent}, precedence...)
	for _, d := range releaseVerdicts {
		out = append(out, record.Outcome(d.Term))
	}
	return out
}

// VerdictList lists the failures a verdict can name, in precedence order,
// with what each means, as cliff-diff's --help and the README print them.
func VerdictList() string { return deflist.Format(verdicts) }

// ReleaseVerdictList lists the verdicts several releases refine a failure
// into (regression, fixed), as VerdictList does.
func ReleaseVerdictList() string { return deflist.Format(releaseVerdicts) }

// Precedence returns the failures a verdict can name, most certain and
// severe first (see precedence): the order in which a case's failures are
// chosen as its verdict, and in which cliff-diff counts them.
func Precedence() []record.Outcome { return slices.Clone(precedence) }

// IsCraneliftFailure reports whether a verdict is a failure of Cranelift
// (cliff-diff's exit status 1), as opposed to agreement, a failure of cliff
// itself, or a case no configuration could be compared on.
func IsCraneliftFailure(o record.Outcome) bool {
	return o != record.OutcomeConsistent && o != record.OutcomeHarnessError && !NotCompared(o)
}

// NotCompared reports whether results that ended this way are left out of
// the comparison and the case judged on the others (the verdict only when
// no configuration answered): the limits and gaps of a configuration,
// not Cranelift's.
func NotCompared(o record.Outcome) bool {
	return o == record.OutcomeStackOverflow || o == record.OutcomeUnsupported
}

// Answered reports whether a run produced an answer of the program to
// compare across configurations: values, or a trap (a trap is an outcome
// like a value: every configuration must trap the same way on the same
// input). The other statuses are failures, spelled as the verdicts they
// give.
func Answered(s record.Status) bool {
	return s == record.StatusOK || s == record.StatusTrap
}

// A group is a set of results that ended the same way: a side of the
// verdict.
type group struct {
	key     string
	status  record.Status
	results []*record.RunResult
	// trace is what the group computed, input by input (see trace), from
	// the first member that reported outputs; nil when none did.
	trace []string
}

func (g *group) configs() []record.Config {
	cs := make([]record.Config, len(g.results))
	for i, r := range g.results {
		cs[i] = r.Config
	}
	return cs
}

func (g *group) hasInterpreter() bool {
	return slices.ContainsFunc(g.results, func(r *record.RunResult) bool { return r.Config.Executor == record.ExecInterp })
}

// hasReference reports whether cliff's reference is in the group.
func (g *group) hasReference() bool {
	return slices.ContainsFunc(g.results, func(r *record.RunResult) bool { return r.Config.Executor == record.ExecRef })
}

// onlyReference reports whether the group is the reference's alone.
func (g *group) onlyReference() bool {
	return !slices.ContainsFunc(g.results, func(r *record.RunResult) bool { return r.Config.Executor != record.ExecRef })
}

// referenceGap is the verdict a reference's result gives when the
// reference did not answer, or "" when it did or failed as cliff's
// harness_error. The reference's gaps (an opcode it lacks, behaviour CLIF
// leaves undefined) and its limits (fuel, depth, memory) say nothing
// about Cranelift: they are left out of the comparison, as unsupported
// and, for every limit, stack_overflow (a resource limit of that
// configuration, never a timeout of Cranelift's code).
func referenceGap(r *record.RunResult) record.Outcome {
	if r.Config.Executor != record.ExecRef || Answered(r.Status) || r.Status == record.StatusHarnessError {
		return ""
	}
	if r.Status == record.StatusUnsupported {
		return record.OutcomeUnsupported
	}
	return record.OutcomeStackOverflow
}

// trace returns what a run computed, input by input. A trapping run stops
// at the trapping input, whose entry is canon.TrapText ("trap CODE"):
// cliff-run writes it, and trace adds it to results that leave it out, so a
// trap compares against a value (or another trap) on the input where it
// happened, and the outputs before it are compared too.
func trace(r *record.RunResult) []string {
	if r.Status != record.StatusTrap {
		return r.Outputs
	}
	mark := canon.TrapText(r.Trap)
	if n := len(r.Outputs); n > 0 && r.Outputs[n-1] == mark {
		return r.Outputs
	}
	return append(slices.Clip(r.Outputs), mark)
}

// groupKey says which results are the same outcome. Values compare by their
// hash (cliff-run hashes all outputs); traps by their trace, so the same
// trap code on the same input after the same outputs; crashes by signal;
// the other failures by status alone (their messages hold addresses and
// paths that differ between machines).
func groupKey(r *record.RunResult) string {
	switch r.Status {
	case record.StatusOK:
		return "ok\x00" + r.Hash
	case record.StatusTrap:
		return "trap\x00" + strings.Join(trace(r), "\x00")
	case record.StatusCrash:
		return "crash\x00" + r.Signal
	}
	if referenceGap(r) != "" {
		// Its own side: what the reference could not answer is not
		// Cranelift's failure of the same name.
		return "ref\x00" + string(r.Status)
	}
	return string(r.Status)
}

// sameRun reports whether two results are the same run reported twice (the
// same configuration with the same outcome), as when two files carry a
// case's earlier results: timings and messages do not count.
func sameRun(a, b *record.RunResult) bool {
	return a.Config.String() == b.Config.String() && groupKey(a) == groupKey(b)
}

// mergeRepeats returns the results with each run reported more than once
// kept only the first time (see sameRun), in their order.
func mergeRepeats(results []record.RunResult) []record.RunResult {
	var merged []record.RunResult
	for _, r := range results {
		merged = appendRun(merged, r)
	}
	return merged
}

// appendRun appends r to results unless it is a run already there. The
// same configuration with another outcome is kept: it becomes a side of its
// own.
func appendRun(results []record.RunResult, r record.RunResult) []record.RunResult {
	for i := range results {
		if sameRun(&results[i], &r) {
			return results
		}
	}
	return append(results, r)
}

// groupResults groups results by outcome, in order of first appearance.
func groupResults(results []record.RunResult) []*group {
	var groups []*group
	byKey := map[string]*group{}
	for i := range results {
		r := &results[i]
		key := groupKey(r)
		g := byKey[key]
		if g == nil {
			g = &group{key: key, status: r.Status}
			byKey[key] = g
			groups = append(groups, g)
		}
		g.results = append(g.results, r)
		if g.trace == nil && Answered(r.Status) {
			g.trace = trace(r)
		}
	}
	return groups
}

// firstDifference returns the first input on which the groups' traces
// differ, or -1 when it cannot be told (a group reported a hash but no
// outputs, or the outputs agree although the hashes do not).
func firstDifference(groups []*group) int {
	longest := 0
	for _, g := range groups {
		if len(g.trace) == 0 {
			return -1
		}
		longest = max(longest, len(g.trace))
	}
	for i := range longest {
		for _, g := range groups[1:] {
			if outputAt(g.trace, i) != outputAt(groups[0].trace, i) {
				return i
			}
		}
	}
	return -1
}

// outputAt is trace[i], or "" past its end (the run stopped before input
// i), which differs from every real output.
func outputAt(trace []string, i int) string {
	if i < len(trace) {
		return trace[i]
	}
	return ""
}

// A judgement is everything judge found out about a case, from which the
// verdict and its summary are made.
type judgement struct {
	outcome record.Outcome
	present map[record.Outcome]bool // every failure the case shows
	// gaps are the verdicts of the reference's results that did not
	// answer (referenceGap), by the status of their group.
	gaps    map[record.Status]record.Outcome
	groups  []*group        // sides, in the order written
	input   int             // first differing input, -1 if none or unknown
	results int             // results judged (duplicates merged)
	ran     int             // results that answered (ok or trap)
	configs []record.Config // of every result, for ConfigName
}

// Case compares a case's results across configurations and returns its
// verdict, stamped: the record cliff-diff writes for the case. The same run
// reported twice (the same configuration with the same outcome) counts
// once. A verdict other than consistent carries a copy of the case,
// stamped and with those results (its CLIF, inputs and other fields shared
// with c); c itself is left as it was.
func Case(c *record.Case) record.Verdict {
	judged := *c
	judged.Results = overflowsAsCrashes(mergeRepeats(c.Results))
	return verdict(&judged)
}

// overflowsAsCrashes judges a compiled configuration's stack overflow (the
// harness's SIGSEGV in the stack's guard area) as the crash it was before
// the harness told overflows apart, when another configuration answered:
// code that exhausts eight megabytes of stack where the reference or
// another target computes an answer is Cranelift's failure, not a limit.
// When no configuration answers (endless recursion) it stays
// stack_overflow, as the reference and the interpreter say. results is
// changed in place (mergeRepeats' copy).
func overflowsAsCrashes(results []record.RunResult) []record.RunResult {
	if !slices.ContainsFunc(results, func(r record.RunResult) bool { return Answered(r.Status) }) {
		return results
	}
	for i := range results {
		r := &results[i]
		if r.Status != record.StatusStackOverflow || r.Config.Executor == record.ExecRef || r.Config.Executor == record.ExecInterp {
			continue
		}
		r.Status = record.StatusCrash
		if r.Signal == "" {
			r.Signal = "SIGSEGV"
		}
		r.Message = "while other configurations answered, " + r.Message
	}
	return results
}

// verdict judges a case whose results hold no repeated run, and takes c
// into the verdict.
func verdict(c *record.Case) record.Verdict {
	j := assess(c.Results)
	v := record.Verdict{CaseID: c.ID, Verdict: j.outcome, Summary: j.summary()}
	v.Stamp()
	if j.input >= 0 {
		v.Input = record.InputIndex(j.input)
	}
	for _, g := range j.groups {
		side := record.Side{Configs: g.configs(), Status: g.status, Hash: commonHash(g)}
		if j.input >= 0 && Answered(g.status) {
			side.Output = outputAt(g.trace, j.input)
		}
		v.Sides = append(v.Sides, side)
	}
	versionVerdict(&v)
	if j.outcome != record.OutcomeConsistent {
		c.Stamp()
		v.Case = c
	}
	return v
}

// assess groups the results and applies the precedence.
func assess(results []record.RunResult) judgement {
	j := judgement{present: map[record.Outcome]bool{}, gaps: map[record.Status]record.Outcome{}, input: -1, results: len(results)}
	for _, r := range results {
		j.configs = append(j.configs, r.Config)
	}
	j.groups = groupResults(results)
	var answers []*group
	for _, g := range j.groups {
		switch gap := referenceGap(g.results[0]); {
		case Answered(g.status):
			answers = append(answers, g)
			j.ran += len(g.results)
		case gap != "":
			j.gaps[g.status] = gap
			j.present[gap] = true
		default:
			// The failure statuses are spelled as the verdicts they give.
			j.present[record.Outcome(g.status)] = true
		}
	}
	switch {
	case len(answers) == 2 && slices.ContainsFunc(answers, (*group).onlyReference):
		// All of Cranelift that answered agrees; the reference does not.
		j.present[record.OutcomeReferenceDivergent] = true
		j.input = firstDifference(answers)
	case len(answers) > 1:
		j.present[record.OutcomeDivergent] = true
		j.input = firstDifference(answers)
	}
	j.outcome = record.OutcomeConsistent
	for _, o := range precedence {
		if j.present[o] {
			j.outcome = o
			break
		}
	}
	if NotCompared(j.outcome) && j.ran > 0 {
		// Judged on the configurations that answered.
		j.outcome = record.OutcomeConsistent
	}
	j.groups = orderSides(j.groups, j.outcome, j.gaps)
	return j
}

// orderSides sorts the sides for reading: the sides that failed the way the
// verdict says first; then the answers, cliff's reference's first, then
// Cranelift's interpreter's, then the larger ones; then the other
// failures by precedence; cliff's own failures last.
func orderSides(groups []*group, verdict record.Outcome, gaps map[record.Status]record.Outcome) []*group {
	rank := func(g *group) int {
		if gap, ok := gaps[g.status]; ok && g.onlyReference() {
			return 2 + slices.Index(precedence, gap)
		}
		switch {
		case string(g.status) == string(verdict):
			return 0
		case Answered(g.status):
			return 1
		case g.status == record.StatusHarnessError:
			return len(precedence) + 2
		}
		return 2 + slices.Index(precedence, record.Outcome(g.status))
	}
	sorted := slices.Clone(groups)
	slices.SortStableFunc(sorted, func(a, b *group) int {
		if c := cmp.Compare(rank(a), rank(b)); c != 0 {
			return c
		}
		if a.hasReference() != b.hasReference() {
			if a.hasReference() {
				return -1
			}
			return 1
		}
		if a.hasInterpreter() != b.hasInterpreter() {
			if a.hasInterpreter() {
				return -1
			}
			return 1
		}
		return cmp.Compare(len(b.results), len(a.results))
	})
	return sorted
}

// commonHash is the output hash the group's members share, if they report
// one.
func commonHash(g *group) string {
	h := g.results[0].Hash
	for _, r := range g.results[1:] {
		if r.Hash != h {
			return ""
		}
	}
	return h
}
