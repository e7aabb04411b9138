// Package bisect finds the Cranelift release where a failure appears or
// goes away. Given a test file whose run lines fail (a finding, a
// reduced repro) and two releases, it searches the releases crates.io
// serves between them, building only the drivers it probes
// (lib/cranelift), for the last release that behaves like the first and
// the first that behaves like the last. A release that cannot be built,
// or on which the file cannot be judged (its run lines are all skipped:
// an opcode that release does not know), is stepped over, as git bisect
// skip does.
package bisect

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"cliff/lib/cranelift"
	"cliff/lib/engine"
	"cliff/lib/extract"
)

// Options say what to bisect.
type Options struct {
	// From and To are the releases at the ends, From the older.
	From, To string
	// File is a .clif test file with run lines (or a test compile).
	File string
	// Arches restrict the file's targets (nil: the file's own).
	Arches []string
	// Engine are the limits of each run; its driver is set per probe.
	Engine engine.Options
	// Builder builds the drivers.
	Builder *cranelift.Builder
	// Log receives a line per probe.
	Log io.Writer
}

// A State is what a file does on one release.
type State string

const (
	Fails   State = "fails"   // a run line or compile check fails
	Passes  State = "passes"  // every run line that ran passed
	Unknown State = "unknown" // nothing could be judged: the release does not build, or every line was skipped
)

// A Probe is one release tried.
type Probe struct {
	Version string  `json:"version"`
	State   State   `json:"state"`
	Why     string  `json:"why,omitempty"` // counts, or why it could not be judged
	Seconds float64 `json:"seconds"`       // build and run
	// Kinds are how the failing run lines failed (FailKinds).
	Kinds []string `json:"kinds,omitempty"`
}

// A Result is the answer for one file.
type Result struct {
	File string `json:"file"`
	// Kind is "fixed" (fails at From, passes at To), "regression" (the
	// reverse), or "unchanged" (the same at both ends).
	Kind string `json:"kind"`
	// Last is the newest release that behaves as From does, First the
	// oldest that behaves as To does: the change is between them.
	Last  string  `json:"last,omitempty"`
	First string  `json:"first,omitempty"`
	Tried []Probe `json:"tried"`
	// Releases is how many releases lie between From and To, both in.
	Releases int     `json:"releases"`
	Seconds  float64 `json:"seconds"`
}

// String is the answer in one line.
func (r *Result) String() string {
	switch r.Kind {
	case "fixed":
		return fmt.Sprintf("%s: fixed in %s (last failing: %s); %d probes of %d releases, %.0f s", r.File, r.First, r.Last, len(r.Tried), r.Releases, r.Seconds)
	case "regression":
		return fmt.Sprintf("%s: broken in %s (last passing: %s); %d probes of %d releases, %.0f s", r.File, r.First, r.Last, len(r.Tried), r.Releases, r.Seconds)
	}
	return fmt.Sprintf("%s: %s at both ends (%s, %s); %.0f s", r.File, r.Tried[0].State, r.Tried[0].Version, r.Tried[len(r.Tried)-1].Version, r.Seconds)
}

