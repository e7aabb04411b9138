package locaterun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"cliff/lib/bisect"
	"cliff/lib/cluster"
	"cliff/lib/cranelift"
	"cliff/lib/engine"
	"cliff/lib/filetest"
	"cliff/lib/iredit"
	"cliff/lib/judge"
	"cliff/lib/locate"
	"cliff/lib/profile"
	"cliff/lib/record"
	"cliff/lib/reduce"
)

// A locator locates and reduces one failure after another on one engine.
type locator struct {
	opts Options
	eng  *engine.Engine
	sum  *Summary
}

// locate handles one failure: re-run on the configurations at stake to
// fix the signature to keep, localise, reduce, render the reduced
// filetest and append the mask entry. A failure that does not show again
// gets a location record that says so, at no level.
func (l *locator) locate(ctx context.Context, t target) (*record.Location, error) {
	start := time.Now()
	v := t.verdict
	entry := v.Case.Entry
	if entry == "" {
		// The first function, as for the engine: a location names one.
		if c, err := reduce.NewCandidate(v.Case, nil); err == nil {
			entry = c.Entry
		}
	}
	loc := &record.Location{CaseID: v.CaseID, Function: entry}
	if t.cluster != nil {
		loc.Cluster = cluster.PlainHash(t.cluster)
	}
	loc.Stamp()
	stakes := pickStakes(v)
	if len(stakes) == 0 {
		loc.Notes = append(loc.Notes, "no failing configuration in the verdict")
		return l.noRepro(loc, t), nil
	}
	oracle := &engineOracle{eng: l.eng}
	cand, want, st, err := l.reproduce(ctx, oracle, v, stakes)
	if err != nil {
		return nil, err
	}
	if cand == nil {
		loc.Notes = append(loc.Notes, fmt.Sprintf("%s on %s, nor on all of the verdict's configurations", errNoRepro, configNames(stakes[0].configs())))
		return l.noRepro(loc, t), nil
	}
	loc.Function = cand.Entry
	loc.Signature = want
	loc.Configs = cand.Configs

	budget := l.opts.Budget
	if budget <= 0 {
		budget = time.Hour
	}
	bctx, cancel := context.WithTimeoutCause(ctx, budget, errBudget)
	defer cancel()
	tester := reduce.NewTester(oracle, want)
	// Eight candidates per engine run: one object and one executable per
	// configuration for all of them, several times cheaper than one each.
	tester.Batch = 8
	if len(st.finalPassing) > 0 {
		// The file's passing targets must pass on every candidate kept,
		// as they did on the original: a compile failure is reduced on its
		// failing configuration alone, which would let a setting they need
		// go (issue 27: enable_llvm_abi_extensions, and x86_64 failing the
		// reduced file on its i128 param).
		tester.Passing = func(c *reduce.Candidate) []record.Config { return finalPassing(st, c) }
		if ok, err := tester.Holds1(ctx, cand); err != nil {
			return nil, err
		} else if !ok {
			tester.Passing = nil
			loc.Notes = append(loc.Notes, fmt.Sprintf("%s failed on the original case run alone: reduction does not keep it passing", configNames(finalPassing(st, cand))))
		}
	}

	where, err := locate.Locate(bctx, tester, cand)
	switch {
	case err == nil:
		rec := where.Record(v.CaseID)
		loc.Function, loc.Block, loc.Inst, loc.Level = rec.Function, rec.Block, rec.Inst, rec.Level
		loc.Notes = append(loc.Notes, rec.Notes...)
	case overBudget(ctx, err):
		loc.Notes = append(loc.Notes, "localisation ran out of the time budget")
	default:
		return nil, fmt.Errorf("locate: %w", err)
	}

	res, err := reduce.Reduce(bctx, tester, cand, reduce.Options{Input: v.Input})
	reduced := cand
	switch {
	case err == nil:
		reduced = res.Case
		if !res.Fixed {
			loc.Notes = append(loc.Notes, fmt.Sprintf("reduction stopped after %d rounds, before a fixed point", res.Rounds))
		}
	case overBudget(ctx, err):
		if res != nil && res.Case != nil {
			reduced = res.Case
		}
		loc.Notes = append(loc.Notes, "reduction ran out of the time budget: the file is the smallest found by then")
	default:
		return nil, fmt.Errorf("reduce: %w", err)
	}

	// An instruction the original case hid among others often stands
	// out in the reduced one: noted (the location's block and instruction
	// are the original case's).
	if loc.Level != record.LocInstruction && ctx.Err() == nil {
		if w, err := locate.Locate(ctx, tester, reduced); err == nil && w.Level == record.LocInstruction {
			loc.Notes = append(loc.Notes, fmt.Sprintf("instruction found in the reduced case: %s", w.Text))
		}
	}

	final, err := l.finalVerdict(ctx, reduced, want, v.CaseID, st)
	if err != nil {
		return nil, err
	}
	if loc.Repro, err = reproFile(final, reduced, want, reproNotes(t, cand, reduced), finalPassing(st, reduced)); err != nil {
		return nil, fmt.Errorf("the reduced file: %w", err)
	}
	path := l.opts.reproPath(record.HashString(want), loc.Repro)
	// The file is for upstream: Cranelift's own reader must take it, run
	// lines and all. A file it rejects is cliff's bug, not a finding.
	if _, err := l.eng.ParseTest(ctx, loc.Repro); err != nil {
		return nil, fmt.Errorf("the reduced file does not parse with Cranelift's reader (a cliff bug): %w\n%s", err, loc.Repro)
	}
	if path != "" {
		if err := os.WriteFile(path, []byte(loc.Repro), 0o644); err != nil {
			return nil, err
		}
	}
	if l.opts.Bisect != "" && ctx.Err() == nil {
		b, err := l.bisect(ctx, loc)
		if err != nil {
			if ctx.Err() != nil {
				return nil, context.Cause(ctx)
			}
			loc.Notes = append(loc.Notes, "bisect: "+err.Error())
		}
		loc.Bisect = b
	}
	var cul *locate.Culprit
	if bctx.Err() == nil {
		if cul, err = locate.FindCulprit(bctx, tester, reduced, final.Failure() != record.OutcomeDivergent); err != nil && !overBudget(ctx, err) {
			return nil, fmt.Errorf("culprit: %w", err)
		}
	}
	if cul != nil {
		loc.Notes = append(loc.Notes, fmt.Sprintf("culprit in the reduced case: %s (%d instructions needed)", cul.Text, cul.Needed))
	}
	entries, err := maskEntries(loc, cul, final)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		loc.Mask = append(loc.Mask, profile.FormatMaskEntry(e))
	}
	if err := l.appendMask(entries, want, path); err != nil {
		return nil, err
	}
	failingFn := loc.Function
	if cul != nil {
		failingFn = cul.Function
	}
	n := reduction(want, cand, reduced, failingFn, oracle.runs, time.Since(start), loc.Level)
	l.sum.Reduced = append(l.sum.Reduced, n)
	l.sum.Located++
	l.sum.Levels[loc.Level]++
	loc.Notes = append(loc.Notes, fmt.Sprintf("reduced from %d to %d instructions (%d in %s) in %d runs, %.1fs",
		n.Before, n.After, n.FailingAfter, failingFn, n.OracleRuns, n.Elapsed.Seconds()))
	fmt.Fprintf(l.opts.Log, "cliff-locate: %s: %s: %s level, %d -> %d instructions, %d runs, %.1fs\n",
		t.from, want, orNone(loc.Level), n.Before, n.After, n.OracleRuns, n.Elapsed.Seconds())
	return loc, nil
}

