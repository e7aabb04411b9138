package history

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cliff/lib/cluster"
	"cliff/lib/jsonl"
	"cliff/lib/record"
)

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// crash is a failing verdict of a case of the seed: x86_64 at opt level
// none panics with message, the interpreter answers.
func crash(seed uint64, index int, message string) *record.Verdict {
	id := fmt.Sprintf("g%016x-%d", seed, index)
	x86 := record.Config{Arch: "x86_64", OptLevel: "none", Executor: record.ExecNative}
	interp := record.Config{Arch: "interp", OptLevel: "none", Executor: record.ExecInterp}
	c := &record.Case{ID: id, Seed: seed, CLIF: "function %main() {\nblock0:\n    return\n}\n",
		Options: record.GenOptions{Index: uint64(index), Profile: "x86_64", Depth: 3},
		Results: []record.RunResult{
			{Config: x86, Status: record.StatusCompileCrash, Message: message},
			{Config: interp, Status: record.StatusOK, Hash: "0000000000000001"},
		}}
	c.Stamp()
	v := &record.Verdict{CaseID: id, Verdict: record.OutcomeCompileCrash, Case: c, Sides: []record.Side{
		{Configs: []record.Config{x86}, Status: record.StatusCompileCrash},
		{Configs: []record.Config{interp}, Status: record.StatusOK, Hash: "0000000000000001"},
	}}
	v.Stamp()
	return v
}

const (
	xmm32 = "assertion `left == right` failed: put_in_xmm_mem_32: expected a 32-bit value, got value of type f16\n  left: 16\n right: 32 (at cranelift-codegen-0.137.1/src/isa/x64/lower/isle.rs:1277:5)"
	xmm64 = "assertion `left == right` failed: put_in_xmm_mem_64: expected a 64-bit value, got value of type f128\n  left: 128\n right: 64 (at cranelift-codegen-0.137.1/src/isa/x64/lower/isle.rs:1297:5)"
)

