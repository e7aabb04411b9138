package bisect

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"cliff/lib/cranelift"
	"cliff/lib/engine"
)

// CommitTimeout bounds a whole bisection of commits: each step builds
// Cranelift (incrementally: the checkout's crates are built in place)
// and runs the file.
const CommitTimeout = 12 * time.Hour

// CommitOptions say what to bisect in a checkout.
type CommitOptions struct {
	// Checkout is the wasmtime work tree; From and To are commits (any
	// git revision), From the older.
	Checkout, From, To string
	// File, Arches, Engine and Log are as Options'.
	File    string
	Arches  []string
	Engine  engine.Options
	Log     io.Writer
	Builder *cranelift.Builder
	// Step is the command git bisect run calls for each commit, given
	// --old STATE CHECKOUT FILE: cliff-cranelift bisect-step.
	Step []string
}

// Commits bisects a checkout's commits with git bisect run: it judges
// the file at From and To (as releases are judged), then lets git
// search between them with terms named for the change ("broken" and
// "fixed", or "good" and "bad"), each step building the commit's driver
// (lib/cranelift keys it by commit, so cargo rebuilds only the crates
// that changed) and running the file. The work tree must be clean; git
// bisect reset puts it back where it was.
func Commits(ctx context.Context, opts CommitOptions) (*Result, error) {
	start := time.Now()
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	ctx, cancel := context.WithTimeout(ctx, CommitTimeout)
	defer cancel()
	git := func(args ...string) (string, error) {
		cmd := exec.CommandContext(ctx, "git", append([]string{"-C", opts.Checkout}, args...)...)
		out, err := cmd.Output()
		if err != nil {
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				return "", fmt.Errorf("git %s: %s", strings.Join(args, " "), strings.TrimSpace(string(ee.Stderr)))
			}
			return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
		}
		return strings.TrimSpace(string(out)), nil
	}
	if st, err := git("status", "--porcelain", "--untracked-files=no"); err != nil {
		return nil, err
	} else if st != "" {
		return nil, fmt.Errorf("%s has uncommitted changes: git bisect would check out over them", opts.Checkout)
	}
	head, err := git("rev-parse", "--abbrev-ref", "HEAD")
	if err != nil {
		return nil, err
	}
	if head == "HEAD" {
		head, _ = git("rev-parse", "HEAD")
	}
	from, err := git("rev-parse", "--verify", opts.From+"^{commit}")
	if err != nil {
		return nil, err
	}
	to, err := git("rev-parse", "--verify", opts.To+"^{commit}")
	if err != nil {
		return nil, err
	}
	res := &Result{File: opts.File}
	probe := func(rev string) Probe {
		t0 := time.Now()
		p := Probe{Version: cranelift.ShortRev(rev), State: Unknown}
		if _, err := git("checkout", "-q", rev); err != nil {
			p.Why = err.Error()
		} else {
			p.State, p.Why = checkoutState(ctx, opts.Builder, opts.Checkout, opts.File, opts.Arches, opts.Engine)
		}
		p.Seconds = time.Since(t0).Seconds()
		res.Tried = append(res.Tried, p)
		fmt.Fprintf(opts.Log, "bisect %s: %s %s (%s, %.0f s)\n", opts.File, p.Version, p.State, p.Why, p.Seconds)
		return p
	}
	defer git("checkout", "-q", head)
	first, last := probe(from), probe(to)
	if res.Kind, err = change(opts.File, first, last); err != nil {
		return nil, err
	}
	if res.Kind == "unchanged" {
		res.Seconds = time.Since(start).Seconds()
		return res, nil
	}
	oldTerm, newTerm := "good", "bad"
	if res.Kind == "fixed" {
		oldTerm, newTerm = "broken", "fixed"
	}
	if _, err := git("bisect", "start", "--term-old="+oldTerm, "--term-new="+newTerm, to, from); err != nil {
		return nil, err
	}
	defer git("bisect", "reset", "-q", head)
	args := append([]string{"-C", opts.Checkout, "bisect", "run"}, opts.Step...)
	args = append(args, "--old", string(first.State))
	for _, a := range opts.Arches {
		args = append(args, "--arch", a)
	}
	args = append(args, opts.Checkout, opts.File)
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Stdout, cmd.Stderr = opts.Log, opts.Log
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("git bisect run: %w", err)
	}
	changed, err := git("rev-parse", "refs/bisect/"+newTerm)
	if err != nil {
		return nil, err
	}
	subject, _ := git("log", "-1", "--format=%s", changed)
	parent, _ := git("rev-parse", changed+"^")
	res.First = cranelift.ShortRev(changed) + " " + subject
	res.Last = cranelift.ShortRev(parent)
	steps, _ := git("bisect", "log")
	res.Releases = strings.Count(steps, "\ngit bisect ") // the commits git judged
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// Step is one step of git bisect run: the state of the file at the
// checkout's current commit, as git wants it: 0 when it is old's (the
// state at the older end), 1 when it is not, 125 when it cannot be
// judged (the commit does not build).
func Step(ctx context.Context, b *cranelift.Builder, checkout, file string, arches []string, eopts engine.Options, old State, log io.Writer) int {
	state, why := checkoutState(ctx, b, checkout, file, arches, eopts)
	fmt.Fprintf(log, "bisect-step %s: %s (%s)\n", file, state, why)
	switch {
	case state == Unknown:
		return 125
	case state == old:
		return 0
	}
	return 1
}

// checkoutState builds the checkout as it is and runs the file on it.
func checkoutState(ctx context.Context, b *cranelift.Builder, checkout, file string, arches []string, eopts engine.Options) (State, string) {
	build, err := b.Ensure(ctx, cranelift.Spec{Kind: cranelift.Checkout, Path: checkout})
	var be *cranelift.BuildError
	switch {
	case errors.As(err, &be):
		return Unknown, "cannot build: " + be.Reason
	case err != nil:
		return Unknown, err.Error()
	}
	state, why, _ := RunFile(ctx, build.Driver, file, arches, eopts)
	return state, why
}