var errBudget = errors.New("the time budget ran out")

// overBudget tells the budget's end (go on with what was found) from the
// run's cancellation (stop).
func overBudget(ctx context.Context, err error) bool {
	return ctx.Err() == nil && (errors.Is(err, errBudget) || errors.Is(err, context.DeadlineExceeded))
}

// reproduce runs the case on each stake in turn (the cheapest first) and
// returns its candidate, the signature it shows there and the stake: the
// first on which it fails blaming the architectures its verdict blames.
// When it fails on none of them (a failure that needs another
// configuration's company in a batch, say), it tries every configuration
// of the verdict; nil when it does not fail at all.
func (l *locator) reproduce(ctx context.Context, o *engineOracle, v *record.Verdict, stakes []stake) (*reduce.Candidate, string, stake, error) {
	for _, st := range stakes {
		cand, err := reduce.NewCandidate(v.Case, st.configs())
		if err != nil {
			return nil, "", st, err
		}
		sigs, err := o.signatures(ctx, []*reduce.Candidate{cand})
		if err != nil {
			return nil, "", st, err
		}
		if sigs[0] != nil && sameBlame(v, *sigs[0]) {
			return cand, sigs[0].String(), st, nil
		}
	}
	all := stake{failing: stakes[0].failing}
	cand, err := reduce.NewCandidate(v.Case, verdictConfigs(v))
	if err != nil {
		return nil, "", all, err
	}
	sigs, err := o.signatures(ctx, []*reduce.Candidate{cand})
	if err != nil || sigs[0] == nil {
		return nil, "", all, err
	}
	return cand, sigs[0].String(), all, nil
}

