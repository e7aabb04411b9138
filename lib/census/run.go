package census

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"cliff/lib/gen"
	"cliff/lib/jsonl"
	"cliff/lib/profile"
	"cliff/lib/profile/universe"
	"cliff/lib/record"
)

// RowKind and RowVersion head every Row.
const (
	RowKind    = "census"
	RowVersion = 1
)

// A Row is one combination on one target, as cliff-census writes it: a
// failing one, or a fine one that a profile excludes (a candidate to
// re-enable).
type Row struct {
	Kind     string   `json:"kind"`
	Version  int      `json:"v"`
	Arch     string   `json:"arch"`
	FlagSet  string   `json:"flag_set"` // Target.Set: "default", "zcb"
	Key      string   `json:"key"`      // universe.Key: "fcvt_to_uint.i8.f64"
	Class    Class    `json:"class"`
	Opts     []string `json:"opt_levels,omitempty"` // of the configurations that show Class
	Configs  []string `json:"configs,omitempty"`
	Detail   string   `json:"detail,omitempty"`  // lib/cluster's diagnostic K
	Message  string   `json:"message,omitempty"` // the first one, as cliff-run wrote it
	New      bool     `json:"new"`               // a failure nothing knows
	Excluded bool     `json:"excluded"`          // facts.txt keeps it out of the profile
	Refs     []string `json:"refs,omitempty"`    // what knows it
	CaseID   string   `json:"case_id"`
	// Constants marks a row of the combination's constant form
	// (gen.CensusConstCase), and ParamClass is then its parameter form's
	// class on the same target, when that ran.
	Constants  bool  `json:"constants,omitempty"`
	ParamClass Class `json:"param_class,omitempty"`
}

// A Tally counts the combinations of one target by class, and the new
// ones among them.
type Tally struct {
	Judged       int
	ByClass, New map[Class]int
}

// Result is what Run found: the rows, by target, and the tallies of the
// parameter forms and of the constant forms.
type Result struct {
	Rows         []Row
	Tallies      map[Target]*Tally
	ConstTallies map[Target]*Tally
	// paramClass is each parameter form's class, by target and key, for
	// the constant forms' rows.
	paramClass map[targetKey]Class
}

// targetKey is a combination on a target.
type targetKey struct {
	target Target
	key    string
}

// Options say what Run reads and writes.
type Options struct {
	Inputs []string // verdict files (cliff-diff's output, every verdict); none is stdin
	Output string   // JSON lines of rows; "" writes none
	Report string   // census.md; "" writes none
	Known  *Knowledge
}

// Run reads the verdicts, classifies every census combination on every
// target it ran on, and writes the rows and the report. A verdict of a
// case that is not a census case is an error naming its file and record;
// the rows of the verdicts before it are still written.
func Run(ctx context.Context, opts Options) (res *Result, err error) {
	readers, closer, err := jsonl.OpenEach(opts.Inputs)
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	res = &Result{Tallies: map[Target]*Tally{}, ConstTallies: map[Target]*Tally{}, paramClass: map[targetKey]Class{}}
	readErr := res.read(ctx, readers, opts.Known)
	res.fillParamClasses()
	slices.SortStableFunc(res.Rows, func(a, b Row) int {
		if a.Constants != b.Constants {
			if b.Constants {
				return -1
			}
			return 1
		}
		if c := compareTargets(a.target(), b.target()); c != 0 {
			return c
		}
		if c := slices.Index(Classes(), a.Class) - slices.Index(Classes(), b.Class); c != 0 {
			return c
		}
		return strings.Compare(a.Key, b.Key)
	})
	if opts.Output != "" {
		if err := writeRows(opts.Output, opts.Inputs, res.Rows); err != nil {
			return res, err
		}
	}
	if opts.Report != "" {
		if err := writeReport(opts.Report, res); err != nil {
			return res, err
		}
	}
	return res, readErr
}

func writeRows(path string, inputs []string, rows []Row) (err error) {
	w, err := jsonl.Create(path, inputs...)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := w.CloseAfter(err); err == nil {
			err = cerr
		}
	}()
	for i := range rows {
		if err := w.Write(&rows[i]); err != nil {
			return err
		}
	}
	return nil
}

