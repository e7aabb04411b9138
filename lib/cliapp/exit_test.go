package cliapp

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// TestExitsHelp: the paragraph is the shared table with the tool's
// details, wrapped to the help's width; a tool without findings has no 1.
func TestExitsHelp(t *testing.T) {
	got := Exits{
		OK:      "no new cluster",
		Finding: "some cluster is new",
		Error:   "unreadable or invalid input is named as FILE: record N, and the verdicts read before it are still clustered and written",
	}.Help()
	want := `Exit status, the same in every cliff tool:
  0         nothing found: no new cluster
  1         a finding to look at: some cluster is new
  2         bad usage, bad input, an I/O error or a bug in cliff: unreadable
            or invalid input is named as FILE: record N, and the verdicts
            read before it are still clustered and written
  130, 143  stopped by SIGINT or SIGTERM`
	if got != want {
		t.Errorf("Help():\n%s\nwant:\n%s", got, want)
	}
	for _, line := range strings.Split(got, "\n") {
		if len(line) > helpWidth {
			t.Errorf("line longer than %d: %q", helpWidth, line)
		}
	}
	none := Exits{OK: "done"}.Help()
	if strings.Contains(none, "\n  1 ") || !strings.Contains(none, "\n  2         bad usage") {
		t.Errorf("a tool without findings:\n%s", none)
	}
}

// TestHelpEndsWithExits: Run puts the paragraph at the end of the tool's
// description, after the tool's own text.
func TestHelpEndsWithExits(t *testing.T) {
	var help bytes.Buffer
	app := &cli.App{Name: "cliff-test", Writer: &help, Description: "Does a thing.\n"}
	exits := Exits{OK: "done"}
	if status := Run(app, exits, []string{"cliff-test", "--help"}, &bytes.Buffer{}); status != 0 {
		t.Fatalf("status %d", status)
	}
	if !strings.Contains(help.String(), "Does a thing.\n\n   Exit status, the same in every cliff tool:\n     0         nothing found: done\n") {
		t.Errorf("--help:\n%s", help.String())
	}
}

// TestCommandsShareTheContract reads every command's main.go: each runs
// through Run with its Exits (so that its --help ends with the generated
// paragraph), and none keeps an exit status of its own: no hand-written
// "Exit status" paragraph, no exit constants, no cli.Exit but
// cliff-cranelift's bisect-step (git bisect run's protocol), and no flag
// read by its name (c.Bool("stats") reads false when the flag is
// --summary).
func TestCommandsShareTheContract(t *testing.T) {
	mains, err := filepath.Glob("../../cmd/*/main.go")
	if err != nil || len(mains) < 10 {
		t.Fatalf("commands: %v (%d found)", err, len(mains))
	}
	byName := regexp.MustCompile(`\bc\.(Bool|String|Int|Int64|Uint64|Float64|Duration|StringSlice|IntSlice|Timestamp|Generic|Path)\("`)
	for _, path := range mains {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		if !regexp.MustCompile(`cliapp\.Run\(app\([^)]*\), exits,`).MatchString(src) || !strings.Contains(src, "cliapp.Exits{") {
			t.Errorf("%s: does not run through cliapp.Run with its exits", path)
		}
		if strings.Contains(src, "Exit status:") {
			t.Errorf("%s: a hand-written Exit status paragraph (Exits.Help makes it)", path)
		}
		if m := regexp.MustCompile(`(?m)^\s*exit[A-Z]\w* += `).FindString(src); m != "" {
			t.Errorf("%s: an exit constant of its own: %q", path, strings.TrimSpace(m))
		}
		if n := strings.Count(src, "cli.Exit("); n > 0 && !(strings.Contains(path, "/cranelift/") && n == 1) {
			t.Errorf("%s: %d cli.Exit calls (return the error, a cliapp.Finding or cliapp.ErrReported)", path, n)
		}
		if m := byName.FindString(src); m != "" {
			t.Errorf("%s: a flag read by name (%s...): read it through its Destination", path, m)
		}
		if strings.Contains(src, `"stats"`) {
			t.Errorf(`%s: "stats": the flag is --summary in every tool`, path)
		}
	}
}