// finalVerdict runs the reduced candidate once more and judges it: the
// verdict the filetest is made of (its expected side's answers are the
// run lines' expected values). It must still show the signature on its
// own configurations; the stake's final passing configurations (a
// passing target for a compile failure) join a second run, whose verdict
// is the one returned.
func (l *locator) finalVerdict(ctx context.Context, c *reduce.Candidate, want, id string, st stake) (*record.Verdict, error) {
	rc := c.Case(id)
	if err := l.eng.Run(ctx, []*record.Case{rc}, c.Configs); err != nil {
		return nil, err
	}
	if got := oneLine(signature(rc)); got != want {
		return nil, fmt.Errorf("the reduced case shows %q on its last run, not %q (a flaky failure?)", got, want)
	}
	if refs := finalPassing(st, c); len(refs) > 0 {
		rc.Results = nil
		if err := l.eng.Run(ctx, []*record.Case{rc}, append(slices.Clone(c.Configs), refs...)); err != nil {
			return nil, err
		}
	}
	v := judge.Case(rc)
	return &v, nil
}

// finalPassing are the stake's final passing configurations as they run
// with a candidate: with the settings reduction kept on its failing
// configuration.
func finalPassing(st stake, c *reduce.Candidate) []record.Config {
	refs := make([]record.Config, len(st.finalPassing))
	for i, r := range st.finalPassing {
		r.Flags = slices.Clone(r.Flags)
		r.Settings = slices.Clone(c.Configs[0].Settings)
		refs[i] = r
	}
	return refs
}

// maskEntries are the mask lines for a located failure, one per failing
// architecture: the culprit of the reduced case with the producers of its
// operands the failure needs (a pattern entry), else the instruction
// localisation found in the original case; none when neither exists.
func maskEntries(loc *record.Location, cul *locate.Culprit, v *record.Verdict) ([]profile.MaskEntry, error) {
	var op, typ string
	var operands []string
	switch {
	case cul != nil:
		op, typ = cul.Opcode, cul.Type
		for _, o := range cul.Operands {
			operands = append(operands, o.Pattern())
		}
	case loc.Inst.Opcode != "":
		op, typ = loc.Inst.Opcode, loc.Inst.Type
	default:
		return nil, nil
	}
	failing, _ := judge.Failing(v)
	seen := map[string]bool{}
	var out []profile.MaskEntry
	for _, s := range failing {
		for _, c := range s.Configs {
			a := profile.ProfileOf(c.Arch) // pulley64be's is pulley64's
			if c.Executor == record.ExecInterp || seen[a] {
				continue
			}
			seen[a] = true
			line := strings.Join(append([]string{op, typ, a}, operands...), " ")
			es, err := profile.ParseMask("location", []byte(line+"\n"))
			if err != nil {
				return nil, fmt.Errorf("mask entry %q: %w", line, err)
			}
			out = append(out, es...)
		}
	}
	return out, nil
}

// appendMask appends the entries to the mask file, when there is one.
func (l *locator) appendMask(entries []profile.MaskEntry, want, repro string) error {
	if l.opts.MaskOut == "" || len(entries) == 0 {
		return nil
	}
	adds := make([]profile.MaskAddition, len(entries))
	for i, e := range entries {
		adds[i] = profile.MaskAddition{Entry: e, Signature: want, Repro: repro}
	}
	added, err := profile.AppendMask(l.opts.MaskOut, adds)
	l.sum.MaskAdds += len(added)
	return err
}

func (l *locator) noRepro(loc *record.Location, t target) *record.Location {
	l.sum.NoRepro++
	fmt.Fprintf(l.opts.Log, "cliff-locate: %s: %s\n", t.from, loc.Notes[len(loc.Notes)-1])
	return loc
}

// reduction is a failure's reduction in numbers; fn is the failing
// function (the culprit's, else the located one's, else the entry).
func reduction(want string, before, after *reduce.Candidate, fn string, runs int, took time.Duration, level string) Reduction {
	entry := 0
	f := after.Module.Func(fn)
	if f == nil {
		f = after.EntryFunc()
	}
	if f != nil {
		entry = iredit.Insts(f)
	}
	return Reduction{Signature: want, Before: before.Insts(), After: after.Insts(), FailingAfter: entry,
		OracleRuns: runs, Elapsed: took, Level: level}
}

func verdictConfigs(v *record.Verdict) []record.Config {
	var out []record.Config
	for _, s := range v.Sides {
		out = append(out, s.Configs...)
	}
	return out
}

func configNames(cs []record.Config) string {
	s := ""
	for i, c := range cs {
		if i > 0 {
			s += ", "
		}
		s += c.String()
	}
	return s
}