// writeReport writes the report through a temporary file beside path,
// renamed over it at the end: a failed run leaves path as it was.
func writeReport(path string, res *Result) error {
	tmp := path + ".cliff-tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	werr := Report(f, res)
	if err := f.Close(); werr == nil {
		werr = err
	}
	if werr != nil {
		os.Remove(tmp)
		return fmt.Errorf("%s: %w", path, werr)
	}
	return os.Rename(tmp, path)
}

func (res *Result) read(ctx context.Context, readers []*jsonl.Reader, k *Knowledge) error {
	for _, r := range readers {
		if err := jsonl.Each(ctx, r, func(line []byte) error { return res.add(line, k) }); err != nil {
			return err
		}
	}
	return nil
}

// add classifies the verdict in line on each target it has results of.
func (res *Result) add(line []byte, k *Knowledge) error {
	rec, err := record.DecodeKind(line, `cliff-census reads "verdict" records (cliff-diff's output)`, record.KindVerdict)
	if err != nil {
		return err
	}
	v := rec.(*record.Verdict)
	key, ok := gen.CensusKey(v.CaseID)
	if !ok {
		return fmt.Errorf("case %q is not a census case (cliff-gen --enumerate --all writes %s<combination>, --constants %sconst:<combination>)", v.CaseID, gen.CensusIDPrefix, gen.CensusIDPrefix)
	}
	combo, err := universe.Parse(key)
	if err != nil {
		return fmt.Errorf("case %q: %w", v.CaseID, err)
	}
	var results []record.RunResult
	if v.Case != nil {
		results = v.Case.Results
	} else {
		// A consistent verdict carries no case: every configuration
		// agreed, so each target's is fine.
		for _, s := range v.Sides {
			for _, c := range s.Configs {
				results = append(results, record.RunResult{Config: c, Status: s.Status, Hash: s.Hash})
			}
		}
	}
	var targets []Target
	for _, r := range results {
		t := TargetOf(r.Config)
		if r.Config.Executor != record.ExecInterp && slices.Contains(profile.Arches, t.Arch) && !slices.Contains(targets, t) {
			targets = append(targets, t)
		}
	}
	slices.SortFunc(targets, compareTargets)
	constants := gen.CensusConstantForm(v.CaseID)
	tallies := res.Tallies
	if constants {
		tallies = res.ConstTallies
	}
	for _, t := range targets {
		arch := t.Arch
		f, ok := Classify(t, results, k.QemuKnown(arch, combo))
		if !ok {
			continue
		}
		count(tallies, t, f.Class, false)
		if !constants {
			res.paramClass[targetKey{t, key}] = f.Class
		}
		excluded := k.Excluded(arch, combo)
		// A fine constant form is no candidate to re-enable: that is the
		// parameter form's word.
		if f.Class == ClassFine && (len(excluded) == 0 || constants) {
			continue
		}
		row := Row{Kind: RowKind, Version: RowVersion, Arch: arch, FlagSet: t.Set, Key: key, Class: f.Class, Opts: OptLevels(f.Configs),
			Detail: f.Detail, Message: f.Message, Excluded: len(excluded) > 0, CaseID: v.CaseID, Constants: constants}
		for _, c := range f.Configs {
			row.Configs = append(row.Configs, c.String())
		}
		row.Refs = k.Refs(t, combo, f)
		row.New = f.Class != ClassFine && len(row.Refs) == 0
		if row.New {
			count(tallies, t, f.Class, true)
		}
		res.Rows = append(res.Rows, row)
	}
	return nil
}

// fillParamClasses gives each constant form's row its parameter form's
// class, once every verdict is read (the forms come in either order).
func (res *Result) fillParamClasses() {
	for i := range res.Rows {
		r := &res.Rows[i]
		if r.Constants {
			r.ParamClass = res.paramClass[targetKey{r.target(), r.Key}]
		}
	}
}

// target is the row's target.
func (r Row) target() Target { return Target{Arch: r.Arch, Set: r.FlagSet} }

func count(tallies map[Target]*Tally, target Target, c Class, isNew bool) {
	t := tallies[target]
	if t == nil {
		t = &Tally{ByClass: map[Class]int{}, New: map[Class]int{}}
		tallies[target] = t
	}
	if isNew {
		t.New[c]++
		return
	}
	t.Judged++
	t.ByClass[c]++
}

// NewFailures counts the new failing rows.
func (res *Result) NewFailures() int {
	n := 0
	for _, r := range res.Rows {
		if r.New {
			n++
		}
	}
	return n
}
