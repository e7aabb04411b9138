package history

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"cliff/lib/cluster"
	"cliff/lib/record"
)

// RecordOptions are what the pending run is recorded with.
type RecordOptions struct {
	// Inputs are the campaign's failing verdicts; none: the pending
	// campaign's failures.jsonl.zst.
	Inputs []string
	// CPUSeconds is the CPU time the campaign took (the invocation's
	// attempt).
	CPUSeconds float64
	Now        time.Time
	Cliff      string // cliff's version
	Known      *cluster.Known
	MaxMembers int
}

// A Result is a run ready to commit: its record, its clusters and the
// comparison of the history with it.
type Result struct {
	Run        *record.Run
	Cluster    *cluster.Result
	Comparison *Comparison
}

// Record clusters the pending run's finished campaign and returns its
// record and the comparison with every earlier run. Nothing but the
// run's cluster file is written: Commit records the run. The campaign
// must be the pending run's and finished (scripts/campaign.sh's
// campaign.env and finished in its directory), and every cluster's
// representative of its seed: verdicts of another run are refused.
func (h *History) Record(ctx context.Context, opts RecordOptions) (*Result, error) {
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	p, err := h.Pending()
	if err != nil {
		return nil, err
	}
	if p == nil {
		return nil, fmt.Errorf("%s: no run is pending (plan one with --plan)", h.Dir)
	}
	if h.Has(p.ID) {
		return nil, fmt.Errorf("run %s is already recorded (%s); the next --plan removes its pending.json", p.ID, h.RunPath(p.ID))
	}
	dir := h.CampaignDir(p.ID)
	env, err := readCampaignEnv(filepath.Join(dir, "campaign.env"))
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", p.ID, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "finished")); err != nil {
		return nil, fmt.Errorf("run %s: its campaign in %s has not finished (scripts/campaign.sh --resume finishes it)", p.ID, dir)
	}
	if env["SEED"] != strconv.FormatUint(p.Seed, 10) || env["N"] != strconv.Itoa(p.Cases) {
		return nil, fmt.Errorf("run %s: %s/campaign.env is of seed %s and %s cases, but the run has seed %d and %d cases: another run's campaign",
			p.ID, dir, env["SEED"], env["N"], p.Seed, p.Cases)
	}
	inputs := opts.Inputs
	if len(inputs) == 0 {
		inputs = []string{filepath.Join(dir, "failures.jsonl.zst")}
	}
	if err := os.MkdirAll(filepath.Join(h.Dir, RunsDir), 0o777); err != nil {
		return nil, err
	}
	res, err := cluster.Run(ctx, cluster.Options{
		Inputs: inputs, Output: h.ClustersPath(p.ID),
		MaxMembers: opts.MaxMembers, Known: opts.Known,
	})
	if err != nil {
		return nil, err
	}
	for _, c := range res.Records {
		if v := c.RepresentativeVerdict; v != nil && v.Case != nil && v.Case.Seed != p.Seed {
			return nil, fmt.Errorf("run %s: cluster %s: its representative %s is of seed %d, but the run's seed is %d: verdicts of another run",
				p.ID, c.SignatureHash, c.Representative, v.Case.Seed, p.Seed)
		}
	}
	run := &record.Run{
		ID: p.ID, Seed: p.Seed, Started: p.Started, Finished: opts.Now.UTC().Truncate(time.Second),
		Cranelift: p.CraneliftVersion, Cliff: opts.Cliff,
		Profile: env["PROFILE"], Mask: env["MASK"],
		BudgetMinutes: p.BudgetMinutes, Cases: p.Cases,
		CPUSeconds:  round1(opts.CPUSeconds),
		WallSeconds: round1(opts.Now.Sub(p.AttemptStarted).Seconds()),
		Resumed:     p.Attempt > 1,
		Failures:    res.Clusterer.Stats.Verdicts,
	}
	if d, err := strconv.Atoi(env["DEPTH"]); err == nil {
		run.Depth = d
	}
	for _, c := range res.Records {
		run.Clusters = append(run.Clusters, record.RunCluster{
			Signature: c.Signature, SignatureHash: c.SignatureHash, Verdict: c.Verdict,
			Count: c.Count, Representative: c.Representative, Known: c.Known,
		})
	}
	run.Stamp()
	if err := run.Validate(); err != nil {
		return nil, err
	}
	runs := append(append([]*record.Run{}, h.Runs...), run)
	sortRuns(runs)
	return &Result{Run: run, Cluster: res, Comparison: Compare(runs)}, nil
}

func round1(x float64) float64 {
	if x < 0 {
		return 0
	}
	return float64(int64(x*10+0.5)) / 10
}

// readCampaignEnv reads scripts/campaign.sh's campaign.env: NAME=VALUE
// lines, each VALUE as bash's printf %q writes it. The values cliff
// writes there are numbers, words and paths, so a pair of single quotes
// (empty) and backslash escapes are all it takes; the $'...' form
// (control characters) is refused rather than misread.
func readCampaignEnv(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: no such file: the run's campaign never started", path)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	env := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" {
			continue
		}
		name, value, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("%s:%d: %q is not NAME=VALUE", path, n, line)
		}
		v, err := unquote(value)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %s: %w", path, n, name, err)
		}
		env[name] = v
	}
	return env, sc.Err()
}

// unquote undoes bash's printf %q for what campaign.env holds.
func unquote(s string) (string, error) {
	switch {
	case s == "''":
		return "", nil
	case strings.HasPrefix(s, "$'"):
		return "", fmt.Errorf("%s: control characters in a value", s)
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String(), nil
}
