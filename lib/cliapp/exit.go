package cliapp

import (
	"errors"
	"fmt"
	"strings"
)

// The exit statuses of every cliff tool, one meaning each. A signal that
// stops a tool gives 128 + the signal (lib/interrupt): 130 for SIGINT,
// 143 for SIGTERM.
const (
	ExitOK      = 0 // nothing found
	ExitFinding = 1 // a finding the user should look at
	ExitError   = 2 // bad usage, bad input, an I/O error or a bug in cliff
)

// exitTable is what each exit status means in every tool, the first
// column of each tool's "Exit status" paragraph (Exits.Help).
var exitTable = []struct{ code, meaning string }{
	{"0", "nothing found"},
	{"1", "a finding to look at"},
	{"2", "bad usage, bad input, an I/O error or a bug in cliff"},
	{"130, 143", "stopped by SIGINT or SIGTERM"},
}

// Exits says what the shared exit statuses mean in one tool: each field
// adds the tool's own detail to the shared meaning. A tool without
// findings of its own leaves Finding empty and never exits 1.
type Exits struct {
	OK      string // 0: what "nothing found" is here ("no new cluster")
	Finding string // 1: the finding ("some cluster is new"); empty: none
	Error   string // 2: the tool's examples ("invalid input, named as FILE: record N")
	Signal  string // 130, 143: what the tool leaves behind ("the records finished before are written")
}

// Help is the tool's "Exit status" paragraph for its --help, generated
// from the shared table and the tool's details.
func (e Exits) Help() string {
	var b strings.Builder
	b.WriteString("Exit status, the same in every cliff tool:\n")
	for i, row := range exitTable {
		detail := []string{e.OK, e.Finding, e.Error, e.Signal}[i]
		if i == 1 && detail == "" {
			continue
		}
		text := row.meaning
		if detail != "" {
			text += ": " + detail
		}
		for j, line := range wrap(text, helpWidth-helpIndent) {
			if j == 0 {
				fmt.Fprintf(&b, "  %-*s%s\n", helpIndent-2, row.code, line)
			} else {
				fmt.Fprintf(&b, "%*s%s\n", helpIndent, "", line)
			}
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

const (
	helpWidth  = 76 // the help text's lines, at most
	helpIndent = 12 // the meanings' column
)

// wrap breaks text into lines of at most width runes, at spaces.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		switch {
		case line == "":
			line = w
		case len([]rune(line))+1+len([]rune(w)) <= width:
			line += " " + w
		default:
			lines = append(lines, line)
			line = w
		}
	}
	return append(lines, line)
}

// ErrReported is the error of a run that failed and has said why already
// (on stdout or stderr): ExitError, and nothing more printed.
var ErrReported = errors.New("")

// Finding is the error of a run that found something for the user to
// look at: exit status 1, with msg as the one line on stderr (none when
// msg is empty, the tool having said it already).
func Finding(msg string) error { return findingError(msg) }

// Findingf is Finding with a formatted message.
func Findingf(format string, args ...any) error { return findingError(fmt.Sprintf(format, args...)) }

type findingError string

func (e findingError) Error() string { return string(e) }

// IsFinding reports whether err is (or wraps) a Finding.
func IsFinding(err error) bool {
	var f findingError
	return errors.As(err, &f)
}