// campaign lays out the pending run's campaign as scripts/campaign.sh
// leaves it: campaign.env, the failing verdicts and, when finished, the
// marker.
func campaign(t *testing.T, h *History, p *Plan, finished bool, verdicts ...*record.Verdict) {
	t.Helper()
	dir := p.Campaign
	if err := os.MkdirAll(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	env := fmt.Sprintf("N=%d\nDEPTH=3\nSEED=%d\nCHUNK=20\nMASK=''\nCORPUS=/data/my\\ corpus.jsonl.zst\nPROFILE=x86_64\n", p.Cases, p.Seed)
	if err := os.WriteFile(filepath.Join(dir, "campaign.env"), []byte(env), 0o666); err != nil {
		t.Fatal(err)
	}
	w, err := jsonl.Create(filepath.Join(dir, "failures.jsonl.zst"))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range verdicts {
		if err := w.Write(v); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if finished {
		if err := os.WriteFile(filepath.Join(dir, "finished"), nil, 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

// Two nights, end to end in the library: plan, campaign, record,
// commit; the second night's new cluster and its comparison; the run
// files; the campaigns of older runs removed.
func TestRecord(t *testing.T) {
	h := history(t)
	known, err := cluster.LoadKnown()
	if err != nil {
		t.Fatal(err)
	}
	night := func(day int, verdicts ...*record.Verdict) *Result {
		t.Helper()
		now := time.Date(2026, 11, day, 2, 0, 0, 0, time.UTC)
		p, err := h.Plan(PlanOptions{Now: now, Cases: 80, Seed: seed(8), Cranelift: pinned("", "0.137.1")})
		if err != nil {
			t.Fatal(err)
		}
		campaign(t, h, p, true, verdicts...)
		res, err := h.Record(context.Background(), RecordOptions{Now: now.Add(90 * time.Second), CPUSeconds: 70.04, Cliff: "test", Known: known, MaxMembers: 10})
		if err != nil {
			t.Fatal(err)
		}
		if err := h.Commit(res.Run); err != nil {
			t.Fatal(err)
		}
		return res
	}
	first := night(1, crash(8, 21, xmm32), crash(8, 40, xmm32))
	r := first.Run
	if r.ID != "20261101T020000Z-8" || r.Cases != 80 || r.Profile != "x86_64" || r.Depth != 3 || r.Mask != "" ||
		r.CPUSeconds != 70 || r.WallSeconds != 90 || r.Failures != 2 || len(r.Clusters) != 1 || r.Clusters[0].Count != 2 || r.Resumed {
		t.Errorf("first run: %+v", r)
	}
	second := night(2, crash(8, 21, xmm32), crash(8, 68, xmm64))
	if got := second.Comparison.WithStatus(New); len(got) != 1 || !strings.Contains(got[0].Signature, "put_in_xmm_mem_64") {
		t.Errorf("new in the second run: %v", got)
	}
	if got := second.Comparison.WithStatus(Showing); len(got) != 1 || got[0].Members() != 3 {
		t.Errorf("showing in the second run: %v", got)
	}
	for _, want := range []string{"runs/20261101T020000Z-8.json", "runs/20261101T020000Z-8.clusters.jsonl.zst",
		"runs/20261102T020000Z-8.json", "campaigns/20261102T020000Z-8/finished"} {
		if _, err := os.Stat(filepath.Join(h.Dir, want)); err != nil {
			t.Error(err)
		}
	}
	for _, gone := range []string{PendingFile, "campaigns/20261101T020000Z-8"} {
		if _, err := os.Stat(filepath.Join(h.Dir, gone)); err == nil {
			t.Errorf("%s left after the commit", gone)
		}
	}
	if _, err := h.Record(context.Background(), RecordOptions{}); err == nil || !strings.Contains(err.Error(), "no run is pending") {
		t.Errorf("Record without a pending run: %v", err)
	}
}

// Record refuses what is not the pending run's finished campaign.
func TestRecordRefuses(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, h *History, p *Plan)
		want  string
	}{
		{"no campaign", func(*testing.T, *History, *Plan) {}, "campaign.env: no such file: the run's campaign never started"},
		{"unfinished", func(t *testing.T, h *History, p *Plan) { campaign(t, h, p, false) }, "has not finished (scripts/campaign.sh --resume finishes it)"},
		{"another run's campaign", func(t *testing.T, h *History, p *Plan) {
			other := *p
			other.Seed++
			campaign(t, h, &other, true)
		}, "campaign.env is of seed 9 and 80 cases, but the run has seed 8 and 80 cases: another run's campaign"},
		{"another run's verdicts", func(t *testing.T, h *History, p *Plan) { campaign(t, h, p, true, crash(7, 1, xmm32)) },
			"its representative g0000000000000007-1 is of seed 7, but the run's seed is 8: verdicts of another run"},
		{"a value campaign.env cannot hold", func(t *testing.T, h *History, p *Plan) {
			campaign(t, h, p, true)
			if err := os.WriteFile(filepath.Join(p.Campaign, "campaign.env"), []byte("N=80\nMASK=$'\\n'\n"), 0o666); err != nil {
				t.Fatal(err)
			}
		}, "campaign.env:2: MASK: $'\\n': control characters in a value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := history(t)
			p, err := h.Plan(PlanOptions{Now: planNow, Cases: 80, Seed: seed(8), Cranelift: pinned("", "0.137.1")})
			if err != nil {
				t.Fatal(err)
			}
			tc.setup(t, h, p)
			if _, err := h.Record(context.Background(), RecordOptions{}); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Record: %v, want %q", err, tc.want)
			}
			if _, err := os.Stat(h.RunPath(p.ID)); err == nil {
				t.Error("a refused run was recorded")
			}
		})
	}
}

func TestUnquote(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"''", ""}, {"compat", "compat"}, {`/a\ b/c\,d`, "/a b/c,d"}, {"0.137.1", "0.137.1"},
	} {
		if got, err := unquote(tc.in); err != nil || got != tc.want {
			t.Errorf("unquote(%q) = %q, %v, want %q", tc.in, got, err, tc.want)
		}
	}
}
