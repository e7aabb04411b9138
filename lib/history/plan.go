package history

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"
)

// DefaultRate is the cases per CPU second a budget is sized at before
// any run of the history has measured its own: a compat campaign at
// depth 5 (4 targets, 3 opt levels, cliff's reference) ran 7.4 per CPU
// second on the two-core test machine, fewer with the filetests' corpus;
// erring low makes a first night short rather than long.
const DefaultRate = 5.0

// rateRuns is how many recent runs the rate is measured over: enough to
// smooth a night's luck, few enough to follow a change of settings or of
// Cranelift within a week.
const rateRuns = 5

// PlanOptions are what a run is planned with.
type PlanOptions struct {
	Now time.Time
	// BudgetMinutes is the CPU budget in CPU minutes, turned into cases
	// at the measured rate; Cases, when positive, is the size itself.
	BudgetMinutes float64
	Cases         int
	// Seed, when set, is the run's seed (tests); otherwise a fresh one.
	Seed *uint64
	// Cranelift pins the Cranelift to test: the SPEC its campaign runs
	// ("" the default) and the version that is. Asked only for a new run.
	Cranelift func() (spec, version string, err error)
}

// A Plan is the run to do now: a new one, or the pending one to resume.
type Plan struct {
	Pending
	Resume   bool
	Campaign string   // the campaign directory
	Notes    []string // what planning found and did, for the log
}

// Plan returns the run to do: the pending one when a run was interrupted
// (Resume), else a new one written to pending.json. A pending run that is
// already recorded (killed after its commit) is cleaned up first.
func (h *History) Plan(opts PlanOptions) (*Plan, error) {
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	plan := &Plan{}
	p, err := h.Pending()
	if err != nil {
		return nil, err
	}
	if p != nil && h.Has(p.ID) {
		if err := os.Remove(h.pendingPath()); err != nil {
			return nil, err
		}
		if err := h.pruneCampaigns(h.Latest().ID); err != nil {
			return nil, err
		}
		plan.Notes = append(plan.Notes, fmt.Sprintf("run %s was recorded and then interrupted: its pending.json removed", p.ID))
		p = nil
	}
	if p != nil {
		p.Attempt++
		p.AttemptStarted = opts.Now.UTC()
		if err := h.writePending(p); err != nil {
			return nil, err
		}
		plan.Pending, plan.Resume, plan.Campaign = *p, true, h.CampaignDir(p.ID)
		plan.Notes = append(plan.Notes, fmt.Sprintf("run %s (seed %d, started %s) was interrupted: resuming it, attempt %d; the budget asked now is not used",
			p.ID, p.Seed, p.Started.Format(time.RFC3339), p.Attempt))
		return plan, nil
	}

	if opts.Cases < 0 || opts.BudgetMinutes < 0 || opts.Cases == 0 && !(opts.BudgetMinutes > 0) {
		return nil, fmt.Errorf("a run needs a CPU budget in minutes or a number of cases (budget %g, cases %d)", opts.BudgetMinutes, opts.Cases)
	}
	var seed uint64
	if opts.Seed != nil {
		seed = *opts.Seed
	} else {
		// A 32-bit seed, as scripts/campaign.sh draws its own: short to
		// type when reproducing a night.
		var b [4]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, err
		}
		seed = uint64(binary.LittleEndian.Uint32(b[:]))
	}
	started := opts.Now.UTC().Truncate(time.Second)
	p = &Pending{
		ID:             fmt.Sprintf("%s-%d", started.Format("20060102T150405Z"), seed),
		Seed:           seed,
		Started:        started,
		Attempt:        1,
		AttemptStarted: started,
		BudgetMinutes:  opts.BudgetMinutes,
	}
	if h.Has(p.ID) {
		return nil, fmt.Errorf("run %s is already recorded: the same seed in the same second", p.ID)
	}
	rate, how := h.Rate()
	if opts.Cases > 0 {
		p.BudgetMinutes = 0
		p.Cases = opts.Cases
		p.Sizing = fmt.Sprintf("%d cases as asked, expected to take %.0f CPU seconds at %s", opts.Cases, float64(opts.Cases)/rate, how)
	} else {
		p.Cases = max(1, int(math.Round(opts.BudgetMinutes*60*rate)))
		p.Sizing = fmt.Sprintf("%d cases for %g CPU minutes at %s", p.Cases, opts.BudgetMinutes, how)
	}
	p.ExpectedCPU = math.Round(float64(p.Cases)/rate*10) / 10
	if opts.Cranelift != nil {
		if p.Cranelift, p.CraneliftVersion, err = opts.Cranelift(); err != nil {
			return nil, err
		}
	}
	if p.CraneliftVersion == "" {
		return nil, fmt.Errorf("run %s: no Cranelift version to record", p.ID)
	}
	if err := os.MkdirAll(h.Dir, 0o777); err != nil {
		return nil, err
	}
	if err := h.writePending(p); err != nil {
		return nil, err
	}
	plan.Pending, plan.Campaign = *p, h.CampaignDir(p.ID)
	plan.Notes = append(plan.Notes, fmt.Sprintf("run %s: seed %d, %s, Cranelift %s", p.ID, p.Seed, p.Sizing, p.CraneliftVersion))
	return plan, nil
}

// Rate is the cases per CPU second the latest runs measured (up to
// rateRuns of them, resumed ones aside: their CPU time misses the killed
// attempt's), or DefaultRate for a history with none, and how it was
// found, in words.
func (h *History) Rate() (float64, string) {
	cases, cpu, n := 0, 0.0, 0
	for i := len(h.Runs) - 1; i >= 0 && n < rateRuns; i-- {
		r := h.Runs[i]
		if r.Resumed || r.CPUSeconds <= 0 {
			continue
		}
		cases += r.Cases
		cpu += r.CPUSeconds
		n++
	}
	if n == 0 {
		return DefaultRate, fmt.Sprintf("%g cases per CPU second, the default: no earlier run measured it", DefaultRate)
	}
	rate := float64(cases) / cpu
	return rate, fmt.Sprintf("%.2f cases per CPU second, measured over the last %d runs", rate, n)
}

// WriteShell writes the plan as shell assignments for scripts/nightly.sh
// to eval: RUN, SEED, N, CRANELIFT (the SPEC for campaign.sh; empty: the
// default), CRANELIFT_VERSION, CAMPAIGN (the campaign directory), RESUME
// (0 or 1) and EXPECTED_CPU (seconds, for a time limit).
func (p *Plan) WriteShell(w io.Writer) error {
	resume := 0
	if p.Resume {
		resume = 1
	}
	_, err := fmt.Fprintf(w, "RUN=%s\nSEED=%d\nN=%d\nCRANELIFT=%s\nCRANELIFT_VERSION=%s\nCAMPAIGN=%s\nRESUME=%d\nEXPECTED_CPU=%d\n",
		shellQuote(p.ID), p.Seed, p.Cases, shellQuote(p.Cranelift), shellQuote(p.CraneliftVersion),
		shellQuote(p.Campaign), resume, int(math.Ceil(p.ExpectedCPU)))
	return err
}

// shellQuote quotes s for a POSIX shell: in single quotes, each single
// quote in s closing them, escaped, and opening them again.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
