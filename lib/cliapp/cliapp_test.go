package cliapp

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// app is a tool with one flag whose action fails as told by --fail.
func app(stdout *bytes.Buffer) *cli.App {
	return &cli.App{
		Name:   "cliff-test",
		Writer: stdout,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "fail"},
			&cli.IntFlag{Name: "count", Aliases: []string{"n"}},
		},
		Action: func(c *cli.Context) error {
			switch c.String("fail") {
			case "plain":
				return errors.New("input.jsonl: record 3: bad")
			case "finding":
				return Findingf("%d of %d cases failed", 3, 10)
			case "wrapped":
				return fmt.Errorf("night 3: %w", Finding("2 clusters are new"))
			case "silent":
				return Finding("")
			case "reported":
				return ErrReported
			case "protocol":
				return cli.Exit("", 125)
			case "usage":
				return Usagef("-n %d: want a count of at least 0", c.Int("count"))
			}
			return nil
		},
	}
}

func TestRun(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		status     int
		stderr     string // exact
		stdoutHas  string
		stdoutNone bool
	}{
		{"ok", nil, 0, "", "", true},
		{"unknown flag: one line, exit 2, no help on stdout", []string{"--bogus"}, 2,
			"cliff-test: flag provided but not defined: -bogus (see --help)\n", "", true},
		{"missing value", []string{"--count"}, 2,
			"cliff-test: flag needs an argument: -count (see --help)\n", "", true},
		{"bad value", []string{"-n", "x"}, 2,
			"cliff-test: invalid value \"x\" for flag -n: parse error (see --help)\n", "", true},
		{"error printed once, prefixed", []string{"--fail", "plain"}, 2, "cliff-test: input.jsonl: record 3: bad\n", "", true},
		{"finding", []string{"--fail", "finding"}, 1, "cliff-test: 3 of 10 cases failed\n", "", true},
		{"wrapped finding", []string{"--fail", "wrapped"}, 1, "cliff-test: night 3: 2 clusters are new\n", "", true},
		{"empty message prints nothing", []string{"--fail", "silent"}, 1, "", "", true},
		{"an error said already", []string{"--fail", "reported"}, 2, "", "", true},
		{"an exit coder keeps its status (git bisect run's)", []string{"--fail", "protocol"}, 125, "", "", true},
		{"usage error of the tool", []string{"--fail", "usage", "-n", "-5"}, 2, "cliff-test: -n -5: want a count of at least 0\n", "", true},
		{"version", []string{"--version"}, 0, "", "cliff-test version " + Version(), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := Run(app(&stdout), Exits{}, append([]string{"cliff-test"}, tc.args...), &stderr)
			if status != tc.status {
				t.Errorf("status %d, want %d", status, tc.status)
			}
			if stderr.String() != tc.stderr {
				t.Errorf("stderr %q, want %q", stderr.String(), tc.stderr)
			}
			if tc.stdoutNone && stdout.Len() > 0 {
				t.Errorf("stdout %q, want nothing", stdout.String())
			}
			if !strings.Contains(stdout.String(), tc.stdoutHas) {
				t.Errorf("stdout %q, want %q in it", stdout.String(), tc.stdoutHas)
			}
		})
	}
}

func TestVersion(t *testing.T) {
	if v := Version(); v == "" || strings.ContainsAny(v, " \n") {
		t.Errorf("Version() = %q", v)
	}
}

// TestCPUProfile: CLIFF_CPUPROFILE=FILE makes a run write a CPU profile
// there, and a FILE that cannot be made is said on stderr without failing
// the run.
func TestCPUProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu.prof")
	t.Setenv("CLIFF_CPUPROFILE", path)
	var stdout, stderr bytes.Buffer
	if status := Run(app(&stdout), Exits{}, []string{"cliff-test"}, &stderr); status != 0 || stderr.Len() > 0 {
		t.Fatalf("status %d, stderr %q", status, stderr.String())
	}
	if info, err := os.Stat(path); err != nil || info.Size() == 0 {
		t.Errorf("no profile written to %s: %v", path, err)
	}
	t.Setenv("CLIFF_CPUPROFILE", filepath.Join(t.TempDir(), "no", "such", "dir", "cpu.prof"))
	stderr.Reset()
	if status := Run(app(&stdout), Exits{}, []string{"cliff-test"}, &stderr); status != 0 || !strings.Contains(stderr.String(), "cliff-test: CLIFF_CPUPROFILE: ") {
		t.Errorf("status %d, stderr %q; want 0 and the profile's error", status, stderr.String())
	}
}