func orNone(level string) string {
	if level == "" {
		return "no"
	}
	return level
}

// reproNotes are the reduced file's header lines after the symptom and
// the configurations: where it comes from and how much was taken away.
func reproNotes(t target, before, after *reduce.Candidate) []string {
	notes := []string{fmt.Sprintf("reduced by cliff-locate from %s: %d -> %d instructions", t.from, before.Insts(), after.Insts())}
	if t.cluster != nil {
		notes = append(notes, fmt.Sprintf("cluster %s: %d cases; its representative is case %s", t.cluster.SignatureHash, t.cluster.Count, t.cluster.Representative))
	}
	return notes
}

// reproFile renders the reduced case as a Cranelift filetest from its
// last verdict: test compile for a compile failure, else a run line on
// the failing input expecting the expected side's answer (cliff's
// reference's, else the interpreter's, else the agreeing majority's), or
// a note when the expected side traps or is unclear. A configuration of passed (those that passed on the original
// case) that fails on the reduced one is left out, with a note: the file
// says "fails" only where the original failed.
func reproFile(v *record.Verdict, c *reduce.Candidate, symptom string, notes []string, passed []record.Config) (string, error) {
	failingSides, _ := judge.Failing(v)
	var failing, passing []record.Config
	notes = slices.Clone(notes)
	same := func(a record.Config) func(record.Config) bool {
		return func(b record.Config) bool { return a.String() == b.String() }
	}
	for _, s := range failingSides {
		for _, cfg := range s.Configs {
			if !slices.ContainsFunc(passed, same(cfg)) {
				failing = append(failing, cfg)
			}
		}
	}
	// A configuration that gave no answer (unsupported: a type its ISA
	// flags cannot compile, a flag set the host cannot run; a harness
	// error) did not pass: listed as passing, it became a target line
	// that fails the repro for its own reason.
	for _, s := range v.Sides {
		for _, cfg := range s.Configs {
			switch {
			case slices.ContainsFunc(failing, same(cfg)):
			case s.Status == record.StatusOK || s.Status == record.StatusTrap:
				passing = append(passing, cfg)
			case slices.ContainsFunc(passed, same(cfg)):
				notes = append(notes, fmt.Sprintf("left out: %s passed on the original case, not on this one (%s)", cfg, s.Status))
			default:
				notes = append(notes, fmt.Sprintf("not run (%s): %s", s.Status, cfg))
			}
		}
	}
	spec := filetest.Spec{Module: c.Module, Entry: c.Entry, Settings: c.Settings, Failing: failing, Passing: passing,
		Compile: v.Failure() == record.OutcomeCompileCrash || v.Failure() == record.OutcomeCompileError,
		Symptom: symptom, Notes: notes}
	if !spec.Compile && len(c.Inputs) > 0 {
		input := 0
		if v.Input != nil && *v.Input < len(c.Inputs) {
			input = *v.Input
		}
		run, note, err := filetest.RunOf(v.Case, failing, input)
		switch {
		case err != nil:
			return "", err
		case run != nil:
			spec.Runs = []filetest.Run{*run}
		default:
			spec.Notes = append(spec.Notes, note)
		}
	}
	return filetest.Render(spec)
}

// bisect runs the reduced file on the releases of --bisect, on the
// architectures that fail in it, for the release where it changes.
func (l *locator) bisect(ctx context.Context, loc *record.Location) (*record.Bisection, error) {
	from, to, ok := strings.Cut(l.opts.Bisect, "..")
	if !ok {
		return nil, fmt.Errorf("--bisect %q: want V1..V2", l.opts.Bisect)
	}
	dir, err := os.MkdirTemp("", "cliff-bisect-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "repro.clif")
	if err := os.WriteFile(file, []byte(loc.Repro), 0o644); err != nil {
		return nil, err
	}
	var arches []string
	for _, c := range loc.Configs {
		a := c.Arch
		if c.Executor == record.ExecInterp {
			a = record.ExecInterp
		}
		if c.Executor != record.ExecRef && !slices.Contains(arches, a) {
			arches = append(arches, a)
		}
	}
	b, err := cranelift.NewBuilder(io.Discard)
	if err != nil {
		return nil, err
	}
	eopts := l.opts.Engine
	eopts.Log = nil
	res, err := bisect.Run(ctx, bisect.Options{From: from, To: to, File: file, Arches: arches, Engine: eopts, Builder: b, Log: l.opts.Log})
	if err != nil {
		return nil, err
	}
	return &record.Bisection{From: from, To: to, Kind: res.Kind, Last: res.Last, First: res.First, Probes: len(res.Tried), Seconds: res.Seconds}, nil
}