// Run bisects one file between two releases.
func Run(ctx context.Context, opts Options) (*Result, error) {
	start := time.Now()
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	if cranelift.CompareVersions(opts.From, opts.To) >= 0 {
		return nil, fmt.Errorf("bisect %s..%s: want the older release first", opts.From, opts.To)
	}
	rels, err := opts.Builder.Releases(ctx)
	if err != nil {
		return nil, err
	}
	var versions []string
	for _, r := range rels {
		if r.Yanked || r.Prerelease() || cranelift.CompareVersions(r.Version, opts.From) < 0 || cranelift.CompareVersions(r.Version, opts.To) > 0 {
			continue
		}
		versions = append(versions, r.Version)
	}
	for _, end := range []string{opts.From, opts.To} {
		if !slices.Contains(versions, end) {
			return nil, fmt.Errorf("bisect: %s is not a release on crates.io", end)
		}
	}
	res := &Result{File: opts.File, Releases: len(versions)}
	probe := func(v string) Probe {
		p := probeRelease(ctx, opts, v)
		res.Tried = append(res.Tried, p)
		fmt.Fprintf(opts.Log, "bisect %s: %s %s (%s, %.0f s)\n", opts.File, v, p.State, p.Why, p.Seconds)
		return p
	}
	res.Kind, res.Last, res.First, err = search(ctx, opts.File, versions, probe)
	if err != nil {
		return nil, err
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// search judges the ends of versions (oldest first) and, when they
// differ, binary-searches between them: the kind of change, the last
// version that behaves as the first and the first that behaves as the
// last. Versions in between that cannot be judged are dropped from the
// search, as git bisect skip does.
func search(ctx context.Context, file string, versions []string, probe func(string) Probe) (kind, last, first string, err error) {
	lo, hi := probe(versions[0]), probe(versions[len(versions)-1])
	if ctx.Err() != nil {
		return "", "", "", context.Cause(ctx)
	}
	if kind, err = change(file, lo, hi); err != nil || kind == "unchanged" {
		return kind, "", "", err
	}
	cands := slices.Clone(versions)
	l, h := 0, len(cands)-1
	for h-l > 1 {
		if ctx.Err() != nil {
			return "", "", "", context.Cause(ctx)
		}
		mid := (l + h) / 2
		switch p := probe(cands[mid]); p.State {
		case lo.State:
			l = mid
		case hi.State:
			h = mid
		default:
			cands = slices.Delete(cands, mid, mid+1)
			h--
		}
	}
	return kind, cands[l], cands[h], nil
}

// change says what the two ends of a bisection show: "fixed" (the
// older fails, the newer passes), "regression" (the reverse) or
// "unchanged"; an end that cannot be judged is an error.
func change(file string, first, last Probe) (string, error) {
	switch {
	case first.State == Unknown || last.State == Unknown:
		bad := first
		if first.State != Unknown {
			bad = last
		}
		return "", fmt.Errorf("bisect %s: cannot judge it on %s: %s", file, bad.Version, bad.Why)
	case first.State == last.State:
		return "unchanged", nil
	case first.State == Fails:
		return "fixed", nil
	}
	return "regression", nil
}

// probeRelease builds release v's driver and runs the file on it.
func probeRelease(ctx context.Context, opts Options, v string) (p Probe) {
	start := time.Now()
	p = Probe{Version: v, State: Unknown}
	defer func() { p.Seconds = time.Since(start).Seconds() }()
	build, err := opts.Builder.Ensure(ctx, cranelift.Spec{Kind: cranelift.Release, Version: v})
	var be *cranelift.BuildError
	switch {
	case errors.As(err, &be):
		p.Why = "cannot build: " + be.Reason
		return p
	case err != nil:
		p.Why = err.Error()
		return p
	}
	p.State, p.Why, p.Kinds = RunFile(ctx, build.Driver, opts.File, opts.Arches, opts.Engine)
	return p
}

// RunFile runs a test file's run lines (or compile checks) with one
// driver and says whether they fail, and how (FailKinds).
func RunFile(ctx context.Context, driverPath, file string, arches []string, eopts engine.Options) (State, string, []string) {
	eopts.DriverPath = driverPath
	eopts.Cranelifts = nil
	var log strings.Builder
	eopts.Log = &log
	e, err := engine.New(ctx, eopts)
	if err != nil {
		return Unknown, err.Error(), nil
	}
	defer e.Close()
	sources, err := extract.Expand([]string{file})
	if err != nil {
		return Unknown, err.Error(), nil
	}
	report, err := e.Stream(ctx, engine.StreamOptions{Configs: engine.ConfigSpec{Arches: arches}, Sources: sources, Output: "/dev/null"})
	if report == nil || err != nil {
		return Unknown, fmt.Sprint(err), nil
	}
	if err := report.Err(); err != nil {
		return Unknown, strings.SplitN(err.Error(), "\n", 2)[0], nil
	}
	passed, failed, skipped := report.Totals()
	why := fmt.Sprintf("%d passed, %d failed, %d skipped", passed, failed, skipped)
	switch {
	case failed > 0:
		return Fails, why, FailKinds(log.String())
	case passed > 0:
		return Passes, why, nil
	}
	return Unknown, why + ": nothing could be judged", nil
}

// FailKinds reads the engine's FAIL lines and says how the run lines
// failed, each kind once, sorted: compile_crash (Cranelift panicked),
// compile_error (it refused the function: a lowering it lacks, say),
// wrong (a wrong value or trap), crash, timeout.
func FailKinds(log string) []string {
	var kinds []string
	for _, line := range strings.Split(log, "\n") {
		if !strings.Contains(line, ": FAIL ") {
			continue
		}
		kind := "other"
		for _, k := range []struct{ marker, kind string }{
			{": compile_crash: ", "compile_crash"}, {": compile_error: ", "compile_error"},
			{": got ", "wrong"}, {": trap", "wrong"}, {": crash", "crash"}, {": timeout", "timeout"},
		} {
			if strings.Contains(line, k.marker) {
				kind = k.kind
				break
			}
		}
		if !slices.Contains(kinds, kind) {
			kinds = append(kinds, kind)
		}
	}
	slices.Sort(kinds)
	return kinds
}
