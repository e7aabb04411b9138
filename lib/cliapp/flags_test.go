package cliapp

import (
	"bytes"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// TestSharedFlags checks that the shared flags parse as every tool's
// users expect (-o and --output, stdout by default; --driver, empty by
// default so that driver.Find decides) and read the same in --help.
func TestSharedFlags(t *testing.T) {
	tests := []struct {
		args           []string
		output, driver string
	}{
		{nil, "-", ""},
		{[]string{"-o", "a.jsonl.zst"}, "a.jsonl.zst", ""},
		{[]string{"--output", "b.jsonl", "--driver", "/opt/cliff-driver"}, "b.jsonl", "/opt/cliff-driver"},
	}
	for _, tt := range tests {
		var output, driver string
		app := Prepare(&cli.App{Name: "cliff-test", Flags: []cli.Flag{OutputFlag(&output, "cases"), DriverFlag(&driver, "for --survival")}, Action: func(*cli.Context) error { return nil }}, Exits{})
		if err := app.Run(append([]string{"cliff-test"}, tt.args...)); err != nil {
			t.Fatalf("%v: %v", tt.args, err)
		}
		if output != tt.output || driver != tt.driver {
			t.Errorf("%v: output %q, driver %q; want %q, %q", tt.args, output, driver, tt.output, tt.driver)
		}
	}
	var help bytes.Buffer
	var output, driver string
	app := Prepare(&cli.App{Name: "cliff-test", Writer: &help, Flags: []cli.Flag{OutputFlag(&output, "records"), DriverFlag(&driver, "")}}, Exits{})
	if err := app.Run([]string{"cliff-test", "--help"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"--output FILE, -o FILE  write records to FILE (zstd-compressed if it ends in .zst; - is stdout) (default: \"-\")",
		"--driver PATH           PATH of cliff-driver (default: $CLIFF_DRIVER, else cliff-driver beside this tool, else on $PATH)",
	} {
		if !strings.Contains(help.String(), want) {
			t.Errorf("--help lacks %q:\n%s", want, help.String())
		}
	}
}
