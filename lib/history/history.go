package history

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"cliff/lib/jsonl"
	"cliff/lib/record"
)

// The layout of a history directory (see the package doc).
const (
	PendingFile  = "pending.json"
	RunsDir      = "runs"
	CampaignsDir = "campaigns"
	ReportDir    = "report"
)

// A History is a history directory and the runs recorded in it.
type History struct {
	Dir  string
	Runs []*record.Run // oldest first (by start, then ID)
}

// Open reads the history in dir. A directory that does not exist is an
// empty history (Plan creates it); a run file that cannot be read or is
// not a valid run record is an error naming it.
func Open(dir string) (*History, error) {
	h := &History{Dir: dir}
	names, err := filepath.Glob(filepath.Join(dir, RunsDir, "*.json"))
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		run, err := readRun(name)
		if err != nil {
			return nil, err
		}
		h.Runs = append(h.Runs, run)
	}
	sortRuns(h.Runs)
	return h, nil
}

func sortRuns(runs []*record.Run) {
	slices.SortStableFunc(runs, func(a, b *record.Run) int {
		if c := a.Started.Compare(b.Started); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
}

// readRun reads one run file: exactly one valid run record, named after
// its ID.
func readRun(path string) (*record.Run, error) {
	r, closer, err := jsonl.Open(path)
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	line, err := r.NextRaw()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: empty: a run file holds one run record", path)
	}
	if err != nil {
		return nil, err
	}
	rec, err := record.Decode(line)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	run, ok := rec.(*record.Run)
	if !ok {
		return nil, fmt.Errorf("%s: a %q record, want %q", path, rec.RecordKind(), record.KindRun)
	}
	if want := strings.TrimSuffix(filepath.Base(path), ".json"); run.ID != want {
		return nil, fmt.Errorf("%s: the run's id is %q, want %q, its file's name", path, run.ID, want)
	}
	if _, err := r.NextRaw(); err != io.EOF {
		if err == nil {
			err = errors.New("more than one record: a run file holds one")
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return run, nil
}

// Has reports whether a run of that ID is recorded.
func (h *History) Has(id string) bool {
	return slices.ContainsFunc(h.Runs, func(r *record.Run) bool { return r.ID == id })
}

// Latest is the latest recorded run, nil for an empty history.
func (h *History) Latest() *record.Run {
	if len(h.Runs) == 0 {
		return nil
	}
	return h.Runs[len(h.Runs)-1]
}

// RunPath is where a run's record is kept.
func (h *History) RunPath(id string) string { return filepath.Join(h.Dir, RunsDir, id+".json") }

// ClustersPath is where a run's cluster records are kept.
func (h *History) ClustersPath(id string) string {
	return filepath.Join(h.Dir, RunsDir, id+".clusters.jsonl.zst")
}

// CampaignDir is a run's campaign directory (scripts/campaign.sh's OUT).
func (h *History) CampaignDir(id string) string { return filepath.Join(h.Dir, CampaignsDir, id) }

// ReportPath is the history's report directory.
func (h *History) ReportPath() string { return filepath.Join(h.Dir, ReportDir) }

func (h *History) pendingPath() string { return filepath.Join(h.Dir, PendingFile) }

// A Pending run is one planned and not yet recorded: what its campaign
// runs, kept so that a run killed halfway is resumed as it began.
type Pending struct {
	ID      string    `json:"id"`
	Seed    uint64    `json:"seed,string"`
	Started time.Time `json:"started"`
	// Attempt counts the invocations that ran it (1, then 2 for the
	// first resume); AttemptStarted is when the latest began.
	Attempt        int       `json:"attempt"`
	AttemptStarted time.Time `json:"attempt_started"`
	BudgetMinutes  float64   `json:"budget_minutes,omitempty"`
	Cases          int       `json:"cases"`
	// Sizing says how Cases was chosen, and ExpectedCPU is the CPU
	// seconds that predicts (for a time limit).
	Sizing      string  `json:"sizing"`
	ExpectedCPU float64 `json:"expected_cpu_seconds"`
	// Cranelift is the SPEC the campaign runs ("" the default driver),
	// CraneliftVersion the version (or checkout label) it is.
	Cranelift        string `json:"cranelift,omitempty"`
	CraneliftVersion string `json:"cranelift_version"`
}

// Pending returns the pending run, nil when there is none.
func (h *History) Pending() (*Pending, error) {
	data, err := os.ReadFile(h.pendingPath())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	p := new(Pending)
	if err := json.Unmarshal(data, p); err != nil {
		return nil, fmt.Errorf("%s: %w (remove it to abandon the pending run)", h.pendingPath(), err)
	}
	if p.ID == "" || p.Cases < 1 || p.Started.IsZero() {
		return nil, fmt.Errorf("%s: not a pending run (id %q, cases %d): remove it to abandon it", h.pendingPath(), p.ID, p.Cases)
	}
	return p, nil
}

// writePending writes pending.json through a temporary file renamed over
// it, so that a kill leaves the old one or the new one.
func (h *History) writePending(p *Pending) error {
	w, err := jsonl.Create(h.pendingPath())
	if err != nil {
		return err
	}
	return w.CloseAfter(w.Write(p))
}

// Commit records a run built by Record: its record is written through a
// temporary file renamed into runs/ (the commit point), then pending.json
// is removed and the campaigns of earlier runs with it: a kill before the
// rename leaves the run pending, one after leaves a pending.json that
// Plan recognises as recorded. A run already recorded is refused.
func (h *History) Commit(run *record.Run) error {
	if err := run.Validate(); err != nil {
		return err
	}
	path := h.RunPath(run.ID)
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("%s: run %s is already recorded", path, run.ID)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return err
	}
	w, err := jsonl.Create(path)
	if err != nil {
		return err
	}
	if err := w.CloseAfter(w.Write(run)); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if !h.Has(run.ID) {
		h.Runs = append(h.Runs, run)
		sortRuns(h.Runs)
	}
	if p, err := h.Pending(); err == nil && p != nil && p.ID == run.ID {
		if err := os.Remove(h.pendingPath()); err != nil {
			return err
		}
	}
	return h.pruneCampaigns(run.ID)
}

// pruneCampaigns removes the campaign directories of every run but keep
// and the pending one: a night's campaign holds every case's results,
// tens of megabytes, and its clusters are kept in runs/.
func (h *History) pruneCampaigns(keep string) error {
	entries, err := os.ReadDir(filepath.Join(h.Dir, CampaignsDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	pending := ""
	if p, err := h.Pending(); err == nil && p != nil {
		pending = p.ID
	}
	var errs []error
	for _, e := range entries {
		if e.Name() == keep || e.Name() == pending {
			continue
		}
		errs = append(errs, os.RemoveAll(filepath.Join(h.Dir, CampaignsDir, e.Name())))
	}
	return errors.Join(errs...)
}
