package scripttest

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// ReadmePath is the README whose synopses CheckSynopsis reads, from a
// command's directory (cmd/<tool>), where go test runs its tests.
const ReadmePath = "../../README.md"

// CheckSynopsis checks the README's synopsis of app (the lines of a code
// block that start with its name and are no pipe, with their continuation
// lines) against its flags: every flag the synopsis names exists, and every
// flag --help shows appears in it. A placeholder such as --no-PASS stands
// for every flag it begins.
func CheckSynopsis(t *testing.T, app *cli.App) {
	t.Helper()
	readme, err := os.ReadFile(ReadmePath)
	if err != nil {
		t.Fatal(err)
	}
	syn := Synopsis(string(readme), app.Name)
	if len(syn) == 0 {
		t.Fatalf("README.md has no synopsis of %s", app.Name)
	}
	named := synopsisFlags(syn)
	flags := appFlags(app)
	for _, n := range named {
		if !slices.ContainsFunc(flags, func(f cli.Flag) bool { return namedBy(f, n) }) {
			t.Errorf("README.md's synopsis of %s names --%s, which it does not have", app.Name, n)
		}
	}
	for _, f := range flags {
		if v, ok := f.(cli.VisibleFlag); ok && !v.IsVisible() {
			continue
		}
		if !slices.ContainsFunc(named, func(n string) bool { return namedBy(f, n) }) {
			t.Errorf("README.md's synopsis of %s lacks --%s", app.Name, f.Names()[0])
		}
	}
}

// Synopsis returns the README's synopsis lines of the tool name.
func Synopsis(readme, name string) []string {
	var out []string
	in := false
	for _, line := range strings.Split(readme, "\n") {
		switch {
		case strings.HasPrefix(line, "    "+name+" ") && !strings.Contains(line, " | cliff-") && !strings.Contains(line, "#"):
			in = true
			out = append(out, line)
		case in && strings.HasPrefix(strings.TrimLeft(line, " "), "[") && strings.HasPrefix(line, "     "):
			out = append(out, line)
		default:
			in = false
		}
	}
	return out
}

var flagRE = regexp.MustCompile(`(?:^|[\s\[|])--?([A-Za-z][A-Za-z0-9-]*)`)

func synopsisFlags(lines []string) []string {
	var out []string
	for _, l := range lines {
		for _, m := range flagRE.FindAllStringSubmatch(l, -1) {
			if !slices.Contains(out, m[1]) {
				out = append(out, m[1])
			}
		}
	}
	return out
}

// namedBy reports whether the synopsis name n (a flag name, or one ending
// in an upper-case placeholder) names f.
func namedBy(f cli.Flag, n string) bool {
	prefix, placeholder := n, false
	if i := strings.IndexFunc(n, func(r rune) bool { return r >= 'A' && r <= 'Z' }); i >= 0 {
		prefix, placeholder = n[:i], true
	}
	for _, name := range f.Names() {
		if name == n || placeholder && strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// appFlags is every flag of app and of its commands, help and version
// aside.
func appFlags(app *cli.App) []cli.Flag {
	var out []cli.Flag
	add := func(fs []cli.Flag) {
		for _, f := range fs {
			if n := f.Names()[0]; n != "help" && n != "version" {
				out = append(out, f)
			}
		}
	}
	add(app.Flags)
	var walk func([]*cli.Command)
	walk = func(cs []*cli.Command) {
		for _, c := range cs {
			add(c.Flags)
			walk(c.Subcommands)
		}
	}
	walk(app.Commands)
	return out
}
