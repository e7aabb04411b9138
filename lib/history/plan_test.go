package history

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cliff/lib/record"
)

var planNow = time.Date(2026, 11, 29, 2, 0, 7, 500, time.UTC)

// pinned is a Cranelift resolver that needs no driver.
func pinned(spec, version string) func() (string, string, error) {
	return func() (string, string, error) { return spec, version, nil }
}

func seed(s uint64) *uint64 { return &s }

// history makes a history directory holding the runs.
func history(t *testing.T, runs ...*record.Run) *History {
	t.Helper()
	h := &History{Dir: t.TempDir()}
	for _, r := range runs {
		if err := h.Commit(r); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

// A new run's size: a budget at the default rate, at the rate the latest
// runs measured (resumed runs and runs without a CPU time aside, at most
// five), or a number of cases as asked.
func TestPlanSizing(t *testing.T) {
	resumed := night(6, "0.137.1")
	resumed.Resumed, resumed.CPUSeconds = true, 1
	for _, tc := range []struct {
		name     string
		runs     []*record.Run
		opts     PlanOptions
		cases    int
		expected float64
		sizing   string
	}{
		{"default rate", nil, PlanOptions{BudgetMinutes: 60}, 18000, 3600,
			"18000 cases for 60 CPU minutes at 5 cases per CPU second, the default: no earlier run measured it"},
		{"measured rate", []*record.Run{night(1, "0.137.1"), night(2, "0.137.1"), resumed}, PlanOptions{BudgetMinutes: 1.5}, 500, 90,
			"500 cases for 1.5 CPU minutes at 5.56 cases per CPU second, measured over the last 2 runs"},
		{"the last five", []*record.Run{
			func() *record.Run { r := night(1, "0.137.1"); r.CPUSeconds = 1; return r }(),
			night(2, "0.137.1"), night(3, "0.137.1"), night(4, "0.137.1"), night(5, "0.137.1"), night(7, "0.137.1"),
		}, PlanOptions{BudgetMinutes: 60}, 20000, 3600, "20000 cases for 60 CPU minutes at 5.56 cases per CPU second, measured over the last 5 runs"},
		{"cases asked", nil, PlanOptions{BudgetMinutes: 60, Cases: 40}, 40, 8,
			"40 cases as asked, expected to take 8 CPU seconds at 5 cases per CPU second, the default: no earlier run measured it"},
		{"at least one case", nil, PlanOptions{BudgetMinutes: 0.001}, 1, 0.2, "1 cases for 0.001 CPU minutes at 5 cases per CPU second, the default: no earlier run measured it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, r := range tc.runs {
				r.Cases = 20000
			}
			h := history(t, tc.runs...)
			tc.opts.Now, tc.opts.Seed, tc.opts.Cranelift = planNow, seed(4), pinned("", "0.137.1")
			p, err := h.Plan(tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if p.Cases != tc.cases || p.ExpectedCPU != tc.expected || p.Sizing != tc.sizing {
				t.Errorf("got %d cases, %g s expected, %q\nwant %d, %g s, %q", p.Cases, p.ExpectedCPU, p.Sizing, tc.cases, tc.expected, tc.sizing)
			}
			if p.Resume || p.ID != "20261129T020007Z-4" || p.Campaign != filepath.Join(h.Dir, "campaigns", p.ID) {
				t.Errorf("plan %+v", p)
			}
		})
	}
}

// Planning refuses what cannot be a run, and a fresh seed differs from
// one run to the next.
func TestPlanErrors(t *testing.T) {
	h := history(t)
	for _, opts := range []PlanOptions{{}, {BudgetMinutes: -1}, {Cases: -3, BudgetMinutes: 5}} {
		opts.Cranelift = pinned("", "0.137.1")
		if _, err := h.Plan(opts); err == nil || !strings.Contains(err.Error(), "a run needs a CPU budget") {
			t.Errorf("Plan(%+v) = %v", opts, err)
		}
	}
	if _, err := h.Plan(PlanOptions{BudgetMinutes: 1, Cranelift: func() (string, string, error) { return "", "", os.ErrPermission }}); err == nil {
		t.Error("a Cranelift that cannot be pinned planned a run")
	}
	if _, err := os.Stat(filepath.Join(h.Dir, PendingFile)); err == nil {
		t.Error("a failed plan left pending.json")
	}
	seeds := map[uint64]bool{}
	for range 3 {
		h := history(t)
		p, err := h.Plan(PlanOptions{BudgetMinutes: 1, Cranelift: pinned("0.138.0", "0.138.0")})
		if err != nil {
			t.Fatal(err)
		}
		seeds[p.Seed] = true
	}
	if len(seeds) < 2 {
		t.Errorf("three fresh seeds were %v", seeds)
	}
}

// An interrupted run is planned again, as it began, to be resumed; one
// recorded before its pending.json went is cleaned up, and a new run
// planned.
func TestPlanResume(t *testing.T) {
	h := history(t)
	first, err := h.Plan(PlanOptions{Now: planNow, BudgetMinutes: 60, Seed: seed(4), Cranelift: pinned("0.137.1", "0.137.1")})
	if err != nil {
		t.Fatal(err)
	}
	later := planNow.Add(24 * time.Hour)
	again, err := h.Plan(PlanOptions{Now: later, Cases: 7, Cranelift: pinned("0.138.0", "0.138.0")})
	if err != nil {
		t.Fatal(err)
	}
	if !again.Resume || again.ID != first.ID || again.Cases != first.Cases || again.Cranelift != "0.137.1" ||
		again.Attempt != 2 || !again.AttemptStarted.Equal(later.UTC()) {
		t.Errorf("resumed plan %+v, want run %s again, attempt 2", again, first.ID)
	}

	// Killed after the commit: the record is there, and so is the
	// pending.json that named it.
	run := night(29, "0.137.1")
	run.ID, run.Seed, run.Started = first.ID, first.Seed, first.Started
	saved, err := os.ReadFile(filepath.Join(h.Dir, PendingFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Commit(run); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(h.Dir, PendingFile), saved, 0o666); err != nil {
		t.Fatal(err)
	}
	next, err := h.Plan(PlanOptions{Now: later, Cases: 7, Seed: seed(5), Cranelift: pinned("", "0.137.1")})
	if err != nil {
		t.Fatal(err)
	}
	if next.Resume || next.ID == first.ID || len(next.Notes) != 2 || !strings.Contains(next.Notes[0], "was recorded and then interrupted") {
		t.Errorf("after a kill past the commit: %+v", next)
	}
	if err := h.Commit(run); err == nil || !strings.Contains(err.Error(), "already recorded") {
		t.Errorf("a second commit of %s: %v", run.ID, err)
	}
	h2, err := Open(h.Dir)
	if err != nil || len(h2.Runs) != 1 {
		t.Errorf("the history holds %d runs (%v), want 1", len(h2.Runs), err)
	}
}

// The plan as shell assignments, each value quoted.
func TestWriteShell(t *testing.T) {
	p := &Plan{Pending: Pending{ID: "20261129T020007Z-4", Seed: 4, Cases: 18000, ExpectedCPU: 3599.2,
		Cranelift: "/src/it's wasmtime", CraneliftVersion: "0.139.0@0123456789ab"}, Campaign: "/h/campaigns/20261129T020007Z-4", Resume: true}
	var b bytes.Buffer
	if err := p.WriteShell(&b); err != nil {
		t.Fatal(err)
	}
	want := `RUN='20261129T020007Z-4'
SEED=4
N=18000
CRANELIFT='/src/it'\''s wasmtime'
CRANELIFT_VERSION='0.139.0@0123456789ab'
CAMPAIGN='/h/campaigns/20261129T020007Z-4'
RESUME=1
EXPECTED_CPU=3600
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// A history's run files are checked: one valid run record each, named
// after its ID.
func TestOpen(t *testing.T) {
	h := history(t, night(2, "0.137.1"), night(1, "0.137.1"))
	got, err := Open(h.Dir)
	if err != nil || len(got.Runs) != 2 || got.Runs[0].ID != night(1, "").ID {
		t.Fatalf("Open: %v, %+v", err, got)
	}
	if empty, err := Open(filepath.Join(h.Dir, "none")); err != nil || len(empty.Runs) != 0 {
		t.Errorf("a missing directory: %v, %+v", err, empty)
	}
	for _, tc := range []struct{ name, content, want string }{
		{"20261103T020000Z-3.json", "", "empty: a run file holds one run record"},
		{"20261103T020000Z-3.json", `{"kind":"run","v":1,"id":"x"}`, `run "x": `},
		{"other.json", string(mustJSON(t, night(3, "0.137.1"))), `the run's id is "20261103T020000Z-3", want "other"`},
		{"20261103T020000Z-3.json", string(mustJSON(t, night(3, "0.137.1"))) + "\n" + string(mustJSON(t, night(3, "0.137.1"))), "more than one record"},
	} {
		dir := history(t).Dir
		path := filepath.Join(dir, RunsDir, tc.name)
		if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(tc.content), 0o666); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s %q: %v, want %q naming the file", tc.name, tc.content, err, tc.want)
		}
	}
}
