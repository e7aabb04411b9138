package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"cliff/lib/history"
	"cliff/lib/scripttest"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"cliff-cluster": main})
}

// TestScripts runs the end-to-end scripts in testdata/script: each runs
// cliff-cluster as a real command on real verdicts (trimmed) and checks
// stdout, stderr, the report and the exit status.
func TestScripts(t *testing.T) {
	scripttest.Run(t, testscript.Params{Cmds: map[string]func(*testscript.TestScript, bool, []string){
		"campaign": campaignCmd,
		// A run's ID is its start to the second: two nights need
		// two seconds.
		"sleep": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) != 1 {
				ts.Fatalf("usage: sleep DURATION")
			}
			d, err := time.ParseDuration(args[0])
			ts.Check(err)
			time.Sleep(d)
		},
	}})
}

// campaignCmd is the script command "campaign HISTORY [unfinished]": it
// lays out the pending run's campaign directory as scripts/campaign.sh
// leaves it, campaign.env (depth 3, profile x86_64) and, unless
// unfinished, the finished marker, so that a script records a run
// without running a campaign.
func campaignCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 || len(args) == 2 && args[1] != "unfinished" {
		ts.Fatalf("usage: campaign HISTORY [unfinished]")
	}
	h, err := history.Open(ts.MkAbs(args[0]))
	ts.Check(err)
	p, err := h.Pending()
	ts.Check(err)
	if p == nil {
		ts.Fatalf("campaign: no run is pending in %s", args[0])
	}
	dir := h.CampaignDir(p.ID)
	ts.Check(os.MkdirAll(dir, 0o777))
	env := fmt.Sprintf("N=%d\nDEPTH=3\nSEED=%d\nMASK=/cliff/known.mask\nPROFILE=x86_64\n", p.Cases, p.Seed)
	ts.Check(os.WriteFile(filepath.Join(dir, "campaign.env"), []byte(env), 0o666))
	if len(args) == 1 {
		ts.Check(os.WriteFile(filepath.Join(dir, "finished"), nil, 0o666))
	}
}
